import { Given, When } from '@cucumber/cucumber';
import { KubeWorld } from './world';
import { letTimePass, step } from './support';
import { durationMs } from './parameters';

/** Time vocabulary: the control plane's periods and flags, and cluster time passing. */

const FLAG_PHRASES: Record<string, string> = {
  'node monitor period': 'node-monitor-period',
  'node monitor grace period': 'node-monitor-grace-period',
  'node startup grace period': 'node-startup-grace-period',
  'pod eviction timeout': 'pod-eviction-timeout',
  'node status update frequency': 'node-status-update-frequency',
  'node status report frequency': 'node-status-report-frequency',
};

for (const [phrase, flag] of Object.entries(FLAG_PHRASES)) {
  Given(
    `the ${phrase} is {duration}`,
    step(function (this: KubeWorld, ms: number) {
      this.setFlag(flag, `${ms / 1000}s`);
    }),
  );
}

Given(
  'the flag {string} is {string}',
  step(function (this: KubeWorld, flag: string, value: string) {
    if (!/^--[a-z0-9-]+$/.test(flag)) throw new Error(`"${flag}" is not a flag (want "--name")`);
    this.setFlag(flag.slice(2), value);
  }),
);

When(
  '{duration} pass(es)',
  step(async function (this: KubeWorld, ms: number) {
    await letTimePass(this, ms);
  }),
);

// A regular expression: "more" stands between the amount and the unit of the duration, and a
// Cucumber Expression's {duration} is one piece.
When(
  /^(\d+(?:\.\d+)?) more (seconds?|minutes?|hours?) pass(?:es)?$/,
  step(async function (this: KubeWorld, amount: string, unit: string) {
    await letTimePass(this, durationMs(String(amount), unit));
  }),
);
