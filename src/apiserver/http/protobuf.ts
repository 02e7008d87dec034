import { errors } from '../../api/errors';

/**
 * The Kubernetes protobuf envelope, decoded just far enough for the bodies kubectl sends
 * in protobuf whatever its flags say: `kubectl create namespace` (a Namespace) and the
 * DeleteOptions of drain's DELETE fallback. Layout: the magic "k8s\0", then a
 * runtime.Unknown {1 typeMeta {1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding, 4 contentType};
 * field numbers from the generated.proto files of k8s.io/api and k8s.io/apimachinery.
 */
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

interface Field {
  no: number;
  wire: number;
  varint?: bigint;
  bytes?: Buffer;
}

function readVarint(buf: Buffer, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const b = buf[pos++];
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7n;
    if (shift > 63n) throw new Error('varint too long');
  }
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, p1] = readVarint(buf, pos);
    pos = p1;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, p2] = readVarint(buf, pos);
      out.push({ no, wire, varint: v });
      pos = p2;
    } else if (wire === 2) {
      const [len, p2] = readVarint(buf, pos);
      const end = p2 + Number(len);
      if (end > buf.length) throw new Error('truncated field');
      out.push({ no, wire, bytes: buf.subarray(p2, end) });
      pos = end;
    } else if (wire === 1) {
      out.push({ no, wire, bytes: buf.subarray(pos, pos + 8) });
      pos += 8;
    } else if (wire === 5) {
      out.push({ no, wire, bytes: buf.subarray(pos, pos + 4) });
      pos += 4;
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
  return out;
}

const str = (f: Field | undefined) => (f?.bytes ? f.bytes.toString('utf8') : undefined);
const nonEmpty = (s: string | undefined) => (s ? s : undefined);
const strings = (fs: Field[], no: number) => fs.filter((f) => f.no === no && f.bytes).map((f) => f.bytes!.toString('utf8'));

function map(fs: Field[], no: number): Record<string, string> | undefined {
  const entries = fs.filter((f) => f.no === no && f.bytes).map((f) => {
    const e = fields(f.bytes!);
    return [str(e.find((x) => x.no === 1)) ?? '', str(e.find((x) => x.no === 2)) ?? ''] as const;
  });
  return entries.length ? Object.fromEntries(entries) : undefined;
}

function objectMeta(buf: Buffer): Record<string, unknown> {
  const fs = fields(buf);
  const one = (no: number) => nonEmpty(str(fs.find((f) => f.no === no)));
  const meta: Record<string, unknown> = {
    name: one(1),
    generateName: one(2),
    namespace: one(3),
    resourceVersion: one(6),
    labels: map(fs, 11),
    annotations: map(fs, 12),
  };
  const finalizers = strings(fs, 14);
  if (finalizers.length) meta.finalizers = finalizers;
  return Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined));
}

function namespace(buf: Buffer): Record<string, unknown> {
  const fs = fields(buf);
  const meta = fs.find((f) => f.no === 1);
  const spec = fs.find((f) => f.no === 2);
  const finalizers = spec?.bytes ? strings(fields(spec.bytes), 1) : [];
  return { metadata: meta?.bytes ? objectMeta(meta.bytes) : {}, ...(finalizers.length ? { spec: { finalizers } } : {}) };
}

function deleteOptions(buf: Buffer): Record<string, unknown> {
  const fs = fields(buf);
  const out: Record<string, unknown> = {};
  const grace = fs.find((f) => f.no === 1 && f.varint !== undefined);
  if (grace) out.gracePeriodSeconds = Number(BigInt.asIntN(64, grace.varint!));
  const pre = fs.find((f) => f.no === 2);
  if (pre?.bytes) {
    const p = fields(pre.bytes);
    out.preconditions = { uid: nonEmpty(str(p.find((f) => f.no === 1))), resourceVersion: nonEmpty(str(p.find((f) => f.no === 2))) };
  }
  const orphan = fs.find((f) => f.no === 3 && f.varint !== undefined);
  if (orphan) out.orphanDependents = orphan.varint !== 0n;
  const policy = nonEmpty(str(fs.find((f) => f.no === 4)));
  if (policy) out.propagationPolicy = policy;
  const dryRun = strings(fs, 5);
  if (dryRun.length) out.dryRun = dryRun;
  return out;
}

/** SelfSubjectAccessReview {2 spec {1 resourceAttributes {1 namespace, 2 verb, 3 group, 4 version, 5 resource, 6 subresource, 7 name}, 2 nonResourceAttributes {1 path, 2 verb}}}: what `kubectl auth can-i` sends. */
function selfSubjectAccessReview(buf: Buffer): Record<string, unknown> {
  const spec = fields(buf).find((f) => f.no === 2)?.bytes;
  const out: Record<string, unknown> = {};
  const strs = (b: Buffer, names: Record<number, string>) => {
    const fs = fields(b);
    return Object.fromEntries(Object.entries(names).map(([no, name]) => [name, nonEmpty(str(fs.find((f) => f.no === Number(no))))]).filter(([, v]) => v !== undefined));
  };
  for (const f of spec ? fields(spec) : []) {
    if (f.no === 1 && f.bytes) out.resourceAttributes = strs(f.bytes, { 1: 'namespace', 2: 'verb', 3: 'group', 4: 'version', 5: 'resource', 6: 'subresource', 7: 'name' });
    if (f.no === 2 && f.bytes) out.nonResourceAttributes = strs(f.bytes, { 1: 'path', 2: 'verb' });
  }
  return { metadata: {}, spec: out };
}

const DECODERS: Record<string, (buf: Buffer) => Record<string, unknown>> = {
  'authorization.k8s.io/v1/SelfSubjectAccessReview': selfSubjectAccessReview,
  'v1/Namespace': namespace,
  'v1/DeleteOptions': deleteOptions,
  'meta.k8s.io/v1/DeleteOptions': deleteOptions,
};

/** Decodes a protobuf body into the JSON object it stands for, or answers 415. */
export function decodeProtobuf(body: Buffer): Record<string, unknown> {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) {
    throw errors.unsupportedMediaType('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  }
  let apiVersion = '';
  let kind = '';
  let raw: Buffer | undefined;
  try {
    for (const f of fields(body.subarray(4))) {
      if (f.no === 1 && f.bytes) {
        const tm = fields(f.bytes);
        apiVersion = str(tm.find((x) => x.no === 1)) ?? '';
        kind = str(tm.find((x) => x.no === 2)) ?? '';
      } else if (f.no === 2 && f.bytes) raw = f.bytes;
    }
    const decode = DECODERS[`${apiVersion}/${kind}`];
    if (!decode || !raw) {
      throw errors.unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (protobuf is decoded for ${Object.keys(DECODERS).join(', ')}; got ${apiVersion}/${kind})`);
    }
    return { apiVersion, kind, ...decode(raw) };
  } catch (e) {
    if (e instanceof Error && !('status' in e)) throw errors.badRequest(`unable to decode protobuf body: ${e.message}`);
    throw e;
  }
}
