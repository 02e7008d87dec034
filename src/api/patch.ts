/**
 * The three PATCH content types of the API server, applied to plain JSON:
 *
 * - application/merge-patch+json          RFC 7386        applyMergePatch
 * - application/json-patch+json           RFC 6902        applyJsonPatch
 * - application/strategic-merge-patch+json Kubernetes SMP applyStrategicMergePatch
 *
 * None of them mutates its inputs; each returns a new document.
 */
import { applyPatch as fjpApplyPatch, JsonPatchError, type Operation } from 'fast-json-patch';

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export class PatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchError';
  }
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Assigns without ever touching a prototype (a "__proto__" key is just data). */
function setKey(o: JsonObject, k: string, v: JsonValue): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** A deep copy that also checks the input is JSON (undefined members are dropped, as JSON.stringify does). */
function toJson(v: unknown, where = 'document'): JsonValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new PatchError(`${where} is not valid JSON: non-finite number`);
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : toJson(x, where)));
  if (typeof v === 'object') {
    const out: JsonObject = {};
    for (const k of Object.keys(v as object)) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) setKey(out, k, toJson(x, where));
    }
    return out;
  }
  throw new PatchError(`${where} is not valid JSON: unexpected ${typeof v}`);
}

function describe(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

// ---------------------------------------------------------------------------
// RFC 7386 JSON merge patch

function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? target : {};
  for (const k of Object.keys(patch)) {
    const pv = patch[k];
    if (pv === null) delete out[k];
    else setKey(out, k, mergePatch(hasOwn(out, k) ? out[k] : undefined, pv));
  }
  return out;
}

/** RFC 7386: objects merge recursively, null deletes, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): JsonValue {
  return mergePatch(target === undefined ? undefined : toJson(target), toJson(patch, 'patch'));
}

// ---------------------------------------------------------------------------
// RFC 6902 JSON patch

export type JsonPatchOp = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';

export interface JsonPatchOperation {
  op: JsonPatchOp;
  path: string;
  value?: JsonValue;
  from?: string;
}

const FJP_REASONS: Record<string, string> = {
  SEQUENCE_NOT_AN_ARRAY: 'the patch must be an array of operations',
  OPERATION_NOT_AN_OBJECT: 'the operation is not an object',
  OPERATION_OP_INVALID: 'unknown operation',
  OPERATION_PATH_INVALID: 'the path must be a JSON pointer starting with "/"',
  OPERATION_FROM_REQUIRED: 'the operation needs a "from"',
  OPERATION_VALUE_REQUIRED: 'the operation needs a "value"',
  OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED: 'the value is not JSON',
  OPERATION_PATH_CANNOT_ADD: 'the parent of the path does not exist',
  OPERATION_PATH_UNRESOLVABLE: 'the path does not exist',
  OPERATION_FROM_UNRESOLVABLE: 'the "from" path does not exist',
  OPERATION_PATH_ILLEGAL_ARRAY_INDEX: 'an array index must be an unsigned base-10 integer',
  OPERATION_VALUE_OUT_OF_BOUNDS: 'the array index is out of bounds',
  TEST_OPERATION_FAILED: 'the value does not match',
};

function opLabel(op: unknown): string {
  if (!isObject(op)) return 'operation';
  const name = typeof op.op === 'string' ? op.op : '?';
  const path = typeof op.path === 'string' ? op.path : '?';
  return typeof op.from === 'string' ? `${name} from ${op.from} to ${path}` : `${name} at ${path}`;
}

/** RFC 6901: "/01" and "/-" are not indexes of existing elements; fast-json-patch is lax about leading zeros. */
function checkPointer(ops: JsonValue[]): void {
  ops.forEach((op, i) => {
    if (!isObject(op)) return;
    for (const key of ['path', 'from'] as const) {
      const p = op[key];
      if (typeof p !== 'string') continue;
      if (p !== '' && !p.startsWith('/')) {
        throw new PatchError(`json patch operation ${i} (${opLabel(op)}) failed: ${FJP_REASONS.OPERATION_PATH_INVALID}`);
      }
      if (/~(?![01])/.test(p)) {
        throw new PatchError(`json patch operation ${i} (${opLabel(op)}) failed: invalid escape in JSON pointer`);
      }
    }
    if (op.op === 'move' && typeof op.from === 'string' && typeof op.path === 'string' && op.path.startsWith(`${op.from}/`)) {
      throw new PatchError(`json patch operation ${i} (${opLabel(op)}) failed: a value cannot be moved into one of its children`);
    }
  });
}

/** RFC 6902 add/remove/replace/move/copy/test; throws PatchError naming the failing operation. */
export function applyJsonPatch(target: unknown, ops: unknown): JsonValue {
  const doc = toJson(target);
  const patch = toJson(ops, 'patch');
  if (!Array.isArray(patch)) throw new PatchError('json patch must be an array of operations');
  checkPointer(patch);
  try {
    // validate each operation against the document as it stands; mutate our own copy
    return fjpApplyPatch(doc, patch as unknown as Operation[], true, true, true).newDocument as JsonValue;
  } catch (e) {
    if (e instanceof JsonPatchError) {
      const reason = FJP_REASONS[e.name] ?? e.message;
      const idx = typeof e.index === 'number' ? e.index : undefined;
      const label = idx !== undefined ? `json patch operation ${idx} (${opLabel(patch[idx])})` : 'json patch';
      throw new PatchError(`${label} failed: ${reason}`);
    }
    // fast-json-patch refuses paths through __proto__/constructor/prototype with a TypeError
    if (e instanceof TypeError) throw new PatchError('json patch failed: paths through __proto__ or constructor.prototype are not allowed');
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Strategic merge patch (apimachinery/pkg/util/strategicpatch, server side)

/** Patch metadata of one field, from its Go struct tags. */
export interface StrategicField {
  /** patchStrategy: "merge" merges lists (by mergeKey for lists of objects); "replace" replaces maps. */
  strategy?: 'merge' | 'replace';
  mergeKey?: string;
  /** patchStrategy "retainKeys" (only affects patch generation, kept for completeness). */
  retainKeys?: boolean;
  /** The schema of the field's object, or of the list's elements. */
  schema?: StrategicSchema;
}

/** Field name → metadata; fields not listed merge as maps and replace as lists. */
export type StrategicSchema = { readonly [field: string]: StrategicField };

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

const ERR_BAD_PATCH_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const ERR_BAD_PATCH_RETAIN_KEYS = 'invalid patch format of retainKeys';
const ERR_BAD_PATCH_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';

function lookupField(schema: StrategicSchema | undefined, key: string): StrategicField | undefined {
  return schema && hasOwn(schema, key) ? schema[key] : undefined;
}

function errNoMergeKey(m: JsonObject, key: string): PatchError {
  return new PatchError(`map: ${describe(m)} does not contain declared merge key: ${key}`);
}

function errBadPatchType(t: JsonValue, m: JsonObject): PatchError {
  return new PatchError(`unknown patch type: ${describe(t)} in map: ${describe(m)}`);
}

type ElementKind = 'object' | 'string' | 'number' | 'boolean' | 'null';

function kindOf(v: JsonValue): ElementKind | 'array' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v as 'string' | 'number' | 'boolean';
}

/** sliceElementType: every element of every list must be of one non-list kind. */
function elementKind(...lists: JsonValue[][]): ElementKind | undefined {
  let kind: ElementKind | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = kindOf(v);
      if (k === 'array') throw new PatchError('lists of lists are not supported');
      if (kind === undefined) kind = k;
      else if (kind !== k) throw new PatchError(`list element types are not identical: ${describe(lists)}`);
    }
  }
  return kind;
}

/** Drops null members of maps, recursively (discardNullValuesFromPatch). */
function discardNulls(v: JsonValue): void {
  if (Array.isArray(v)) v.forEach(discardNulls);
  else if (isObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNulls(v[k]);
    }
  }
}

/** Removes every map that carries a $patch directive (removeDirectives); undefined means "drop this value". */
function removeDirectives(v: JsonValue): JsonValue | undefined {
  if (Array.isArray(v)) {
    const out: JsonValue[] = [];
    for (const x of v) {
      const y = removeDirectives(x);
      if (y !== undefined) out.push(y);
    }
    return out;
  }
  if (isObject(v)) {
    if (hasOwn(v, DIRECTIVE)) return undefined;
    for (const k of Object.keys(v)) {
      const y = removeDirectives(v[k]);
      if (y === undefined) delete v[k];
      else setKey(v, k, y);
    }
  }
  return v;
}

/**
 * A value taken from the patch as it stands. Upstream cleans values for new
 * keys this way and lets typed decoding drop the rest; with no typed decoding
 * here, every verbatim value is cleaned the same way.
 */
function verbatim(v: JsonValue): JsonValue | undefined {
  discardNulls(v);
  return removeDirectives(v);
}

function putVerbatim(original: JsonObject, k: string, v: JsonValue): void {
  const clean = verbatim(v);
  if (clean === undefined) delete original[k];
  else setKey(original, k, clean);
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    throw new PatchError(prefix === DELETE_FROM_PRIMITIVE_LIST ? ERR_BAD_PATCH_PRIMITIVE_LIST : ERR_BAD_PATCH_SET_ELEMENT_ORDER);
  }
  return s.slice(slash + 1);
}

function mergeKeyValue(v: JsonValue, mergeKey: string): JsonValue | undefined {
  return isObject(v) && hasOwn(v, mergeKey) ? v[mergeKey] : undefined;
}

/** Go's == on the interface values a merge key or a scalar element holds. */
function sameScalar(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return a === b;
}

/** index(): position of an element in a list, by merge key for maps, by value otherwise. */
function indexIn(list: readonly JsonValue[], item: JsonValue, mergeKey: string, kind: ElementKind): number {
  const key = (x: JsonValue): JsonValue | undefined => (kind === 'object' ? (isObject(x) ? x[mergeKey] : undefined) : x);
  const want = key(item);
  for (let i = 0; i < list.length; i++) if (sameScalar(key(list[i]), want)) return i;
  return -1;
}

function findByMergeKey(list: readonly JsonValue[], mergeKey: string, value: JsonValue): number {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isObject(v)) throw new PatchError(`value for key ${i} is not a map`);
    if (hasOwn(v, mergeKey) && sameScalar(v[mergeKey], value)) return i;
  }
  return -1;
}

function handleDirectiveInMergeMap(directive: JsonValue, patch: JsonObject): JsonObject {
  if (directive === 'replace') {
    delete patch[DIRECTIVE];
    const clean = verbatim(patch);
    return isObject(clean) ? clean : {};
  }
  if (directive === 'delete') return {};
  throw errBadPatchType(directive, patch);
}

function applyRetainKeysDirective(original: JsonObject, patch: JsonObject): void {
  if (!hasOwn(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw new PatchError(ERR_BAD_PATCH_RETAIN_KEYS);
  const keep = new Set(list.filter((x): x is string => typeof x === 'string'));
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw new PatchError(ERR_BAD_PATCH_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/** The relative order of the patch list must agree with $setElementOrder. */
function validatePatchWithSetOrderList(patchList: JsonValue[], setOrder: JsonValue[], mergeKey: string): void {
  if (setOrder.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? patchList.filter((v) => !(isObject(v) && v[DIRECTIVE] === 'delete')) : patchList;
  if (mergeKey) {
    for (const v of patchList) if (!isObject(v)) throw new PatchError(ERR_BAD_PATCH_SET_ELEMENT_ORDER);
  }
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < setOrder.length) {
    const p = nonDelete[pi];
    if (isObject(p) && hasOwn(p, DIRECTIVE)) {
      pi++;
      continue;
    }
    let equal: boolean;
    if (mergeKey) {
      const s = setOrder[si];
      if (!isObject(p) || !isObject(s)) throw new PatchError(ERR_BAD_PATCH_SET_ELEMENT_ORDER);
      if (!hasOwn(p, mergeKey)) throw errNoMergeKey(p, mergeKey);
      if (!hasOwn(s, mergeKey)) throw errNoMergeKey(s, mergeKey);
      equal = sameScalar(p[mergeKey], s[mergeKey]);
    } else {
      equal = sameScalar(p, setOrder[si]);
    }
    if (equal) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrder.length) {
    throw new PatchError(`The order in patch list:\n${describe(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${describe(setOrder)}\n`);
  }
}

/** Splits a list into the elements present in `by` and the rest. */
function partition(list: JsonValue[], by: readonly JsonValue[], mergeKey: string): [JsonValue[], JsonValue[]] {
  const inPatch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of list) {
    let found: boolean;
    if (mergeKey) {
      if (!isObject(v)) throw new PatchError(`expected a map, but received ${describe(v)}`);
      if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      found = findByMergeKey(by, mergeKey, v[mergeKey]) >= 0;
    } else {
      found = by.some((x) => sameScalar(x, v));
    }
    (found ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** normalizeSliceOrder: stable sort by position in `order` ($patch:delete entries go last). */
function normalizeSliceOrder(toSort: JsonValue[], order: readonly JsonValue[], mergeKey: string, kind: ElementKind): JsonValue[] {
  let items = toSort;
  let toDelete: JsonValue[] = [];
  if (kind === 'object') {
    for (const list of [toSort, order]) {
      for (const v of list) {
        if (!isObject(v)) throw new PatchError(`expected a map, but received ${describe(v)}`);
        if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      }
    }
    items = toSort.filter((v) => !(isObject(v) && v[DIRECTIVE] === 'delete'));
    toDelete = toSort.filter((v) => isObject(v) && v[DIRECTIVE] === 'delete');
  }
  const ranked = items.map((v, i) => ({ v, i, at: indexIn(order, v, mergeKey, kind) }));
  ranked.sort((a, b) => (a.at >= 0 && b.at >= 0 ? a.at - b.at : a.i - b.i));
  return [...ranked.map((r) => r.v), ...toDelete];
}

/**
 * mergeSortedSlice: interleaves server-only elements (left) into the patch's
 * elements (right), using their order in the live list where both appear there.
 */
function mergeSortedSlice(left: JsonValue[], right: JsonValue[], serverOrder: readonly JsonValue[], mergeKey: string, kind: ElementKind): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function normalizeElementOrder(
  patchItems: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  mergeKey: string,
  kind: ElementKind,
): JsonValue[] {
  const p = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

function dedupe(list: JsonValue[]): JsonValue[] {
  const out: JsonValue[] = [];
  for (const v of list) if (!out.some((x) => sameScalar(x, v))) out.push(v);
  return out;
}

interface MergedList {
  merged: JsonValue[];
  /**
   * The live list as the caller's Go slice reads it afterwards. Upstream
   * deletes and appends in place on the backing array the caller's slice
   * shares (deletions shift elements left, appends refill the freed slots),
   * and $setElementOrder then orders the result against that view. Replaying
   * it keeps the element order identical to the API server's.
   */
  view: JsonValue[];
}

function mergeSlice(
  originalIn: JsonValue[],
  patchIn: JsonValue[],
  schema: StrategicSchema | undefined,
  mergeKey: string,
  isDeleteList: boolean,
): MergedList {
  if (originalIn.length === 0 && patchIn.length === 0) return { merged: originalIn, view: originalIn };
  const kind = elementKind(originalIn, patchIn) as ElementKind;

  if (kind !== 'object') {
    if (isDeleteList) return { merged: originalIn.filter((v) => !patchIn.some((d) => sameScalar(d, v))), view: originalIn };
    const merged = dedupe([...originalIn, ...patchIn]);
    const [patchItems, serverOnly] = partition(merged, patchIn, '');
    return { merged: normalizeElementOrder(patchItems, serverOnly, patchIn, originalIn, '', kind), view: originalIn };
  }

  if (!mergeKey) throw new PatchError('cannot merge lists without merge key');
  const view = [...originalIn];
  let live = view.length;
  // $patch elements: delete removes by merge key, replace discards the live list
  const plain: JsonValue[] = [];
  let replace = false;
  for (const v of patchIn) {
    const m = v as JsonObject;
    if (!hasOwn(m, DIRECTIVE)) {
      plain.push(v);
      continue;
    }
    const directive = m[DIRECTIVE];
    if (directive === 'delete') {
      if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      for (let at = findByMergeKey(view.slice(0, live), mergeKey, m[mergeKey]); at >= 0; at = findByMergeKey(view.slice(0, live), mergeKey, m[mergeKey])) {
        view.copyWithin(at, at + 1, live);
        live--;
      }
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw new PatchError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, m);
    }
  }

  let original: JsonValue[];
  let patch: JsonValue[];
  if (replace) {
    original = plain.map((v) => verbatim(v)).filter((v): v is JsonValue => v !== undefined);
    patch = [];
  } else {
    original = view.slice(0, live);
    patch = plain;
  }

  const merged = [...original];
  let shared = !replace;
  for (const v of patch) {
    const m = v as JsonObject;
    if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
    const at = findByMergeKey(merged, mergeKey, m[mergeKey]);
    if (at >= 0) {
      merged[at] = mergeMap(merged[at] as JsonObject, m, schema);
      continue;
    }
    const clean = verbatim(v);
    if (clean === undefined) continue;
    merged.push(clean);
    // an append fits the shared array until it is full, then Go reallocates
    if (shared && live < view.length) view[live++] = clean;
    else shared = false;
  }

  const [patchItems, serverOnly] = partition(merged, patch, mergeKey);
  return { merged: normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind), view };
}

/** $setElementOrder/<list>: merge the list, then order it as the directive says. */
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, schema: StrategicSchema | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER) || !hasOwn(patch, key)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw new PatchError(ERR_BAD_PATCH_SET_ELEMENT_ORDER);
    const listKey = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = hasOwn(original, listKey);
    const foundPatch = hasOwn(patch, listKey);
    const originalList = foundOriginal ? original[listKey] : undefined;
    const patchList = foundPatch ? patch[listKey] : undefined;
    if (foundOriginal && !Array.isArray(originalList)) throw new PatchError(`expected a list at ${listKey}, but received ${describe(originalList)}`);
    if (foundPatch && !Array.isArray(patchList)) throw new PatchError(`expected a list at ${listKey}, but received ${describe(patchList)}`);
    const origArr = (originalList ?? []) as JsonValue[];
    const patchArr = (patchList ?? []) as JsonValue[];
    const meta = lookupField(schema, listKey);
    const mergeKey = meta?.mergeKey ?? '';
    validatePatchWithSetOrderList(patchArr, order, mergeKey);

    let merged: JsonValue[];
    let liveView = origArr;
    if (foundOriginal && !foundPatch) merged = origArr;
    else if (!foundOriginal && foundPatch) merged = (verbatim(patchArr) as JsonValue[] | undefined) ?? [];
    else if (foundOriginal && foundPatch) {
      if (meta?.strategy === 'merge') {
        const m = mergeSlice(origArr, patchArr, meta.schema, mergeKey, false);
        merged = m.merged;
        liveView = m.view;
      } else {
        merged = verbatim(patchArr) as JsonValue[];
      }
    } else continue;

    const kind = elementKind(origArr, patchArr);
    if (kind === undefined || (kind === 'object' && !mergeKey)) {
      // nothing to order by: keep the merged list as it is
      setKey(original, listKey, merged);
      delete patch[listKey];
      continue;
    }
    const [patchItems, serverOnly] = partition(merged, order, mergeKey);
    setKey(original, listKey, normalizeElementOrder(patchItems, serverOnly, order, liveView, mergeKey, kind));
    delete patch[listKey];
  }
}

function mergeMap(original: JsonObject, patch: JsonObject, schema: StrategicSchema | undefined): JsonObject {
  if (hasOwn(patch, DIRECTIVE)) return handleDirectiveInMergeMap(patch[DIRECTIVE], patch);
  applyRetainKeysDirective(original, patch);
  mergePatchIntoOriginal(original, patch, schema);

  for (const rawKey of Object.keys(patch)) {
    if (!hasOwn(patch, rawKey)) continue;
    const patchV = patch[rawKey];
    let k = rawKey;
    let isDeleteList = false;
    if (rawKey.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      k = extractKey(rawKey, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }

    if (patchV === null) {
      delete original[k];
      continue;
    }
    if (!hasOwn(original, k)) {
      if (!isDeleteList) putVerbatim(original, k, patchV);
      continue;
    }
    const origV = original[k];
    const meta = lookupField(schema, k);
    if (isObject(origV) && isObject(patchV)) {
      if (meta?.strategy === 'replace') putVerbatim(original, k, patchV);
      else setKey(original, k, mergeMap(origV, patchV, meta?.schema));
    } else if (Array.isArray(origV) && Array.isArray(patchV)) {
      if (meta?.strategy === 'merge' || isDeleteList) {
        setKey(original, k, mergeSlice(origV, patchV, meta?.schema, meta?.mergeKey ?? '', isDeleteList).merged);
      } else {
        putVerbatim(original, k, patchV);
      }
    } else if (!isDeleteList) {
      putVerbatim(original, k, patchV);
    }
  }
  return original;
}

/**
 * Applies a strategic merge patch with an explicit schema (e.g. for a custom
 * resource whose patch metadata the caller knows).
 */
export function applyStrategicMergePatchWithSchema(target: unknown, patch: unknown, schema: StrategicSchema | undefined): JsonObject {
  const original = toJson(target);
  const p = toJson(patch, 'patch');
  if (!isObject(original)) throw new PatchError('invalid JSON document: the object to patch must be a JSON object');
  if (!isObject(p)) throw new PatchError('invalid JSON document: a strategic merge patch must be a JSON object');
  return mergeMap(original, p, schema);
}

/**
 * Kubernetes strategic merge patch for an object of the given kind: maps merge,
 * lists with a patchMergeKey merge element by element, lists of primitives
 * with patchStrategy merge take the union, other lists are replaced; null
 * deletes; `$patch`, `$retainKeys`, `$deleteFromPrimitiveList/<f>` and
 * `$setElementOrder/<f>` directives are honoured. Kinds without a schema here
 * get the schema-less behaviour (maps merge, lists replace).
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown, kind: string): JsonObject {
  return applyStrategicMergePatchWithSchema(target, patch, STRATEGIC_SCHEMAS.get(kind));
}

/** Whether applyStrategicMergePatch knows the patch metadata of this kind. */
export function hasStrategicMergeSchema(kind: string): boolean {
  return STRATEGIC_SCHEMAS.has(kind);
}

// ---------------------------------------------------------------------------
// Patch metadata of the built-in kinds, from the patchStrategy/patchMergeKey
// tags of k8s.io/api (core/v1, apps/v1, batch/v1) and metav1.ObjectMeta.
// Only fields with tags are listed; the rest follow the defaults.

const mergeBy = (mergeKey: string, schema?: StrategicSchema): StrategicField => ({ strategy: 'merge', mergeKey, schema });
const conditions: StrategicField = mergeBy('type');

const OBJECT_META: StrategicSchema = {
  finalizers: { strategy: 'merge' },
  ownerReferences: mergeBy('uid'),
};

const CONTAINER: StrategicSchema = {
  ports: mergeBy('containerPort'),
  env: mergeBy('name'),
  volumeMounts: mergeBy('mountPath'),
  volumeDevices: mergeBy('devicePath'),
};

const POD_SPEC: StrategicSchema = {
  volumes: { ...mergeBy('name'), retainKeys: true },
  initContainers: mergeBy('name', CONTAINER),
  containers: mergeBy('name', CONTAINER),
  ephemeralContainers: mergeBy('name', CONTAINER),
  imagePullSecrets: mergeBy('name'),
  hostAliases: mergeBy('ip'),
  topologySpreadConstraints: mergeBy('topologyKey'),
  schedulingGates: mergeBy('name'),
  resourceClaims: { ...mergeBy('name'), retainKeys: true },
};

const POD_STATUS: StrategicSchema = {
  conditions,
  podIPs: mergeBy('ip'),
  hostIPs: mergeBy('ip'),
  resourceClaimStatuses: { ...mergeBy('name'), retainKeys: true },
};

const POD_TEMPLATE_SPEC: StrategicSchema = {
  metadata: { schema: OBJECT_META },
  spec: { schema: POD_SPEC },
};

const withMeta = (fields: StrategicSchema): StrategicSchema => ({ metadata: { schema: OBJECT_META }, ...fields });
const statusConditions: StrategicField = { schema: { conditions } };
/** A workload whose spec holds a pod template and whose status has conditions. */
const workload = (spec: StrategicSchema = {}): StrategicSchema =>
  withMeta({ spec: { schema: { template: { schema: POD_TEMPLATE_SPEC }, ...spec } }, status: statusConditions });

const JOB_SPEC: StrategicSchema = { template: { schema: POD_TEMPLATE_SPEC } };

const STRATEGIC_SCHEMAS: ReadonlyMap<string, StrategicSchema> = new Map<string, StrategicSchema>([
  ['Pod', withMeta({ spec: { schema: POD_SPEC }, status: { schema: POD_STATUS } })],
  ['PodTemplate', withMeta({ template: { schema: POD_TEMPLATE_SPEC } })],
  ['ReplicationController', workload()],
  ['ReplicaSet', workload()],
  ['Deployment', workload({ strategy: { retainKeys: true } })],
  ['StatefulSet', workload()],
  ['DaemonSet', workload()],
  ['Job', workload()],
  [
    'CronJob',
    withMeta({ spec: { schema: { jobTemplate: { schema: { metadata: { schema: OBJECT_META }, spec: { schema: JOB_SPEC } } } } } }),
  ],
  [
    'Node',
    withMeta({
      spec: { schema: { podCIDRs: { strategy: 'merge' } } },
      status: { schema: { conditions, addresses: mergeBy('type') } },
    }),
  ],
  ['Service', withMeta({ spec: { schema: { ports: mergeBy('port') } }, status: statusConditions })],
  ['ServiceAccount', withMeta({ secrets: mergeBy('name') })],
  ['Namespace', withMeta({ status: statusConditions })],
  ['PersistentVolumeClaim', withMeta({ status: statusConditions })],
  ['ComponentStatus', withMeta({ conditions })],
  ['Endpoints', withMeta({})],
  ['ConfigMap', withMeta({})],
  ['Secret', withMeta({})],
  ['Event', withMeta({})],
  ['LimitRange', withMeta({})],
  ['ResourceQuota', withMeta({})],
  ['PersistentVolume', withMeta({})],
  ['Binding', withMeta({})],
  ['Lease', withMeta({})],
]);
