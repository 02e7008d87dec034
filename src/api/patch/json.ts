import { applyPatch as fjpApplyPatch, JsonPatchError, type Operation } from 'fast-json-patch';
import { isObject, JsonValue, PatchError, toJson } from './document';

/* application/json-patch+json: RFC 6902 JSON patch (fast-json-patch, with RFC 6901's strict pointers and upstream's messages). */

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
        throw new PatchError(
          `json patch operation ${i} (${opLabel(op)}) failed: ${FJP_REASONS.OPERATION_PATH_INVALID}`,
        );
      }
      if (/~(?![01])/.test(p)) {
        throw new PatchError(`json patch operation ${i} (${opLabel(op)}) failed: invalid escape in JSON pointer`);
      }
    }
    if (
      op.op === 'move' &&
      typeof op.from === 'string' &&
      typeof op.path === 'string' &&
      op.path.startsWith(`${op.from}/`)
    ) {
      throw new PatchError(
        `json patch operation ${i} (${opLabel(op)}) failed: a value cannot be moved into one of its children`,
      );
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
    if (e instanceof TypeError)
      throw new PatchError('json patch failed: paths through __proto__ or constructor.prototype are not allowed');
    throw e;
  }
}
