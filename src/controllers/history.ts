import { ControllerRevision } from '../api/resources/controllerrevision';
import { canonical } from './hash';

/**
 * Upstream's controller history (pkg/controller/history), shared by the StatefulSet and
 * DaemonSet controllers: EqualRevision compares two revisions' data.
 */
export const equalData = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Upstream nextRevision: one more than the highest. */
export const nextRevision = (revisions: readonly ControllerRevision[]) =>
  Math.max(0, ...revisions.map((r) => r.revision)) + 1;
