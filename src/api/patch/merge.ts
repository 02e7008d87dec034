import { isObject, JsonObject, JsonValue, setKey, toJson } from './document';

/* application/merge-patch+json: RFC 7386 JSON merge patch. */

function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? target : {};
  for (const k of Object.keys(patch)) {
    const pv = patch[k];
    if (pv === null) delete out[k];
    else setKey(out, k, mergePatch(Object.hasOwn(out, k) ? out[k] : undefined, pv));
  }
  return out;
}

/** RFC 7386: objects merge recursively, null deletes, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): JsonValue {
  return mergePatch(target === undefined ? undefined : toJson(target), toJson(patch, 'patch'));
}
