import { Given, When } from '@cucumber/cucumber';
import { KubeWorld } from './world';
import { step, toMs } from './support';

const FLAG_PHRASES: Record<string, string> = {
  'node monitor period': 'node-monitor-period',
  'node monitor grace period': 'node-monitor-grace-period',
  'node startup grace period': 'node-startup-grace-period',
  'pod eviction timeout': 'pod-eviction-timeout',
  'node status update frequency': 'node-status-update-frequency',
  'node status report frequency': 'node-status-report-frequency',
};

Given(/^the (node monitor period|node monitor grace period|node startup grace period|pod eviction timeout|node status update frequency|node status report frequency) is (\d+) (seconds?|minutes?)$/,
  step(function (this: KubeWorld, phrase: string, amount: string, unit: string) {
    this.setFlag(FLAG_PHRASES[phrase], `${toMs(Number(amount), unit) / 1000}s`);
  }));

Given(/^the flag "--([a-z0-9-]+)" is "([^"]*)"$/, step(function (this: KubeWorld, flag: string, value: string) {
  this.setFlag(flag, value);
}));

When(/^(\d+(?:\.\d+)?) (?:more )?(seconds?|minutes?|hours?) pass(?:es)?$/, step(async function (this: KubeWorld, amount: string, unit: string) {
  const cluster = await this.cluster();
  await cluster.advance(toMs(Number(amount), unit));
}));
