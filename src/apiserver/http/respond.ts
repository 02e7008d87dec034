import type { ServerResponse } from 'node:http';
import { errors, StatusError } from '../../api/errors';
import { Status } from '../../api/meta';
import { isListBody, jsonBytes, listBytes } from '../serialized';

/**
 * Every JSON answer carries Content-Type application/json: kubectl decodes anything else
 * (or nothing) as protobuf and fails. Stored objects, alone or in a list, are written from
 * their cached bytes (../serialized).
 */
export function writeJSON(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  const bytes = isListBody(body) ? listBytes(body) : jsonBytes(body);
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': bytes.length });
  res.end(bytes);
}

export function writeStatus(res: ServerResponse, status: Status): void {
  writeJSON(res, status.code, status);
}

/** A thrown error as the Status kubectl prints; anything not a StatusError is a 500. */
export function toStatusError(e: unknown): StatusError {
  if (e instanceof StatusError) return e;
  return errors.internal((e as Error)?.message ?? String(e));
}

export function writeError(res: ServerResponse, e: unknown): void {
  const err = toStatusError(e);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeStatus(res, err.status);
}

/** upstream's answer for an unknown path: 404 NotFound "the server could not find the requested resource". */
export function pageNotFound() {
  const e = errors.notFound({ kind: '', name: '' });
  e.status.message = 'the server could not find the requested resource';
  e.status.details = { causes: [{ reason: 'UnexpectedServerResponse', message: '404 page not found' }] };
  return e;
}

/**
 * upstream's answer for a method a path's routes do not serve (DELETE on /api/v1/namespaces,
 * POST to an object): go-restful's plain-text "405: Method Not Allowed" (RouterJSR311/
 * CurlyRouter), which client-go turns into 405 MethodNotAllowed "the server does not allow
 * this method on the requested resource" (NewGenericServerResponse) — seen on v1.32.13.
 */
export function methodNotAllowed() {
  const e = errors.methodNotSupported({ kind: '' }, '');
  e.status.message = 'the server does not allow this method on the requested resource';
  e.status.details = { causes: [{ reason: 'UnexpectedServerResponse', message: '405: Method Not Allowed' }] };
  return e;
}
