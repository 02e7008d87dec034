import type { IncomingMessage, ServerResponse } from 'node:http';
import { ResourceRegistry } from '../../api/registry';
import { RequestInfo } from './request-info';
import { pageNotFound, writeJSON } from './respond';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery';
import { openapiDocument, openapiIndex } from './openapi';

/** The paths that are not resources: health, /version, discovery (/api, /apis/…) and OpenAPI v3; 404 for the rest. */
export async function serveNonResource(
  req: IncomingMessage,
  res: ServerResponse,
  info: RequestInfo,
  url: URL,
  registry: ResourceRegistry,
  gitVersion: string,
  serverAddress?: () => string,
): Promise<void> {
  const p = url.pathname.replace(/\/+$/, '') || '/';
  const text = (code: number, body: string) => {
    res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(body);
  };
  if (p === '/healthz' || p === '/livez' || p === '/readyz') return text(200, 'ok');
  if (p === '/version') return writeJSON(res, 200, versionInfo(gitVersion));
  if (p === '/api') return writeJSON(res, 200, apiVersions(serverAddress?.() ?? req.headers.host ?? ''));
  if (p === '/apis') return writeJSON(res, 200, apiGroupList(registry));
  if (info.apiPrefix === 'api' && p === `/api/${info.version}`) {
    const list = apiResourceList(registry, '', info.version);
    if (list) return writeJSON(res, 200, list);
  }
  if (info.apiPrefix === 'apis' && p === `/apis/${info.group}/${info.version}`) {
    const list = apiResourceList(registry, info.group, info.version);
    if (list) return writeJSON(res, 200, list);
  }
  const group = /^\/apis\/([^/]+)$/.exec(p);
  if (group) {
    const g = apiGroup(registry, group[1]);
    if (g) return writeJSON(res, 200, g);
  }
  if (p === '/openapi/v3') return writeJSON(res, 200, openapiIndex(registry, gitVersion));
  const oa = /^\/openapi\/v3\/(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))$/.exec(p);
  if (oa) {
    const doc = oa[1]
      ? openapiDocument(registry, '', oa[1], gitVersion)
      : openapiDocument(registry, oa[2], oa[3], gitVersion);
    if (doc) return writeJSON(res, 200, doc);
  }
  throw pageNotFound();
}
