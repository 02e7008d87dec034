import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReadCounts } from '../../apiserver/audit';

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
  requestReceivedTimestamp?: string;
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
 * When kube-apiserver received each successful `verb` of one object since `from` (ms since the
 * epoch, from the event's requestReceivedTimestamp: microseconds, this machine's clock), in the
 * log's order. A request of a subresource (pods/status) is not one of the object's.
 */
export function requestTimes(
  workDir: string,
  from: number,
  verb: string,
  ref: { resource: string; namespace?: string; name: string },
): number[] {
  const times: number[] = [];
  const lines = readFrom(workDir, from).split('\n');
  lines.pop(); // the last line may still be being written
  for (const line of lines) {
    // Most lines are other requests: a cheap test before the parse.
    if (!line.includes(`"name":${JSON.stringify(ref.name)}`)) continue;
    const ev = JSON.parse(line) as AuditEvent;
    const r = ev.objectRef;
    if (ev.stage !== 'ResponseComplete' || ev.verb !== verb || r?.subresource) continue;
    if (r?.resource !== ref.resource || r.name !== ref.name || (r.namespace ?? '') !== (ref.namespace ?? '')) continue;
    const code = ev.responseStatus?.code ?? 0;
    if (code >= 200 && code < 300 && ev.requestReceivedTimestamp) times.push(Date.parse(ev.requestReceivedTimestamp));
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
