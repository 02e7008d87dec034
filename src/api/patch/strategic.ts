import { describe, isObject, JsonObject, JsonValue, PatchError, setKey, toJson } from './document';
import { STRATEGIC_SCHEMAS, StrategicField, StrategicSchema } from './schemas';

/*
 * application/strategic-merge-patch+json, server side (apimachinery/pkg/util/strategicpatch).
 * One algorithm (mergeMap, mergeSlice and their directives), kept whole in one file.
 */

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

const ERR_BAD_PATCH_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const ERR_BAD_PATCH_RETAIN_KEYS = 'invalid patch format of retainKeys';
const ERR_BAD_PATCH_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';

function lookupField(schema: StrategicSchema | undefined, key: string): StrategicField | undefined {
  return schema && Object.hasOwn(schema, key) ? schema[key] : undefined;
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
    if (Object.hasOwn(v, DIRECTIVE)) return undefined;
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
    throw new PatchError(
      prefix === DELETE_FROM_PRIMITIVE_LIST ? ERR_BAD_PATCH_PRIMITIVE_LIST : ERR_BAD_PATCH_SET_ELEMENT_ORDER,
    );
  }
  return s.slice(slash + 1);
}

/** Go's == on the interface values a merge key or a scalar element holds. */
function sameScalar(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return a === b;
}

/** index(): position of an element in a list, by merge key for maps, by value otherwise. */
function indexIn(list: readonly JsonValue[], item: JsonValue, mergeKey: string, kind: ElementKind): number {
  const key = (x: JsonValue): JsonValue | undefined =>
    kind === 'object' ? (isObject(x) ? x[mergeKey] : undefined) : x;
  const want = key(item);
  for (let i = 0; i < list.length; i++) if (sameScalar(key(list[i]), want)) return i;
  return -1;
}

function findByMergeKey(list: readonly JsonValue[], mergeKey: string, value: JsonValue): number {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isObject(v)) throw new PatchError(`value for key ${i} is not a map`);
    if (Object.hasOwn(v, mergeKey) && sameScalar(v[mergeKey], value)) return i;
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
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
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
    if (isObject(p) && Object.hasOwn(p, DIRECTIVE)) {
      pi++;
      continue;
    }
    let equal: boolean;
    if (mergeKey) {
      const s = setOrder[si];
      if (!isObject(p) || !isObject(s)) throw new PatchError(ERR_BAD_PATCH_SET_ELEMENT_ORDER);
      if (!Object.hasOwn(p, mergeKey)) throw errNoMergeKey(p, mergeKey);
      if (!Object.hasOwn(s, mergeKey)) throw errNoMergeKey(s, mergeKey);
      equal = sameScalar(p[mergeKey], s[mergeKey]);
    } else {
      equal = sameScalar(p, setOrder[si]);
    }
    if (equal) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrder.length) {
    throw new PatchError(
      `The order in patch list:\n${describe(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${describe(setOrder)}\n`,
    );
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
      if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      found = findByMergeKey(by, mergeKey, v[mergeKey]) >= 0;
    } else {
      found = by.some((x) => sameScalar(x, v));
    }
    (found ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** normalizeSliceOrder: stable sort by position in `order` ($patch:delete entries go last). */
function normalizeSliceOrder(
  toSort: JsonValue[],
  order: readonly JsonValue[],
  mergeKey: string,
  kind: ElementKind,
): JsonValue[] {
  let items = toSort;
  let toDelete: JsonValue[] = [];
  if (kind === 'object') {
    for (const list of [toSort, order]) {
      for (const v of list) {
        if (!isObject(v)) throw new PatchError(`expected a map, but received ${describe(v)}`);
        if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
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
function mergeSortedSlice(
  left: JsonValue[],
  right: JsonValue[],
  serverOrder: readonly JsonValue[],
  mergeKey: string,
  kind: ElementKind,
): JsonValue[] {
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
    if (isDeleteList)
      return { merged: originalIn.filter((v) => !patchIn.some((d) => sameScalar(d, v))), view: originalIn };
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
    if (!Object.hasOwn(m, DIRECTIVE)) {
      plain.push(v);
      continue;
    }
    const directive = m[DIRECTIVE];
    if (directive === 'delete') {
      if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      for (
        let at = findByMergeKey(view.slice(0, live), mergeKey, m[mergeKey]);
        at >= 0;
        at = findByMergeKey(view.slice(0, live), mergeKey, m[mergeKey])
      ) {
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
    if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
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
    if (!key.startsWith(SET_ELEMENT_ORDER) || !Object.hasOwn(patch, key)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw new PatchError(ERR_BAD_PATCH_SET_ELEMENT_ORDER);
    const listKey = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = Object.hasOwn(original, listKey);
    const foundPatch = Object.hasOwn(patch, listKey);
    const originalList = foundOriginal ? original[listKey] : undefined;
    const patchList = foundPatch ? patch[listKey] : undefined;
    if (foundOriginal && !Array.isArray(originalList))
      throw new PatchError(`expected a list at ${listKey}, but received ${describe(originalList)}`);
    if (foundPatch && !Array.isArray(patchList))
      throw new PatchError(`expected a list at ${listKey}, but received ${describe(patchList)}`);
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
  if (Object.hasOwn(patch, DIRECTIVE)) return handleDirectiveInMergeMap(patch[DIRECTIVE], patch);
  applyRetainKeysDirective(original, patch);
  mergePatchIntoOriginal(original, patch, schema);

  for (const rawKey of Object.keys(patch)) {
    if (!Object.hasOwn(patch, rawKey)) continue;
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
    if (!Object.hasOwn(original, k)) {
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
export function applyStrategicMergePatchWithSchema(
  target: unknown,
  patch: unknown,
  schema: StrategicSchema | undefined,
): JsonObject {
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
