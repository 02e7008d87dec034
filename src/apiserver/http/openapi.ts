import { createHash } from 'node:crypto';
import { ResourceRegistry } from '../../api/registry';
import { groupVersions } from './discovery';

/**
 * The smallest OpenAPI v3 kubectl accepts for `apply`, `create -f` and `replace -f`: per
 * group/version, a PATCH operation per kind carrying x-kubernetes-group-version-kind and a
 * fieldValidation query parameter, so kubectl leaves validation to the server
 * (cli-runtime query_param_verifier_v3.go). No schemas: kubectl then builds strategic
 * merge patches from its compiled-in types.
 */
function pathKey(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export function openapiDocument(registry: ResourceRegistry, group: string, version: string, gitVersion: string) {
  const types = [
    ...registry.all().filter((rt) => rt.group === group && rt.version === version),
    ...registry
      .aliases()
      .filter((a) => a.group === group && a.version === version)
      .map((a) => a.storage),
  ];
  if (types.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  for (const rt of types) {
    const prefix = `/${pathKey(group, version)}${rt.namespaced ? '/namespaces/{namespace}' : ''}/${rt.resource}/{name}`;
    paths[prefix] = {
      patch: {
        operationId: `patch${rt.kind}`,
        'x-kubernetes-group-version-kind': { group, version, kind: rt.kind },
        parameters: [{ name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } }],
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: gitVersion }, paths };
}

export function openapiIndex(registry: ResourceRegistry, gitVersion: string) {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of groupVersions(registry)) {
    const key = pathKey(gv.group, gv.version);
    const hash = createHash('sha256')
      .update(JSON.stringify(openapiDocument(registry, gv.group, gv.version, gitVersion)))
      .digest('hex')
      .slice(0, 16)
      .toUpperCase();
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { paths };
}
