import { KubeObject } from '../meta';
import { defineResource } from '../registry';

export interface ServiceAccount extends KubeObject {
  secrets?: { name: string; namespace?: string }[];
  automountServiceAccountToken?: boolean;
}

export const serviceaccounts = defineResource<ServiceAccount>({
  group: '',
  version: 'v1',
  resource: 'serviceaccounts',
  kind: 'ServiceAccount',
  namespaced: true,
  shortNames: ['sa'],
});
