import { DataTable, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { KubeObject } from '../src/api/meta';
import { loadKubernetesYaml } from '../src/api/yaml';
import { StatusError, isStatusError } from '../src/api/errors';
import { KubeWorld } from './world';
import { ageTolerance, expectObjectHeld, step } from './support';
import { fieldAt, refFor, resourceFor, resourceNamed, showField } from './objects';

/** Generic object vocabulary: create from a manifest, check fields, delete, expect errors. */

function parseManifest(manifest: string): KubeObject {
  // Read as kubectl reads a manifest (sigs.k8s.io/yaml: YAML 1.1, go-yaml v2).
  const obj = loadKubernetesYaml(manifest) as KubeObject;
  if (!obj || typeof obj !== 'object') throw new Error('the manifest is not a YAML object');
  return obj;
}

for (const what of ['object', 'node', 'pod']) {
  When(
    `I create this ${what}:`,
    step(async function (this: KubeWorld, manifest: string) {
      const cluster = await this.cluster();
      const obj = parseManifest(manifest);
      this.lastCreated = await cluster.client.create(
        {
          resource: resourceFor(obj),
          namespace: obj.metadata?.namespace ?? (resourceNamed(obj.kind!).namespaced ? 'default' : undefined),
        },
        obj,
      );
    }),
  );
}

When(
  'I try to create this object:',
  step(async function (this: KubeWorld, manifest: string) {
    const cluster = await this.cluster();
    const obj = parseManifest(manifest);
    this.lastError = undefined;
    try {
      await cluster.client.create(
        {
          resource: resourceFor(obj),
          namespace: obj.metadata?.namespace ?? (resourceNamed(obj.kind!).namespaced ? 'default' : undefined),
        },
        obj,
      );
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      this.lastError = e;
    }
  }),
);

Then(
  'the request succeeds',
  step(function (this: KubeWorld) {
    expect(this.lastError?.status, 'the request was refused').to.equal(undefined);
  }),
);

function expectRefusal(world: KubeWorld, code: number, reason: string, message?: string): void {
  expect(world.lastError, 'the request succeeded').to.not.equal(undefined);
  expect(world.lastError!.status.code).to.equal(code);
  expect(world.lastError!.status.reason).to.equal(reason);
  if (message !== undefined) expect(world.lastError!.status.message).to.equal(message);
}

Then(
  'the request fails with {int} {word}',
  step(function (this: KubeWorld, code: number, reason: string) {
    expectRefusal(this, code, reason);
  }),
);

// A regular expression: the message runs to the end of the line and often quotes names ("pods "p" is forbidden"), which {string} cannot hold.
Then(
  /^the request fails with (\d+) (\w+) and message "(.*)"$/,
  step(function (this: KubeWorld, code: string, reason: string, message: string) {
    expectRefusal(this, Number(code), reason, message);
  }),
);

When(
  'I delete the {kind} {string}{in-namespace}',
  step(async function (this: KubeWorld, kind: string, name: string, namespace: string) {
    const cluster = await this.cluster();
    const r = resourceNamed(kind);
    const target = { resource: r.resource, namespace: r.namespaced ? namespace : undefined };
    const uid = (await cluster.client.get(target, name)).metadata.uid;
    await cluster.client.delete(target, name);
    if (uid) this.deletedUids.set(`${r.resource}/${target.namespace ?? ''}/${name}`, uid);
  }),
);

/** A controller re-created what a step deleted: the same name, another object (a new uid). */
Then(
  'the {kind} {string}{in-namespace} is a new object, not the one deleted',
  step(async function (this: KubeWorld, kind: string, name: string, namespace: string) {
    const cluster = await this.cluster();
    const r = resourceNamed(kind);
    const target = { resource: r.resource, namespace: r.namespaced ? namespace : undefined };
    const deleted = this.deletedUids.get(`${r.resource}/${target.namespace ?? ''}/${name}`);
    if (!deleted) throw new Error(`no step deleted the ${kind} "${name}" in this scenario`);
    const obj = await cluster.client.get(target, name);
    expect(obj.metadata.uid, `${r.kind} ${name}: metadata.uid`).to.not.equal(deleted);
  }),
);

Then(
  'the {kind} {string}{in-namespace} has:',
  step(async function (this: KubeWorld, kind: string, name: string, namespace: string, table: DataTable) {
    const cluster = await this.cluster();
    const { r, ref } = refFor(kind, namespace);
    await expectObjectHeld(this, ref, name, (obj) => {
      expect(obj, `${r.kind} ${name} does not exist`).to.not.equal(undefined);
      for (const [path, expected] of table.raw()) {
        const actual = showField(fieldAt(obj, path));
        // A time relative to the cluster's clock: "<now>", "<20 seconds ago>" (exact on a
        // virtual clock; within the age tolerance on a real one, where no epoch is fixed).
        const rel = /^<(?:now|(\d+) seconds? ago)>$/.exec(expected);
        if (rel) {
          const want = Math.floor((cluster.now() - Number(rel[1] ?? 0) * 1000) / 1000) * 1000;
          const slack = ageTolerance(this);
          expect(
            Date.parse(actual),
            `${r.kind} ${name}: ${path} = ${actual}, want ${new Date(want).toISOString()}`,
          ).to.be.within(want - slack, want + slack);
          continue;
        }
        expect(actual, `${r.kind} ${name}: ${path}`).to.equal(expected);
      }
    });
  }),
);

/**
 * The time between two timestamps of one object: exact on a virtual clock; on a real one at
 * least that long (the work in between takes its stated time, and each controller and kubelet
 * reacts after some latency of its own, which upstream does not bound).
 */
Then(
  'the {kind} {string}{in-namespace} took {duration} from {word} to {word}',
  step(async function (
    this: KubeWorld,
    kind: string,
    name: string,
    namespace: string,
    ms: number,
    from: string,
    to: string,
  ) {
    const cluster = await this.cluster();
    const r = resourceNamed(kind);
    const obj = await cluster.client.get(
      { resource: r.resource, namespace: r.namespaced ? namespace : undefined },
      name,
    );
    const [a, b] = [from, to].map((p) => showField(fieldAt(obj, p)));
    const took = Date.parse(b) - Date.parse(a);
    expect(took, `${r.kind} ${name}: ${from} = ${a}, ${to} = ${b}`).to.not.be.NaN;
    if (this.driver.capabilities.virtualTime)
      expect(took, `${r.kind} ${name}: ${from} = ${a}, ${to} = ${b}`).to.equal(ms);
    else expect(took, `${r.kind} ${name}: ${from} = ${a}, ${to} = ${b}`).to.be.at.least(ms);
  }),
);

Then(
  'the {kind} {string}{in-namespace} does not exist',
  step(async function (this: KubeWorld, kind: string, name: string, namespace: string) {
    const cluster = await this.cluster();
    const r = resourceNamed(kind);
    try {
      await cluster.client.get({ resource: r.resource, namespace: r.namespaced ? namespace : undefined }, name);
      expect.fail(`${r.kind} ${name} exists`);
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  }),
);

/** SCHED-BIND: what any client may POST to pods/{name}/binding; a refusal is kept for the next step. */
When(
  'I try to bind pod {string}{in-namespace} to node {node}',
  step(async function (this: KubeWorld, name: string, namespace: string, node: string) {
    const cluster = await this.cluster();
    this.lastError = undefined;
    try {
      await cluster.client.createSubresource({ resource: 'pods', namespace: namespace }, name, 'binding', {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace: namespace },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      });
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      this.lastError = e;
    }
  }),
);

// ── deletion with a propagation policy, merge patches, conditions, labels, refusals ──

for (const [words, attempt] of [
  ['I delete', false],
  ['I try to delete', true],
] as const) {
  When(
    `${words} the {kind} {string}{in-namespace} with propagation policy {propagation-policy}`,
    step(async function (
      this: KubeWorld,
      kind: string,
      name: string,
      ns: string,
      policy: 'Orphan' | 'Background' | 'Foreground',
    ) {
      await deleteObject(this, kind, name, ns, attempt, { propagationPolicy: policy });
    }),
  );
}

When(
  'I try to delete the {kind} {string}{in-namespace}',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string) {
    await deleteObject(this, kind, name, ns, true, {});
  }),
);

async function deleteObject(
  world: KubeWorld,
  kind: string,
  name: string,
  ns: string,
  attempt: boolean,
  options: { propagationPolicy?: 'Orphan' | 'Background' | 'Foreground' },
): Promise<void> {
  const cluster = await world.cluster();
  const { ref } = refFor(kind, ns);
  world.lastError = undefined;
  try {
    await cluster.client.delete(ref, name, options);
  } catch (e) {
    if (!attempt || !(e instanceof StatusError)) throw e;
    world.lastError = e;
  }
}

for (const [words, options] of [
  ['', {}],
  [' status', { subresource: 'status' }],
] as const) {
  When(
    `I patch the {kind} {string}{in-namespace}${words} with:`,
    step(async function (this: KubeWorld, kind: string, name: string, ns: string, patch: string) {
      const cluster = await this.cluster();
      const { ref } = refFor(kind, ns);
      await cluster.client.patch(ref, name, 'merge', loadKubernetesYaml(patch), options);
    }),
  );
}

Then(
  'the {kind} {string}{in-namespace} has {int} item(s) in {word}',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string, count: number, path: string) {
    const cluster = await this.cluster();
    const { ref } = refFor(kind, ns);
    const value = fieldAt(await cluster.client.get(ref, name), path);
    expect(Array.isArray(value) ? value : [], `${kind} ${name}: ${path}`).to.have.length(Number(count));
  }),
);

async function expectObjectCondition(
  world: KubeWorld,
  kind: string,
  name: string,
  ns: string,
  type: string,
  status: string,
  reasons?: readonly string[],
): Promise<void> {
  const { ref } = refFor(kind, ns);
  await expectObjectHeld(world, ref, name, (found) => {
    const obj = found as
      | (KubeObject & { status?: { conditions?: { type: string; status: string; reason?: string }[] } })
      | undefined;
    expect(obj, `${kind} ${name} does not exist`).to.not.equal(undefined);
    const cond = obj!.status?.conditions?.find((c) => c.type === type);
    expect(cond, `${kind} ${name} condition ${type}`).to.not.equal(undefined);
    expect(cond!.status, `${kind} ${name} condition ${type}'s status`).to.equal(status);
    if (reasons) expect(reasons, `${kind} ${name} condition ${type}'s reason`).to.include(cond!.reason);
  });
}

Then(
  'the {kind} {string}{in-namespace} has a condition {word} {condition-status}',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string, type: string, status: string) {
    await expectObjectCondition(this, kind, name, ns, type, status);
  }),
);

/** The condition with one of the reasons the step names. */
async function expectConditionWithReason(
  this: KubeWorld,
  kind: string,
  name: string,
  ns: string,
  type: string,
  status: string,
  ...reasons: string[]
): Promise<void> {
  await expectObjectCondition(this, kind, name, ns, type, status, reasons);
}

Then(
  'the {kind} {string}{in-namespace} has a condition {word} {condition-status} with reason {string}',
  step(expectConditionWithReason, 6),
);

// Where a release leaves the reason to a race between two controllers (the scenario says which).
Then(
  'the {kind} {string}{in-namespace} has a condition {word} {condition-status} with reason {string} or {string}',
  step(expectConditionWithReason, 7),
);

Then(
  'the {kind} {string}{in-namespace} has no condition {word}',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string, type: string) {
    const cluster = await this.cluster();
    const { ref } = refFor(kind, ns);
    const obj = (await cluster.client.get(ref, name)) as KubeObject & { status?: { conditions?: { type: string }[] } };
    expect((obj.status?.conditions ?? []).map((c) => c.type)).to.not.include(type);
  }),
);

Then(
  'the request fails with a cause {string} on field {string} saying {string}',
  step(function (this: KubeWorld, reason: string, field: string, message: string) {
    expect(this.lastError, 'the request succeeded').to.not.equal(undefined);
    expect(this.lastError!.status.details?.causes ?? []).to.deep.include({ reason, field, message });
  }),
);

/** A cause whose message begins with these words (what follows varies by release: a diff, a list). */
Then(
  'the request fails with {int} {word} and a cause {string} on field {string} beginning {string}',
  step(function (this: KubeWorld, code: number, reason: string, cause: string, field: string, prefix: string) {
    expect(this.lastError, 'the request succeeded').to.not.equal(undefined);
    const status = this.lastError!.status;
    expect([status.code, status.reason], status.message).to.deep.equal([code, reason]);
    const causes = status.details?.causes ?? [];
    const found = causes.find((c) => c.reason === cause && c.field === field && c.message?.startsWith(prefix));
    expect(found, `causes: ${JSON.stringify(causes)}`).to.not.equal(undefined);
  }),
);

for (const what of ['label', 'annotation'] as const) {
  const mapOf = async (world: KubeWorld, kind: string, name: string, ns: string): Promise<Record<string, string>> => {
    const cluster = await world.cluster();
    const meta = (await cluster.client.get(refFor(kind, ns).ref, name)).metadata;
    return (what === 'label' ? meta.labels : meta.annotations) ?? {};
  };
  Then(
    `the {kind} {string}{in-namespace} has ${what} {string} = {string}`,
    step(async function (this: KubeWorld, kind: string, name: string, ns: string, key: string, value: string) {
      expect((await mapOf(this, kind, name, ns))[key], `${what} ${key} of ${kind} ${name}`).to.equal(value);
    }),
  );
  Then(
    `the {kind} {string}{in-namespace} has no ${what} {string}`,
    step(async function (this: KubeWorld, kind: string, name: string, ns: string, key: string) {
      expect(await mapOf(this, kind, name, ns), `${what}s of ${kind} ${name}`).to.not.have.property(key);
    }),
  );
}

Then(
  'the {kind} {string}{in-namespace} has no error',
  step(async function (this: KubeWorld, kind: string, name: string, ns: string) {
    expect(this.lastError?.status.message, 'the request failed').to.equal(undefined);
    const cluster = await this.cluster();
    const { ref } = refFor(kind, ns);
    expect((await cluster.client.get(ref, name)).metadata.name).to.equal(name);
  }),
);

/**
 * The last refused request's causes include this field with this message (which may itself
 * quote values). A regular expression: the message runs to the end of the line, quotes and all.
 */
Then(
  /^the refusal names field "([^"]+)": (.+)$/,
  step(function (this: KubeWorld, field: string, message: string) {
    expect(this.lastError, 'the request succeeded').to.not.equal(undefined);
    const causes = this.lastError!.status.details?.causes ?? [];
    expect(
      causes.map((c) => [c.field, c.message]),
      'causes',
    ).to.deep.include([field, message]);
  }),
);
