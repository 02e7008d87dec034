// The pre-flight of a run on a cluster: before any scenario, three requests tell whether the
// cluster can be judged at all — GET /version (is it there: a refused connection, a wrong
// host, a certificate that does not verify or has expired), an authenticated GET of the
// namespaces (does it accept the kubeconfig's credentials: 401), and a dry-run create of a
// namespace (may this user create what scenarios create: 403, an admission webhook that
// refuses everything). A cluster that fails it is not a failing cluster but one the run
// cannot reach: the CLI exits 2 at once, naming the server, the user and the cause, instead
// of marking every scenario ✖ with `connect ECONNREFUSED`.
import { coreRegistry } from '../api/resources';
import { KubeconfigClient } from '../client/kubeconfig';

export interface PreflightResult {
  server: string;
  user: string;
  /** the server's gitVersion */
  version: string;
}

/** A cluster the run cannot use; message names server, user, step and cause. */
export class PreflightError extends Error {
  override name = 'PreflightError';
}

/** What each step waits at most: a pre-flight must fail fast, not hang on a black-holed address. */
export const PREFLIGHT_STEP_MS = 15_000;

/** The pre-flight against the kubeconfig's (current or given) context; throws a PreflightError. */
export async function preflight(kubeconfig: string, context?: string): Promise<PreflightResult> {
  let api: KubeconfigClient;
  try {
    api = KubeconfigClient.fromFile(kubeconfig, coreRegistry(), context);
  } catch (e) {
    throw new PreflightError(`pre-flight: the kubeconfig ${kubeconfig} cannot be used: ${(e as Error).message}`);
  }
  return preflightClient(api, kubeconfig);
}

export async function preflightClient(api: KubeconfigClient, source = 'the kubeconfig'): Promise<PreflightResult> {
  const server = safe(() => api.server, '(no server in the kubeconfig)');
  const user = userOf(api);
  const fail = (step: string, e: unknown): never => {
    throw new PreflightError(
      `pre-flight: cannot judge the cluster at ${server} as ${user} (${source}): ${step} failed: ${causeOf(e)}`,
    );
  };
  let version = '';
  try {
    const v = await timed(api.request<{ gitVersion?: string }>('GET', '/version'), 'GET /version');
    version = v?.gitVersion ?? '(no gitVersion)';
  } catch (e) {
    fail('GET /version', e);
  }
  try {
    await timed(api.request('GET', '/api/v1/namespaces', { query: { limit: '1' } }), 'GET /api/v1/namespaces');
  } catch (e) {
    fail('the authentication check (GET /api/v1/namespaces?limit=1)', e);
  }
  try {
    await timed(
      api.request('POST', '/api/v1/namespaces', {
        query: { dryRun: 'All' },
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'kubespec-preflight-' } },
      }),
      'POST /api/v1/namespaces?dryRun=All',
    );
  } catch (e) {
    fail('a dry-run create (POST /api/v1/namespaces?dryRun=All)', e);
  }
  return { server, user, version };
}

/** Who the kubeconfig says the client is: the user entry's name, and how it authenticates. */
function userOf(api: KubeconfigClient): string {
  const u = api.kubeConfig.getCurrentUser();
  if (!u) return 'no user (anonymous)';
  const how =
    u.certFile || u.certData
      ? 'client certificate'
      : u.token || u.authProvider || u.exec
        ? 'token'
        : u.username
          ? 'basic auth'
          : 'no credentials';
  return `user "${u.name}" (${how})`;
}

/** The cause in words a person acts on: the errno or TLS code, the HTTP status and its reason. */
function causeOf(e: unknown): string {
  const err = e as Error & {
    code?: string;
    status?: { code?: number; reason?: string; message?: string };
    cause?: unknown;
  };
  const parts: string[] = [];
  if (err?.status?.code) parts.push(`${err.status.code} ${err.status.reason ?? ''}`.trim());
  let c: unknown = err;
  for (let i = 0; c && i < 4; i++) {
    const x = c as { code?: string; message?: string; cause?: unknown };
    if (typeof x.code === 'string' && !parts.includes(x.code)) parts.push(x.code);
    c = x.cause;
  }
  const message = err?.status?.message ?? err?.message ?? String(e);
  return parts.length ? `${parts.join(', ')}: ${message}` : message;
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}

function timed<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what}: no answer in ${PREFLIGHT_STEP_MS / 1000} s`)),
        PREFLIGHT_STEP_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}
