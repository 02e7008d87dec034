import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadTargetDeclaration } from '../../src/drivers/targets';

test('k3s is a declaration of the container target: its image, kubeconfig path, privileges and readiness', () => {
  const k3s = loadTargetDeclaration('k3s');
  assert.equal(k3s.configurableFlags, false);
  assert.deepEqual(k3s.container, {
    image: 'rancher/k3s:v1.32.4-k3s1',
    command: ['server', '--disable=traefik'],
    env: {},
    kubeconfig: '/etc/rancher/k3s/k3s.yaml',
    readiness: {
      log: 'Node controller sync successful',
      readyz: true,
      defaultServiceAccount: false,
      timeoutMs: 180_000,
    },
    ports: [6443],
    network: 'bridge',
    privileged: true,
    tmpfs: ['/run', '/var/run'],
    mode: 'run',
    upstreamComponents: false,
  });
});

test('the upstream image is declared per scenario (configurable flags) and per run (fixed flags, shared)', () => {
  const perScenario = loadTargetDeclaration('container');
  assert.equal(perScenario.configurableFlags, true);
  assert.equal(perScenario.container?.mode, 'scenario');
  assert.equal(perScenario.container?.network, 'host');
  assert.equal(perScenario.container?.upstreamComponents, true);
  assert.equal(perScenario.container?.kubeconfig, '/etc/kubespec/admin.kubeconfig');
  const perRun = loadTargetDeclaration('container-run');
  assert.equal(perRun.container?.mode, 'run');
  assert.equal(perRun.shared, true);
  assert.equal(perRun.configurableFlags, false);
  assert.equal(loadTargetDeclaration('kube').container, undefined);
});

/** A declaration with this container block (and configurableFlags), loaded from a scratch file. */
function load(container: string, extra = 'configurableFlags: false'): ReturnType<typeof loadTargetDeclaration> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-decl-'));
  const file = path.join(dir, 'd.yaml');
  fs.writeFileSync(
    file,
    `name: d\nprofile: kubernetes-1.32\n${extra}\ncapabilities: { virtualTime: false, hollowKubelets: true, cloudProvider: false }\ncontainer:\n${container
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n')}\n`,
  );
  try {
    return loadTargetDeclaration(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const base = 'image: x/y:1\nkubeconfig: /etc/k.yaml\nreadiness: { readyz: true }';

test('a minimal container block takes the defaults: host network, mode run, no privileges, a 3-minute readiness limit', () => {
  const d = load(base);
  assert.deepEqual(d.container, {
    image: 'x/y:1',
    command: [],
    env: {},
    kubeconfig: '/etc/k.yaml',
    readiness: { readyz: true, defaultServiceAccount: false, timeoutMs: 180_000 },
    ports: [],
    network: 'host',
    privileged: false,
    tmpfs: [],
    mode: 'run',
    upstreamComponents: false,
  });
  assert.deepEqual(load(`${base}\nenv: { A: 1, B: two }\ncommand: [serve, 8]`).container?.env, { A: '1', B: 'two' });
});

test('a build directory is resolved beside the declaration and must hold a Dockerfile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-build-'));
  assert.throws(
    () => load(`build: ${dir}\nkubeconfig: /k\nreadiness: { readyz: true }`),
    (e: Error) => e.message.endsWith(`container.build: no Dockerfile in ${dir}`),
  );
  fs.writeFileSync(path.join(dir, 'Dockerfile'), 'FROM scratch\n');
  assert.equal(load(`build: ${dir}\nkubeconfig: /k\nreadiness: { readyz: true }`).container?.build, dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('every mistake in the container block is named, before anything starts', () => {
  const cases: [string, string, string?][] = [
    [
      'kubeconfig: /k\nreadiness: { readyz: true }',
      'container: give "image" (a name) or "build" (a directory with a Dockerfile), one of them',
    ],
    [
      `${base}\nbuild: somewhere`,
      'container: give "image" (a name) or "build" (a directory with a Dockerfile), one of them',
    ],
    [
      `${base}\nimgae: typo`,
      'container: unknown field "imgae" (known: image, build, command, env, kubeconfig, readiness, ports, network, privileged, tmpfs, mode, upstreamComponents)',
    ],
    [
      'image: x\nkubeconfig: k.yaml\nreadiness: { readyz: true }',
      'container.kubeconfig must be the absolute path of the admin kubeconfig inside the container',
    ],
    [
      'image: x\nkubeconfig: /k',
      'container.readiness: say how readiness is known: "log" (a line of its output) and/or "readyz: true"',
    ],
    [
      'image: x\nkubeconfig: /k\nreadiness: { log: "(" }',
      'container.readiness.log: Invalid regular expression: /(/: Unterminated group',
    ],
    ['image: x\nkubeconfig: /k\nreadiness: { readyz: true, timeout: soon }', 'container.readiness.timeout: '],
    [
      'image: x\nkubeconfig: /k\nreadiness: { readyz: true, ready: yes }',
      'container.readiness: unknown field "ready" (known: log, readyz, defaultServiceAccount, timeout)',
    ],
    [`${base}\nports: [http]`, 'container.ports must be a list of port numbers'],
    [
      `${base}\nnetwork: bridge`,
      'container.network bridge needs "ports" (the API server\'s port at least, published on loopback)',
    ],
    [`${base}\nnetwork: macvlan`, 'container.network must be host or bridge'],
    [`${base}\nprivileged: yes please`, 'container.privileged must be true or false'],
    [`${base}\nmode: forever`, 'container.mode must be run (one container for the run) or scenario (one per scenario)'],
    [
      `${base}\nmode: scenario`,
      'container.mode scenario needs "upstreamComponents: true": the scenario\'s flags reach the image as upstream\'s command lines',
      'configurableFlags: true',
    ],
    [
      `${base}\nmode: scenario\nupstreamComponents: true`,
      'container.mode scenario starts each scenario with its flags: "configurableFlags" must be true',
    ],
    [
      `${base}\nupstreamComponents: true`,
      'container.mode run starts one container with fixed flags: "configurableFlags" must be false',
      'configurableFlags: true',
    ],
    [
      `${base}\nupstreamComponents: true\nnetwork: bridge\nports: [6443]`,
      'container.upstreamComponents runs the components on loopback ports of this machine: "network" must be host',
    ],
    [`${base}\ncommand: server`, 'container.command must be a list of arguments'],
    [`${base}\nenv: [A=1]`, 'container.env must be a mapping of NAME: value'],
  ];
  for (const [block, message, extra] of cases)
    assert.throws(
      () => load(block, extra),
      (e: Error) => e.message.includes(`: ${message}`) || assert.fail(`${block}\n→ ${e.message}\n  wanted ${message}`),
    );
});
