import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assessNodeHealth, CONDITIONS_SET_UNKNOWN, HealthOptions } from '../../../src/controllers/nodelifecycle/health';
import { Lease, Node } from '../../../src/api/core';
import { isoTime, microTime } from '../../../src/clock';

const T0 = Date.UTC(2025, 0, 1);
const s = (n: number) => T0 + n * 1000;
const opts = (now: number): HealthOptions => ({
  now,
  gracePeriodMs: 40_000,
  startupGracePeriodMs: 60_000,
  conditionTypes: CONDITIONS_SET_UNKNOWN,
});

function node(heartbeat: number | undefined, transition = T0): Node {
  return {
    metadata: { name: 'n1', creationTimestamp: isoTime(T0) },
    status:
      heartbeat === undefined
        ? {}
        : {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                lastHeartbeatTime: isoTime(heartbeat),
                lastTransitionTime: isoTime(transition),
                reason: 'KubeletReady',
              },
              {
                type: 'MemoryPressure',
                status: 'False',
                lastHeartbeatTime: isoTime(heartbeat),
                lastTransitionTime: isoTime(transition),
              },
              {
                type: 'NetworkUnavailable',
                status: 'False',
                lastHeartbeatTime: isoTime(heartbeat),
                lastTransitionTime: isoTime(transition),
              },
            ],
          },
  };
}

test('the probe time is the controller clock when it first sees a heartbeat', () => {
  const r = assessNodeHealth(node(s(0)), undefined, undefined, opts(s(3)));
  assert.equal(r.health.probeTimestamp, s(3));
  assert.equal(r.updatedConditions, undefined);
});

test('Unknown only strictly after probe + grace; reason, message and untouched NetworkUnavailable', () => {
  const first = assessNodeHealth(node(s(0)), undefined, undefined, opts(s(0)));
  const atGrace = assessNodeHealth(node(s(0)), first.health, undefined, opts(s(40)));
  assert.equal(atGrace.updatedConditions, undefined, 'at exactly probe + grace the node is still healthy');
  const after = assessNodeHealth(node(s(0)), first.health, undefined, opts(s(40) + 1));
  const byType = Object.fromEntries(after.updatedConditions!.map((c) => [c.type, c]));
  assert.equal(byType.Ready.status, 'Unknown');
  assert.equal(byType.Ready.reason, 'NodeStatusUnknown');
  assert.equal(byType.Ready.message, 'Kubelet stopped posting node status.');
  assert.equal(byType.Ready.lastHeartbeatTime, isoTime(s(0)), 'last heartbeat kept');
  assert.equal(byType.MemoryPressure.status, 'Unknown');
  assert.equal(byType.NetworkUnavailable.status, 'False');
  assert.equal(byType.DiskPressure.reason, 'NodeStatusNeverUpdated', 'missing conditions are added as never updated');
});

test('a new heartbeat moves the probe; the same heartbeat does not', () => {
  const a = assessNodeHealth(node(s(0)), undefined, undefined, opts(s(0)));
  const same = assessNodeHealth(node(s(0)), a.health, undefined, opts(s(10)));
  assert.equal(same.health.probeTimestamp, s(0));
  const moved = assessNodeHealth(node(s(10)), same.health, undefined, opts(s(15)));
  assert.equal(moved.health.probeTimestamp, s(15));
  assert.equal(moved.health.readyTransitionTimestamp, s(0), 'no transition: unchanged');
});

test('lease renewals are heartbeats; the first lease seen counts even if old', () => {
  const lease = (renew: number): Lease => ({
    metadata: { name: 'n1', namespace: 'kube-node-lease' },
    spec: { renewTime: microTime(renew) },
  });
  const a = assessNodeHealth(node(s(0)), undefined, lease(s(-100)), opts(s(0)));
  const b = assessNodeHealth(node(s(0)), a.health, lease(s(-100)), opts(s(30)));
  assert.equal(b.health.probeTimestamp, s(0));
  const c = assessNodeHealth(node(s(0)), b.health, lease(s(35)), opts(s(35)));
  assert.equal(c.health.probeTimestamp, s(35));
  const d = assessNodeHealth(node(s(0)), c.health, lease(s(35)), opts(s(75)));
  assert.equal(d.updatedConditions, undefined, 'status stale, lease fresh: healthy');
});

test('a node without Ready gets the startup grace from its creation, then NodeStatusNeverUpdated', () => {
  const fresh = assessNodeHealth(node(undefined), undefined, undefined, opts(s(60)));
  assert.equal(fresh.updatedConditions, undefined);
  assert.equal(fresh.observed.status, 'Unknown', 'observed is a synthetic Unknown');
  const late = assessNodeHealth(node(undefined), fresh.health, undefined, opts(s(61)));
  assert.deepEqual(
    late.updatedConditions!.map((c) => [c.type, c.status, c.reason]),
    [
      ['Ready', 'Unknown', 'NodeStatusNeverUpdated'],
      ['MemoryPressure', 'Unknown', 'NodeStatusNeverUpdated'],
      ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated'],
      ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated'],
    ],
  );
  assert.equal(late.updatedConditions![0].lastHeartbeatTime, isoTime(T0), 'heartbeat = creation');
});

test('once Ready is Unknown nothing more is written', () => {
  const a = assessNodeHealth(node(s(0)), undefined, undefined, opts(s(0)));
  const b = assessNodeHealth(node(s(0)), a.health, undefined, opts(s(45)));
  const written: Node = { ...node(s(0)), status: { conditions: b.updatedConditions } };
  const c = assessNodeHealth(written, b.health, undefined, opts(s(50)));
  assert.equal(c.updatedConditions, undefined);
});
