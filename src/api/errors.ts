import { Status, StatusCause } from './meta';

/**
 * A Kubernetes API error: carries the Status the API server returns, so every layer
 * (in-process client, HTTP, kubectl) sees the same code, reason and message.
 */
export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message ?? status.reason ?? `status ${status.code}`);
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string | undefined {
    return this.status.reason;
  }
}

export function isStatusError(e: unknown, reason?: string): e is StatusError {
  return e instanceof StatusError && (reason === undefined || e.status.reason === reason);
}

/** The cause the NamespaceLifecycle plugin gives a write into a namespace being deleted (v1.NamespaceTerminatingCause). */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/**
 * A write refused because its namespace is being deleted (Forbidden with the
 * NamespaceTerminating cause): controllers drop it, as upstream's do, instead of retrying.
 */
export function isNamespaceTerminating(e: unknown): boolean {
  return (
    isStatusError(e, 'Forbidden') && !!e.status.details?.causes?.some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE)
  );
}

interface Target {
  group?: string;
  kind: string; // plural resource name as Kubernetes prints it in messages, e.g. "nodes"
  name?: string;
}

function qualified(t: Target): string {
  return t.group ? `${t.kind}.${t.group}` : t.kind;
}

function status(code: number, reason: string, message: string, details?: Status['details']): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    details,
    code,
  });
}

export const errors = {
  notFound: (t: Target) =>
    status(404, 'NotFound', `${qualified(t)} "${t.name}" not found`, { name: t.name, group: t.group, kind: t.kind }),
  alreadyExists: (t: Target) =>
    status(409, 'AlreadyExists', `${qualified(t)} "${t.name}" already exists`, {
      name: t.name,
      group: t.group,
      kind: t.kind,
    }),
  conflict: (t: Target, why: string) =>
    status(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(t)} "${t.name}": ${why}`, {
      name: t.name,
      group: t.group,
      kind: t.kind,
    }),
  /** kind here is the Kind (e.g. "Pod"), as upstream's NewInvalid prints it. */
  invalid: (kind: string, name: string, causes: StatusCause[], group?: string) =>
    status(
      422,
      'Invalid',
      `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)).join(', ')}`,
      { name, group, kind, causes },
    ),
  badRequest: (message: string) => status(400, 'BadRequest', message),
  forbidden: (t: Target, why: string) =>
    status(403, 'Forbidden', `${qualified(t)} "${t.name ?? ''}" is forbidden: ${why}`, {
      name: t.name,
      group: t.group,
      kind: t.kind,
    }),
  forbiddenMessage: (message: string, t?: Target) =>
    status(403, 'Forbidden', message, t ? { name: t.name, group: t.group, kind: t.kind } : undefined),
  unauthorized: (message = 'Unauthorized') => status(401, 'Unauthorized', message),
  gone: (message: string) => status(410, 'Expired', message),
  methodNotSupported: (t: Target, verb: string) =>
    status(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualified(t)}"`, {
      group: t.group,
      kind: t.kind,
    }),
  requestEntityTooLarge: (message: string) =>
    status(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`),
  notAcceptable: (message: string) => status(406, 'NotAcceptable', message),
  unsupportedMediaType: (message: string) => status(415, 'UnsupportedMediaType', message),
  tooManyRequests: (message: string, retryAfterSeconds = 1) =>
    status(429, 'TooManyRequests', message, { retryAfterSeconds }),
  internal: (message: string) => status(500, 'InternalError', `Internal error occurred: ${message}`),
  /** What ErrorToAPIStatus makes of an error that is not a Status: 500, reason Unknown (""). */
  unknown: (message: string) => status(500, '', message),
  serviceUnavailable: (message: string) => status(503, 'ServiceUnavailable', message),
  timeout: (message: string) => status(504, 'Timeout', message),
};

export function successStatus(details?: Status['details']): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details, code: 200 };
}
