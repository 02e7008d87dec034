import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pod } from '../../../src/api/core';
import {
  compareForDeletion,
  compareWithRanks,
  deletionCost,
  podsToDelete,
  POD_DELETION_COST,
  ranksByRelatedPods,
} from '../../../src/controllers/replicaset/ranking';
import { pod, T0 } from './pods';

/*
 * v1.32 pkg/controller/controller_utils_test.go TestSortingActivePodsWithRanks (PodDeletionCost
 * and LogarithmicScaleDown on, their v1.32 defaults): the equality and inequality tables.
 */
const NOW = Date.UTC(2025, 5, 15, 12);
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const MONTH_AGO = Date.UTC(2025, 4, 15, 12); // now.AddDate(0, -1, 0)

function mk(
  name: string,
  node: string,
  phase: 'Pending' | 'Unknown' | 'Running',
  ready: boolean,
  restarts: number,
  readySince: number | undefined,
  created: number | undefined,
  annotations?: Record<string, string>,
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, annotations, creationTimestamp: created === undefined ? undefined : iso(created) },
    spec: { containers: [], ...(node ? { nodeName: node } : {}) },
    status: {
      phase,
      conditions: ready
        ? [
            {
              type: 'Ready',
              status: 'True',
              ...(readySince === undefined ? {} : { lastTransitionTime: iso(readySince) }),
            },
          ]
        : [],
      containerStatuses: ready ? [{ name: 'c', ready: true, restartCount: restarts, image: '', imageID: '' }] : [],
    },
  } as Pod;
}

const unscheduled = mk('unscheduled', '', 'Pending', false, 0, undefined, undefined);
const scheduledPending = mk('pending', 'node', 'Pending', false, 0, undefined, undefined);
const unknownPhase = mk('unknown-phase', 'node', 'Unknown', false, 0, undefined, undefined);
const runningNotReady = mk('not-ready', 'node', 'Running', false, 0, undefined, undefined);
const readyNoTime = mk('ready-no-last-transition-time', 'node', 'Running', true, 0, undefined, undefined);
const readyNow = mk('ready-now', 'node', 'Running', true, 0, NOW, NOW);
const readyThen = mk('ready-then', 'node', 'Running', true, 0, MONTH_AGO, MONTH_AGO);
const readyHighRestarts = mk('ready-high-restarts', 'node', 'Running', true, 9001, NOW, NOW);
const readyNowCreatedThen = mk('ready-now-created-then', 'node', 'Running', true, 0, NOW, MONTH_AGO);
const lowCost = mk('low-deletion-cost', 'node', 'Running', true, 0, NOW, MONTH_AGO, { [POD_DELETION_COST]: '10' });
const highCost = mk('high-deletion-cost', 'node', 'Running', true, 0, NOW, MONTH_AGO, { [POD_DELETION_COST]: '100' });
const unscheduled5h = mk('unscheduled-5-hours', '', 'Pending', false, 0, NOW - 5 * HOUR, NOW - 5 * HOUR);
const unscheduled8h = mk('unscheduled-10-hours', '', 'Pending', false, 0, NOW - 8 * HOUR, NOW - 8 * HOUR);
const ready2h = mk('ready-2-hours', '', 'Running', true, 0, NOW - 2 * HOUR, MONTH_AGO);
const ready5h = mk('ready-5-hours', '', 'Running', true, 0, NOW - 5 * HOUR, MONTH_AGO);
const ready8h = mk('ready-10-hours', '', 'Running', true, 0, NOW - 8 * HOUR, MONTH_AGO);

test('TestSortingActivePodsWithRanks (v1.32): equality tests', () => {
  const pairs: [Pod, Pod][] = [
    [unscheduled, unscheduled],
    [scheduledPending, scheduledPending],
    [unknownPhase, unknownPhase],
    [runningNotReady, runningNotReady],
    [readyNowCreatedThen, readyNowCreatedThen],
    [readyNow, readyNow],
    [readyThen, readyThen],
    [readyHighRestarts, readyHighRestarts],
    [readyNowCreatedThen, readyNowCreatedThen],
    [unscheduled5h, unscheduled8h],
    [ready5h, ready8h],
  ];
  for (const [a, b] of pairs) {
    assert.equal(compareWithRanks(a, 1, b, 1, NOW), 0, `${a.metadata.name} ~ ${b.metadata.name}`);
    assert.equal(compareWithRanks(b, 1, a, 1, NOW), 0, `${b.metadata.name} ~ ${a.metadata.name}`);
  }
});

test('TestSortingActivePodsWithRanks (v1.32): inequality tests', () => {
  const cases: [Pod, number, Pod, number][] = [
    [unscheduled, 1, scheduledPending, 2],
    [unscheduled, 2, scheduledPending, 1],
    [scheduledPending, 1, unknownPhase, 2],
    [unknownPhase, 1, runningNotReady, 2],
    [runningNotReady, 1, readyNoTime, 1],
    [readyNoTime, 1, readyNow, 1],
    [readyNow, 2, readyNoTime, 1],
    [readyNow, 1, readyThen, 1],
    [readyNow, 2, readyThen, 1],
    [readyHighRestarts, 1, readyNow, 1],
    [readyNow, 2, readyHighRestarts, 1],
    [readyNow, 1, readyNowCreatedThen, 1],
    [readyNowCreatedThen, 2, readyNow, 1],
    [lowCost, 2, highCost, 1],
    [ready2h, 1, ready5h, 1],
  ];
  for (const [a, ra, b, rb] of cases) {
    const what = `${a.metadata.name} (rank ${ra}) before ${b.metadata.name} (rank ${rb})`;
    assert.ok(compareWithRanks(a, ra, b, rb, NOW) < 0, what);
    assert.ok(compareWithRanks(b, rb, a, ra, NOW) > 0, what);
  }
});

test('GetDeletionCostFromPodAnnotations: int32 decimal; "+1", "01", out of range and non-numbers count 0', () => {
  const cost = (v?: string) =>
    deletionCost({
      metadata: { annotations: v === undefined ? {} : { [POD_DELETION_COST]: v } },
      spec: { containers: [] },
    } as Pod);
  assert.equal(cost(), 0);
  assert.equal(cost('10'), 10);
  assert.equal(cost('-10'), -10);
  assert.equal(cost('0'), 0);
  assert.equal(cost('+10'), 0);
  assert.equal(cost('010'), 0);
  assert.equal(cost('-010'), -10);
  assert.equal(cost('2147483647'), 2147483647);
  assert.equal(cost('2147483648'), 0);
  assert.equal(cost('1e3'), 0);
  assert.equal(cost(''), 0);
});

test('getPodsRankedByRelatedPodsOnSameNode: active related pods per node; the doubled-up pod goes first', () => {
  const a = mk('a', 'n1', 'Running', true, 0, NOW - HOUR, NOW - HOUR);
  const b = mk('b', 'n2', 'Running', true, 0, NOW - HOUR, NOW - HOUR);
  const other = mk('other-rs', 'n2', 'Running', true, 0, NOW - HOUR, NOW - HOUR);
  assert.deepEqual(ranksByRelatedPods([a, b], [a, b, other]), [1, 2]);
  assert.deepEqual(
    podsToDelete([a, b, other], 1, 'ActivePodsWithRanks', [a, b, other], NOW).map((p) => p.metadata.name).length,
    1,
  );
  assert.equal(podsToDelete([a, b], 1, 'ActivePodsWithRanks', [a, b, other], NOW)[0].metadata.name, 'b');
  // Without related pods (an RC, an unowned ReplicaSet) every rank is 0: v1.12's order by age decides.
  assert.deepEqual(ranksByRelatedPods([a, b], []), [0, 0]);
});

// v1.12 pkg/controller/controller_utils_test.go TestSortingActivePods, and getPodsToDelete on both releases.

test('ActivePods order (TestSortingActivePods): unscheduled, pending, unknown, not ready, ready newest first, restarts, newest', () => {
  const month = 30 * 24 * 3600_000;
  const now = T0 + 2 * month;
  const want = [
    pod('unscheduled-pending'),
    pod('scheduled-pending', { node: 'n' }),
    pod('unknown', { node: 'n', phase: 'Unknown' }),
    pod('running-not-ready', { node: 'n', phase: 'Running', ready: false }),
    pod('ready-no-time', { node: 'n', phase: 'Running', ready: true, restarts: [3] }),
    pod('ready-now', { node: 'n', phase: 'Running', ready: true, readySince: now, restarts: [3] }),
    pod('ready-month-3', { node: 'n', phase: 'Running', ready: true, readySince: now - month, restarts: [3] }),
    pod('ready-month-2-new', {
      node: 'n',
      phase: 'Running',
      ready: true,
      readySince: now - month,
      restarts: [2, 1],
      created: now,
    }),
    pod('ready-month-2-old', {
      node: 'n',
      phase: 'Running',
      ready: true,
      readySince: now - month,
      restarts: [2, 1],
      created: now - month,
    }),
  ];
  for (let i = 0; i < 10; i++) {
    const shuffled = [...want].sort(() => Math.random() - 0.5);
    assert.deepEqual(
      shuffled.sort(compareForDeletion).map((p) => p.metadata.name),
      want.map((p) => p.metadata.name),
    );
  }
});

test('getPodsToDelete (v1.12 and v1.32): all of them in the order given; fewer, the lowest ranked first — at replicas 0 too, past the burst', () => {
  const pods = [pod('bound', { node: 'n', phase: 'Running', ready: true }), pod('unbound')];
  assert.deepEqual(
    podsToDelete(pods, 1).map((p) => p.metadata.name),
    ['unbound'],
  );
  assert.deepEqual(
    podsToDelete(pods, 2).map((p) => p.metadata.name),
    ['bound', 'unbound'],
  );
  // replicas 0, 2 pods, a burst of 1: diff 1 < 2 pods, so sorted (v1.12 sorts whenever diff < len).
  assert.deepEqual(
    podsToDelete(pods, 1, 'ActivePodsWithRanks').map((p) => p.metadata.name),
    ['unbound'],
  );
});
