import { Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import * as yaml from 'js-yaml';
import { Pod } from '../src/api/core';
import { StatusError } from '../src/api/errors';
import { NotApplicableError } from '../src/drivers';
import { KubeWorld } from './world';
import { step } from './support';

/** Scheduler and replica-controller vocabulary that the shared step files do not have yet. */

/** Sets one annotation (key=value) on every pod the label selector picks, through a merge patch. */
When(
  /^I annotate the pods?(?: in namespace "([^"]+)")? labelled "([^"]+)" with "([^"=]+)=([^"]*)"$/,
  step(async function (this: KubeWorld, ns: string | null, selector: string, key: string, value: string) {
    const cluster = await this.cluster();
    const namespace = ns ?? 'default';
    const pods = await cluster.client.list<Pod>({ resource: 'pods', namespace }, { labelSelector: selector });
    expect(
      pods.items.map((p) => p.metadata.name),
      `pods labelled ${selector}`,
    ).to.not.be.empty;
    for (const pod of pods.items) {
      await cluster.client.patch({ resource: 'pods', namespace }, pod.metadata.name!, 'merge', {
        metadata: { annotations: { [key]: value } },
      });
    }
  }),
);

/** A merge patch to a pod that may be refused (SCHED-GATES: a gate added after creation); the refusal is kept for the next step. */
When(
  'I try to patch the pod {string}{in-namespace} with:',
  step(async function (this: KubeWorld, name: string, namespace: string, patch: string) {
    const cluster = await this.cluster();
    this.lastError = undefined;
    try {
      await cluster.client.patch({ resource: 'pods', namespace }, name, 'merge', yaml.load(patch));
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      this.lastError = e;
    }
  }),
);

/** SCHED-PROVIDER: a configuration kube-scheduler refuses (v1.12 exits with glog.Fatalf), so the control plane does not come up. */
Then(
  'the control plane does not start: {string}',
  step(async function (this: KubeWorld, message: string) {
    let error: unknown;
    try {
      // A server target keeps its start failure until it is first asked something.
      const cluster = await this.cluster();
      await cluster.client.list({ resource: 'namespaces' });
    } catch (e) {
      // A target that cannot take the flag at all makes the scenario not applicable, not passed.
      if (e instanceof NotApplicableError) throw e;
      error = e;
    }
    expect(error, 'the control plane started').to.be.instanceOf(Error);
    expect((error as Error).message).to.contain(message);
  }),
);
