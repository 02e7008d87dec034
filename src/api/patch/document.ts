/**
 * What the three patch types share: JSON documents as values, the error they throw, and
 * copying an input into plain JSON without touching prototypes. None of the patches
 * mutates its inputs; each returns a new document.
 */

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

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Assigns without ever touching a prototype (a "__proto__" key is just data). */
export function setKey(o: JsonObject, k: string, v: JsonValue): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** A deep copy that also checks the input is JSON (undefined members are dropped, as JSON.stringify does). */
export function toJson(v: unknown, where = 'document'): JsonValue {
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

export function describe(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
