import { isIPv4 } from '../ipv4';
import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface ServicePort {
  name?: string;
  protocol?: Protocol;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
}

export interface Service extends KubeObject {
  spec: {
    type?: ServiceType;
    selector?: Record<string, string>;
    ports?: ServicePort[];
    clusterIP?: string;
    clusterIPs?: string[];
    externalName?: string;
    sessionAffinity?: 'None' | 'ClientIP';
    publishNotReadyAddresses?: boolean;
    loadBalancerClass?: string;
    loadBalancerIP?: string;
    externalTrafficPolicy?: 'Cluster' | 'Local';
    internalTrafficPolicy?: 'Cluster' | 'Local';
  };
  status?: { loadBalancer?: { ingress?: LoadBalancerIngress[] } };
}

const TYPES: ServiceType[] = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];
const PROTOCOLS: Protocol[] = ['TCP', 'UDP', 'SCTP'];
export function validPort(p: unknown): boolean {
  return Number.isInteger(p) && (p as number) >= 1 && (p as number) <= 65535;
}

/** Service (core/v1): defaults as SetDefaults_Service, validation as ValidateService (in part). */
export const services = defineResource<Service>({
  group: '',
  version: 'v1',
  resource: 'services',
  kind: 'Service',
  namespaced: true,
  // Upstream's key: /registry/services/specs/<ns>/<name> (pkg/registry/core/service/storage NewREST).
  storagePrefix: 'services/specs',
  shortNames: ['svc'],
  categories: ['all'],
  subresources: ['status', 'proxy'],
  hasStatus: true,
  nameRule: 'label',
  defaults(svc) {
    const s = (svc.spec ??= {});
    s.type ??= 'ClusterIP';
    s.sessionAffinity ??= 'None';
    if (s.type !== 'ExternalName') s.internalTrafficPolicy ??= 'Cluster';
    if (s.type === 'NodePort' || s.type === 'LoadBalancer') s.externalTrafficPolicy ??= 'Cluster';
    for (const p of s.ports ?? []) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
    }
  },
  prepareForCreate(svc) {
    svc.status = { loadBalancer: {} };
  },
  validate(svc) {
    const errs: FieldErrors = [];
    const s = svc.spec;
    if (!s) return [fieldError.required('spec')];
    if (s.type && !TYPES.includes(s.type)) errs.push(fieldError.notSupported('spec.type', s.type, TYPES));
    if (s.type !== 'ExternalName' && (s.ports ?? []).length === 0 && s.clusterIP !== 'None')
      errs.push(fieldError.required('spec.ports'));
    const names = new Set<string>();
    (s.ports ?? []).forEach((p, i) => {
      const f = `spec.ports[${i}]`;
      if ((s.ports ?? []).length > 1 && !p.name) errs.push(fieldError.required(`${f}.name`));
      if (p.name) {
        if (names.has(p.name)) errs.push(fieldError.duplicate(`${f}.name`, p.name));
        names.add(p.name);
      }
      if (!validPort(p.port))
        errs.push(fieldError.invalid(`${f}.port`, p.port, 'must be between 1 and 65535, inclusive'));
      if (p.protocol && !PROTOCOLS.includes(p.protocol))
        errs.push(fieldError.notSupported(`${f}.protocol`, p.protocol, PROTOCOLS));
      if (typeof p.targetPort === 'number' && !validPort(p.targetPort))
        errs.push(fieldError.invalid(`${f}.targetPort`, p.targetPort, 'must be between 1 and 65535, inclusive'));
    });
    if (s.clusterIP && s.clusterIP !== 'None' && !isIPv4(s.clusterIP)) {
      errs.push(
        fieldError.invalid(
          'spec.clusterIPs[0]',
          s.clusterIP,
          'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        ),
      );
    }
    return errs;
  },
  validateUpdate(svc, old) {
    const before = old.spec?.clusterIP;
    if (before && svc.spec?.clusterIP !== before && svc.spec?.type !== 'ExternalName') {
      return [fieldError.invalid('spec.clusterIPs[0]', svc.spec?.clusterIP ?? '', 'may not change once set')];
    }
    return [];
  },
});
