import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { loadGateFromEnv, passLoadGate } from '../../src/drivers/upstream/load-gate';

/** A clock that moves only when the gate sleeps, and a load that follows a script per read. */
function scripted(loads: number[]) {
  let t = 0;
  let reads = 0;
  return {
    load: () => loads[Math.min(reads++, loads.length - 1)],
    sleep: async (ms: number) => {
      t += ms;
    },
    now: () => t,
    reads: () => reads,
  };
}

test('a start waits while the load is above the limit and goes once it is at the limit', async () => {
  const s = scripted([30, 20, 16.5, 16, 40]);
  const got = await passLoadGate({ limit: 16, maxWaitMs: 600_000, pollMs: 2000 }, s.load, s.sleep, s.now);
  assert.deepEqual(got, { waitedMs: 6000, loadCameDown: true });
  assert.equal(s.reads(), 4);
});

test('below the limit a start does not wait at all', async () => {
  const s = scripted([3]);
  assert.deepEqual(await passLoadGate({ limit: 16, maxWaitMs: 600_000, pollMs: 2000 }, s.load, s.sleep, s.now), {
    waitedMs: 0,
    loadCameDown: true,
  });
});

test('past the longest wait a start goes anyway, saying the load did not come down', async () => {
  const s = scripted([50]);
  const got = await passLoadGate({ limit: 16, maxWaitMs: 10_000, pollMs: 2000 }, s.load, s.sleep, s.now);
  assert.deepEqual(got, { waitedMs: 10_000, loadCameDown: false });
});

test('the gate from the environment: off by default and at 0, a limit and a wait when given, a clear error for nonsense', () => {
  assert.equal(loadGateFromEnv({}), undefined);
  assert.equal(loadGateFromEnv({ KUBESPEC_UPSTREAM_MAX_LOAD: '0' }), undefined);
  assert.deepEqual(loadGateFromEnv({ KUBESPEC_UPSTREAM_MAX_LOAD: '16' }), {
    limit: 16,
    maxWaitMs: 600_000,
    pollMs: 2000,
  });
  assert.deepEqual(loadGateFromEnv({ KUBESPEC_UPSTREAM_MAX_LOAD: '8', KUBESPEC_UPSTREAM_MAX_LOAD_WAIT: '30' }), {
    limit: 8,
    maxWaitMs: 30_000,
    pollMs: 2000,
  });
  assert.throws(
    () => loadGateFromEnv({ KUBESPEC_UPSTREAM_MAX_LOAD: 'high' }),
    /KUBESPEC_UPSTREAM_MAX_LOAD wants a load average/,
  );
  assert.throws(
    () => loadGateFromEnv({ KUBESPEC_UPSTREAM_MAX_LOAD: '8', KUBESPEC_UPSTREAM_MAX_LOAD_WAIT: '-1' }),
    /KUBESPEC_UPSTREAM_MAX_LOAD_WAIT wants seconds/,
  );
});
