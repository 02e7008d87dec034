import { KubeObject, Status } from '../../api/meta';
import type { ApiServer, RequestContext, RequestTarget } from '../apiserver';

/** A subresource with behaviour of its own (binding, eviction, scale, log…). */
export interface SubresourceHandler {
  create?(api: ApiServer, target: RequestTarget, body: unknown, ctx: RequestContext): Promise<KubeObject | Status>;
  get?(api: ApiServer, target: RequestTarget, ctx: RequestContext): Promise<KubeObject>;
  update?(api: ApiServer, target: RequestTarget, body: unknown, ctx: RequestContext): Promise<KubeObject>;
}
