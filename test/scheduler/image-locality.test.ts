import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node, Pod } from '../../src/api/core';
import { SchedulerCache } from '../../src/scheduler/cache';
import { PodMeta } from '../../src/scheduler/meta';
import {
  imageLocality,
  normalizedImageName,
  V1_12_IMAGE_LOCALITY,
  V1_32_IMAGE_LOCALITY,
} from '../../src/scheduler/priorities/image-locality';

/*
 * ImageLocality from upstream's tables: v1.12 pkg/scheduler/algorithm/priorities
 * image_locality_test.go TestImageLocalityPriority (0–10, app containers) and v1.32
 * plugins/imagelocality/image_locality_test.go TestImageLocalityPriority (0–100, the
 * ceiling 1000 MB per container), same pods and nodes; TestNormalizedImageName.
 */

const mb = 1024 * 1024;
type Images = { names: string[]; sizeBytes: number }[];
const node403002000: Images = [
  { names: ['gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1'], sizeBytes: 40 * mb },
  { names: ['gcr.io/300:latest', 'gcr.io/300:v1'], sizeBytes: 300 * mb },
  { names: ['gcr.io/2000:latest'], sizeBytes: 2000 * mb },
];
const node25010: Images = [
  { names: ['gcr.io/250:latest'], sizeBytes: 250 * mb },
  { names: ['gcr.io/10:latest', 'gcr.io/10:v1'], sizeBytes: 10 * mb },
];

function scores(era: 'legacy' | 'framework', images: string[], nodes: Images[], init: string[] = []): number[] {
  const cache = new SchedulerCache();
  nodes.forEach((imgs, i) => {
    const n: Node = {
      metadata: { name: `machine${i + 1}` },
      status: { allocatable: { cpu: '1', memory: '1Gi', pods: '10' }, images: imgs },
    };
    cache.setNode(n);
  });
  const pod: Pod = {
    metadata: { name: 'p', namespace: 'default' },
    spec: {
      containers: images.map((image, i) => ({ name: `c${i}`, image })),
      initContainers: init.map((image, i) => ({ name: `i${i}`, image })),
    },
  };
  const infos = nodes.map((_, i) => cache.nodeInfo(`machine${i + 1}`)!);
  return imageLocality(era === 'legacy' ? V1_12_IMAGE_LOCALITY : V1_32_IMAGE_LOCALITY)(
    pod,
    new PodMeta(pod, cache),
    infos,
  );
}

const cases: { name: string; images: string[]; nodes: Images[]; legacy: number[]; framework: number[] }[] = [
  {
    // 40M/2 < 23M → 0; 250M/2 = 125M: 10 × 102/977 = 1 (v1.12), 100 × 102/1977 = 5 (v1.32).
    name: 'two images spread on two nodes, prefer the larger image one',
    images: ['gcr.io/40', 'gcr.io/250'],
    nodes: [node403002000, node25010],
    legacy: [0, 1],
    framework: [0, 5],
  },
  {
    // (40M + 300M)/2 = 170M: 10 × 147/977 = 1, 100 × 147/1977 = 7.
    name: 'two images on one node, prefer this node',
    images: ['gcr.io/40', 'gcr.io/300'],
    nodes: [node403002000, node25010],
    legacy: [1, 0],
    framework: [7, 0],
  },
  {
    // 2000M/2 = 1000M: the v1.12 ceiling (10); v1.32's ceiling is 2000M for two containers: 49.
    name: 'if exceed limit, use limit',
    images: ['gcr.io/2000', 'gcr.io/10'],
    nodes: [node403002000, node25010],
    legacy: [10, 0],
    framework: [49, 0],
  },
  {
    name: 'if exceed limit, use limit (with node which has no images present)',
    images: ['gcr.io/2000', 'gcr.io/10'],
    nodes: [node403002000, node25010, []],
    // 2000M × 1/3 = 666M: 10 × 643/977 = 6; 100 × 643/1977 = 32.
    legacy: [6, 0, 0],
    framework: [32, 0, 0],
  },
];

test('ImageLocalityPriority (v1.12) and ImageLocality (v1.32): TestImageLocalityPriority', () => {
  for (const c of cases) {
    assert.deepEqual(scores('legacy', c.images, c.nodes), c.legacy, `v1.12: ${c.name}`);
    assert.deepEqual(scores('framework', c.images, c.nodes), c.framework, `v1.32: ${c.name}`);
  }
});

test('v1.32 counts init containers; v1.12 does not', () => {
  assert.deepEqual(scores('framework', ['gcr.io/10'], [node403002000, node25010], ['gcr.io/2000']), [49, 0]);
  assert.deepEqual(scores('legacy', ['gcr.io/10'], [node403002000, node25010], ['gcr.io/2000']), [0, 0]);
});

test('normalizedImageName (TestNormalizedImageName)', () => {
  assert.equal(normalizedImageName('root'), 'root:latest');
  assert.equal(normalizedImageName('root:tag'), 'root:tag');
  assert.equal(normalizedImageName('gcr.io:5000/root'), 'gcr.io:5000/root:latest');
  assert.equal(normalizedImageName('root@sha256:abc'), 'root@sha256:abc');
});
