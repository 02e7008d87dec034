import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeShards } from '../../src/report';
import type { RunResult } from '../../src/report/model';

const sc = (uri: string, line: number, name: string, status: 'passed' | 'failed' | 'not-applicable') =>
  ({
    id: `${uri}:${line}`,
    name,
    uri,
    line,
    tags: [],
    behaviourIds: [],
    status,
    durationMs: 0,
    attempts: 1,
    steps: [],
  }) as unknown as RunResult['scenarios'][number];
const run = (scenarios: RunResult['scenarios'], defined?: Record<string, string[]>): RunResult => ({
  label: 'upstream · kubernetes-1.32',
  target: 'upstream',
  profile: 'kubernetes-1.32',
  scenarios,
  ...(defined ? { defined: new Map(Object.entries(defined).map(([u, n]) => [u, new Set(n)])) } : {}),
});

test('shards of one run become one column', () => {
  const [merged] = mergeShards([run([sc('a.feature', 3, 'x', 'passed')]), run([sc('b.feature', 5, 'y', 'failed')])]);
  assert.deepEqual(
    merged.scenarios.map((s) => `${s.uri}:${s.line} ${s.status}`),
    ['a.feature:3 passed', 'b.feature:5 failed'],
  );
});

test('a rerun replaces the earlier result by location or by name, and drops scenarios its files no longer define', () => {
  const full = run([
    sc('a.feature', 3, 'x', 'failed'),
    sc('a.feature', 9, 'kept', 'passed'),
    sc('b.feature', 5, 'moved', 'failed'),
    sc('b.feature', 8, 'renamed away', 'failed'),
  ]);
  const rerun = run(
    [sc('a.feature', 3, 'x', 'passed'), sc('b.feature', 7, 'moved', 'passed'), sc('b.feature', 9, 'new', 'passed')],
    { 'a.feature': ['x', 'kept'], 'b.feature': ['moved', 'new'] },
  );
  const [merged] = mergeShards([full, rerun]);
  assert.deepEqual(merged.scenarios.map((s) => `${s.uri}:${s.line} ${s.name} ${s.status}`).sort(), [
    'a.feature:3 x passed',
    'a.feature:9 kept passed',
    'b.feature:7 moved passed',
    'b.feature:9 new passed',
  ]);
});
