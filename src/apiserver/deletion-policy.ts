import { DeleteOptions } from '../api/request';

/**
 * The finalizers a delete leaves on an object under its propagation policy (upstream's
 * deletionFinalizersForGarbageCollection): Orphan adds "orphan", Foreground
 * "foregroundDeletion", Background drops both; without a policy, an orphanDependents
 * option, then a finalizer already set, then the resource's default decide.
 */
export function withPropagationFinalizers(
  finalizers: readonly string[],
  options: DeleteOptions,
  defaultPolicy?: 'orphan',
): string[] {
  const out = [...finalizers];
  let policy =
    options.propagationPolicy ??
    (options.orphanDependents === true ? 'Orphan' : options.orphanDependents === false ? 'Background' : undefined);
  // Upstream shouldOrphanDependents: an explicit option wins, then a finalizer already set, then the type's default.
  if (!policy && defaultPolicy === 'orphan' && !out.includes('foregroundDeletion')) policy = 'Orphan';
  const add = (f: string) => {
    if (!out.includes(f)) out.push(f);
  };
  const drop = (f: string) => {
    const i = out.indexOf(f);
    if (i >= 0) out.splice(i, 1);
  };
  if (policy === 'Orphan') {
    add('orphan');
    drop('foregroundDeletion');
  }
  if (policy === 'Foreground') {
    add('foregroundDeletion');
    drop('orphan');
  }
  if (policy === 'Background') {
    drop('orphan');
    drop('foregroundDeletion');
  }
  return out;
}
