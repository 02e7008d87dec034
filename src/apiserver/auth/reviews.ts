import { errors } from '../../api/errors';
import { UserInfo, AuthorizationAttributes } from '../../api/request';
import { Authorizer } from './authorizer';
import { TokenAuthenticator } from './authenticator';

/**
 * The review APIs other components use to ask the API server who a token is and what a
 * user may do — how a kubelet in webhook mode guards its own API
 * (--authentication-token-webhook, --authorization-mode=Webhook):
 * - authentication.k8s.io/v1 TokenReview: spec.token → status.authenticated, status.user;
 * - authorization.k8s.io/v1 SubjectAccessReview: spec.user/groups + resourceAttributes or
 *   nonResourceAttributes → status.allowed (and denied, reason);
 * - SelfSubjectAccessReview: the same for the requesting user (`kubectl auth can-i`).
 * Nothing is stored: the answer is the created object with its status.
 * Upstream: pkg/registry/authorization/subjectaccessreview, selfsubjectaccessreview,
 * pkg/registry/authentication/tokenreview.
 */
interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

interface AccessReviewSpec {
  user?: string;
  uid?: string;
  groups?: string[];
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: { path?: string; verb?: string };
}

interface Review {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, unknown>;
  spec?: AccessReviewSpec & { token?: string };
}

function body(raw: unknown, kind: string): Review {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw errors.badRequest(`a ${kind} must be an object`);
  const review = raw as Review;
  if (review.kind !== undefined && review.kind !== kind)
    throw errors.badRequest(`expected kind ${kind}, got ${String(review.kind)}`);
  if (typeof review.spec !== 'object' || review.spec === null)
    throw errors.invalid(
      kind,
      '',
      [{ field: 'spec', message: 'Required value' }],
      kind === 'TokenReview' ? 'authentication.k8s.io' : 'authorization.k8s.io',
    );
  return review;
}

function attributesOf(kind: string, spec: AccessReviewSpec, user: UserInfo): AuthorizationAttributes {
  const r = spec.resourceAttributes;
  const n = spec.nonResourceAttributes;
  if (!!r === !!n) {
    throw errors.invalid(
      kind,
      '',
      [
        {
          field: 'spec.resourceAttributes',
          message: 'Invalid value: exactly one of nonResourceAttributes or resourceAttributes must be specified',
        },
      ],
      'authorization.k8s.io',
    );
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  if (r) {
    return {
      user,
      verb: str(r.verb),
      isResourceRequest: true,
      path: '',
      apiGroup: str(r.group),
      resource: str(r.resource),
      subresource: str(r.subresource),
      namespace: str(r.namespace),
      name: str(r.name),
    };
  }
  return {
    user,
    verb: str(n!.verb),
    isResourceRequest: false,
    path: str(n!.path),
    apiGroup: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
  };
}

async function decide(
  authorizer: Authorizer,
  attrs: AuthorizationAttributes,
): Promise<{ allowed: boolean; reason?: string }> {
  const d = await authorizer.authorize(attrs);
  return d.allowed ? { allowed: true, ...(d.reason ? { reason: d.reason } : {}) } : { allowed: false };
}

export async function subjectAccessReview(authorizer: Authorizer, raw: unknown): Promise<unknown> {
  const review = body(raw, 'SubjectAccessReview');
  const spec = review.spec!;
  if (!spec.user && !(spec.groups ?? []).length) {
    throw errors.invalid(
      'SubjectAccessReview',
      '',
      [{ field: 'spec.user', message: 'Invalid value: "": at least one of user or group must be specified' }],
      'authorization.k8s.io',
    );
  }
  const user: UserInfo = { username: spec.user ?? '', uid: spec.uid, groups: [...(spec.groups ?? [])] };
  const status = await decide(authorizer, attributesOf('SubjectAccessReview', spec, user));
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    metadata: { creationTimestamp: null },
    spec,
    status,
  };
}

export async function selfSubjectAccessReview(authorizer: Authorizer, user: UserInfo, raw: unknown): Promise<unknown> {
  const review = body(raw, 'SelfSubjectAccessReview');
  const spec = review.spec!;
  const status = await decide(authorizer, attributesOf('SelfSubjectAccessReview', spec, user));
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    metadata: { creationTimestamp: null },
    spec,
    status,
  };
}

/** Who a bearer token is, by the API server's own token authenticators. */
export async function reviewToken(tokens: TokenAuthenticator[], token: string): Promise<UserInfo | undefined> {
  for (const t of tokens) {
    const user = await t.authenticateToken(token);
    if (user)
      return user.groups.includes('system:authenticated')
        ? user
        : { ...user, groups: [...user.groups, 'system:authenticated'] };
  }
  return undefined;
}

export async function tokenReview(tokens: TokenAuthenticator[], raw: unknown): Promise<unknown> {
  const review = body(raw, 'TokenReview');
  const token = review.spec!.token;
  // Upstream's tokenreview REST (pkg/registry/authentication/tokenreview): a 400, not a 422.
  if (typeof token !== 'string' || token === '')
    throw errors.badRequest('token is required for TokenReview in authentication.k8s.io');
  const user = await reviewToken(tokens, token);
  const status = user
    ? {
        authenticated: true,
        user: {
          username: user.username,
          ...(user.uid ? { uid: user.uid } : {}),
          groups: user.groups,
          ...(user.extra ? { extra: user.extra } : {}),
        },
      }
    : { authenticated: false, error: 'invalid bearer token' };
  return {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: { token },
    status,
  };
}
