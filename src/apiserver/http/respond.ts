import type { ServerResponse } from 'node:http';
import { errors, StatusError } from '../../api/errors';
import { Status } from '../../api/meta';

/**
 * Every JSON answer carries Content-Type application/json: kubectl decodes anything else
 * (or nothing) as protobuf and fails.
 */
export function writeJSON(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
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
