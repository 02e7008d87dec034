import { After, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { ApiServerMember, NotApplicableError } from '../src/drivers';
import { KubeObject } from '../src/api/meta';
import { ApiWatchEvent } from '../src/api/request';
import { readLock } from './leaderelection.steps';
import { KubeWorld } from './world';
import { step } from './support';

/**
 * Two API servers on one etcd (capability apiServerPair; HA-APISERVERS, HA-LEADER-FAILOVER):
 * watches through each server, writes through both, which server's controller manager and
 * scheduler hold the locks, and the leader killed.
 */

interface PairState {
  /** Per server: "TYPE name resourceVersion" of each event its watch delivered. */
  seen: Map<string, string[]>;
  watches: { stop(): void }[];
  /** "TYPE name resourceVersion" of each write, as the writer got it back. */
  written: string[];
  killedAt?: number;
  /** Writes per user through each server, when noted. */
  writes?: Map<string, Record<string, number>>;
}
const pairs = new WeakMap<KubeWorld, PairState>();

function pairState(world: KubeWorld): PairState {
  let s = pairs.get(world);
  if (!s) pairs.set(world, (s = { seen: new Map(), watches: [], written: [] }));
  return s;
}

async function apiServers(world: KubeWorld): Promise<ApiServerMember[]> {
  const cluster = await world.cluster();
  if (!cluster.apiServers) throw new NotApplicableError(`target ${cluster.target} runs one API server`);
  return cluster.apiServers();
}

async function member(world: KubeWorld, which: string): Promise<ApiServerMember> {
  const m = (await apiServers(world)).find((s) => s.name === which);
  if (!m) throw new Error(`no ${which} API server (first or second)`);
  return m;
}

const SECRETS = { resource: 'secrets', namespace: 'default' };

After(function (this: KubeWorld) {
  for (const w of pairs.get(this)?.watches ?? []) w.stop();
});

When(
  'I watch secrets through each API server',
  step(async function (this: KubeWorld) {
    const state = pairState(this);
    for (const s of await apiServers(this)) {
      const from = (await s.client.list(SECRETS)).metadata.resourceVersion;
      const seen: string[] = [];
      state.seen.set(s.name, seen);
      state.watches.push(
        await s.client.watch<KubeObject>(
          SECRETS,
          { resourceVersion: from },
          {
            onEvent: (e: ApiWatchEvent<KubeObject>) =>
              seen.push(`${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`),
          },
        ),
      );
    }
  }),
);

When(
  'I create {int} secrets, in turn through the first and the second API server, and change every fifth through the other',
  step(async function (this: KubeWorld, n: number) {
    const state = pairState(this);
    const [first, second] = await apiServers(this);
    for (let i = 0; i < n; i++) {
      const [via, other] = i % 2 === 0 ? [first, second] : [second, first];
      const made = await via.client.create(SECRETS, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `s-${i}` },
        data: { i: 'MQ==' },
      } as KubeObject);
      state.written.push(`ADDED s-${i} ${made.metadata.resourceVersion}`);
      if (i % 5 === 4) {
        const got = await other.client.get<KubeObject>(SECRETS, `s-${i}`);
        expect(got.metadata.resourceVersion, `s-${i} read through the ${other.name} server`).to.equal(
          made.metadata.resourceVersion,
        );
        const changed = await other.client.update(SECRETS, { ...got, data: { i: 'Mg==' } } as KubeObject);
        state.written.push(`MODIFIED s-${i} ${changed.metadata.resourceVersion}`);
      }
    }
  }),
);

Then(
  'the watch through each API server delivers every write, in order, with the resourceVersion the writer got',
  step(async function (this: KubeWorld) {
    const state = pairState(this);
    expect(state.seen.size, 'watches (When I watch secrets through each API server)').to.equal(2);
    for (const [server, seen] of state.seen)
      expect(seen, `events of the watch through the ${server} API server`).to.deep.equal(state.written);
  }),
);

/** The holder of each lock: kube-controller-manager and kube-scheduler. */
async function holders(world: KubeWorld): Promise<{ controllerManager: string; scheduler: string }> {
  return {
    controllerManager: (await readLock(world, 'kube-controller-manager')).record.holderIdentity,
    scheduler: (await readLock(world, 'kube-scheduler')).record.holderIdentity,
  };
}

Then(
  "the leader locks name the {word} API server's controller manager and scheduler",
  step(async function (this: KubeWorld, which: string) {
    const m = await member(this, which);
    expect(m.controllerManagerIdentity, `the ${which} controller manager's identity`).to.be.a('string');
    expect(m.schedulerIdentity, `the ${which} scheduler's identity`).to.be.a('string');
    expect(
      await holders(this),
      'holders of kube-system/kube-controller-manager and kube-system/kube-scheduler',
    ).to.deep.equal({
      controllerManager: m.controllerManagerIdentity,
      scheduler: m.schedulerIdentity,
    });
  }),
);

const ELECTED = ['system:kube-controller-manager', 'system:kube-scheduler'];

When(
  'I note the writes made through each API server',
  step(async function (this: KubeWorld) {
    const state = pairState(this);
    state.writes = new Map();
    for (const s of await apiServers(this)) state.writes.set(s.name, (await s.audit()).writesByUser);
  }),
);

Then(
  "since then only the {word} API server's controller manager and scheduler have written through their API server",
  step(async function (this: KubeWorld, which: string) {
    const noted = pairState(this).writes;
    if (!noted) throw new Error('the writes were not noted ("When I note the writes made through each API server")');
    for (const s of await apiServers(this)) {
      const { writesByUser } = await s.audit();
      for (const user of ELECTED) {
        const writes = (writesByUser[user] ?? 0) - (noted.get(s.name)?.[user] ?? 0);
        const through = `writes by ${user} through the ${s.name} API server since they were noted`;
        if (s.name === which) expect(writes, through).to.be.greaterThan(0);
        else expect(writes, `${through} (it stands by)`).to.equal(0);
      }
    }
  }),
);

When(
  'the API server whose controller manager leads is killed \\(SIGKILL)',
  step(async function (this: KubeWorld) {
    const cluster = await this.cluster();
    if (!cluster.killLeader)
      throw new NotApplicableError(`target ${cluster.target} cannot kill an API server of a pair`);
    pairState(this).killedAt = await cluster.killLeader();
  }),
);

Then(
  "the {word} API server's controller manager and scheduler take the leader locks between {int} and {int} seconds after the kill",
  step(async function (this: KubeWorld, which: string, low: number, high: number) {
    const killedAt = pairState(this).killedAt;
    if (killedAt === undefined) throw new Error('no API server was killed in this scenario');
    // The member's identities are asked again each time: a target may learn a standby's only
    // once it has written its lock (upstream's candidates tell theirs nowhere else).
    const wanted = async () => {
      const m = await member(this, which);
      return { controllerManager: m.controllerManagerIdentity, scheduler: m.schedulerIdentity };
    };
    // Waits out the upper bound (and a little for a loaded machine), then judges the times
    // the locks themselves record: acquireTime, written by the new holder when it took them.
    const deadline = killedAt + (high + 5) * 1000;
    let want = await wanted();
    let now = await holders(this);
    const taken = () =>
      want.controllerManager !== undefined &&
      want.scheduler !== undefined &&
      now.controllerManager === want.controllerManager &&
      now.scheduler === want.scheduler;
    while (!taken() && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      now = await holders(this);
      want = await wanted();
    }
    expect(now, `holders ${Math.round((Date.now() - killedAt) / 1000)} s after the kill`).to.deep.equal(want);
    expect(taken(), 'the identities of the new holders are known').to.equal(true);
    for (const lock of ['kube-controller-manager', 'kube-scheduler']) {
      const took = (Date.parse((await readLock(this, lock)).record.acquireTime) - killedAt) / 1000;
      this.attach(`kube-system/${lock} taken ${took.toFixed(2)} s after the kill`, 'text/plain');
      expect(took, `seconds from the kill until kube-system/${lock} was taken`).to.be.within(low, high);
    }
  }),
);
