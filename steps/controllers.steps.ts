import { DataTable, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import * as yaml from 'js-yaml';
import { Pod } from '../src/api/core';
import { KubeObject } from '../src/api/meta';
import { isStatusError, StatusError } from '../src/api/errors';
import { KubeWorld } from './world';
import { step } from './support';
import { fieldAt, resourceNamed, showField } from './objects';

/** Controller vocabulary: pods a controller owns, scaling, relabelling, deletion with a propagation policy. */

function refFor(kind: string, namespace: string | null) {
  const r = resourceNamed(kind);
  return { r, ref: { resource: r.resource, namespace: r.namespaced ? namespace ?? 'default' : undefined } };
}

async function owner(world: KubeWorld, kind: string, name: string, namespace: string | null): Promise<KubeObject> {
  const cluster = await world.cluster();
  const { ref } = refFor(kind, namespace);
  return cluster.client.get(ref, name);
}

/** Pods whose controller reference names the object, active ones only unless asked. */
async function ownedPods(world: KubeWorld, kind: string, name: string, namespace: string | null, all = false): Promise<Pod[]> {
  const cluster = await world.cluster();
  const o = await owner(world, kind, name, namespace);
  const list = await cluster.client.list<Pod>({ resource: 'pods', namespace: namespace ?? 'default' });
  return list.items.filter((p) => p.metadata.ownerReferences?.some((r) => r.controller && r.uid === o.metadata.uid))
    .filter((p) => all || (!p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed'));
}

async function podsLabelled(world: KubeWorld, selector: string, namespace: string | null): Promise<Pod[]> {
  const cluster = await world.cluster();
  const list = await cluster.client.list<Pod>({ resource: 'pods', namespace: namespace ?? 'default' }, { labelSelector: selector });
  return list.items.filter((p) => !p.metadata.deletionTimestamp);
}

const KIND = '(replicationcontroller|job|rc)';
const NS = '(?: in namespace "([^"]+)")?';

Then(new RegExp(`^${KIND} "([^"]+)"${NS} controls (\\d+) active pods?$`), step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, count: string) {
  const pods = await ownedPods(this, kind, name, ns);
  expect(pods.map((p) => p.metadata.name), `active pods of ${kind} ${name}`).to.have.length(Number(count));
}));

Then(new RegExp(`^every pod of ${KIND} "([^"]+)"${NS} has:$`), step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, table: DataTable) {
  const pods = await ownedPods(this, kind, name, ns, true);
  expect(pods, `pods of ${kind} ${name}`).to.not.be.empty;
  for (const pod of pods) {
    for (const [path, expected] of table.raw()) expect(showField(fieldAt(pod, path)), `pod ${pod.metadata.name}: ${path}`).to.equal(expected);
  }
}));

Then(new RegExp(`^(\\d+) pods? of ${KIND} "([^"]+)"${NS} (?:has|have) ([\\w.\\[\\]-]+) "([^"]*)"$`), step(async function (this: KubeWorld, count: string, kind: string, name: string, ns: string | null, path: string, value: string) {
  const pods = await ownedPods(this, kind, name, ns, true);
  expect(pods.filter((p) => showField(fieldAt(p, path)) === value).map((p) => p.metadata.name), `pods of ${kind} ${name} with ${path}=${value}`).to.have.length(Number(count));
}));

When(new RegExp(`^the pods of ${KIND} "([^"]+)"${NS} are bound to node "([^"]+)"$`), step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, node: string) {
  const cluster = await this.cluster();
  for (const pod of await ownedPods(this, kind, name, ns)) {
    if (pod.spec.nodeName) continue; // a scheduler may have placed it already
    await cluster.client.createSubresource({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!, 'binding', {
      apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name }, target: { apiVersion: 'v1', kind: 'Node', name: node },
    });
  }
}));

When(new RegExp(`^I delete (\\d+) pods? of ${KIND} "([^"]+)"${NS}$`), step(async function (this: KubeWorld, count: string, kind: string, name: string, ns: string | null) {
  const cluster = await this.cluster();
  const pods = (await ownedPods(this, kind, name, ns)).sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  expect(pods.length, `pods of ${kind} ${name}`).to.be.at.least(Number(count));
  for (const pod of pods.slice(0, Number(count))) await cluster.client.delete({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!);
}));

When(new RegExp(`^I relabel (\\d+) pods? of ${KIND} "([^"]+)"${NS} to "([^"]+)=([^"]*)"$`), step(async function (this: KubeWorld, count: string, kind: string, name: string, ns: string | null, key: string, value: string) {
  const cluster = await this.cluster();
  const pods = (await ownedPods(this, kind, name, ns)).sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  for (const pod of pods.slice(0, Number(count))) await cluster.client.patch({ resource: 'pods', namespace: pod.metadata.namespace }, pod.metadata.name!, 'merge', { metadata: { labels: { [key]: value } } });
}));

When(new RegExp(`^I scale ${KIND} "([^"]+)"${NS} to (\\d+)(?: replicas)?$`), step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, replicas: string) {
  const cluster = await this.cluster();
  const { ref } = refFor(kind, ns);
  // Read-modify-write, retried on a conflict as kubectl scale does (ScaleWithRetries): on a
  // real cluster the controller updates the status between the read and the write.
  for (let attempt = 1; ; attempt++) {
    const scale = await cluster.client.get(ref, name, { subresource: 'scale' });
    try {
      await cluster.client.update(ref, { ...scale, spec: { replicas: Number(replicas) } } as KubeObject, { subresource: 'scale' });
      return;
    } catch (e) {
      if (!isStatusError(e, 'Conflict') || attempt >= 5) throw e;
    }
  }
}));

Then(new RegExp(`^the scale of ${KIND} "([^"]+)"${NS} has:$`), step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, table: DataTable) {
  const cluster = await this.cluster();
  const { ref } = refFor(kind, ns);
  const scale = await cluster.client.get(ref, name, { subresource: 'scale' });
  for (const [path, expected] of table.raw()) expect(showField(fieldAt(scale, path)), `scale ${name}: ${path}`).to.equal(expected);
}));

When(/^I (try to )?delete the (\w+) "([^"]+)"(?: in namespace "([^"]+)")? with propagation policy (Orphan|Background|Foreground)$/, step(async function (this: KubeWorld, attempt: string | null, kind: string, name: string, ns: string | null, policy: 'Orphan' | 'Background' | 'Foreground') {
  await deleteObject(this, kind, name, ns, !!attempt, { propagationPolicy: policy });
}));

When(/^I try to delete the (\w+) "([^"]+)"(?: in namespace "([^"]+)")?$/, step(async function (this: KubeWorld, kind: string, name: string, ns: string | null) {
  await deleteObject(this, kind, name, ns, true, {});
}));

async function deleteObject(world: KubeWorld, kind: string, name: string, ns: string | null, attempt: boolean, options: { propagationPolicy?: 'Orphan' | 'Background' | 'Foreground' }): Promise<void> {
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

When(/^I patch the (\w+) "([^"]+)"(?: in namespace "([^"]+)")?( status)? with:$/, step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, status: string | null, patch: string) {
  const cluster = await this.cluster();
  const { ref } = refFor(kind, ns);
  await cluster.client.patch(ref, name, 'merge', yaml.load(patch), status ? { subresource: 'status' } : {});
}));

Then(/^(\d+) pods?(?: in namespace "([^"]+)")? (?:are|is) labelled "([^"]+)"$/, step(async function (this: KubeWorld, count: string, ns: string | null, selector: string) {
  const pods = await podsLabelled(this, selector, ns);
  expect(pods.map((p) => p.metadata.name), `pods labelled ${selector}`).to.have.length(Number(count));
}));

Then(/^the pods?(?: in namespace "([^"]+)")? labelled "([^"]+)" (?:have|has) no controller$/, step(async function (this: KubeWorld, ns: string | null, selector: string) {
  const pods = await podsLabelled(this, selector, ns);
  expect(pods, `pods labelled ${selector}`).to.not.be.empty;
  for (const p of pods) expect(p.metadata.ownerReferences ?? [], `ownerReferences of ${p.metadata.name}`).to.deep.equal([]);
}));

Then(/^the (\w+) "([^"]+)"(?: in namespace "([^"]+)")? has (\d+) items? in (\S+)$/, step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, count: string, path: string) {
  const cluster = await this.cluster();
  const { ref } = refFor(kind, ns);
  const value = fieldAt(await cluster.client.get(ref, name), path);
  expect(Array.isArray(value) ? value : [], `${kind} ${name}: ${path}`).to.have.length(Number(count));
}));

Then(/^the (\w+) "([^"]+)"(?: in namespace "([^"]+)")? has a condition (\w+) "(True|False)"(?: with reason "([^"]*)")?$/, step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, type: string, status: string, reason: string | null) {
  const cluster = await this.cluster();
  const { ref } = refFor(kind, ns);
  const obj = await cluster.client.get(ref, name) as KubeObject & { status?: { conditions?: { type: string; status: string; reason?: string }[] } };
  const cond = obj.status?.conditions?.find((c) => c.type === type);
  expect(cond, `${kind} ${name} condition ${type}`).to.not.equal(undefined);
  expect(cond!.status).to.equal(status);
  if (reason !== null) expect(cond!.reason).to.equal(reason);
}));

Then(/^the (\w+) "([^"]+)"(?: in namespace "([^"]+)")? has no condition (\w+)$/, step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, type: string) {
  const cluster = await this.cluster();
  const { ref } = refFor(kind, ns);
  const obj = await cluster.client.get(ref, name) as KubeObject & { status?: { conditions?: { type: string }[] } };
  expect((obj.status?.conditions ?? []).map((c) => c.type)).to.not.include(type);
}));

Then(/^the request fails with a cause "([^"]+)" on field "([^"]+)" saying "([^"]*)"$/, step(function (this: KubeWorld, reason: string, field: string, message: string) {
  expect(this.lastError, 'the request succeeded').to.not.equal(undefined);
  expect(this.lastError!.status.details?.causes ?? []).to.deep.include({ reason, field, message });
}));

Then(/^(\d+) pods?(?: in namespace "([^"]+)")? (?:are|is) Terminating$/, step(async function (this: KubeWorld, count: string, ns: string | null) {
  const cluster = await this.cluster();
  const list = await cluster.client.list<Pod>({ resource: 'pods', namespace: ns ?? 'default' });
  expect(list.items.filter((p) => p.metadata.deletionTimestamp).map((p) => p.metadata.name), 'terminating pods').to.have.length(Number(count));
}));

Then(/^the (\w+) "([^"]+)"(?: in namespace "([^"]+)")? has (?:(label|annotation) "([^"]+)" = "([^"]*)"|no (label|annotation) "([^"]+)")$/,
  step(async function (this: KubeWorld, kind: string, name: string, ns: string | null, what: string | null, key: string | null, value: string | null, whatAbsent: string | null, absent: string | null) {
    const cluster = await this.cluster();
    const { ref } = refFor(kind, ns);
    const meta = (await cluster.client.get(ref, name)).metadata;
    const map = ((what ?? whatAbsent) === 'label' ? meta.labels : meta.annotations) ?? {};
    if (absent !== null) expect(map, `${whatAbsent}s of ${kind} ${name}`).to.not.have.property(absent);
    else expect(map[key!], `${what} ${key} of ${kind} ${name}`).to.equal(value);
  }));

Then(/^the (\w+) "([^"]+)"(?: in namespace "([^"]+)")? has no error$/, step(async function (this: KubeWorld, kind: string, name: string, ns: string | null) {
  expect(this.lastError?.status.message, 'the request failed').to.equal(undefined);
  const cluster = await this.cluster();
  const { ref } = refFor(kind, ns);
  expect((await cluster.client.get(ref, name)).metadata.name).to.equal(name);
}));
