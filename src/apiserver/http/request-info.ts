/**
 * What a request URL asks for, as upstream's RequestInfoFactory reads it
 * (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go): resource requests under
 * /api/v1 and /apis/<group>/<version>, the verb from the method and the query, and
 * everything else a non-resource request (/version, /healthz, /openapi/…).
 */
export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection (resource requests); lower-case method otherwise. */
  verb: string;
  apiPrefix?: 'api' | 'apis';
  group: string;
  version: string;
  namespace?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  /** Path segments after the subresource (proxy/…). */
  rest: string[];
}

const WATCH_TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** Go's strconv.ParseBool truth, as the apiserver parses ?watch=. */
export function queryBool(value: string | null): boolean {
  return value !== null && WATCH_TRUE.has(value);
}

export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  const base: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    group: '',
    version: '',
    rest: [],
  };
  let i = 0;
  if (parts[0] === 'api' && parts.length >= 2) {
    base.apiPrefix = 'api';
    base.version = parts[1];
    i = 2;
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    base.apiPrefix = 'apis';
    base.group = parts[1];
    base.version = parts[2];
    i = 3;
  } else {
    return base;
  }
  let seg = parts.slice(i);
  if (seg.length === 0) return base; // discovery of a group/version
  const info: RequestInfo = { ...base, isResourceRequest: true };
  // /namespaces/{ns}/{resource}… is namespaced; /namespaces and /namespaces/{name}[/status|finalize] are the namespace itself.
  if (seg[0] === 'namespaces' && seg.length >= 3) {
    info.namespace = seg[1];
    seg = seg.slice(2);
  }
  info.resource = seg[0];
  if (seg.length >= 2) info.name = seg[1];
  if (seg.length >= 3) info.subresource = seg[2];
  if (seg.length >= 4) info.rest = seg.slice(3);
  if (info.resource === 'namespaces' && info.name && !info.namespace) info.namespace = info.name;
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD') {
    info.verb = info.name ? 'get' : queryBool(query.get('watch')) ? 'watch' : 'list';
  } else if (m === 'POST') info.verb = 'create';
  else if (m === 'PUT') info.verb = 'update';
  else if (m === 'PATCH') info.verb = 'patch';
  else if (m === 'DELETE') info.verb = info.name ? 'delete' : 'deletecollection';
  return info;
}
