import { KubeObject } from '../meta';
import { defineResource } from '../registry';
import { fieldError } from '../validation/field';

export interface Secret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  immutable?: boolean;
}

export const SERVICE_ACCOUNT_TOKEN = 'kubernetes.io/service-account-token';
export const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SA_UID_ANNOTATION = 'kubernetes.io/service-account.uid';

/**
 * Secret (core/v1): type defaults to Opaque; stringData is merged into data (base64) on
 * write, as upstream's conversion does; a service-account-token secret must name its account.
 */
export const secrets = defineResource<Secret>({
  group: '',
  version: 'v1',
  resource: 'secrets',
  kind: 'Secret',
  namespaced: true,
  defaults(secret) {
    secret.type ??= 'Opaque';
    if (secret.stringData) {
      secret.data = { ...secret.data };
      for (const [k, v] of Object.entries(secret.stringData))
        secret.data[k] = Buffer.from(v, 'utf8').toString('base64');
      delete secret.stringData;
    }
  },
  validate(secret) {
    if (secret.type === SERVICE_ACCOUNT_TOKEN && !secret.metadata.annotations?.[SA_NAME_ANNOTATION]) {
      return [fieldError.required(`metadata.annotations[${SA_NAME_ANNOTATION}]`)];
    }
    return [];
  },
  fields(secret) {
    return { type: secret.type ?? '' };
  },
});
