import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '../../api/errors';
import { loadKubernetesYaml } from '../../api/yaml';
import { ResourceType } from '../../api/registry';
import { DeleteOptions, PatchType } from '../../api/request';
import { unknownFields } from '../../api/resources/schema';
import { decodeProtobuf, PROTOBUF } from './protobuf';

/**
 * The bounds every request body meets before anything decodes it, as kube-apiserver
 * sets them: at most 3 MiB (upstream's MaxRequestBodyBytes, 413 past it), JSON nested at
 * most MAX_DEPTH levels (no built-in type nests deeper than ~20; upstream's typed decoding
 * would drop such a subtree, here it is refused so that nothing stored is too deep to
 * copy, compare or print), YAML aliases expanded at most MAX_YAML_NODES values (upstream's
 * sigs.k8s.io/yaml answers "excessive aliasing").
 */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
export const MAX_DEPTH = 100;
export const MAX_YAML_NODES = 100_000;

/** Reads a body up to limit bytes; past it, stops buffering (the rest is drained unread) and rejects with 413. */
/**
 * Reads a request body of at most `limit` bytes (413 past it) within `deadlineMs` of real
 * time (504 past it, as kube-apiserver's 60 s timeout filter answers a request whose body
 * never finishes): an unfinished body cannot hold its in-flight slot for ever.
 */
export function readLimited(req: IncomingMessage, limit = MAX_BODY_BYTES, deadlineMs = 60_000): Promise<Buffer> {
  return new Promise<Buffer>((resolveRead, rejectRead) => {
    // the network's time, not the cluster's: a timer on the socket's clock, never a sleep
    const timer = setTimeout(() => {
      over = true;
      chunks.length = 0;
      rejectRead(errors.timeout('request did not complete within requested timeout - context deadline exceeded'));
    }, deadlineMs).unref();
    const resolve = (b: Buffer) => {
      clearTimeout(timer);
      resolveRead(b);
    };
    const reject = (e: unknown) => {
      clearTimeout(timer);
      rejectRead(e);
    };
    const tooLarge = () => errors.requestEntityTooLarge(`limit is ${limit}`);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      return reject(tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
    req.on('aborted', () => reject(errors.badRequest('the request body was not sent completely')));
  });
}

/** How deep brackets nest in a JSON text (outside strings), stopping early past max. */
export function jsonDepthExceeds(text: string, max = MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Walks a decoded YAML value as JSON would expand it (an alias counts each time it is
 * reached), failing past the node or depth budget; cycles exhaust the budget too.
 */
function checkExpansion(value: unknown): void {
  let nodes = 0;
  const walk = (v: unknown, depth: number) => {
    if (++nodes > MAX_YAML_NODES)
      throw errors.badRequest('error decoding YAML: yaml: document contains excessive aliasing');
    if (depth > MAX_DEPTH)
      throw errors.badRequest(`error decoding YAML: the object nests more than ${MAX_DEPTH} levels`);
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], depth + 1);
  };
  walk(value, 0);
}

/** A JSON (or, when allowed, YAML) body, within the bounds above; 400 otherwise. */
export function parseBody(raw: string, allowYaml: boolean): unknown {
  if (raw.trim() === '') throw errors.badRequest('the request body is empty');
  if (jsonDepthExceeds(raw)) throw errors.badRequest(`the object nests more than ${MAX_DEPTH} levels`);
  try {
    return JSON.parse(raw);
  } catch (e) {
    if (allowYaml) {
      let value: unknown;
      try {
        // YAML 1.1 as sigs.k8s.io/yaml reads it (src/api/yaml.ts).
        value = loadKubernetesYaml(raw);
      } catch (ye) {
        throw errors.badRequest(`error decoding YAML: ${(ye as Error).message}`);
      }
      checkExpansion(value);
      // Aliases are shared references: one JSON round trip makes every value its own.
      return JSON.parse(JSON.stringify(value));
    }
    throw errors.badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

/** A query parameter that must be an integer (timeoutSeconds, gracePeriodSeconds…), as upstream's conversion checks. */
export function intParam(q: URLSearchParams, name: string, min?: number): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!/^-?\d+$/.test(v)) throw errors.badRequest(`${name}: Invalid value: "${v}": must be an integer`);
  // the parameter codec parses into an int64: past its range strconv.ParseInt fails, a 400
  if (BigInt(v) > 2n ** 63n - 1n || BigInt(v) < -(2n ** 63n))
    throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  const n = Number(v);
  if (min !== undefined && n < min)
    throw errors.badRequest(`${name}: Invalid value: ${n}: must be greater than or equal to ${min}`);
  return n;
}

/** A resourceVersion query parameter: "" or a non-negative integer (etcd revisions); 400 otherwise. */
export function resourceVersionParam(q: URLSearchParams): string | undefined {
  const v = q.get('resourceVersion');
  if (v === null || v === '') return undefined;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw errors.badRequest(`resourceVersion: Invalid value: "${v}": invalid resource version`);
  return v;
}

export const PATCH_TYPES: Record<string, PatchType | 'apply'> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
};

export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** A request body by its Content-Type: JSON, YAML or protobuf; anything else 415. */
export async function decodeBody(req: IncomingMessage, raw: Buffer): Promise<unknown> {
  const type = mediaType(req.headers['content-type']);
  if (type === PROTOBUF) return decodeProtobuf(raw);
  if (type === '' || type === 'application/json' || type === 'application/yaml' || type === '*/*')
    return parseBody(raw.toString('utf8'), type === 'application/yaml');
  throw errors.unsupportedMediaType(
    `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
  );
}

/** DeleteOptions from the body, with ?gracePeriodSeconds and ?propagationPolicy on top. */
export async function deleteOptions(req: IncomingMessage, raw: Buffer, q: URLSearchParams): Promise<DeleteOptions> {
  let options: DeleteOptions = {};
  if (raw.length > 0) options = (await decodeBody(req, raw)) as DeleteOptions;
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw errors.badRequest('the body of a delete must be a DeleteOptions object');
  const grace = intParam(q, 'gracePeriodSeconds');
  if (grace !== undefined) options = { ...options, gracePeriodSeconds: grace };
  const policy = q.get('propagationPolicy');
  if (policy) options = { ...options, propagationPolicy: policy as DeleteOptions['propagationPolicy'] };
  return options;
}

/**
 * ?fieldValidation on create and update (upstream's since v1.27): unknown fields are dropped
 * (Ignore), dropped with a Warning header each (Warn, the default), or refused with 400
 * (Strict). Checked at the object's top level and in metadata.
 */
export function fieldValidation(rt: ResourceType, q: URLSearchParams, res: ServerResponse, obj: unknown): unknown {
  const mode = q.get('fieldValidation') ?? 'Warn';
  if (!['Ignore', 'Warn', 'Strict'].includes(mode)) {
    throw errors.badRequest(`fieldValidation: Invalid value: "${mode}": must be one of Ignore, Warn, Strict`);
  }
  const unknown = mode === 'Ignore' ? [] : unknownFields(rt.kind, obj);
  if (unknown.length === 0) return obj;
  if (mode === 'Strict')
    throw errors.badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  res.setHeader(
    'Warning',
    unknown.map((f) => `299 - "unknown field \\"${f}\\""`),
  );
  return obj;
}

/** Whether a request carries a body (declared length or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}
