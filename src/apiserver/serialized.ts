import type { WatchEventType } from '../api/request';

/*
 * Serialization done once per stored version (upstream's cachingObject, which the cacher
 * wraps around each watch event so that N watchers cost one encoding). The REST storage
 * hands out one frozen object per stored version (storage.ts, decorate) and marks it shared
 * here; its JSON is then made on first use and kept beside it, for every GET, LIST and
 * watch event that carries it, until the version is no longer referenced (a WeakMap: the
 * bytes go with the object). Anything not marked (a dry-run result, an older version's
 * copy, a Status) is serialized each time, as before.
 */

/**
 * The mark of a shared version: a property of its own, not enumerable (no spread, Object.keys
 * or JSON sees it, so no copy carries it), set before the object is frozen. Not a WeakSet: a
 * weak table gains an entry for every version stored, and at thousands of nodes its growing
 * backing store and its ephemeron entries were a tenth of what the young generation promoted.
 */
const SHARED = Symbol('kubespec.shared');
const json = new WeakMap<object, Buffer>();
const watchLines = new WeakMap<object, Partial<Record<WatchEventType, Buffer>>>();

/** Marks a stored version, not yet frozen, as immutable and shared: its bytes may be cached. */
export function share<T extends object>(obj: T): T {
  Object.defineProperty(obj, SHARED, { value: true });
  return obj;
}

function isShared(value: unknown): value is object {
  return value !== null && typeof value === 'object' && (value as { [SHARED]?: boolean })[SHARED] === true;
}

/** The JSON of a value, from the cache for a shared stored version. */
export function jsonBytes(value: unknown): Buffer {
  if (!isShared(value)) return Buffer.from(JSON.stringify(value) ?? 'null');
  let b = json.get(value);
  if (!b) {
    b = Buffer.from(JSON.stringify(value));
    json.set(value, b);
  }
  return b;
}

/**
 * A list's JSON: its own fields serialized, its items' bytes joined (each shared item's
 * from the cache). Same document as JSON.stringify(list), with "items" last.
 */
export function listBytes(list: { items: unknown[] }): Buffer {
  const { items, ...head } = list;
  const open = JSON.stringify(head);
  const parts: Buffer[] = [Buffer.from(`${open.slice(0, -1)}${open.length > 2 ? ',' : ''}"items":[`)];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(jsonBytes(items[i]));
  }
  parts.push(CLOSE_LIST);
  return Buffer.concat(parts);
}

const COMMA = Buffer.from(',');
const CLOSE_LIST = Buffer.from(']}');

/** True for a list-shaped value (a *List, a Table is not: its rows are not stored objects). */
export function isListBody(value: unknown): value is { items: unknown[] } {
  return value !== null && typeof value === 'object' && Array.isArray((value as { items?: unknown }).items);
}

/**
 * One line of a JSON watch stream ({"type":…,"object":…}\n): made once per event type and
 * stored version, then written to every watcher that receives it.
 */
export function watchLine(type: WatchEventType, object: unknown): Buffer {
  if (!isShared(object)) return Buffer.from(`${JSON.stringify({ type, object })}\n`);
  let lines = watchLines.get(object);
  if (!lines) watchLines.set(object, (lines = {}));
  let line = lines[type];
  if (!line) {
    line = Buffer.concat([Buffer.from(`{"type":"${type}","object":`), jsonBytes(object), LINE_END]);
    lines[type] = line;
  }
  return line;
}

const LINE_END = Buffer.from('}\n');
