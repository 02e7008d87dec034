import { ObjectReference } from '../core';
import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError, FieldErrors } from '../validation/field';
import { isIPv4 } from '../ipv4';
import { Protocol, validPort } from './service';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: Protocol;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

/** Endpoints (core/v1): the addresses behind a service, kept by the endpoints controller. */
export const endpoints = defineResource<Endpoints>({
  group: '',
  version: 'v1',
  resource: 'endpoints',
  kind: 'Endpoints',
  singular: 'endpoints',
  namespaced: true,
  // Upstream's key: /registry/services/endpoints/<ns>/<name> (pkg/registry/core/endpoint/storage NewREST).
  storagePrefix: 'services/endpoints',
  shortNames: ['ep'],
  validate(ep) {
    const errs: FieldErrors = [];
    (ep.subsets ?? []).forEach((ss, i) => {
      [...(ss.addresses ?? []), ...(ss.notReadyAddresses ?? [])].forEach((a, j) => {
        if (!isIPv4(a.ip))
          errs.push(fieldError.invalid(`subsets[${i}].addresses[${j}].ip`, a.ip, 'must be a valid IP address'));
      });
      (ss.ports ?? []).forEach((p, j) => {
        if (!validPort(p.port))
          errs.push(
            fieldError.invalid(`subsets[${i}].ports[${j}].port`, p.port, 'must be between 1 and 65535, inclusive'),
          );
      });
    });
    return errs;
  },
});
