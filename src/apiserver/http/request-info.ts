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
  /**
   * The URL named a namespace before the resource (/namespaces/{ns}/{resource}…): only
   * namespaced resources are installed there, so a cluster-scoped one is no route (404).
   */
  namespacedPath?: boolean;
  resource?: string;
  subresource?: string;
  name?: string;
  /** Path segments after the subresource (proxy/…). */
  rest: string[];
}

/** What follows /namespaces/{name}/ as the namespace's own subresource (upstream's namespaceSubresources). */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const WATCH_TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** Go's strconv.ParseBool truth, as the apiserver parses ?watch=. */
export function queryBool(value: string | null): boolean {
  return value !== null && WATCH_TRUE.has(value);
}

/**
 * Runs on every request, so it reads the path in one pass: segments are decoded only when
 * the path has an escape (decodeURIComponent of a segment without "%" is that segment), and
 * the info is built once instead of copied.
 */
export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const escaped = path.includes('%');
  const parts: string[] = [];
  for (const p of path.split('/')) if (p !== '') parts.push(escaped ? decodeURIComponent(p) : p);
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    group: '',
    version: '',
    rest: [],
  };
  let i: number;
  if (parts[0] === 'api' && parts.length >= 2) {
    info.apiPrefix = 'api';
    info.version = parts[1];
    i = 2;
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    info.apiPrefix = 'apis';
    info.group = parts[1];
    info.version = parts[2];
    i = 3;
  } else {
    return info;
  }
  if (parts.length === i) return info; // discovery of a group/version
  info.isResourceRequest = true;
  // /namespaces/{ns}/{resource}… is namespaced; /namespaces and /namespaces/{name}[/status|finalize] are the namespace itself.
  if (parts[i] === 'namespaces' && parts.length - i >= 3 && !NAMESPACE_SUBRESOURCES.has(parts[i + 2])) {
    info.namespace = parts[i + 1];
    info.namespacedPath = true;
    i += 2;
  }
  const n = parts.length - i;
  info.resource = parts[i];
  if (n >= 2) info.name = parts[i + 1];
  if (n >= 3) info.subresource = parts[i + 2];
  if (n >= 4) info.rest = parts.slice(i + 3);
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
