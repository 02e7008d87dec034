// ResourceQuota admission matches a quota by what its status says it tracks (upstream generic
// Matches and checkQuotas: quota.ResourceNames(Status.Hard), v1.12 and v1.32): a quota the
// controller has not yet synced limits and counts nothing. Found on upstream v1.32.13, where
// a pod created right after its quota stayed uncounted until the controller's next recount.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resourceQuotaAdmission } from '../../src/apiserver/admission/resourcequota';
import type { ApiServer } from '../../src/apiserver/apiserver';
import type { AdmissionAttributes } from '../../src/apiserver/admission';
import type { ResourceQuota } from '../../src/api/resources/resourcequota';
import type { Pod } from '../../src/api/core';

function apiWith(quota: ResourceQuota): { api: ApiServer; charged: () => number } {
  let charged = 0;
  const storage = {
    list: async () => ({ items: [quota] }),
    guaranteedUpdate: async (_ns: string, _name: string, update: (q: ResourceQuota) => ResourceQuota) => {
      charged++;
      return update(structuredClone(quota));
    },
  };
  return { api: { storage: () => storage, clock: { now: () => 0 } } as unknown as ApiServer, charged: () => charged };
}

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'test' },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
};

const attrs = (): AdmissionAttributes => ({
  operation: 'CREATE',
  resource: { group: '', version: 'v1', resource: 'pods' } as AdmissionAttributes['resource'],
  namespace: 'test',
  name: 'p',
  object: structuredClone(pod),
  dryRun: false,
});

const quota = (status?: ResourceQuota['status']): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'compute', namespace: 'test' },
  spec: { hard: { pods: '1', 'requests.cpu': '1' } },
  ...(status ? { status } : {}),
});

test('a quota the controller has not yet synced (no status.hard) neither limits nor counts a new pod', async () => {
  const { api, charged } = apiWith(quota());
  await resourceQuotaAdmission(api, { constraintMessages: 'per-container' }).validate!(attrs());
  assert.equal(charged(), 0);
});

test('once synced, the same quota asks for the requests it tracks and counts the pod', async () => {
  const synced = quota({ hard: { pods: '1', 'requests.cpu': '1' }, used: { pods: '0', 'requests.cpu': '0' } });
  const { api } = apiWith(synced);
  await assert.rejects(
    Promise.resolve(resourceQuotaAdmission(api, { constraintMessages: 'per-container' }).validate!(attrs())),
    /failed quota: compute: must specify requests.cpu for: c/,
  );
  const counted = apiWith(quota({ hard: { pods: '1' }, used: { pods: '0' } }));
  await resourceQuotaAdmission(counted.api, { constraintMessages: 'per-container' }).validate!(attrs());
  assert.equal(counted.charged(), 1);
});
