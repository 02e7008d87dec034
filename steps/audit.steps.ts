import { DataTable, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { NotApplicableError } from '../src/drivers';
import { KubeWorld } from './world';
import { step } from './support';

/** COMM-APISERVER-ONLY: who talked to the API server, and whether anything else touched storage. */

async function audit(world: KubeWorld) {
  const cluster = await world.cluster();
  if (!cluster.apiAudit) throw new NotApplicableError(`target ${cluster.target} does not expose its API server's audit`);
  return cluster.apiAudit();
}

Then('the API server has handled writes from:', step(async function (this: KubeWorld, table: DataTable) {
  const { writesByUser } = await audit(this);
  for (const [user] of table.raw()) {
    expect(writesByUser[user] ?? 0, `writes by ${user} (all: ${JSON.stringify(writesByUser)})`).to.be.greaterThan(0);
  }
}));

Then('every write to storage came through the API server', step(async function (this: KubeWorld) {
  const a = await audit(this);
  expect(a.apiServerStoreWrites, 'writes to storage').to.be.greaterThan(0);
  expect(a.storeRevisionDelta, `storage moved by ${a.storeRevisionDelta} revisions; the API server wrote ${a.apiServerStoreWrites}`).to.equal(a.apiServerStoreWrites);
}));
