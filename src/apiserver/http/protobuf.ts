import { errors } from '../../api/errors';

/**
 * The Kubernetes protobuf envelope, decoded just far enough for the bodies kubectl sends
 * in protobuf whatever its flags say: the objects of `kubectl create <kind>` (see MESSAGES)
 * and the DeleteOptions of drain's DELETE fallback. Layout: the magic "k8s\0", then a
 * runtime.Unknown {1 typeMeta {1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding, 4 contentType};
 * field numbers from the generated.proto files of k8s.io/api and k8s.io/apimachinery.
 * Kept in one file: one decoder, its wire reader and the message table it walks.
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
const strings = (fs: Field[], no: number) =>
  fs.filter((f) => f.no === no && f.bytes).map((f) => f.bytes!.toString('utf8'));

/**
 * Messages by field number, from the generated.proto files of k8s.io/api (core/v1,
 * batch/v1, rbac/v1) and k8s.io/apimachinery (meta/v1, resource, intstr): enough for every
 * body kubectl sends in protobuf (create namespace|secret|serviceaccount|role|clusterrole|
 * rolebinding|clusterrolebinding|quota|job|service, drain's DeleteOptions). A field number
 * not listed is skipped, as a proto3 decoder skips unknown fields.
 */
type PType =
  | 'string'
  | 'int'
  | 'int0'
  | 'bool'
  | 'bytes'
  | 'time'
  | 'quantity'
  | 'intOrString'
  | Message
  | { map: 'string' | 'bytes' | 'quantity' };
interface PField {
  name: string;
  type: PType;
  repeated?: boolean;
}
interface Message {
  [no: number]: PField;
}

const f = (name: string, type: PType, repeated = false): PField => ({ name, type, repeated });
const STRINGS = (name: string) => f(name, 'string', true);

const OwnerReference: Message = {
  1: f('kind', 'string'),
  3: f('name', 'string'),
  4: f('uid', 'string'),
  5: f('apiVersion', 'string'),
  6: f('controller', 'bool'),
  7: f('blockOwnerDeletion', 'bool'),
};
const ObjectMeta: Message = {
  1: f('name', 'string'),
  2: f('generateName', 'string'),
  3: f('namespace', 'string'),
  5: f('uid', 'string'),
  6: f('resourceVersion', 'string'),
  7: f('generation', 'int0'),
  11: f('labels', { map: 'string' }),
  12: f('annotations', { map: 'string' }),
  13: f('ownerReferences', OwnerReference, true),
  14: STRINGS('finalizers'),
};
const LabelSelector: Message = {
  1: f('matchLabels', { map: 'string' }),
  2: f('matchExpressions', { 1: f('key', 'string'), 2: f('operator', 'string'), 3: STRINGS('values') }, true),
};
const ResourceRequirements: Message = { 1: f('limits', { map: 'quantity' }), 2: f('requests', { map: 'quantity' }) };
const Container: Message = {
  1: f('name', 'string'),
  2: f('image', 'string'),
  3: STRINGS('command'),
  4: STRINGS('args'),
  5: f('workingDir', 'string'),
  6: f(
    'ports',
    {
      1: f('name', 'string'),
      2: f('hostPort', 'int0'),
      3: f('containerPort', 'int'),
      4: f('protocol', 'string'),
      5: f('hostIP', 'string'),
    },
    true,
  ),
  7: f('env', { 1: f('name', 'string'), 2: f('value', 'string') }, true),
  8: f('resources', ResourceRequirements),
  13: f('terminationMessagePath', 'string'),
  14: f('imagePullPolicy', 'string'),
  16: f('stdin', 'bool'),
  17: f('stdinOnce', 'bool'),
  18: f('tty', 'bool'),
  20: f('terminationMessagePolicy', 'string'),
};
const Toleration: Message = {
  1: f('key', 'string'),
  2: f('operator', 'string'),
  3: f('value', 'string'),
  4: f('effect', 'string'),
  5: f('tolerationSeconds', 'int'),
};
const PodSpec: Message = {
  2: f('containers', Container, true),
  3: f('restartPolicy', 'string'),
  4: f('terminationGracePeriodSeconds', 'int'),
  5: f('activeDeadlineSeconds', 'int'),
  6: f('dnsPolicy', 'string'),
  7: f('nodeSelector', { map: 'string' }),
  8: f('serviceAccountName', 'string'),
  9: f('serviceAccount', 'string'),
  10: f('nodeName', 'string'),
  11: f('hostNetwork', 'bool'),
  15: f('imagePullSecrets', { 1: f('name', 'string') }, true),
  16: f('hostname', 'string'),
  17: f('subdomain', 'string'),
  19: f('schedulerName', 'string'),
  20: f('initContainers', Container, true),
  21: f('automountServiceAccountToken', 'bool'),
  22: f('tolerations', Toleration, true),
  24: f('priorityClassName', 'string'),
  25: f('priority', 'int'),
};
const PodTemplateSpec: Message = { 1: f('metadata', ObjectMeta), 2: f('spec', PodSpec) };
const PolicyRule: Message = {
  1: STRINGS('verbs'),
  2: STRINGS('apiGroups'),
  3: STRINGS('resources'),
  4: STRINGS('resourceNames'),
  5: STRINGS('nonResourceURLs'),
};
const Subject: Message = {
  1: f('kind', 'string'),
  2: f('apiGroup', 'string'),
  3: f('name', 'string'),
  4: f('namespace', 'string'),
};
const RoleRef: Message = { 1: f('apiGroup', 'string'), 2: f('kind', 'string'), 3: f('name', 'string') };
const ObjectReference: Message = {
  1: f('kind', 'string'),
  2: f('namespace', 'string'),
  3: f('name', 'string'),
  4: f('uid', 'string'),
  5: f('apiVersion', 'string'),
  6: f('resourceVersion', 'string'),
  7: f('fieldPath', 'string'),
};
const ServicePort: Message = {
  1: f('name', 'string'),
  2: f('protocol', 'string'),
  3: f('port', 'int'),
  4: f('targetPort', 'intOrString'),
  5: f('nodePort', 'int0'),
  6: f('appProtocol', 'string'),
};

const MESSAGES: Record<string, Message> = {
  'v1/Namespace': { 1: f('metadata', ObjectMeta), 2: f('spec', { 1: STRINGS('finalizers') }) },
  'v1/Secret': {
    1: f('metadata', ObjectMeta),
    2: f('data', { map: 'bytes' }),
    3: f('type', 'string'),
    4: f('stringData', { map: 'string' }),
    5: f('immutable', 'bool'),
  },
  'v1/ConfigMap': {
    1: f('metadata', ObjectMeta),
    2: f('data', { map: 'string' }),
    3: f('binaryData', { map: 'bytes' }),
    4: f('immutable', 'bool'),
  },
  'v1/ServiceAccount': {
    1: f('metadata', ObjectMeta),
    2: f('secrets', ObjectReference, true),
    3: f('imagePullSecrets', { 1: f('name', 'string') }, true),
    4: f('automountServiceAccountToken', 'bool'),
  },
  'v1/ResourceQuota': {
    1: f('metadata', ObjectMeta),
    2: f('spec', { 1: f('hard', { map: 'quantity' }), 2: STRINGS('scopes') }),
  },
  'v1/Service': {
    1: f('metadata', ObjectMeta),
    2: f('spec', {
      1: f('ports', ServicePort, true),
      2: f('selector', { map: 'string' }),
      3: f('clusterIP', 'string'),
      4: f('type', 'string'),
      5: STRINGS('externalIPs'),
      7: f('sessionAffinity', 'string'),
      8: f('loadBalancerIP', 'string'),
      10: f('externalName', 'string'),
      11: f('externalTrafficPolicy', 'string'),
      18: STRINGS('clusterIPs'),
    }),
  },
  'v1/Pod': { 1: f('metadata', ObjectMeta), 2: f('spec', PodSpec) },
  'v1/ReplicationController': {
    1: f('metadata', ObjectMeta),
    2: f('spec', {
      1: f('replicas', 'int'),
      2: f('selector', { map: 'string' }),
      3: f('template', PodTemplateSpec),
      4: f('minReadySeconds', 'int'),
    }),
  },
  'batch/v1/Job': {
    1: f('metadata', ObjectMeta),
    2: f('spec', {
      1: f('parallelism', 'int'),
      2: f('completions', 'int'),
      3: f('activeDeadlineSeconds', 'int'),
      4: f('selector', LabelSelector),
      5: f('manualSelector', 'bool'),
      6: f('template', PodTemplateSpec),
      7: f('backoffLimit', 'int'),
      8: f('ttlSecondsAfterFinished', 'int'),
      9: f('completionMode', 'string'),
      10: f('suspend', 'bool'),
    }),
  },
  'rbac.authorization.k8s.io/v1/Role': { 1: f('metadata', ObjectMeta), 2: f('rules', PolicyRule, true) },
  'rbac.authorization.k8s.io/v1/ClusterRole': {
    1: f('metadata', ObjectMeta),
    2: f('rules', PolicyRule, true),
    3: f('aggregationRule', { 1: f('clusterRoleSelectors', LabelSelector, true) }),
  },
  'rbac.authorization.k8s.io/v1/RoleBinding': {
    1: f('metadata', ObjectMeta),
    2: f('subjects', Subject, true),
    3: f('roleRef', RoleRef),
  },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': {
    1: f('metadata', ObjectMeta),
    2: f('subjects', Subject, true),
    3: f('roleRef', RoleRef),
  },
};

function scalar(field: Field, type: PType): unknown {
  switch (type) {
    case 'string':
      return str(field);
    case 'bytes':
      return field.bytes?.toString('base64');
    case 'int':
      return field.varint !== undefined ? Number(BigInt.asIntN(64, field.varint)) : undefined;
    // A Go int with omitempty: always on the wire, absent from the JSON when 0.
    case 'int0':
      return field.varint !== undefined && field.varint !== 0n ? Number(BigInt.asIntN(64, field.varint)) : undefined;
    case 'bool':
      return field.varint !== undefined ? field.varint !== 0n : undefined;
    case 'quantity':
      return field.bytes ? (str(fields(field.bytes).find((x) => x.no === 1)) ?? '0') : undefined;
    case 'intOrString': {
      if (!field.bytes) return undefined;
      const p = fields(field.bytes);
      const t = p.find((x) => x.no === 1)?.varint ?? 0n;
      return t === 1n
        ? (str(p.find((x) => x.no === 3)) ?? '')
        : Number(BigInt.asIntN(32, p.find((x) => x.no === 2)?.varint ?? 0n));
    }
    case 'time': {
      if (!field.bytes) return undefined;
      const secs = fields(field.bytes).find((x) => x.no === 1)?.varint ?? 0n;
      return new Date(Number(secs) * 1000).toISOString().replace('.000Z', 'Z');
    }
    default:
      return undefined;
  }
}

/** Decodes one message by its schema; proto3 zero values are omitted, as the JSON of Go's omitempty. */
function decodeMessage(buf: Buffer, schema: Message): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields(buf)) {
    const spec = schema[field.no];
    if (!spec) continue;
    const t = spec.type;
    let value: unknown;
    if (typeof t === 'object' && 'map' in t) {
      if (!field.bytes) continue;
      const e = fields(field.bytes);
      const k = str(e.find((x) => x.no === 1)) ?? '';
      const v = e.find((x) => x.no === 2);
      const m = (out[spec.name] ??= {}) as Record<string, unknown>;
      m[k] =
        t.map === 'string'
          ? (str(v) ?? '')
          : t.map === 'bytes'
            ? (v?.bytes?.toString('base64') ?? '')
            : v
              ? scalar(v, 'quantity')
              : '0';
      continue;
    }
    if (typeof t === 'object') {
      if (!field.bytes) continue;
      value = decodeMessage(field.bytes, t);
      if (!spec.repeated && Object.keys(value as object).length === 0) continue; // an empty sub-message is the JSON's absent field
    } else if (spec.repeated && t === 'string' && field.bytes) {
      value = field.bytes.toString('utf8');
    } else {
      value = scalar(field, t);
    }
    if (value === undefined) continue;
    if (spec.repeated) ((out[spec.name] ??= []) as unknown[]).push(value);
    else out[spec.name] = value;
  }
  // Go's omitempty: empty strings and false are absent in the JSON form.
  for (const [k, v] of Object.entries(out)) if (v === '' || v === false) delete out[k];
  return out;
}

function deleteOptions(buf: Buffer): Record<string, unknown> {
  const fs = fields(buf);
  const out: Record<string, unknown> = {};
  const grace = fs.find((f) => f.no === 1 && f.varint !== undefined);
  if (grace) out.gracePeriodSeconds = Number(BigInt.asIntN(64, grace.varint!));
  const pre = fs.find((f) => f.no === 2);
  if (pre?.bytes) {
    const p = fields(pre.bytes);
    out.preconditions = {
      uid: nonEmpty(str(p.find((f) => f.no === 1))),
      resourceVersion: nonEmpty(str(p.find((f) => f.no === 2))),
    };
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
    return Object.fromEntries(
      Object.entries(names)
        .map(([no, name]) => [name, nonEmpty(str(fs.find((f) => f.no === Number(no))))])
        .filter(([, v]) => v !== undefined),
    );
  };
  for (const f of spec ? fields(spec) : []) {
    if (f.no === 1 && f.bytes)
      out.resourceAttributes = strs(f.bytes, {
        1: 'namespace',
        2: 'verb',
        3: 'group',
        4: 'version',
        5: 'resource',
        6: 'subresource',
        7: 'name',
      });
    if (f.no === 2 && f.bytes) out.nonResourceAttributes = strs(f.bytes, { 1: 'path', 2: 'verb' });
  }
  return { metadata: {}, spec: out };
}

const DECODERS: Record<string, (buf: Buffer) => Record<string, unknown>> = {
  ...Object.fromEntries(Object.entries(MESSAGES).map(([k, m]) => [k, (buf: Buffer) => decodeMessage(buf, m)])),
  'authorization.k8s.io/v1/SelfSubjectAccessReview': selfSubjectAccessReview,
  'v1/DeleteOptions': deleteOptions,
  'meta.k8s.io/v1/DeleteOptions': deleteOptions,
};

/** Decodes a protobuf body into the JSON object it stands for, or answers 415. */
export function decodeProtobuf(body: Buffer): Record<string, unknown> {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) {
    throw errors.unsupportedMediaType(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
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
      throw errors.unsupportedMediaType(
        `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (protobuf is decoded for ${Object.keys(DECODERS).join(', ')}; got ${apiVersion}/${kind})`,
      );
    }
    return { apiVersion, kind, ...decode(raw) };
  } catch (e) {
    if (e instanceof Error && !('status' in e)) throw errors.badRequest(`unable to decode protobuf body: ${e.message}`);
    throw e;
  }
}
