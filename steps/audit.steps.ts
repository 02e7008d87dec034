import { DataTable, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { NotApplicableError } from '../src/drivers';
import { KubeWorld } from './world';
import { step } from './support';

/**
 * COMM-APISERVER-ONLY: who talked to the API server, and whether anything else touched storage.
 * API-CACHE: how often each caller read (get, list, watch) — a component that works from its
 * list/watch caches reads at start and then not again however long the cluster runs.
 */

async function audit(world: KubeWorld) {
  const cluster = await world.cluster();
  if (!cluster.apiAudit) throw new NotApplicableError(`target ${cluster.target} does not expose its API server's audit`);
  return cluster.apiAudit();
}

Then(/^the API server has handled writes from:$/, step(async function (this: KubeWorld, table: DataTable) {
  const { writesByUser } = await audit(this);
  for (const [user] of table.raw()) {
    expect(writesByUser[user] ?? 0, `writes by ${user} (all: ${JSON.stringify(writesByUser)})`).to.be.greaterThan(0);
  }
}));

Then(/^every write to storage came through the API server$/, step(async function (this: KubeWorld) {
  const a = await audit(this);
  expect(a.apiServerStoreWrites, 'writes to storage').to.be.greaterThan(0);
  expect(a.storeRevisionDelta, `storage moved by ${a.storeRevisionDelta} revisions; the API server wrote ${a.apiServerStoreWrites}`).to.equal(a.apiServerStoreWrites);
}));

async function readsByUser(world: KubeWorld) {
  const a = await audit(world);
  if (!a.readsByUser) throw new NotApplicableError(`target ${(await world.cluster()).target} does not count its API server's reads per caller`);
  return a.readsByUser;
}

const total = (c: { get: number; list: number; watch: number } | undefined) => (c ? c.get + c.list + c.watch : 0);

When(/^I note the API server's reads per caller$/, step(async function (this: KubeWorld) {
  this.readsMark = await readsByUser(this);
}));

Then(/^the API server has handled reads from:$/, step(async function (this: KubeWorld, table: DataTable) {
  const reads = await readsByUser(this);
  for (const [user] of table.raw()) {
    const c = reads[user];
    // Its caches started: at least one list and one watch (an informer lists, then watches).
    expect(c?.list ?? 0, `lists by ${user} (all: ${JSON.stringify(reads)})`).to.be.greaterThan(0);
    expect(c?.watch ?? 0, `watches by ${user} (all: ${JSON.stringify(reads)})`).to.be.greaterThan(0);
  }
}));

Then(/^since then the API server has handled no reads from:$/, step(async function (this: KubeWorld, table: DataTable) {
  const before = this.readsMark;
  if (!before) throw new Error('no reads were noted: add "When I note the API server\'s reads per caller" first');
  const after = await readsByUser(this);
  for (const [user] of table.raw()) {
    expect(total(before[user]), `${user} read nothing before the mark (all: ${JSON.stringify(before)})`).to.be.greaterThan(0);
    expect(after[user], `reads by ${user}: before ${JSON.stringify(before[user])}, after ${JSON.stringify(after[user])}`).to.deep.equal(before[user]);
  }
}));
