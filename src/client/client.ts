import { KubeList, KubeObject, Status } from '../api/meta';
import type { ApiWatchEvent, DeleteOptions, ListOptions, PatchType, WatchOptions } from '../api/request';

/** Which objects: a plural resource name ("pods", "leases.coordination.k8s.io") and scope. */
export interface ResourceRef {
  resource: string;
  namespace?: string;
}

export interface Watch {
  stop(): void;
}

export interface WatchHandlers<T extends KubeObject> {
  onEvent(event: ApiWatchEvent<T>): void;
  /** The watch ended (server closed it, or an error such as 410 Gone). */
  onClose?(error?: Error): void;
}

/**
 * How every component talks to the API server. Implemented in-process (direct calls)
 * and over HTTP; components never know which. Errors are StatusErrors.
 */
export interface Client {
  create<T extends KubeObject>(ref: ResourceRef, obj: T, options?: { dryRun?: boolean }): Promise<T>;
  /** GET an object, or one of its subresources ("scale"). */
  get<T extends KubeObject>(ref: ResourceRef, name: string, options?: { subresource?: string }): Promise<T>;
  list<T extends KubeObject>(ref: ResourceRef, options?: ListOptions): Promise<KubeList<T>>;
  /** PUT an object, or a subresource: "status", "scale", "finalize" (namespaces). */
  update<T extends KubeObject>(ref: ResourceRef, obj: T, options?: { subresource?: string }): Promise<T>;
  patch<T extends KubeObject>(
    ref: ResourceRef,
    name: string,
    type: PatchType,
    patch: unknown,
    options?: { subresource?: 'status' },
  ): Promise<T>;
  delete<T extends KubeObject>(ref: ResourceRef, name: string, options?: DeleteOptions): Promise<T | Status>;
  /**
   * DELETE on a collection (every object the list options select, each deleted as by
   * delete); returns what was deleted. Optional: a client without it makes callers list and
   * delete one by one, as upstream's callers do when the verb is not served.
   */
  deleteCollection?<T extends KubeObject>(
    ref: ResourceRef,
    options?: DeleteOptions,
    listOptions?: ListOptions,
  ): Promise<KubeList<T>>;
  /** POST to a subresource such as pods/{name}/binding or pods/{name}/eviction. */
  createSubresource<R = KubeObject | Status>(
    ref: ResourceRef,
    name: string,
    subresource: string,
    body: unknown,
  ): Promise<R>;
  watch<T extends KubeObject>(ref: ResourceRef, options: WatchOptions, handlers: WatchHandlers<T>): Promise<Watch>;
}
