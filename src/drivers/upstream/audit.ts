import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReadCounts } from '../../apiserver/audit';
import type { KubeObject } from '../../api/meta';
import type { RequestRef } from '../driver';

/**
 * kube-apiserver's own audit (k8s.io/apiserver/pkg/audit): a policy that records every
 * request's metadata, logged as JSON lines to a file in the control plane's scratch dir
 * (--audit-log-path, the log backend's default blocking mode: an event is written before
 * its request completes). The driver reads it back into the counts the steps judge.
 */

/**
 * The flags that turn the audit on, and the policy file they name. `lockBodies`: writes of
 * the leader locks in kube-system are logged with their request body (level Request), which
 * names the holder the writer put in: the only place an upstream candidate's identity shows
 * (hostname_uuid, made at start and logged nowhere; see lockIdentities).
 */
export function auditFlags(workDir: string, options: { lockBodies?: boolean } = {}): string[] {
  const bodies = Object.entries(KEPT_STATES).map(
    ([group, resources]) =>
      `      - { group: "${group}", resources: [${resources.flatMap((r) => [r, ...BODY_SUBRESOURCES.map((s) => `${r}/${s}`)]).join(', ')}] }`,
  );
  const policy = path.join(workDir, 'audit-policy.yaml');
  fs.writeFileSync(
    policy,
    [
      'apiVersion: audit.k8s.io/v1',
      'kind: Policy',
      // RequestReceived would count every request twice.
      'omitStages: [RequestReceived]',
      'rules:',
      ...(options.lockBodies
        ? [
            '  - level: Request',
            '    verbs: [create, update]',
            '    namespaces: [kube-system]',
            `    resources: [ { group: coordination.k8s.io, resources: [leases], resourceNames: [${LOCKS.join(', ')}] } ]`,
          ]
        : []),
      // The objects whose states objectStates replays: each write with the object it left.
      '  - level: RequestResponse',
      '    verbs: [create, update, patch, delete]',
      '    resources:',
      ...bodies,
      '  - level: Metadata',
      '',
    ].join('\n'),
  );
  return [`--audit-policy-file=${policy}`, `--audit-log-path=${auditLog(workDir)}`, '--audit-log-format=json'];
}

export function auditLog(workDir: string): string {
  return path.join(workDir, 'audit.log');
}

/** One audit.k8s.io/v1 Event, as far as the counts need it. */
interface AuditEvent {
  stage: string;
  verb: string;
  user?: { username?: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  requestURI?: string;
  responseStatus?: { code?: number };
  requestObject?: { spec?: { holderIdentity?: string } };
  responseObject?: KubeObject & { spec?: { finalizers?: string[] } };
  requestReceivedTimestamp?: string;
  stageTimestamp?: string;
}

/** The Leases kube-controller-manager and kube-scheduler elect their leader with (--leader-elect-resource-lock leases). */
const LOCKS = ['kube-controller-manager', 'kube-scheduler'] as const;

/**
 * The identity each leader lock was last taken or renewed with through this API server, by a
 * successful write (a refused one names a candidate that did not get it), from a log written
 * with `lockBodies`. upstream's candidates campaign as hostname_uuid
 * (cmd/kube-controller-manager/app Run, cmd/kube-scheduler/app/options Config), which no log
 * or endpoint tells: a candidate's identity is known once it has written its lock, and which
 * API server it wrote through tells whose it is. Undefined for a lock not written here.
 */
export function lockIdentities(workDir: string): { controllerManager?: string; scheduler?: string } {
  let text: string;
  try {
    text = fs.readFileSync(auditLog(workDir), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  const found: Record<string, string> = {};
  const lines = text.split('\n');
  lines.pop(); // the last line may still be being written
  for (const line of lines) {
    if (!line.includes('"leases"')) continue;
    const ev = JSON.parse(line) as AuditEvent;
    const ref = ev.objectRef;
    if (ev.stage !== 'ResponseComplete' || (ev.verb !== 'create' && ev.verb !== 'update')) continue;
    if (ref?.resource !== 'leases' || ref.namespace !== 'kube-system' || !ref.name) continue;
    if (!(LOCKS as readonly string[]).includes(ref.name)) continue;
    const code = ev.responseStatus?.code ?? 0;
    const holder = ev.requestObject?.spec?.holderIdentity;
    if (code >= 200 && code < 300 && holder) found[ref.name] = holder;
  }
  return { controllerManager: found['kube-controller-manager'], scheduler: found['kube-scheduler'] };
}

const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * When kube-apiserver received each successful `verb` of each of some objects since `from` (ms
 * since the epoch, from the event's requestReceivedTimestamp: microseconds, this machine's
 * clock), in the log's order, read in one pass. A request of a subresource (pods/status) is one
 * of the object's only where the ref names that subresource.
 */
export function requestTimes(workDir: string, from: number, verb: string, refs: readonly RequestRef[]): number[][] {
  const key = (r: RequestRef) => `${r.resource}/${r.namespace ?? ''}/${r.name}/${r.subresource ?? ''}`;
  const wanted = new Map(refs.map((r, i) => [key(r), i]));
  const times: number[][] = refs.map(() => []);
  const names = [...new Set(refs.map((r) => `"name":${JSON.stringify(r.name)}`))];
  const lines = readFrom(workDir, from).split('\n');
  lines.pop(); // the last line may still be being written
  for (const line of lines) {
    // Most lines are other requests: a cheap test before the parse.
    if (!names.some((n) => line.includes(n))) continue;
    const ev = JSON.parse(line) as AuditEvent;
    const r = ev.objectRef;
    if (ev.stage !== 'ResponseComplete' || ev.verb !== verb || !r?.resource || !r.name) continue;
    const i = wanted.get(
      key({ resource: r.resource, namespace: r.namespace, name: r.name, subresource: r.subresource }),
    );
    const code = ev.responseStatus?.code ?? 0;
    if (i !== undefined && code >= 200 && code < 300 && ev.requestReceivedTimestamp)
      times[i].push(Date.parse(ev.requestReceivedTimestamp));
  }
  return times;
}

/** The log from byte offset `from` on. */
function readFrom(workDir: string, from: number): string {
  const fd = fs.openSync(auditLog(workDir), 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    fs.readSync(fd, buf, 0, buf.length, from);
    return buf.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Where a reader left off in the log (a byte offset), so a scenario counts only its own requests. */
export function auditOffset(workDir: string): number {
  try {
    return fs.statSync(auditLog(workDir)).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
}

/**
 * Writes per user (every write request) and reads per user (get, list, watch of objects;
 * discovery and other non-resource paths are no reads of the cluster's state) since `from`.
 * A watch is counted once, when it starts (ResponseStarted; it completes much later); a
 * streaming list counts as a list and a watch.
 */
export function readAudit(
  workDir: string,
  from: number,
): {
  writesByUser: Record<string, number>;
  writesByUserResource: Record<string, Record<string, number>>;
  readsByUser: Record<string, ReadCounts>;
} {
  const text = readFrom(workDir, from);
  const writesByUser: Record<string, number> = {};
  const writesByUserResource: Record<string, Record<string, number>> = {};
  const readsByUser: Record<string, ReadCounts> = {};
  // The last line may still be being written: only whole lines count.
  const lines = text.split('\n');
  lines.pop();
  for (const line of lines) {
    if (!line) continue;
    const ev = JSON.parse(line) as AuditEvent;
    const user = ev.user?.username ?? 'system:anonymous';
    if (WRITES.has(ev.verb)) {
      if (ev.stage === 'ResponseComplete' || ev.stage === 'Panic') {
        writesByUser[user] = (writesByUser[user] ?? 0) + 1;
        const ref = ev.objectRef;
        if (ref?.resource) {
          const what = ref.subresource ? `${ref.resource}/${ref.subresource}` : ref.resource;
          const byResource = (writesByUserResource[user] ??= {});
          byResource[what] = (byResource[what] ?? 0) + 1;
        }
      }
      continue;
    }
    if (!ev.objectRef?.resource) continue;
    const verb = ev.verb === 'get' || ev.verb === 'list' || ev.verb === 'watch' ? ev.verb : undefined;
    if (!verb) continue;
    const counted = verb === 'watch' ? ev.stage === 'ResponseStarted' : ev.stage === 'ResponseComplete';
    if (!counted) continue;
    const c = (readsByUser[user] ??= { get: 0, list: 0, watch: 0 });
    c[verb]++;
    // A streaming list (KEP-3157: a watch with sendInitialEvents=true, which v1.32's
    // kube-controller-manager informers use, WatchListClient) is the informer's list and its watch in one.
    if (verb === 'watch' && /[?&]sendInitialEvents=true(&|$)/.test(ev.requestURI ?? '')) c.list++;
  }
  return { writesByUser, writesByUserResource, readsByUser };
}

/**
 * The resources (by API group) whose every write the policy logs with the object it left, so
 * that objectStates can tell what they were at an instant already past: a real clock's check
 * comes seconds after the moment a step names when the machine is loaded (a rollout's first
 * step, which lasts minReadySeconds, was already over when read: twenty-first full run).
 */
export const KEPT_STATES: Record<string, readonly string[]> = {
  apps: ['deployments', 'replicasets'],
  '': ['namespaces'],
};

/** Subresources whose answer is the whole object (a scale's is a Scale: the object's state after it is not known). */
const BODY_SUBRESOURCES = ['status', 'finalize'];

/** The objects of one resource (or the one named) at an instant, as the API server stored them. */
export interface ObjectsAt {
  at: number;
  objects: KubeObject[];
}

/** A write's object is not in the log (a scale, a deletecollection): its state is unknown until its next logged write. */
const UNKNOWN = Symbol('unknown');
type Kept = KubeObject | typeof UNKNOWN;

/**
 * What the objects of `ref` (a resource as the client names it, "replicasets.apps"; one
 * namespace; one name, or all) were at `since` (ms since the epoch) and after each write
 * since, from the log written since byte offset `from`; each write counts at its
 * stageTimestamp (ResponseComplete: stored). An instant at which some object's state is not
 * known is left out: one written before the log's offset and not since, or last written by a
 * request whose answer is not the object. Undefined when the policy does not keep `ref`'s bodies.
 */
export function objectStates(
  workDir: string,
  from: number,
  ref: { resource: string; namespace?: string; name?: string },
  since: number,
): ObjectsAt[] | undefined {
  const [resource, ...groupParts] = ref.resource.split('.');
  const group = groupParts.join('.');
  if (!KEPT_STATES[group]?.includes(resource)) return undefined;
  const writes: { at: number; name?: string; create: boolean; kept: Kept | undefined }[] = [];
  const lines = readFrom(workDir, from).split('\n');
  lines.pop(); // the last line may still be being written
  for (const line of lines) {
    if (!line.includes(`"resource":"${resource}"`)) continue;
    const ev = JSON.parse(line) as AuditEvent & { objectRef?: { apiGroup?: string } };
    const r = ev.objectRef;
    if (ev.stage !== 'ResponseComplete' || !WRITES.has(ev.verb) || !ev.stageTimestamp) continue;
    if (r?.resource !== resource || (r.apiGroup ?? '') !== group) continue;
    // A namespace's own requests name it as their namespace too: only namespaced refs compare.
    if (ref.namespace !== undefined && r.namespace !== ref.namespace) continue;
    const code = ev.responseStatus?.code ?? 0;
    if (code < 200 || code >= 300) continue;
    const body = ev.responseObject;
    const name = r.name || body?.metadata?.name;
    const at = Date.parse(ev.stageTimestamp);
    if (ev.verb === 'deletecollection' || !name) {
      // Every object of the resource here may have gone or changed, the one named too.
      writes.push({ at, create: false, kept: UNKNOWN });
      continue;
    }
    if (ref.name !== undefined && name !== ref.name) continue;
    const whole = body?.metadata?.name === name && (!r.subresource || BODY_SUBRESOURCES.includes(r.subresource));
    const kept = ev.verb === 'delete' && body && gone(body) ? undefined : whole ? body : UNKNOWN;
    writes.push({ at, name, create: ev.verb === 'create' && !r.subresource, kept });
  }
  writes.sort((a, b) => a.at - b.at);
  // Before its first logged write an object is absent if that write made it; otherwise it
  // existed before the log's offset, in a state not logged.
  const state = new Map<string, Kept | undefined>();
  for (const w of writes)
    if (w.name !== undefined && !state.has(w.name)) state.set(w.name, w.create ? undefined : UNKNOWN);
  let allUnknown = false;
  const apply = (w: (typeof writes)[number]): void => {
    if (w.name === undefined) {
      allUnknown = true;
      return;
    }
    state.set(w.name, w.kept);
  };
  const out: ObjectsAt[] = [];
  const record = (at: number): void => {
    const kept = [...state.values()];
    if (allUnknown || kept.includes(UNKNOWN)) return;
    out.push({ at, objects: kept.filter((k): k is KubeObject => k !== undefined && k !== UNKNOWN) });
  };
  let i = 0;
  for (; i < writes.length && writes[i].at <= since; i++) apply(writes[i]);
  record(since);
  for (; i < writes.length; i++) {
    apply(writes[i]);
    record(writes[i].at);
  }
  return out;
}

/** A delete's answer: the object gone (no deletionTimestamp, or no finalizer left to wait for), or still there, being deleted. */
function gone(body: KubeObject & { spec?: { finalizers?: string[] } }): boolean {
  if ((body as { kind?: string }).kind === 'Status') return true;
  const waiting = (body.metadata.finalizers?.length ?? 0) + (body.spec?.finalizers?.length ?? 0);
  return !body.metadata.deletionTimestamp || waiting === 0;
}
