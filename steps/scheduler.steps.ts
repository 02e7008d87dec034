import { DataTable, Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Container, Event, Pod } from '../src/api/core';
import { formatDecision, NotApplicableError, SchedulingDecision } from '../src/drivers';
import { parseLabels } from '../src/api/labels/parser';
import { parseTaints } from '../src/api/taints';
import { getPod, podManifest, runPodOn } from './pods.steps';
import { KubeWorld } from './world';
import { DECISION_MEDIA_TYPE } from '../src/report';
import { step } from './support';

/** Pod-scheduling vocabulary: nodes by capacity, pods by requests, where they land and why. */

const PODS = (ns = 'default') => ({ resource: 'pods', namespace: ns });

function requests(cpu?: string, memory?: string): Container['resources'] {
  const r: Record<string, string> = {};
  if (cpu && cpu !== '-') r.cpu = cpu;
  if (memory && memory !== '-') r.memory = memory;
  return Object.keys(r).length ? { requests: r } : {};
}

/**
 * A node table: name, and any of cpu, memory, pods (allocatable), labels (k=v,…), taints
 * (key=value:Effect,…), podCIDR. Each node is a hollow kubelet reporting exactly that allocatable.
 */
async function addNodes(world: KubeWorld, table: DataTable): Promise<void> {
  const cluster = await world.cluster();
  for (const row of table.hashes()) {
    const allocatable: Record<string, string> = {
      cpu: row.cpu || '4',
      memory: row.memory || '8Gi',
      pods: row.pods || '110',
    };
    await cluster.addKubelet({
      name: row.name,
      capacity: allocatable,
      allocatable,
      labels: row.labels ? parseLabels(row.labels) : undefined,
      taints: row.taints ? parseTaints(row.taints) : undefined,
      podCIDR: row.podCIDR || undefined,
    });
  }
}

for (const words of ['these nodes:', 'the nodes:']) {
  Given(
    words,
    step(async function (this: KubeWorld, table: DataTable) {
      await addNodes(this, table);
    }),
  );
}

Given(
  'a node {node} with allocatable cpu {quantity}, memory {quantity} and pods {quantity}',
  step(async function (this: KubeWorld, name: string, cpu: string, memory: string, pods: string) {
    const cluster = await this.cluster();
    const allocatable = { cpu, memory, pods };
    await cluster.addKubelet({ name, capacity: allocatable, allocatable });
  }),
);

/** Pods already running on nodes, bound directly (no scheduler), with their requests. */
Given(
  'pods running:',
  step(async function (this: KubeWorld, table: DataTable) {
    for (const row of table.hashes()) {
      const container: Container = {
        name: 'app',
        image: 'registry.k8s.io/pause:3.9',
        resources: requests(row.cpu, row.memory),
      };
      if (row.hostPort)
        container.ports = [
          {
            containerPort: 80,
            hostPort: Number(row.hostPort),
            protocol: (row.protocol || 'TCP') as 'TCP',
            ...(row.hostIP ? { hostIP: row.hostIP } : {}),
          },
        ];
      const spec: Partial<Pod['spec']> = { containers: [container] };
      if (row.volume) spec.volumes = [volume(row.volume)];
      await runPodOn(
        this,
        row.name,
        row.node,
        row.namespace || 'default',
        spec,
        row.labels ? parseLabels(row.labels) : undefined,
      );
    }
  }),
);

Given(
  'a pod {string} requesting cpu {quantity} and memory {quantity} running on node {node}',
  step(async function (this: KubeWorld, name: string, cpu: string, memory: string, node: string) {
    await runPodOn(this, name, node, 'default', {
      containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', resources: requests(cpu, memory) }],
    });
  }),
);

/** Volume shorthand: gce:<pdName>[:ro], ebs:<volumeID>[:ro], iscsi:<iqn>[:ro], rbd:<mon1;mon2>/<pool>/<image>[:ro], empty. */
function volume(spec: string): Pod['spec']['volumes'] extends (infer V)[] | undefined ? V : never {
  const ro = spec.endsWith(':ro');
  const s = ro ? spec.slice(0, -3) : spec;
  const i = s.indexOf(':');
  const [type, id] = i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
  const readOnly = ro ? { readOnly: true } : {};
  switch (type) {
    case 'gce':
      return { name: 'data', gcePersistentDisk: { pdName: id, fsType: 'ext4', ...readOnly } };
    case 'ebs':
      return { name: 'data', awsElasticBlockStore: { volumeID: id, fsType: 'ext4', ...readOnly } };
    case 'iscsi':
      return { name: 'data', iscsi: { targetPortal: '127.0.0.1:3260', iqn: id, lun: 0, fsType: 'ext4', ...readOnly } };
    case 'rbd': {
      const [mons, pool, image] = id.split('/');
      return { name: 'data', rbd: { monitors: mons.split(';'), pool, image, ...readOnly } };
    }
    case 'empty':
      return { name: 'data', emptyDir: {} };
    default:
      throw new Error(`unknown volume shorthand "${spec}"`);
  }
}

/**
 * A pod to schedule, described by a table of fields: cpu, memory, init cpu, init memory,
 * nodeSelector (k=v,…), nodeName, hostPort, protocol, hostIP, volume, labels,
 * tolerations (key=value:Effect or key:Exists:Effect, …), priority.
 */
function podFromFields(name: string, fields: Record<string, string>): Pod {
  const container: Container = {
    name: 'app',
    image: 'registry.k8s.io/pause:3.9',
    resources: requests(fields.cpu, fields.memory),
  };
  if (fields.hostPort && fields.hostPort !== '-') {
    container.ports = [
      {
        containerPort: 80,
        hostPort: Number(fields.hostPort),
        protocol: (fields.protocol || 'TCP') as 'TCP',
        ...(fields.hostIP ? { hostIP: fields.hostIP } : {}),
      },
    ];
  }
  const spec: Partial<Pod['spec']> = { containers: [container] };
  if (fields['init cpu'] || fields['init memory'])
    spec.initContainers = [
      {
        name: 'init',
        image: 'registry.k8s.io/pause:3.9',
        resources: requests(fields['init cpu'], fields['init memory']),
      },
    ];
  if (fields.nodeSelector && fields.nodeSelector !== '-') spec.nodeSelector = parseLabels(fields.nodeSelector);
  if (fields.nodeName && fields.nodeName !== '-') spec.nodeName = fields.nodeName;
  if (fields.volume && fields.volume !== '-') spec.volumes = [volume(fields.volume)];
  if (fields.tolerations && fields.tolerations !== '-')
    spec.tolerations = fields.tolerations.split(',').map((t) => {
      const m = /^([^=:]*)(?:=([^:]*))?(?::(Exists))?(?::(NoSchedule|PreferNoSchedule|NoExecute))?$/.exec(t.trim());
      if (!m) throw new Error(`bad toleration "${t}"`);
      return {
        ...(m[1] ? { key: m[1] } : {}),
        operator: m[3] ? 'Exists' : 'Equal',
        ...(m[2] !== undefined ? { value: m[2] } : {}),
        ...(m[4] ? { effect: m[4] as 'NoSchedule' } : {}),
      };
    });
  if (fields.priority) spec.priority = Number(fields.priority);
  return podManifest(name, 'default', spec, fields.labels ? parseLabels(fields.labels) : undefined);
}

When(
  'I create a pod {string} with:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const cluster = await this.cluster();
    await cluster.client.create(PODS(), podFromFields(name, Object.fromEntries(table.raw())));
  }),
);

When(
  'I create a pod {string} requesting cpu {quantity} and memory {quantity}',
  step(async function (this: KubeWorld, name: string, cpu: string, memory: string) {
    const cluster = await this.cluster();
    await cluster.client.create(PODS(), podFromFields(name, { cpu, memory }));
  }),
);

When(
  'I create pod(s) {names} requesting cpu {quantity} and memory {quantity}',
  step(async function (this: KubeWorld, names: string[], cpu: string, memory: string) {
    const cluster = await this.cluster();
    for (const name of names) await cluster.client.create(PODS(), podFromFields(name, { cpu, memory }));
  }),
);

Then(
  'pod {string} is bound to node {node}',
  step(async function (this: KubeWorld, name: string, node: string) {
    const pod = await getPod(this, name);
    expect(pod, `pod ${name}`).to.not.equal(undefined);
    expect(pod!.spec.nodeName ?? '(unbound)', `node of pod ${name}: ${describeScheduled(pod!)}`).to.equal(node);
  }),
);

function describeScheduled(pod: Pod): string {
  const c = pod.status?.conditions?.find((x) => x.type === 'PodScheduled');
  return c ? `PodScheduled=${c.status} ${c.reason ?? ''} ${c.message ?? ''}` : 'no PodScheduled condition';
}

Then(
  'pod {string} is not scheduled',
  step(async function (this: KubeWorld, name: string) {
    const pod = await getPod(this, name);
    expect(pod, `pod ${name}`).to.not.equal(undefined);
    expect(pod!.spec.nodeName, `pod ${name} was bound`).to.equal(undefined);
    expect(pod!.status?.phase).to.equal('Pending');
    const c = pod!.status?.conditions?.find((x) => x.type === 'PodScheduled');
    expect(c, 'PodScheduled condition').to.include({ status: 'False', reason: 'Unschedulable' });
  }),
);

// Regular expressions: a message runs to the end of the line and may itself quote names, which {string} cannot hold.
Then(
  /^pod "([^"]+)" is unschedulable with message "(.*)"$/,
  step(async function (this: KubeWorld, name: string, message: string) {
    const pod = await getPod(this, name);
    expect(pod!.spec.nodeName, `pod ${name} was bound`).to.equal(undefined);
    const c = pod!.status?.conditions?.find((x) => x.type === 'PodScheduled');
    expect(c, 'PodScheduled condition').to.include({ status: 'False', reason: 'Unschedulable' });
    expect(c!.message).to.equal(message);
    const cluster = await this.cluster();
    const events = await cluster.events({ involvedName: name, reason: 'FailedScheduling' });
    expect(
      events.map((e: Event) => e.message),
      'FailedScheduling events',
    ).to.include(message);
    expect(events.every((e: Event) => e.type === 'Warning')).to.equal(true);
  }),
);

// A regular expression: the message may quote names (see above).
Then(
  /^pod "([^"]+)" has failed with reason "([^"]+)" and message "(.*)"$/,
  step(async function (this: KubeWorld, name: string, reason: string, message: string) {
    const pod = await getPod(this, name);
    expect(pod!.status?.phase).to.equal('Failed');
    expect(pod!.status?.reason).to.equal(reason);
    expect(pod!.status?.message).to.equal(message);
  }),
);

Then(
  'the events of pod {string} include:',
  step(async function (this: KubeWorld, name: string, table: DataTable) {
    const cluster = await this.cluster();
    const events = await cluster.events({ involvedName: name });
    // "from" as kubectl describe shows it: source.component, else reportingComponent (upstream's
    // v1.32 scheduler records through events.k8s.io/v1, which fills only the latter).
    const seen = events.map((e) => ({
      type: e.type ?? '',
      reason: e.reason ?? '',
      message: e.message ?? '',
      from: e.source?.component || (e as { reportingComponent?: string }).reportingComponent || '',
    }));
    // "…" in a cell stands for any text (a duration, a size), the rest is exact.
    const cell = (v: string) =>
      new RegExp(
        `^${v
          .split('…')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
    for (const row of table.hashes()) {
      const match = seen.some((e) =>
        Object.entries(row).every(([k, v]) => cell(v).test((e as Record<string, string>)[k])),
      );
      expect(match, `an event ${JSON.stringify(row)} among ${JSON.stringify(seen, null, 1)}`).to.equal(true);
    }
  }),
);

Then(
  'the scheduler recorded no event for pod {string}',
  step(async function (this: KubeWorld, name: string) {
    const cluster = await this.cluster();
    const events = (await cluster.events({ involvedName: name })).filter(
      (e) => e.source?.component === 'default-scheduler' || e.reportingComponent === 'default-scheduler',
    );
    expect(
      events.map((e) => `${e.reason}: ${e.message}`),
      `events of pod ${name} from the scheduler`,
    ).to.deep.equal([]);
  }),
);

// ---- explainability ----

async function lastDecision(world: KubeWorld, pod: string): Promise<SchedulingDecision> {
  const cluster = await world.cluster();
  if (!cluster.capabilities.schedulerDecisions || !cluster.schedulerDecisions)
    throw new NotApplicableError(`target ${cluster.target} does not expose the scheduler's decisions`);
  const all = await cluster.schedulerDecisions(`default/${pod}`);
  expect(all, `decisions for pod ${pod}`).to.not.be.empty;
  const d = all[all.length - 1];
  world.attach(formatDecision(d), 'text/plain');
  world.attach(JSON.stringify(d), DECISION_MEDIA_TYPE);
  return d;
}

/** Scores per node and priority, checked as numbers; a "total" column checks Σ score × weight. */
Then(
  'the scheduler scored the nodes for pod {string}:',
  step(async function (this: KubeWorld, pod: string, table: DataTable) {
    const d = await lastDecision(this, pod);
    for (const row of table.hashes()) {
      const v = d.nodes.find((n) => n.node === row.node);
      expect(v, `node ${row.node} in the decision`).to.not.equal(undefined);
      for (const [col, want] of Object.entries(row)) {
        if (col === 'node') continue;
        const got = col === 'total' ? v!.total : v!.scores?.[col];
        expect(got, `${col} of ${row.node}`).to.equal(Number(want));
      }
    }
  }),
);

Then(
  'the scheduler found for pod {string}:',
  step(async function (this: KubeWorld, pod: string, table: DataTable) {
    const d = await lastDecision(this, pod);
    if (d.filterVerdicts === false)
      throw new NotApplicableError(
        `${(await this.cluster()).target}'s scheduler tells no per-node filter verdicts (kube-scheduler logs only the scores; its FitError aggregates the reasons)`,
      );
    for (const row of table.hashes()) {
      const v = d.nodes.find((n) => n.node === row.node);
      expect(v, `node ${row.node} in the decision`).to.not.equal(undefined);
      if (row.predicate !== undefined)
        expect(v!.failedPredicate ?? 'fits', `predicate of ${row.node}`).to.equal(row.predicate);
      if (row.reasons !== undefined)
        expect((v!.reasons ?? []).join('; '), `reasons of ${row.node}`).to.equal(row.reasons);
    }
  }),
);

// ---- configuration ----

Given(
  'the scheduler algorithm provider is {string}',
  step(function (this: KubeWorld, provider: string) {
    this.setFlag('algorithm-provider', provider, 'kube-scheduler');
  }),
);

/** Writes the policy to a file and points --policy-config-file at it (the target reads the file). */
Given(
  'the scheduler policy file:',
  step(function (this: KubeWorld, policy: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-policy-'));
    const file = path.join(dir, 'policy.json');
    fs.writeFileSync(file, policy);
    this.setFlag('policy-config-file', file, 'kube-scheduler');
  }),
);

// ---- changes that wake waiting pods ----

for (const value of [true, false]) {
  When(
    `I set spec.unschedulable of node {node} to ${value}`,
    step(async function (this: KubeWorld, name: string) {
      const cluster = await this.cluster();
      await cluster.client.patch({ resource: 'nodes' }, name, 'merge', { spec: { unschedulable: value } });
    }),
  );
}

When(
  'I set the taints of node {node} to {string}',
  step(async function (this: KubeWorld, name: string, taints: string) {
    const cluster = await this.cluster();
    await cluster.client.patch({ resource: 'nodes' }, name, 'merge', { spec: { taints: parseTaints(taints) } });
  }),
);

When(
  'I add label {string} to node {node}',
  step(async function (this: KubeWorld, label: string, name: string) {
    const [key, value, ...rest] = label.split('=');
    if (!key || value === undefined || rest.length) throw new Error(`"${label}" is not a label (want "key=value")`);
    const cluster = await this.cluster();
    await cluster.client.patch({ resource: 'nodes' }, name, 'merge', { metadata: { labels: { [key]: value } } });
  }),
);
