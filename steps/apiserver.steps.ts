import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataTable, Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { CertificateAuthority, clientFromKubeconfig, NotApplicableError } from '../src/drivers';
import { Pod } from '../src/api/core';
import { KubeWorld } from './world';
import { step } from './support';
import { kubectlState } from './kubectl';

/**
 * API server vocabulary: how it authenticates (token and basic-auth files, the kubelets' CA),
 * whether and where it serves, who wrote through it (its audit), and its storage — compacted,
 * or the whole control plane killed and started again on its data.
 */

// ── authentication files ────────────────────────────────────────────────────────────────

Given(
  'a token file for the API server with:',
  step(function (this: KubeWorld, table: DataTable) {
    const file = path.join(kubectlState(this).dir, 'tokens.csv');
    fs.writeFileSync(
      file,
      table
        .hashes()
        .map((r) => `${r.token},${r.user},${r.uid},"${r.groups ?? ''}"`)
        .join('\n'),
    );
    this.setFlag('token-auth-file', file);
  }),
);

Given(
  'a basic auth file for the API server with:',
  step(function (this: KubeWorld, table: DataTable) {
    const file = path.join(kubectlState(this).dir, 'basic-auth.csv');
    fs.writeFileSync(
      file,
      table
        .hashes()
        .map((r) => `${r.password},${r.user},${r.uid},"${r.groups ?? ''}"`)
        .join('\n'),
    );
    this.setFlag('basic-auth-file', file);
  }),
);

for (const which of ["the kubelets' CA", 'an unrelated CA']) {
  Given(
    `the API server verifies kubelet certificates with ${which}`,
    step(async function (this: KubeWorld) {
      const http = this.driver.http;
      if (!http) throw new NotApplicableError(`target ${this.driver.target} does not serve HTTP`);
      let file = http.files.kubeletCA;
      if (which === 'an unrelated CA') {
        file = path.join(kubectlState(this).dir, 'unrelated-ca.crt');
        fs.writeFileSync(file, CertificateAuthority.create('unrelated-ca').keyPair.certPem);
      }
      this.setFlag('kubelet-certificate-authority', file);
    }),
  );
}

// ── serving ─────────────────────────────────────────────────────────────────────────────

When(
  'the API server serves over HTTP',
  step(async function (this: KubeWorld) {
    this.lastServeError = undefined;
    try {
      // A target that starts its API server with the cluster (upstream) refuses there.
      const cluster = await this.cluster();
      if (!cluster.http) throw new NotApplicableError(`target ${cluster.target} does not serve HTTP`);
      await cluster.http.serve();
    } catch (e) {
      if (e instanceof NotApplicableError) throw e;
      this.lastServeError = e as Error;
    }
  }),
);

for (const which of ['secure', 'insecure'] as const) {
  Then(
    `the ${which} port listens on {string}`,
    step(async function (this: KubeWorld, host: string) {
      const e = await (await this.cluster()).http!.serve();
      expect(e[which], `${which} port`).to.not.equal(undefined);
      expect(e[which]!.host).to.equal(host);
    }),
  );

  Then(
    `the ${which} port is off`,
    step(async function (this: KubeWorld) {
      const e = await (await this.cluster()).http!.serve();
      expect(e[which], `${which} port`).to.equal(undefined);
    }),
  );
}

// A regular expression: the error text runs to the end of the line and may quote, which {string} cannot hold.
Then(
  /^the API server refuses to serve with "(.*)"$/,
  step(function (this: KubeWorld, text: string) {
    expect(this.lastServeError, 'the API server started serving').to.not.equal(undefined);
    expect(this.lastServeError!.message).to.contain(text);
  }),
);

// The control plane starts here, with the flags set before: the reference refuses in start(), a
// target running processes (upstream, serve) remembers why and says so when first used.
Then(
  /^the controller manager refuses to start with "(.*)"$/,
  step(async function (this: KubeWorld, text: string) {
    let error: Error | undefined;
    try {
      const cluster = await this.cluster();
      await cluster.http?.serve();
    } catch (e) {
      if (e instanceof NotApplicableError) throw e;
      error = e as Error;
    }
    expect(error, 'the control plane started').to.not.equal(undefined);
    expect(error!.message).to.contain(text);
  }),
);

// ── audit ───────────────────────────────────────────────────────────────────────────────

/** COMM-APISERVER-ONLY: who talked to the API server, and whether anything else touched storage. */

async function audit(world: KubeWorld) {
  const cluster = await world.cluster();
  if (!cluster.apiAudit)
    throw new NotApplicableError(`target ${cluster.target} does not expose its API server's audit`);
  return cluster.apiAudit();
}

Then(
  'the API server has handled writes from:',
  step(async function (this: KubeWorld, table: DataTable) {
    const { writesByUser, writesByUserResource } = await audit(this);
    for (const [user, what] of table.raw()) {
      expect(writesByUser[user] ?? 0, `writes by ${user} (all: ${JSON.stringify(writesByUser)})`).to.be.greaterThan(0);
      // A second column names what that user wrote: "resource" or "resource/subresource"
      // ("-": anything).
      if (!what || what === '-') continue;
      if (!writesByUserResource)
        throw new Error('the target reports writes per user but not per resource: it cannot say who wrote what');
      const wrote = writesByUserResource[user] ?? {};
      expect(
        wrote[what] ?? 0,
        `${user}'s writes of ${what} (all of theirs: ${JSON.stringify(wrote)})`,
      ).to.be.greaterThan(0);
    }
  }),
);

Then(
  'every write to storage came through the API server',
  step(async function (this: KubeWorld) {
    const a = await audit(this);
    expect(a.apiServerStoreWrites, 'writes to storage').to.be.greaterThan(0);
    expect(
      a.storeRevisionDelta,
      `storage moved by ${a.storeRevisionDelta} revisions; the API server wrote ${a.apiServerStoreWrites}`,
    ).to.equal(a.apiServerStoreWrites);
  }),
);

// API-CACHE: how often each caller read (get, list, watch) — a component that works from its
// list/watch caches reads at start and then not again however long the cluster runs.
async function readsByUser(world: KubeWorld) {
  const a = await audit(world);
  if (!a.readsByUser)
    throw new NotApplicableError(
      `target ${(await world.cluster()).target} does not count its API server's reads per caller`,
    );
  return a.readsByUser;
}

const totalReads = (c: { get: number; list: number; watch: number } | undefined) => (c ? c.get + c.list + c.watch : 0);

When(
  "I note the API server's reads per caller",
  step(async function (this: KubeWorld) {
    this.readsMark = await readsByUser(this);
  }),
);

Then(
  'the API server has handled reads from:',
  step(async function (this: KubeWorld, table: DataTable) {
    const reads = await readsByUser(this);
    for (const [user] of table.raw()) {
      const c = reads[user];
      // Its caches started: at least one list and one watch (an informer lists, then watches).
      expect(c?.list ?? 0, `lists by ${user} (all: ${JSON.stringify(reads)})`).to.be.greaterThan(0);
      expect(c?.watch ?? 0, `watches by ${user} (all: ${JSON.stringify(reads)})`).to.be.greaterThan(0);
    }
  }),
);

Then(
  'since then the API server has handled no reads from:',
  step(async function (this: KubeWorld, table: DataTable) {
    const before = this.readsMark;
    if (!before) throw new Error('no reads were noted: add "When I note the API server\'s reads per caller" first');
    const after = await readsByUser(this);
    for (const [user] of table.raw()) {
      expect(
        totalReads(before[user]),
        `${user} read nothing before the mark (all: ${JSON.stringify(before)})`,
      ).to.be.greaterThan(0);
      const was = `reads by ${user}: before ${JSON.stringify(before[user])}, after ${JSON.stringify(after[user])}`;
      expect({ get: after[user]?.get, list: after[user]?.list }, was).to.deep.equal({
        get: before[user]?.get,
        list: before[user]?.list,
      });
      // An informer's watch ends after its timeout and starts again from the last
      // resourceVersion, with no list: client-go's Reflector asks timeoutSeconds between
      // minWatchTimeout (5 min) and twice that, so in a window of 5 min each watch starts
      // again at most once (found on upstream v1.32.13: 7 of 51 watches again in 5 min).
      // Never more watches than were open: that would be polling by watch.
      expect((after[user]?.watch ?? 0) - (before[user]?.watch ?? 0), was).to.be.at.most(before[user]?.watch ?? 0);
    }
  }),
);

// ── storage ─────────────────────────────────────────────────────────────────────────────

When(
  'the API server compacts its storage',
  step(async function (this: KubeWorld) {
    const cluster = await this.cluster();
    if (!cluster.compactStorage)
      throw new NotApplicableError(`target ${cluster.target} cannot be told to compact its storage`);
    await cluster.compactStorage();
  }),
);

When(
  'the control plane is killed \\(SIGKILL) and started again on its data',
  step(async function (this: KubeWorld) {
    const cluster = await this.cluster();
    if (!cluster.restartControlPlane)
      throw new NotApplicableError(`target ${cluster.target} cannot kill and restart its control plane`);
    const list = await cluster.client.list<Pod>({ resource: 'pods', namespace: 'default' });
    const pods = new Map(
      list.items.map((p) => [p.metadata.name!, { uid: p.metadata.uid!, rv: p.metadata.resourceVersion! }]),
    );
    const kubeconfig = cluster.http ? await cluster.http.kubeconfig({ admin: true }) : undefined;
    this.beforeRestart = { pods, kubeconfig };
    await cluster.restartControlPlane();
  }),
);

function recorded(world: KubeWorld) {
  const r = world.beforeRestart;
  if (!r)
    throw new Error(
      'the control plane was not restarted in this scenario ("When the control plane is killed (SIGKILL) and started again on its data")',
    );
  return r;
}

Then(
  'every pod of before the restart is there with the same uid and resourceVersion',
  step(async function (this: KubeWorld) {
    const { pods } = recorded(this);
    expect(pods.size, 'pods before the restart').to.be.greaterThan(0);
    const cluster = await this.cluster();
    const now = await cluster.client.list<Pod>({ resource: 'pods', namespace: 'default' });
    const after = new Map(
      now.items.map((p) => [p.metadata.name!, { uid: p.metadata.uid!, rv: p.metadata.resourceVersion! }]),
    );
    for (const [name, was] of pods) expect(after.get(name), `pod ${name} after the restart`).to.deep.equal(was);
  }),
);

Then(
  'a kubeconfig written before the restart still lists the pods',
  step(async function (this: KubeWorld) {
    const { kubeconfig, pods } = recorded(this);
    if (!kubeconfig) throw new NotApplicableError('the target has no kubeconfig to keep');
    const list = await clientFromKubeconfig(kubeconfig).list<Pod>({ resource: 'pods', namespace: 'default' });
    expect(list.items.map((p) => p.metadata.name).sort()).to.include.members([...pods.keys()]);
  }),
);

Then(
  'the pod {string} has a resourceVersion above every one of before the restart',
  step(async function (this: KubeWorld, name: string) {
    const { pods } = recorded(this);
    const cluster = await this.cluster();
    const pod = await cluster.client.get<Pod>({ resource: 'pods', namespace: 'default' }, name);
    const highest = Math.max(...[...pods.values()].map((p) => Number(p.rv)));
    expect(
      Number(pod.metadata.resourceVersion),
      `resourceVersion of ${name} (highest before: ${highest})`,
    ).to.be.greaterThan(highest);
  }),
);
