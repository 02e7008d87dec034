import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '../../api/errors';
import { ResourceType } from '../../api/registry';
import { RequestTarget } from '../../api/request';
import { Clock } from '../../clock';
import type { ApiServer, RequestContext } from '../apiserver';
import { intParam, resourceVersionParam } from './decode';
import { queryBool } from './request-info';
import { IncludeObject, toTable } from './table';
import { watchLine } from '../serialized';

/**
 * A watcher whose client stops reading is closed, as upstream's cacher closes a watcher whose
 * buffer stays full: one slow reader may not hold the server's memory. Past this many bytes
 * waiting it is closed at once; past this many events it is closed unless the socket drains
 * within WATCH_DRAIN_GRACE_MS (real time: it is the client's network, not the cluster's
 * clock), as upstream's cacher waits a budgeted timeout before it gives up on a watcher. A
 * replay of a long history (a watch resumed from an old resourceVersion) is one burst of
 * events a reading client takes at once: it must not count as a slow reader.
 */
export const WATCH_BUFFER_EVENTS = 1000;
export const WATCH_BUFFER_BYTES = 8 * 1024 * 1024;
export const WATCH_DRAIN_GRACE_MS = 5_000;

/** Watchers dropped for not reading (figures for tests and the README). */
export const watchStats = { dropped: 0 };

/**
 * A watch stream: headers flushed at once, then one JSON event per line, chunked. Table
 * watches carry one-row Tables (column definitions in the first only). A too-old
 * resourceVersion answers 410 Expired. Ends after timeoutSeconds of cluster time.
 */
export async function serveWatch(
  api: ApiServer,
  clock: Clock,
  req: IncomingMessage,
  res: ServerResponse,
  rt: ResourceType,
  target: RequestTarget,
  q: URLSearchParams,
  table: boolean,
  release: () => void,
  ctx: RequestContext,
  nameSelector?: string,
  out: <T>(x: T) => T = (x) => x,
): Promise<void> {
  const rv = resourceVersionParam(q);
  const timeout = intParam(q, 'timeoutSeconds', 0) ?? 0;
  if (queryBool(q.get('sendInitialEvents')))
    throw errors.badRequest(
      "sendInitialEvents is not supported by this server; list, then watch from the list's resourceVersion",
    );
  const fieldSelector = [q.get('fieldSelector'), nameSelector].filter(Boolean).join(',') || undefined;
  const pending: (string | Buffer)[] = [];
  let started = false;
  let first = true;
  let unsent = 0;
  let closed = false;
  let drainTimer: NodeJS.Timeout | undefined;
  // The client stopped reading: drop it (it will list and watch again, as after a 410).
  const drop = () => {
    if (closed) return;
    closed = true;
    if (drainTimer) clearTimeout(drainTimer);
    watchStats.dropped++;
    res.destroy();
  };
  const send = (line: string | Buffer) => {
    if (closed) return;
    if (res.writableLength > WATCH_BUFFER_BYTES) return drop();
    if (unsent >= WATCH_BUFFER_EVENTS && !drainTimer) {
      drainTimer = setTimeout(drop, WATCH_DRAIN_GRACE_MS);
      drainTimer.unref();
    }
    unsent++;
    res.write(line, () => {
      unsent--;
      if (drainTimer && unsent < WATCH_BUFFER_EVENTS) {
        clearTimeout(drainTimer);
        drainTimer = undefined;
      }
    });
  };
  const write = (line: string | Buffer) => (started ? send(line) : pending.push(line));
  let ended = false;
  const handle = await api.watch(
    target,
    { labelSelector: q.get('labelSelector') ?? undefined, fieldSelector, resourceVersion: rv },
    (e) => {
      if (e.type === 'ERROR') {
        // The storage ended this watch (410): the Status is its last event, then the stream ends.
        write(`${JSON.stringify({ type: 'ERROR', object: e.object })}\n`);
        ended = true;
        if (started) res.end();
        return;
      }
      if (table && (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED')) {
        const object = toTable(rt, [e.object], clock.now(), {
          resourceVersion: e.object.metadata.resourceVersion,
          withColumns: first,
          include: (q.get('includeObject') ?? 'Metadata') as IncludeObject,
        });
        first = false;
        write(`${JSON.stringify({ type: e.type, object })}\n`);
        return;
      }
      // `out` converts to the version the client asked for (older group versions of a release);
      // the storage version's line is made once per event and shared by every watcher.
      write(watchLine(e.type, out(e.object)));
    },
    ctx,
  );
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();
  started = true;
  for (const line of pending.splice(0)) send(line);
  if (ended) res.end();
  release();
  const timer = timeout > 0 ? clock.setTimeout(() => res.end(), timeout * 1000) : undefined;
  await new Promise<void>((resolve) => {
    const done = () => {
      handle.stop();
      if (timer) clock.clear(timer);
      if (drainTimer) clearTimeout(drainTimer);
      resolve();
    };
    res.on('close', done);
    req.on('close', done);
  });
}
