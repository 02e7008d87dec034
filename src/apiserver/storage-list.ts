import { errors } from '../api/errors';
import { StatusCause } from '../api/meta';
import { KeyValue, Store } from '../store';
import { WatchHub } from './watch-hub';

/*
 * LIST from the watch cache, with upstream's read semantics (v1.32):
 * - resourceVersion unset: a consistent read. The cache first catches up with the store's
 *   revision now (ConsistentListFromCache: Cacher.GetList asks etcd for its current
 *   revision and waits for the cache to reach it, WaitUntilFreshAndList); a store that
 *   cannot say when its watchers have it all (etcd here) is read directly.
 * - "0": whatever the cache has, at once; limit is ignored (shouldDelegateList serves
 *   resourceVersion=0 from the cache whatever the limit).
 * - N, resourceVersionMatch NotOlderThan (or unset without limit): the cache once it has N;
 *   504 "Too large resource version" when the store has not reached N either.
 * - N, resourceVersionMatch Exact (or unset with a limit, the legacy exact read): the
 *   objects as they were at N, from the cache's event buffer; 410 Expired when the buffer
 *   no longer reaches N (etcd3 store.GetList on a compacted revision).
 * - limit/continue: chunks in key order; the continue token carries the chunk's revision and
 *   the key to go on from (storage.EncodeContinue), so every chunk is read at the first
 *   one's revision; a token whose revision has expired answers 410 with a token to go on at
 *   the latest revision instead (handleCompactedErrorForPaging).
 */

/** The read options of a list, as ListOptions carries them (selectors aside). */
export interface ListReadOptions {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
}

/** One page of a list: the items, the revision they were read at, and where the next page starts. */
export interface ListPage<V> {
  items: KeyValue<V>[];
  revision: number;
  continue?: string;
  remainingItemCount?: number;
}

const EXACT = 'Exact';
const NOT_OLDER_THAN = 'NotOlderThan';

/**
 * Upstream's ValidateListOptions (apimachinery pkg/apis/meta/internalversion/validation):
 * 422 Invalid, kind ListOptions in meta.k8s.io, one cause per problem.
 */
export function validateListOptions(o: ListReadOptions): void {
  const causes: StatusCause[] = [];
  const match = o.resourceVersionMatch;
  const forbidden = (message: string) =>
    causes.push({ reason: 'FieldValueForbidden', field: 'resourceVersionMatch', message: `Forbidden: ${message}` });
  if (match) {
    if (!o.resourceVersion) forbidden('resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (o.continue) forbidden('resourceVersionMatch is forbidden when continue is provided');
    if (match !== EXACT && match !== NOT_OLDER_THAN)
      causes.push({
        reason: 'FieldValueNotSupported',
        field: 'resourceVersionMatch',
        message: `Unsupported value: "${match}": supported values: "${EXACT}", "${NOT_OLDER_THAN}", ""`,
      });
    if (match === EXACT && o.resourceVersion === '0')
      forbidden('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  if (causes.length > 0) throw errors.invalid('ListOptions', '', causes, 'meta.k8s.io');
}

/** The token of storage.EncodeContinue: base64url (no padding) of {"v","rv","start"}, start relative to the list's key prefix. */
export function encodeContinue(nextKey: string, keyPrefix: string, revision: number): string {
  const start = nextKey.slice(keyPrefix.length);
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: revision, start })).toString('base64url');
}

/** storage.DecodeContinue: the key to go on from and the revision; 400 "invalid continue token" when it is not one. */
export function decodeContinue(token: string, keyPrefix: string): { key: string; revision: number } {
  const invalid = (why: string) => errors.badRequest(`invalid continue token: continue key is not valid${why}`);
  if (!/^[A-Za-z0-9_-]*$/.test(token)) throw invalid(': illegal base64 data');
  let c: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (e) {
    throw invalid(`: ${(e as Error).message}`);
  }
  if (c === null || typeof c !== 'object') throw invalid(': not a continue token');
  if (c.v !== 'meta.k8s.io/v1') throw invalid(': server does not recognize this encoded version');
  if (typeof c.rv !== 'number' || !Number.isInteger(c.rv) || c.rv === 0)
    throw invalid(': incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof c.start !== 'string' || c.start === '')
    throw invalid(': encoded start key empty (version meta.k8s.io/v1)');
  // A start key that climbs out of the list's prefix ("../secrets/…") is refused: it must be
  // what path.Clean leaves unchanged, as upstream checks.
  const key = c.start.startsWith('/') ? c.start : `/${c.start}`;
  if (!isCleanPath(key)) throw invalid(`: ${c.start}`);
  return { key: keyPrefix + key.slice(1), revision: c.rv };
}

/** True when path.Clean would leave the path as it is: no empty, "." or ".." segment, no trailing slash. */
function isCleanPath(p: string): boolean {
  return (
    p === '/' ||
    p
      .split('/')
      .slice(1)
      .every((seg) => seg !== '' && seg !== '.' && seg !== '..')
  );
}

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** upstream's NewTooLargeResourceVersionError: 504 with a ResourceVersionTooLarge cause, retry after 1 s. */
export function tooLarge(wanted: number, current: number) {
  const e = errors.timeout(`Too large resource version: ${wanted}, current: ${current}`);
  e.status.details = {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  };
  return e;
}

/** What a list reads: the cache now, the cache once it has a revision, or the objects as at an older revision. */
type Read = { at: 'now' } | { at: 'notOlderThan'; revision: number } | { at: 'exact'; revision: number };

/**
 * One page of the objects under `prefix` that `matches` accepts. `keyPrefix` is the
 * resource's (and namespace's) prefix the continue tokens are relative to.
 */
export async function listPage<V>(
  hub: WatchHub<V>,
  store: Store,
  prefix: string,
  options: ListReadOptions,
  matches: (value: V) => boolean,
  unfiltered: boolean,
): Promise<ListPage<V>> {
  validateListOptions(options);
  const rv = options.resourceVersion;
  let limit = options.limit && options.limit > 0 ? options.limit : 0;
  let from = prefix;
  let read: Read = { at: 'now' };
  let continuing = false;
  if (options.continue) {
    if (rv && rv !== '0') throw errors.badRequest('specifying resource version is not allowed when using continue');
    const c = decodeContinue(options.continue, prefix);
    from = c.key;
    continuing = true;
    if (c.revision > 0) read = { at: 'exact', revision: c.revision };
  } else if (rv === '0') {
    limit = 0;
    read = { at: 'notOlderThan', revision: 0 };
  } else if (rv) {
    const n = Number(rv);
    if (!Number.isSafeInteger(n) || n < 0) throw errors.badRequest(`invalid resource version: ${rv}`);
    const exact = options.resourceVersionMatch === EXACT || (!options.resourceVersionMatch && limit > 0);
    read = exact ? { at: 'exact', revision: n } : { at: 'notOlderThan', revision: n };
  }

  if (read.at === 'now' || read.revision > hub.cachedRevision) {
    const wanted = read.at === 'now' ? 0 : read.revision;
    if (wanted > store.revision()) {
      const current = await store.currentRevision();
      if (wanted > current) throw tooLarge(wanted, current);
    }
    if (store.progress) hub.caughtUp(await store.progress());
    // No progress notifications: the cache cannot know it is fresh, so the store answers
    // what needs the present (upstream delegates such reads to etcd); an exact revision the
    // cache has not reached cannot be read at all.
    else if (read.at !== 'exact') return pageFromStore(store, prefix, from, limit, matches, unfiltered, wanted);
    else throw tooLarge(wanted, hub.cachedRevision);
  }
  // The store ended the cache's watch meanwhile (its state is gone): the store answers.
  if (hub.ended) return pageFromStore(store, prefix, from, limit, matches, unfiltered, 0);

  const revision = read.at === 'exact' ? read.revision : hub.cachedRevision;
  const then = read.at === 'exact' && read.revision < hub.cachedRevision ? hub.changedSince(read.revision) : undefined;
  if (read.at === 'exact' && read.revision < hub.cachedRevision && !then) {
    if (continuing) {
      const e = errors.gone(CONTINUE_EXPIRED);
      e.status.metadata = { continue: encodeContinue(from, prefix, -1) };
      throw e;
    }
    throw errors.gone('The resourceVersion for the provided list is too old.');
  }
  return collect(viewAt(hub, prefix, from, then), prefix, limit, matches, unfiltered, revision);
}

/** The keys under prefix from `from` on, in order, with their values at the list's revision (`then`: the changes since). */
function viewAt<V>(
  hub: WatchHub<V>,
  prefix: string,
  from: string,
  then: Map<string, KeyValue<V> | undefined> | undefined,
): (visit: (key: string, kv: KeyValue<V> | undefined) => boolean) => void {
  if (!then) return (visit) => hub.scan(prefix, from, (kv) => visit(kv.key, kv));
  // Keys gone since then are not in the cache: merged in, in order.
  const gone = [...then.keys()].filter((k) => k.startsWith(prefix) && k >= from && !hub.has(k)).sort();
  return (visit) => {
    let g = 0;
    let going = true;
    hub.scan(prefix, from, (kv) => {
      while (going && g < gone.length && gone[g] < kv.key) going = visit(gone[g], then.get(gone[g++]));
      if (!going) return false;
      return (going = visit(kv.key, then.has(kv.key) ? then.get(kv.key) : kv));
    });
    while (going && g < gone.length) going = visit(gone[g], then.get(gone[g++]));
  };
}

/**
 * A page from an ordered view: up to `limit` matching objects; a continue token when the
 * page is full and any key follows (matching or not, as etcd3's GetList), and for an
 * unfiltered list the count of the keys after it (remainingItemCount).
 */
function collect<V>(
  view: (visit: (key: string, kv: KeyValue<V> | undefined) => boolean) => void,
  prefix: string,
  limit: number,
  matches: (value: V) => boolean,
  unfiltered: boolean,
  revision: number,
): ListPage<V> {
  const items: KeyValue<V>[] = [];
  let more = false;
  let remaining = 0;
  let lastKey = '';
  view((key, kv) => {
    if (!kv) return true;
    if (limit > 0 && items.length >= limit) {
      more = true;
      if (!unfiltered) return false;
      remaining++;
      return true;
    }
    if (matches(kv.value)) {
      items.push(kv);
      lastKey = key;
    }
    return true;
  });
  if (!more) return { items, revision };
  return {
    items,
    revision,
    continue: encodeContinue(`${lastKey}\x00`, prefix, revision),
    remainingItemCount: unfiltered ? remaining : undefined,
  };
}

/** A page read from the store itself, at its present revision (for a store without progress notifications). */
async function pageFromStore<V>(
  store: Store,
  prefix: string,
  from: string,
  limit: number,
  matches: (value: V) => boolean,
  unfiltered: boolean,
  atLeast: number,
): Promise<ListPage<V>> {
  const { items, revision } = await store.range<V>(prefix);
  if (revision < atLeast) throw tooLarge(atLeast, revision);
  const view = (visit: (key: string, kv: KeyValue<V> | undefined) => boolean) => {
    for (const kv of items) if (kv.key >= from && !visit(kv.key, kv)) return;
  };
  return collect(view, prefix, limit, matches, unfiltered, revision);
}
