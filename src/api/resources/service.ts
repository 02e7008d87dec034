import { KubeObject } from '../meta';
import { defineResource } from '../registry';

/**
 * A minimal core/v1 Service: enough for the scheduler's service-aware rules
 * (SelectorSpreadPriority, CheckServiceAffinity, ServiceAntiAffinity read namespace and
 * spec.selector). The controller-manager work gives it its full shape.
 */
export interface Service extends KubeObject {
  spec?: { selector?: Record<string, string> | null; ports?: unknown[]; clusterIP?: string; type?: string };
  status?: Record<string, unknown>;
}

export const services = defineResource<Service>({
  group: '',
  version: 'v1',
  resource: 'services',
  kind: 'Service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  subresources: ['status'],
  hasStatus: true,
  nameRule: 'label',
});
