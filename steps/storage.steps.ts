import { Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { clientFromKubeconfig, NotApplicableError } from '../src/drivers';
import { Pod } from '../src/api/core';
import { KubeWorld } from './world';
import { step } from './support';

When('the control plane is killed \\(SIGKILL) and started again on its data', step(async function (this: KubeWorld) {
  const cluster = await this.cluster();
  if (!cluster.restartControlPlane) throw new NotApplicableError(`target ${cluster.target} cannot kill and restart its control plane`);
  const list = await cluster.client.list<Pod>({ resource: 'pods', namespace: 'default' });
  const pods = new Map(list.items.map((p) => [p.metadata.name!, { uid: p.metadata.uid!, rv: p.metadata.resourceVersion! }]));
  const kubeconfig = cluster.http ? await cluster.http.kubeconfig({ admin: true }) : undefined;
  this.beforeRestart = { pods, kubeconfig };
  await cluster.restartControlPlane();
}));

function recorded(world: KubeWorld) {
  const r = world.beforeRestart;
  if (!r) throw new Error('the control plane was not restarted in this scenario ("When the control plane is killed (SIGKILL) and started again on its data")');
  return r;
}

Then('every pod of before the restart is there with the same uid and resourceVersion', step(async function (this: KubeWorld) {
  const { pods } = recorded(this);
  expect(pods.size, 'pods before the restart').to.be.greaterThan(0);
  const cluster = await this.cluster();
  const now = await cluster.client.list<Pod>({ resource: 'pods', namespace: 'default' });
  const after = new Map(now.items.map((p) => [p.metadata.name!, { uid: p.metadata.uid!, rv: p.metadata.resourceVersion! }]));
  for (const [name, was] of pods) expect(after.get(name), `pod ${name} after the restart`).to.deep.equal(was);
}));

Then('a kubeconfig written before the restart still lists the pods', step(async function (this: KubeWorld) {
  const { kubeconfig, pods } = recorded(this);
  if (!kubeconfig) throw new NotApplicableError('the target has no kubeconfig to keep');
  const list = await clientFromKubeconfig(kubeconfig).list<Pod>({ resource: 'pods', namespace: 'default' });
  expect(list.items.map((p) => p.metadata.name).sort()).to.include.members([...pods.keys()]);
}));

Then('the pod {string} has a resourceVersion above every one of before the restart', step(async function (this: KubeWorld, name: string) {
  const { pods } = recorded(this);
  const cluster = await this.cluster();
  const pod = await cluster.client.get<Pod>({ resource: 'pods', namespace: 'default' }, name);
  const highest = Math.max(...[...pods.values()].map((p) => Number(p.rv)));
  expect(Number(pod.metadata.resourceVersion), `resourceVersion of ${name} (highest before: ${highest})`).to.be.greaterThan(highest);
}));
