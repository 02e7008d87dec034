import { KubeList, KubeObject, Status } from '../api/meta';
import { ApiServer } from './apiserver';
import { StatusError } from '../api/errors';
import { DeleteOptions, ListOptions, PatchType, UserInfo, WatchOptions } from '../api/request';
import { Quiescence } from '../clock';
import { Client, ResourceRef, Watch, WatchHandlers } from '../client/client';

/**
 * The loopback client (upstream's loopback clientset, without the loopback): calls the API
 * server's handlers directly: no sockets, same semantics. Every request is
 * tracked so the virtual clock knows when the cluster is at rest.
 */
export class InProcessClient implements Client {
  constructor(
    private readonly api: ApiServer,
    private readonly quiescence: Quiescence,
    private readonly user?: UserInfo,
  ) {}

  private run<T>(fn: () => Promise<T>): Promise<T> {
    return this.quiescence.track(fn());
  }

  private target(ref: ResourceRef, name?: string, subresource?: string) {
    return { resource: ref.resource, namespace: ref.namespace, name, subresource };
  }

  create<T extends KubeObject>(ref: ResourceRef, obj: T, options: { dryRun?: boolean } = {}): Promise<T> {
    const namespace = ref.namespace ?? obj.metadata?.namespace;
    return this.run(
      () =>
        this.api.create({ ...this.target(ref), namespace }, obj, {
          user: this.user,
          dryRun: options.dryRun,
        }) as Promise<T>,
    );
  }

  get<T extends KubeObject>(ref: ResourceRef, name: string, options: { subresource?: string } = {}): Promise<T> {
    return this.run(() => this.api.get(this.target(ref, name, options.subresource), { user: this.user }) as Promise<T>);
  }

  list<T extends KubeObject>(ref: ResourceRef, options: ListOptions = {}): Promise<KubeList<T>> {
    return this.run(() => this.api.list(this.target(ref), options, { user: this.user }) as Promise<KubeList<T>>);
  }

  update<T extends KubeObject>(ref: ResourceRef, obj: T, options: { subresource?: string } = {}): Promise<T> {
    const namespace = ref.namespace ?? obj.metadata.namespace;
    return this.run(
      () =>
        this.api.update({ ...this.target(ref, obj.metadata.name, options.subresource), namespace }, obj, {
          user: this.user,
        }) as Promise<T>,
    );
  }

  patch<T extends KubeObject>(
    ref: ResourceRef,
    name: string,
    type: PatchType,
    patch: unknown,
    options: { subresource?: 'status' } = {},
  ): Promise<T> {
    return this.run(
      () => this.api.patch(this.target(ref, name, options.subresource), type, patch, { user: this.user }) as Promise<T>,
    );
  }

  delete<T extends KubeObject>(ref: ResourceRef, name: string, options: DeleteOptions = {}): Promise<T | Status> {
    return this.run(
      async () => (await this.api.delete(this.target(ref, name), options, { user: this.user })).object as T,
    );
  }

  deleteCollection<T extends KubeObject>(
    ref: ResourceRef,
    options: DeleteOptions = {},
    listOptions: ListOptions = {},
  ): Promise<KubeList<T>> {
    return this.run(
      () =>
        this.api.deleteCollection(this.target(ref), listOptions, options, { user: this.user }) as Promise<KubeList<T>>,
    );
  }

  createSubresource<R>(ref: ResourceRef, name: string, subresource: string, body: unknown): Promise<R> {
    return this.run(
      () => this.api.create(this.target(ref, name, subresource), body, { user: this.user }) as Promise<R>,
    );
  }

  watch<T extends KubeObject>(ref: ResourceRef, options: WatchOptions, handlers: WatchHandlers<T>): Promise<Watch> {
    return this.run(async () => {
      let closed = false;
      const handle = await this.api.watch(
        this.target(ref),
        options,
        (e) => {
          if (closed) return;
          // The storage ended the watch (410 Gone): closed with that error, as over HTTP.
          if (e.type === 'ERROR') {
            closed = true;
            handlers.onClose?.(new StatusError(e.object as unknown as Status));
            return;
          }
          handlers.onEvent(e as never);
        },
        { user: this.user },
      );
      return {
        stop: () => {
          handle.stop();
          if (!closed) {
            closed = true;
            handlers.onClose?.();
          }
        },
      };
    });
  }
}
