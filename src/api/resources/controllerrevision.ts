import { KubeObject, jsonEqual } from '../meta';
import { defineResource } from '../registry';
import { fieldError } from '../validation/field';

/** apps/v1 ControllerRevision: an immutable snapshot of a controller's template, numbered. */
export interface ControllerRevision extends KubeObject {
  data?: unknown;
  revision: number;
}

/** ControllerRevision (apps/v1). Validation as ValidateControllerRevision: revision ≥ 0, data immutable. */
export const controllerrevisions = defineResource<ControllerRevision>({
  group: 'apps',
  version: 'v1',
  resource: 'controllerrevisions',
  kind: 'ControllerRevision',
  namespaced: true,
  validate(cr) {
    return Number.isInteger(cr.revision) && cr.revision >= 0
      ? []
      : [fieldError.invalid('revision', cr.revision, 'must be greater than or equal to 0')];
  },
  validateUpdate(cr, old) {
    return jsonEqual(cr.data, old.data) ? [] : [fieldError.invalid('data', '', 'field is immutable')];
  },
});
