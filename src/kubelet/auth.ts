import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { UserInfo, AuthorizationAttributes } from '../api/request';
import type { KubeletConfig } from './config';

/**
 * The kubelet API's guard (upstream pkg/kubelet/server/auth.go, InstallAuthFilter,
 * InstallDebuggingDisabledHandlers):
 * - authentication: a client certificate of the cluster CA (--client-ca-file) is its CN
 *   and O groups; else a bearer token, when --authentication-token-webhook, is whoever a
 *   TokenReview at the API server says; else system:anonymous when --anonymous-auth, else
 *   401 "Unauthorized". A certificate no trusted CA signed, or a token the review refuses,
 *   is 401.
 * - authorization: --authorization-mode AlwaysAllow lets everyone in; Webhook asks the API
 *   server a SubjectAccessReview for the node: verb from the method (GET get, POST create,
 *   PUT update, PATCH patch, DELETE delete), resource nodes, subresource stats (/stats/),
 *   metrics (/metrics), log (/logs/), else proxy; denied → 403 "Forbidden (user=…, …)".
 * - --enable-debugging-handlers=false: /run/, /exec/, /attach/, /portForward/,
 *   /containerLogs/, /runningpods/, /debug/pprof/, /logs/ answer 405 "Debug endpoints are
 *   disabled." (before authentication, as upstream registers them outside the filter).
 */
export interface KubeletReviews {
  /** A TokenReview at the API server: the user, or undefined when it refuses the token. */
  reviewToken(token: string): Promise<UserInfo | undefined>;
  /** A SubjectAccessReview at the API server. */
  review(attrs: AuthorizationAttributes): Promise<boolean>;
}

export type GuardDecision = { allowed: true; user: UserInfo } | { allowed: false; code: number; message: string };

const DEBUGGING_PATHS = [
  '/run/',
  '/exec/',
  '/attach/',
  '/portForward/',
  '/containerLogs/',
  '/runningpods/',
  '/debug/pprof/',
  '/logs/',
];

const VERBS: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

function isSubpath(path: string, prefix: string): boolean {
  const p = prefix.replace(/\/$/, '');
  return path === p || path.startsWith(`${p}/`);
}

export function subresourceOf(path: string): string {
  if (isSubpath(path, '/stats')) return 'stats';
  if (isSubpath(path, '/metrics')) return 'metrics';
  if (isSubpath(path, '/logs')) return 'log';
  return 'proxy';
}

export function debuggingDisabled(config: KubeletConfig, path: string): boolean {
  return !config.enableDebuggingHandlers && DEBUGGING_PATHS.some((p) => path.startsWith(p));
}

function minor(version: string): number {
  return Number(/^v\d+\.(\d+)/.exec(version)?.[1] ?? 0);
}

export async function guard(
  req: IncomingMessage,
  config: KubeletConfig,
  reviews: KubeletReviews | undefined,
): Promise<GuardDecision> {
  const unauthorized: GuardDecision = { allowed: false, code: 401, message: 'Unauthorized' };
  const socket = req.socket as TLSSocket;
  let user: UserInfo | undefined;
  const cert = socket.encrypted ? socket.getPeerCertificate?.() : undefined;
  if (cert && Object.keys(cert).length > 0) {
    if (!socket.authorized) return unauthorized;
    const subject = cert.subject as unknown as Record<string, string | string[]> | undefined;
    const cn = subject?.CN;
    const o = subject?.O;
    if (cn)
      user = {
        username: Array.isArray(cn) ? cn[0] : cn,
        groups: [...(o === undefined ? [] : Array.isArray(o) ? o : [o]), 'system:authenticated'],
      };
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!user && bearer && config.authenticationTokenWebhook) {
    if (!reviews) return unauthorized;
    user = await reviews.reviewToken(bearer[1]);
    if (!user) return unauthorized;
  }
  if (!user) {
    if (!config.anonymousAuth) return unauthorized;
    user = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
  }
  if (config.authorizationMode === 'AlwaysAllow') return { allowed: true, user };
  const path = new URL(req.url ?? '/', 'https://kubelet').pathname;
  const attrs: AuthorizationAttributes = {
    user,
    verb: VERBS[req.method ?? 'GET'] ?? '',
    isResourceRequest: true,
    path,
    apiGroup: '',
    resource: 'nodes',
    subresource: subresourceOf(path),
    namespace: '',
    name: config.nodeName,
  };
  if (reviews && (await reviews.review(attrs))) return { allowed: true, user };
  // v1.32 reports the list of subresources it tried (KubeletFineGrainedAuthz); older kubelets the one.
  const sub =
    minor(config.machine.version) >= 32 ? `subresource(s)=[${attrs.subresource}]` : `subresource=${attrs.subresource}`;
  return {
    allowed: false,
    code: 403,
    message: `Forbidden (user=${user.username}, verb=${attrs.verb}, resource=nodes, ${sub})\n`,
  };
}
