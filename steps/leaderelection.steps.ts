import { DataTable, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { KubeObject } from '../src/api/meta';
import { isStatusError } from '../src/api/errors';
import { KubeWorld } from './world';
import { ageTolerance, step } from './support';

/**
 * Leader election vocabulary: the controller manager's lock (a Lease, or the leader
 * annotation of an Endpoints object in the seed's release, as --leader-elect-resource-lock
 * says) and another instance taking it.
 */

const ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

interface Record {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
}

function lockRef(world: KubeWorld) {
  const lock = world.requiredFlag('leader-elect-resource-lock');
  return { lock, ref: { resource: lock === 'leases' ? 'leases.coordination.k8s.io' : lock, namespace: 'kube-system' } };
}

/** A leader lock in kube-system (the controller manager's unless named) and its record, read through the driver's client. */
export async function readLock(
  world: KubeWorld,
  name = 'kube-controller-manager',
): Promise<{ obj: KubeObject & { spec?: Record & { leaseTransitions?: number } }; record: Record }> {
  const cluster = await world.cluster();
  const { lock, ref } = lockRef(world);
  const obj = await cluster.client.get<KubeObject & { spec?: Record & { leaseTransitions?: number } }>(ref, name);
  if (lock === 'leases') {
    const s = obj.spec!;
    return {
      obj,
      record: {
        holderIdentity: s.holderIdentity,
        leaseDurationSeconds: s.leaseDurationSeconds,
        acquireTime: s.acquireTime,
        renewTime: s.renewTime,
        leaderTransitions: s.leaseTransitions ?? 0,
      },
    };
  }
  const raw = obj.metadata.annotations?.[ANNOTATION];
  expect(raw, `annotation ${ANNOTATION} on ${lock} kube-system/${name}`).to.be.a('string');
  return { obj, record: JSON.parse(raw!) as Record };
}

Then(
  'the controller manager\'s leader lock is a/an {word} "kube-controller-manager" in namespace "kube-system"',
  step(async function (this: KubeWorld, kind: string) {
    const { obj } = await readLock(this);
    expect(obj.kind, 'lock kind').to.equal(kind);
  }),
);

/** Renewals are counted in seconds after the holder acquired the lock (the record's own times, so any target's clock works); the identity is "ours" (host_uuid) or a name. */
Then(
  "the controller manager's leader record has:",
  step(async function (this: KubeWorld, table: DataTable) {
    const { record } = await readLock(this);
    const since = (t: string) => String(Math.round((Date.parse(t) - Date.parse(record.acquireTime)) / 1000));
    for (const [field, expected] of table.raw()) {
      switch (field) {
        case 'holder':
          if (expected === 'this controller manager')
            expect(record.holderIdentity, 'holderIdentity').to.match(/^[^_]+_[0-9a-f-]{36}$/);
          else expect(record.holderIdentity, 'holderIdentity').to.equal(expected);
          break;
        case 'leaseDurationSeconds':
          expect(String(record.leaseDurationSeconds), field).to.equal(expected);
          break;
        case 'leaderTransitions':
          expect(String(record.leaderTransitions), field).to.equal(expected);
          break;
        case 'renewed seconds after acquiring':
          expect(since(record.renewTime), 'renewTime − acquireTime').to.equal(expected);
          break;
        default:
          throw new Error(`unknown leader record field "${field}"`);
      }
    }
  }),
);

/** Another kube-controller-manager writes itself into the lock once (and, having "stopped", never renews). */
When(
  'another controller manager {string} takes the leader lock',
  step(async function (this: KubeWorld, identity: string) {
    const cluster = await this.cluster();
    // Read-modify-write, retried on a conflict as a contender's tryAcquireOrRenew is (client-go
    // leaderelection): on a real cluster the holder may renew between the read and the write.
    for (let attempt = 1; ; attempt++) {
      try {
        return await takeLock(this, cluster.now(), identity);
      } catch (e) {
        if (!isStatusError(e, 'Conflict') || attempt >= 5) throw e;
      }
    }
  }),
);

async function takeLock(world: KubeWorld, at: number, identity: string): Promise<void> {
  const cluster = await world.cluster();
  const { lock, ref } = lockRef(world);
  const { obj, record } = await readLock(world);
  const now = new Date(at).toISOString();
  const next: Record = {
    holderIdentity: identity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: now,
    renewTime: now,
    leaderTransitions: record.leaderTransitions + 1,
  };
  const updated =
    lock === 'leases'
      ? {
          ...obj,
          spec: {
            holderIdentity: next.holderIdentity,
            leaseDurationSeconds: next.leaseDurationSeconds,
            acquireTime: now.replace('Z', '000Z'),
            renewTime: now.replace('Z', '000Z'),
            leaseTransitions: next.leaderTransitions,
          },
        }
      : {
          ...obj,
          metadata: {
            ...obj.metadata,
            annotations: { ...obj.metadata.annotations, [ANNOTATION]: JSON.stringify(next) },
          },
        };
  await cluster.client.update(ref, updated as KubeObject);
}

// The renewals themselves, watched for a while: every distinct renewTime seen, twice a
// second. On a virtual clock each gap is exactly the period; on a real one within the age
// tolerance of it (a renewal takes a request, and Endpoints' record has whole seconds).
// The real-clock form of "renewed N seconds after acquiring", which needs the acquisition
// at a known instant.
Then(
  'the controller manager renews its leader record every {int} seconds for {int} seconds',
  step(async function (this: KubeWorld, every: number, forSeconds: number) {
    const cluster = await this.cluster();
    const seen: number[] = [];
    const note = async () => {
      const t = Date.parse((await readLock(this)).record.renewTime);
      if (seen[seen.length - 1] !== t) seen.push(t);
    };
    await note();
    for (let half = 0; half < forSeconds * 2; half++) {
      await cluster.advance(500);
      await note();
    }
    const gaps = seen.slice(1).map((t, i) => (t - seen[i]) / 1000);
    const slack = ageTolerance(this) / 1000;
    expect(gaps.length, `renewals seen: ${seen.map((t) => new Date(t).toISOString())}`).to.be.at.least(
      Math.floor(forSeconds / every) - 1,
    );
    for (const gap of gaps)
      expect(gap, `gaps between renewals (s): ${gaps.join(', ')}`).to.be.within(every - slack, every + slack);
  }),
);
