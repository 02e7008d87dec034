import type { IncomingHttpHeaders } from 'node:http';
import { errors } from '../../api/errors';
import { AuthorizationAttributes, UserInfo } from '../../api/request';
import { Authorizer, forbiddenMessage } from './authorizer';

/**
 * Impersonation, as upstream's WithImpersonation filter (k8s.io/apiserver/pkg/endpoints/
 * filters/impersonation.go): Impersonate-User, Impersonate-Group (repeated),
 * Impersonate-Uid and Impersonate-Extra-<key> ask to run the request as someone else. Each
 * thing asked for is authorized for the caller with the verb `impersonate` on users,
 * serviceaccounts (a user named system:serviceaccount:<ns>:<name>), groups, uids or
 * userextras/<key>; the first refusal is a 403, and only when every one is allowed does
 * the request continue — authorized and answered — as the impersonated user. Groups,
 * uid or extra without a user are refused, as upstream does, with a 500.
 */
export const IMPERSONATE_USER = 'impersonate-user';
const IMPERSONATE_GROUP = 'impersonate-group';
const IMPERSONATE_UID = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';

const SA_PREFIX = 'system:serviceaccount:';

/** A request's impersonation, one authorization per thing it asks for. */
interface Ask {
  resource: 'users' | 'serviceaccounts' | 'groups' | 'userextras' | 'uids';
  apiGroup: '' | 'authentication.k8s.io';
  name: string;
  namespace?: string;
  subresource?: string;
}

/** serviceaccount.SplitUsername: system:serviceaccount:<ns>:<name>, both parts non-empty. */
function splitServiceAccount(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/** Whether the request asks to impersonate at all (any Impersonate-* header). */
export function asksImpersonation(headers: IncomingHttpHeaders): boolean {
  for (const h of Object.keys(headers)) if (h.startsWith('impersonate-')) return true;
  return false;
}

/**
 * The user the request runs as: the caller when it asks for no impersonation, otherwise the
 * impersonated user once the caller may impersonate each part of it. `headers` holds each
 * header's values apart (IncomingMessage.headersDistinct), as Go's http.Header does.
 */
export async function impersonate(
  headers: Record<string, string[] | undefined>,
  requestor: UserInfo,
  authorizer: Authorizer,
): Promise<UserInfo> {
  const first = (h: string) => headers[h]?.[0] ?? '';
  const asks: Ask[] = [];
  const requestedUser = first(IMPERSONATE_USER);
  const sa = requestedUser ? splitServiceAccount(requestedUser) : undefined;
  if (sa) asks.push({ resource: 'serviceaccounts', apiGroup: '', name: sa.name, namespace: sa.namespace });
  else if (requestedUser) asks.push({ resource: 'users', apiGroup: '', name: requestedUser });
  const requestedGroups = headers[IMPERSONATE_GROUP] ?? [];
  for (const g of requestedGroups) asks.push({ resource: 'groups', apiGroup: '', name: g });
  const extra: Record<string, string[]> = {};
  for (const [h, values] of Object.entries(headers)) {
    if (!h.startsWith(EXTRA_PREFIX)) continue;
    const key = unescapeExtraKey(h.slice(EXTRA_PREFIX.length));
    for (const v of values ?? []) {
      asks.push({ resource: 'userextras', apiGroup: 'authentication.k8s.io', name: v, subresource: key });
      (extra[key] ??= []).push(v);
    }
  }
  const uid = first(IMPERSONATE_UID);
  if (uid) asks.push({ resource: 'uids', apiGroup: 'authentication.k8s.io', name: uid });
  if (asks.length === 0) return requestor;
  if (!requestedUser) {
    throw errors.internal(
      `requested ${asks.map((a) => `${a.resource} "${a.name}"`).join(', ')} without impersonating a user`,
    );
  }
  for (const a of asks) {
    const attrs: AuthorizationAttributes = {
      user: requestor,
      verb: 'impersonate',
      isResourceRequest: true,
      path: '',
      apiGroup: a.apiGroup,
      resource: a.resource,
      subresource: a.subresource ?? '',
      namespace: a.namespace ?? '',
      name: a.name,
    };
    const decision = await authorizer.authorize(attrs);
    if (!decision.allowed)
      throw errors.forbiddenMessage(forbiddenMessage(attrs), {
        kind: a.resource,
        group: a.apiGroup || undefined,
        name: a.name,
      });
  }
  // A service account's groups are fixed (serviceaccount.MakeGroupNames) unless groups are asked for.
  const groups =
    requestedGroups.length > 0
      ? [...requestedGroups]
      : sa
        ? ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`]
        : [];
  // Every impersonated user but anonymous is authenticated, unless the groups asked for say otherwise.
  if (requestedUser !== 'system:anonymous') {
    if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated'))
      groups.push('system:authenticated');
  } else if (!groups.includes('system:unauthenticated')) groups.push('system:unauthenticated');
  const user: UserInfo = { username: requestedUser, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}

/** Extra keys are %-encoded in header names (unescapeExtraKey); a malformed one is kept as sent. */
function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded; // upstream records malformed keys as they came, too
  }
}
