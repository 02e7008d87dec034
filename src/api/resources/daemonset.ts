import { DaemonSet } from '../core';
import { defineResource, ResourceType } from '../registry';
import { fieldError, FieldErrors, intOrStringValue } from '../validation/field';
import { selectorFromLabelSelector } from '../labels/selector';
import { validateLabelSelector } from '../validation/labels';
import { defaultPodSpec, validatePodSpec } from './pod';
import { validateIntOrPercent } from './deployment';

/**
 * Where apps/v1 keeps a DaemonSet's templateGeneration (upstream's internal
 * Spec.TemplateGeneration, converted to this annotation): 1 on create, +1 whenever the pod
 * template changes; clients cannot set it.
 */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

type IntOrString = number | string;

/** The number an int-or-percent names before scaling (upstream getIntOrPercentValue): "25%" → 25. */
function rawValue(v: IntOrString | undefined): number {
  if (v === undefined) return 0;
  return typeof v === 'string' ? Number.parseInt(v, 10) : v;
}

function notOver100(field: string, v: IntOrString | undefined): FieldErrors {
  return typeof v === 'string' && /^[0-9]+%$/.test(v) && rawValue(v) > 100
    ? [fieldError.invalid(field, intOrStringValue(v), 'must not be greater than 100%')]
    : [];
}

/**
 * Upstream ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet. v1.12 (no
 * maxSurge field): maxUnavailable "cannot be 0". v1.12+surge (v1.22+): exactly one of
 * maxUnavailable and maxSurge is non-zero.
 */
function validateUpdateStrategy(ds: DaemonSet, maxSurge: boolean): FieldErrors {
  const s = ds.spec.updateStrategy ?? {};
  const base = 'spec.updateStrategy';
  if (s.type === 'OnDelete') return [];
  if (s.type !== 'RollingUpdate') return [fieldError.notSupported(base, s.type ?? '', ['RollingUpdate', 'OnDelete'])];
  const ru = s.rollingUpdate;
  if (!ru) return [fieldError.required(`${base}.rollingUpdate`)];
  const f = `${base}.rollingUpdate`;
  const errs: FieldErrors = [...validateIntOrPercent(`${f}.maxUnavailable`, ru.maxUnavailable)];
  if (!maxSurge) {
    if (rawValue(ru.maxUnavailable) === 0)
      errs.push(fieldError.invalid(`${f}.maxUnavailable`, intOrStringValue(ru.maxUnavailable), 'cannot be 0'));
    errs.push(...notOver100(`${f}.maxUnavailable`, ru.maxUnavailable));
    return errs;
  }
  errs.push(...validateIntOrPercent(`${f}.maxSurge`, ru.maxSurge));
  errs.push(...notOver100(`${f}.maxUnavailable`, ru.maxUnavailable), ...notOver100(`${f}.maxSurge`, ru.maxSurge));
  const hasUnavailable = rawValue(ru.maxUnavailable) !== 0;
  const hasSurge = rawValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge)
    errs.push(
      fieldError.invalid(
        `${f}.maxSurge`,
        intOrStringValue(ru.maxSurge),
        'may not be set when maxUnavailable is non-zero',
      ),
    );
  if (!hasUnavailable && !hasSurge)
    errs.push(fieldError.required(`${f}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/**
 * DaemonSet: a pod template run once on every eligible node. apps/v1 defaults
 * (SetDefaults_DaemonSet): updateStrategy RollingUpdate with maxUnavailable 1 (and, where the
 * release has the field, maxSurge 0), revisionHistoryLimit 10. A release without maxSurge
 * (v1.12) drops the field as an unknown one.
 */
export function daemonsetsResource(options: { maxSurge: boolean }): ResourceType<DaemonSet> {
  return defineResource<DaemonSet>({
    group: 'apps',
    version: 'v1',
    resource: 'daemonsets',
    kind: 'DaemonSet',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
    hasStatus: true,
    tracksGeneration: true,
    defaults(ds) {
      if (ds.spec?.template?.spec) defaultPodSpec(ds.spec.template.spec);
      if (ds.spec) {
        const s = (ds.spec.updateStrategy ??= {});
        s.type ??= 'RollingUpdate';
        if (s.type === 'RollingUpdate') {
          const ru = (s.rollingUpdate ??= {});
          ru.maxUnavailable ??= 1;
          if (options.maxSurge) ru.maxSurge ??= 0;
        }
        if (!options.maxSurge && s.rollingUpdate) delete s.rollingUpdate.maxSurge;
        ds.spec.revisionHistoryLimit ??= 10;
        ds.spec.minReadySeconds ??= 0;
      }
    },
    prepareForCreate(ds) {
      ds.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
      ds.metadata.annotations = { ...ds.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: '1' };
    },
    prepareForUpdate(ds, old) {
      // A replaced object is decoded, hence defaulted, as a new one is.
      this.defaults!(ds);
      // Upstream daemonSetStrategy.PrepareForUpdate: the template generation is the server's.
      const generation = Number(old.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? 0);
      const changed = JSON.stringify(ds.spec?.template) !== JSON.stringify(old.spec?.template);
      ds.metadata.annotations = {
        ...ds.metadata.annotations,
        [TEMPLATE_GENERATION_ANNOTATION]: String(changed ? generation + 1 : generation),
      };
    },
    validate(ds) {
      const errs: FieldErrors = [];
      if (!ds.spec?.selector) return [fieldError.required('spec.selector')];
      for (const e of validateLabelSelector(ds.spec.selector, 'spec.selector'))
        errs.push(fieldError.invalid(e.field, '', e.message));
      const labels = ds.spec.template?.metadata?.labels ?? {};
      if (errs.length === 0 && !selectorFromLabelSelector(ds.spec.selector).matches(labels)) {
        errs.push(
          fieldError.invalid(
            'spec.template.metadata.labels',
            JSON.stringify(labels),
            '`selector` does not match template `labels`',
          ),
        );
      }
      errs.push(...validatePodSpec('spec.template.spec', ds.spec.template?.spec));
      if (ds.spec.template?.spec?.restartPolicy && ds.spec.template.spec.restartPolicy !== 'Always') {
        errs.push(
          fieldError.notSupported('spec.template.spec.restartPolicy', ds.spec.template.spec.restartPolicy, ['Always']),
        );
      }
      errs.push(...validateUpdateStrategy(ds, options.maxSurge));
      return errs;
    },
  });
}

/** The apps/v1 DaemonSet of a release with maxSurge (v1.22+). */
export const daemonsets = daemonsetsResource({ maxSurge: true });
