// The namespace controller deletes content per resource with DeleteCollection, else item by item
// (namespaced_resources_deleter.go deleteAllContentForGroupVersionResource, v1.12 and v1.32).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceController } from '../../../src/controllers/namespace/controller';
import { InformerFactory } from '../../../src/client/informer';
import { ControllerContext } from '../../../src/client/controller-context';
import { Client, ResourceRef } from '../../../src/client/client';
import { VirtualClock } from '../../../src/clock/virtual';
import { KubeObject } from '../../../src/api/meta';
import { errors } from '../../../src/api/errors';

/** A namespace being deleted that holds two pods and a service; the calls made are recorded. */
function fakeCluster(opts: { deleteCollection?: 'ok' | 'unsupported' | 'absent' }) {
  const calls: string[] = [];
  const store = new Map<string, KubeObject[]>([
    ['pods', [pod('a'), pod('b')]],
    ['services', [{ metadata: { name: 's', namespace: 'ns1' } }]],
  ]);
  const ns = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'ns1', uid: 'u1', deletionTimestamp: '2025-01-01T00:00:00Z', resourceVersion: '1' },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Terminating' },
  };
  const list = async (ref: ResourceRef) => ({
    apiVersion: 'v1',
    kind: 'List',
    metadata: { resourceVersion: '1' },
    items: ref.resource === 'namespaces' ? [ns] : [...(store.get(ref.resource) ?? [])],
  });
  const client = {
    list,
    watch: async () => ({ stop: () => undefined }),
    delete: async (ref: ResourceRef, name: string) => {
      calls.push(`delete ${ref.resource}/${name}`);
      store.set(
        ref.resource,
        (store.get(ref.resource) ?? []).filter((o) => o.metadata.name !== name),
      );
      return { metadata: {} };
    },
    update: async (_ref: ResourceRef, obj: KubeObject, o?: { subresource?: string }) => {
      calls.push(`update namespaces/${obj.metadata.name}${o?.subresource ? `/${o.subresource}` : ''}`);
      return { ...obj, spec: {} };
    },
    create: async (_r: ResourceRef, obj: KubeObject) => obj,
    ...(opts.deleteCollection === 'absent'
      ? {}
      : {
          deleteCollection: async (ref: ResourceRef, o?: { propagationPolicy?: string }) => {
            if (opts.deleteCollection === 'unsupported')
              throw errors.methodNotSupported({ kind: ref.resource }, 'deletecollection');
            calls.push(`deletecollection ${ref.resource} (${o?.propagationPolicy})`);
            store.set(ref.resource, []);
            return { apiVersion: 'v1', kind: 'List', metadata: {}, items: [] };
          },
        }),
  } as unknown as Client;
  return { client, calls };
}

function pod(name: string): KubeObject {
  return { metadata: { name, namespace: 'ns1' } };
}

async function deleteNamespace(opts: { deleteCollection?: 'ok' | 'unsupported' | 'absent' }): Promise<string[]> {
  const { client, calls } = fakeCluster(opts);
  const clock = new VirtualClock(Date.UTC(2025, 0, 1, 0, 0, 10));
  const informers = new InformerFactory(client);
  const ctx = new ControllerContext({ informers, client, clock, quiescence: clock.quiescence }, 'namespace-controller');
  const controller = new NamespaceController(ctx, { deletionConditions: false });
  await informers.start();
  await controller.sync('ns1');
  return calls.filter((c) => !c.startsWith('update'));
}

test('one DeleteCollection per resource that has content, background propagation', async () => {
  assert.deepEqual(await deleteNamespace({ deleteCollection: 'ok' }), [
    'deletecollection pods (Background)',
    'deletecollection services (Background)',
    'delete namespaces/ns1',
  ]);
});

test('when the verb is not served (MethodNotSupported) or the client lacks it: list and delete each item', async () => {
  const itemByItem = ['delete pods/a', 'delete pods/b', 'delete services/s', 'delete namespaces/ns1'];
  assert.deepEqual(await deleteNamespace({ deleteCollection: 'unsupported' }), itemByItem);
  assert.deepEqual(await deleteNamespace({ deleteCollection: 'absent' }), itemByItem);
});
