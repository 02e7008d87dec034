import { KubeObject } from '../api/meta';
import { Client, ResourceRef } from './client';

/**
 * A client whose writes are each followed by `afterWrite` (a driver lets the cluster react
 * before the step goes on); `onCreate` hears of every object made. Reads pass through.
 * `client` is read on every call, so the target behind it may connect later.
 */
export function withWriteHooks(
  client: () => Client,
  afterWrite: () => Promise<void>,
  onCreate?: (ref: ResourceRef, made: KubeObject) => void,
): Client {
  const after = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } finally {
      await afterWrite();
    }
  };
  return {
    async create(ref, obj, o) {
      const made = await after(client().create(ref, obj, o));
      if (!o?.dryRun) onCreate?.({ resource: ref.resource, namespace: ref.namespace ?? made.metadata.namespace }, made);
      return made;
    },
    get: (ref, name, o) => client().get(ref, name, o),
    list: (ref, o) => client().list(ref, o),
    update: (ref, obj, o) => after(client().update(ref, obj, o)),
    patch: (ref, name, type, patch, o) => after(client().patch(ref, name, type, patch, o)),
    delete: (ref, name, o) => after(client().delete(ref, name, o)),
    deleteCollection(ref, o, l) {
      const c = client();
      if (!c.deleteCollection) throw new Error('this client has no deleteCollection');
      return after(c.deleteCollection(ref, o, l));
    },
    createSubresource: (ref, name, sub, body) => after(client().createSubresource(ref, name, sub, body)),
    watch: (ref, o, h) => client().watch(ref, o, h),
  };
}
