import { ObjectReference } from '../core';
import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { isIPv4 } from '../ipv4';
import { Protocol, validPort } from './service';

/** discovery.k8s.io/v1 EndpointConditions. */
export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface SliceEndpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: ObjectReference;
  nodeName?: string;
  zone?: string;
}

export interface SlicePort {
  name?: string;
  port?: number;
  protocol?: Protocol;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints: SliceEndpoint[];
  ports?: SlicePort[];
}

/** kubernetes.io/service-name (discovery.LabelServiceName). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
/** endpointslice.kubernetes.io/managed-by (discovery.LabelManagedBy). */
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';

const ADDRESS_TYPES = ['IPv4', 'IPv6', 'FQDN'];

/**
 * EndpointSlice (discovery.k8s.io/v1, GA in v1.21): served only by releases that have it
 * (the kubernetes-1.32 profile). Validation keeps ValidateEndpointSlice's main rules: a
 * supported addressType, 1 to 100 addresses per endpoint (IPv4 ones valid), at most 1000
 * endpoints and 100 ports, ports in range.
 */
export const endpointslices = defineResource<EndpointSlice>({
  group: 'discovery.k8s.io',
  version: 'v1',
  resource: 'endpointslices',
  kind: 'EndpointSlice',
  namespaced: true,
  validate(slice) {
    const errs: FieldErrors = [];
    if (!slice.addressType) errs.push(fieldError.required('addressType', ''));
    else if (!ADDRESS_TYPES.includes(slice.addressType))
      errs.push(fieldError.notSupported('addressType', slice.addressType, ADDRESS_TYPES));
    const eps = slice.endpoints ?? [];
    if (eps.length > 1000) errs.push(fieldError.invalid('endpoints', eps.length, 'must have at most 1000 items'));
    eps.forEach((ep, i) => {
      const addrs = ep.addresses ?? [];
      if (addrs.length < 1 || addrs.length > 100)
        errs.push(
          fieldError.invalid(`endpoints[${i}].addresses`, addrs.length, 'must contain between 1 and 100 addresses'),
        );
      addrs.forEach((a, j) => {
        if (slice.addressType === 'IPv4' && !isIPv4(a))
          errs.push(fieldError.invalid(`endpoints[${i}].addresses[${j}]`, a, 'must be a valid IPv4 address'));
      });
    });
    (slice.ports ?? []).forEach((p, i) => {
      if (p.port !== undefined && !validPort(p.port))
        errs.push(fieldError.invalid(`ports[${i}].port`, p.port, 'must be between 1 and 65535, inclusive'));
    });
    return errs;
  },
});
