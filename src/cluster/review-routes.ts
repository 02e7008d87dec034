import type { IncomingMessage } from 'node:http';
import { RequestAuthenticator } from '../apiserver/auth/authenticator';
import { Authorizer } from '../apiserver/auth/authorizer';
import { selfSubjectAccessReview, subjectAccessReview, tokenReview } from '../apiserver/auth/reviews';
import { NonResourceRoute } from '../apiserver/http/handler';
import { decodeProtobuf, PROTOBUF } from '../apiserver/http/protobuf';
import { writeJSON } from '../apiserver/http/respond';
import { errors } from '../api/errors';
import type { UserInfo } from '../api/request';
import { parseJSON } from './control-routes';

/**
 * POST /apis/authorization.k8s.io/v1/subjectaccessreviews and selfsubjectaccessreviews,
 * /apis/authentication.k8s.io/v1/tokenreviews: answered, never stored (authorized as
 * `create` on them like any resource request).
 */
export function reviewRoutes(authenticator: RequestAuthenticator, authorizer: Authorizer): NonResourceRoute[] {
  const route = (
    prefix: string,
    answer: (req: IncomingMessage, input: unknown, user: UserInfo) => Promise<unknown>,
  ): NonResourceRoute => ({
    prefix,
    async handle(req, res, p, body, user) {
      if (p !== prefix) throw errors.notFound({ kind: '', name: p });
      if (req.method !== 'POST')
        throw errors.methodNotSupported(
          { kind: prefix.split('/').pop()!, group: prefix.split('/')[2] },
          (req.method ?? '').toLowerCase(),
        );
      const raw = await body();
      const protobuf = (req.headers['content-type'] ?? '').startsWith(PROTOBUF);
      writeJSON(res, 201, await answer(req, protobuf ? decodeProtobuf(raw) : parseJSON(raw), user));
    },
  });
  return [
    route('/apis/authorization.k8s.io/v1/subjectaccessreviews', async (_req, input) =>
      subjectAccessReview(authorizer, input),
    ),
    // the request's user, impersonated when it asked to be (kubectl auth can-i --as)
    route('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', async (_req, input, user) =>
      selfSubjectAccessReview(authorizer, user, input),
    ),
    route('/apis/authentication.k8s.io/v1/tokenreviews', async (_req, input) =>
      tokenReview(authenticator.tokens, input),
    ),
  ];
}
