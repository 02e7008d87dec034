import { KubeObject } from '../../api/meta';
import { Namespace } from '../../api/core';

type NamespaceCondition = NonNullable<NonNullable<Namespace['status']>['conditions']>[number];

/**
 * The namespace deletion conditions (v1.16+; pkg/controller/namespace/deletion,
 * status_condition_utils.go): five types in this order, each in its "ok" form unless this
 * pass found otherwise. Discovery, parsing and content-deletion failures do not happen in
 * the reference (every resource is known and deletable); content left and the finalizers
 * on it are counted per resource ("pods." — resource.group, the core group empty).
 */
export function deletionConditions(
  remaining: readonly { resource: string; object: KubeObject }[],
): Omit<NamespaceCondition, 'lastTransitionTime'>[] {
  const perResource = new Map<string, number>();
  const perFinalizer = new Map<string, number>();
  for (const { resource, object } of remaining) {
    const label = resource.includes('.') ? resource : `${resource}.`;
    perResource.set(label, (perResource.get(label) ?? 0) + 1);
    for (const f of object.metadata.finalizers ?? []) perFinalizer.set(f, (perFinalizer.get(f) ?? 0) + 1);
  }
  const resources = [...perResource].map(([r, n]) => `${r} has ${n} resource instances`).sort();
  const finalizers = [...perFinalizer].map(([f, n]) => `${f} in ${n} resource instances`).sort();
  return [
    {
      type: 'NamespaceDeletionDiscoveryFailure',
      status: 'False',
      reason: 'ResourcesDiscovered',
      message: 'All resources successfully discovered',
    },
    {
      type: 'NamespaceDeletionGroupVersionParsingFailure',
      status: 'False',
      reason: 'ParsedGroupVersions',
      message: 'All legacy kube types successfully parsed',
    },
    {
      type: 'NamespaceDeletionContentFailure',
      status: 'False',
      reason: 'ContentDeleted',
      message: 'All content successfully deleted, may be waiting on finalization',
    },
    resources.length
      ? {
          type: 'NamespaceContentRemaining',
          status: 'True',
          reason: 'SomeResourcesRemain',
          message: `Some resources are remaining: ${resources.join(', ')}`,
        }
      : {
          type: 'NamespaceContentRemaining',
          status: 'False',
          reason: 'ContentRemoved',
          message: 'All content successfully removed',
        },
    finalizers.length
      ? {
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message: `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}`,
        }
      : {
          type: 'NamespaceFinalizersRemaining',
          status: 'False',
          reason: 'ContentHasNoFinalizers',
          message: 'All content-preserving finalizers finished',
        },
  ];
}

/**
 * The status conditions with these merged in (upstream updateConditions): a new type is
 * appended, a changed one updated in place (its lastTransitionTime only when the status
 * changes). Undefined when nothing changed, so no write is made.
 */
export function withConditions(
  current: readonly NamespaceCondition[],
  wanted: readonly Omit<NamespaceCondition, 'lastTransitionTime'>[],
  now: string,
): NamespaceCondition[] | undefined {
  const out = current.map((c) => ({ ...c }));
  let changed = false;
  for (const w of wanted) {
    const old = out.find((c) => c.type === w.type);
    if (!old) {
      out.push({ ...w, lastTransitionTime: now });
      changed = true;
    } else if (old.status !== w.status || old.message !== w.message || old.reason !== w.reason) {
      if (old.status !== w.status) old.lastTransitionTime = now;
      Object.assign(old, { status: w.status, reason: w.reason, message: w.message });
      changed = true;
    }
  }
  return changed ? out : undefined;
}
