import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadProfile, Flags } from '../profile/profile';
import type { TargetOptions } from '../drivers';
import type { ConformanceReport } from '../report';
import { loadTargetDeclaration } from '../drivers/targets';
import { componentOf } from '../profile/flags';
import { checkKnown, one, parseArgs, ParsedArgs } from './args';
import { RUN_HELP } from './help';

export const ROOT = path.resolve(__dirname, '../..');

/**
 * Whether this is the compiled CLI (dist/, what bin/kubespec runs when it is up to date) or the
 * sources through ts-node. Compiled, the step files Cucumber loads (TypeScript, through ts-node)
 * must reach the compiled control plane too: bin/use-dist.js maps their ../src/ imports to
 * dist/ in every Cucumber process, so no module is loaded twice (two copies of a class would
 * break instanceof, two copies of a registry would split its state).
 */
const COMPILED = __filename.endsWith('.js');

/**
 * What the scenarios' drivers need to reach the target; a container target (k3s among them)
 * is checked here, and in mode run started once for the run (stop() removes it).
 */
async function prepareTarget(
  args: ParsedArgs,
  target: string,
  reportDir: string,
  driverModule?: string,
): Promise<{ target: string; options: TargetOptions; stop(): Promise<void> }> {
  const serveFlags: Flags = {};
  for (const item of args.flags.get('serve-flag') ?? []) {
    const eq = item.indexOf('=');
    const name = item.slice(0, eq).replace(/^--/, '');
    const component = eq > 0 ? componentOf(name) : undefined;
    if (!component) throw new Error(`--serve-flag wants NAME=VALUE with a known control-plane flag, got "${item}"`);
    serveFlags[component] = { ...serveFlags[component], [name]: item.slice(eq + 1) };
  }
  const serveClock = one(args, 'serve-clock', 'virtual');
  if (serveClock !== 'virtual' && serveClock !== 'real')
    throw new Error(`--serve-clock must be virtual or real, got "${serveClock}"`);
  const options: TargetOptions = {
    ...(driverModule ? { driverModule: path.resolve(driverModule) } : {}),
    kubeconfig: one(args, 'kubeconfig') ? path.resolve(one(args, 'kubeconfig')!) : undefined,
    context: one(args, 'context'),
    targetConfig: one(args, 'target-config') ? path.resolve(one(args, 'target-config')!) : undefined,
    serveFlags,
    serveClock,
  };
  if (target === 'kube' && !options.kubeconfig)
    throw new Error('--target kube needs --kubeconfig FILE (and optionally --context, --target-config)');
  if (target === 'upstream') {
    const { missingBinaries, upstreamBinDir } = await import('../drivers/upstream');
    const missing = missingBinaries();
    if (missing.length)
      throw new Error(
        `--target upstream: no ${missing.join(', ')} in ${upstreamBinDir()}; run \`npm run upstream:build\` first (KUBESPEC_UPSTREAM_CACHE sets the cache)`,
      );
  }
  if (target !== 'container' && target !== 'k3s') return { target, options, stop: async () => undefined };
  const { prepareContainerTarget } = await import('../drivers/container'); // testcontainers loads for these targets only
  return prepareContainerTarget(target, options, reportDir);
}

/** Runs Cucumber on features/ with the given target and profile, then builds the reports. */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['fail-fast', 'quiet-summary', 'rerun-failed', 'all-applicable', 'help']);
  if (args.flags.has('help')) {
    console.log(RUN_HELP);
    return 0;
  }
  checkKnown(
    args,
    [
      'target',
      'profile',
      'tags',
      'report-dir',
      'fail-fast',
      'parallel',
      'quiet-summary',
      'rerun-failed',
      'shard',
      'driver',
      'kubeconfig',
      'context',
      'target-config',
      'serve-flag',
      'serve-clock',
      'all-applicable',
      'help',
    ],
    'run',
  );
  const driverModule = one(args, 'driver');
  const { loadDriverModule, TARGETS } = await import('../drivers');
  // A driver module in TypeScript: the compiled CLI has not registered ts-node (the sources have).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (COMPILED && driverModule && /\.[cm]?ts$/.test(driverModule)) require('ts-node/register');
  const { loadConfiguration, runCucumber } = await import('@cucumber/cucumber/api');
  const { failedLocations, formatSummary, reportFromMessages, writeReports, writeRunInfo } = await import('../report');
  const target = driverModule ? loadDriverModule(driverModule).target : one(args, 'target', 'reference')!;
  // A fixed target follows the profile it declares; --profile may only repeat it.
  const declared =
    target === 'kube' || target === 'k3s' || target === 'container' || target === 'upstream'
      ? loadTargetDeclaration(one(args, 'target-config') ?? target).profile
      : undefined;
  const profileName = one(args, 'profile', declared ?? 'seed')!;
  if (declared && profileName !== declared) {
    throw new Error(
      `target ${target} declares the ${declared} profile (see its target declaration); run it with --profile ${declared} or give --target-config for another`,
    );
  }
  if (!driverModule && !(TARGETS as readonly string[]).includes(target))
    throw new Error(`unknown target "${target}" (known: ${TARGETS.join(', ')}, or --driver ./module.js)`);
  const shard = one(args, 'shard');
  if (shard !== undefined && !/^[1-9]\d*\/[1-9]\d*$/.test(shard))
    throw new Error(`--shard wants INDEX/TOTAL with 1 ≤ INDEX ≤ TOTAL, got "${shard}"`);
  if (shard && Number(shard.split('/')[0]) > Number(shard.split('/')[1]))
    throw new Error(`--shard ${shard}: INDEX is larger than TOTAL`);
  const profile = loadProfile(profileName); // fails early, with the list of profiles
  const reportDir = path.resolve(one(args, 'report-dir', 'reports')!);
  fs.mkdirSync(reportDir, { recursive: true });
  const messages = path.join(reportDir, 'messages.ndjson');
  let paths = args.positionals.length > 0 ? args.positionals : [path.join(ROOT, 'features/**/*.feature')];
  if (args.flags.has('rerun-failed')) {
    if (!fs.existsSync(messages))
      throw new Error(`--rerun-failed: no previous run in ${reportDir} (no messages.ndjson)`);
    paths = failedLocations(messages).map((loc) => path.resolve(ROOT, loc));
    if (paths.length === 0) {
      console.log(
        `--rerun-failed: every scenario of the last run in ${path.relative(process.cwd(), reportDir) || '.'} passed or was not applicable; nothing to rerun`,
      );
      return 0;
    }
    console.log(`--rerun-failed: ${paths.length} scenario(s) from the last run`);
  }
  const quiet = args.flags.has('quiet-summary');

  process.env.TS_NODE_TRANSPILE_ONLY ??= 'true';
  const prepared = await prepareTarget(args, target, reportDir, driverModule);
  const { runConfiguration } = await loadConfiguration(
    {
      provided: {
        paths,
        require: [path.join(ROOT, 'steps/**/*.ts')],
        requireModule: COMPILED ? ['ts-node/register', path.join(ROOT, 'bin/use-dist.js')] : ['ts-node/register'],
        format: [
          // Cucumber import()s formatters; from the sources it needs the CommonJS shim.
          quiet ? 'summary' : path.join(__dirname, COMPILED ? 'progress.js' : 'progress-formatter.js'),
          `message:${messages}`,
          `html:${path.join(reportDir, 'cucumber.html')}`,
          `junit:${path.join(reportDir, 'junit.xml')}`,
        ],
        formatOptions: { junit: { suiteName: `kubespec ${target} ${profile.name}` } },
        worldParameters: { target: prepared.target, profile: profileName, ...prepared.options },
        ...(shard ? { shard } : {}),
        tags: one(args, 'tags', '')!,
        failFast: args.flags.has('fail-fast'),
        parallel: Number(one(args, 'parallel', '0')),
        strict: true,
      },
    },
    { cwd: ROOT },
  );
  const started = Date.now();
  let success = false;
  try {
    ({ success } = await runCucumber(runConfiguration, { cwd: ROOT, stdout: process.stdout, stderr: process.stderr }));
  } finally {
    await prepared.stop();
  }
  const info = { target, profile: profile.name, ...(shard ? { label: `${target} · ${profile.name}` } : {}) };
  writeRunInfo(reportDir, info);
  const { report, files } = writeReports([reportFromMessages(messages, info)], reportDir);
  console.log('');
  console.log(formatSummary(report));
  console.log(
    `reports: ${path.relative(process.cwd(), files.html)} (conformance), ${path.relative(process.cwd(), path.join(reportDir, 'cucumber.html'))}, junit.xml, messages.ndjson — ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
  const setAside = report.runs.reduce((n, run) => n + run.totals.scenarios.byStatus['not-applicable'], 0);
  if (args.flags.has('all-applicable') && setAside > 0) {
    console.error(
      `--all-applicable: ${setAside} selected scenario(s) were not applicable; a fixed selection must run in full`,
    );
    return 1;
  }
  if (!success) printRerunCommands(args, report);
  return success ? 0 : 1;
}

/** Flags that choose what to run or how to report, not where: a rerun of one scenario drops them. */
const SELECTION_FLAGS = new Set([
  'tags',
  'shard',
  'parallel',
  'rerun-failed',
  'fail-fast',
  'all-applicable',
  'quiet-summary',
  'report-dir',
]);

/** On a failure, the one command that reruns just that scenario (the first few), and --rerun-failed for all. */
function printRerunCommands(args: ParsedArgs, report: ConformanceReport): void {
  const failed = [
    ...new Set(
      report.rows
        .flatMap((r) => r.results.flatMap((x) => x.scenarios))
        .filter((s) => s.status !== 'passed' && s.status !== 'not-applicable')
        .map((s) => s.location),
    ),
  ];
  if (failed.length === 0) return;
  const flags = [...args.flags]
    .filter(([name]) => !SELECTION_FLAGS.has(name))
    .flatMap(([name, values]) => values.map((v) => (v === 'true' ? `--${name}` : `--${name} ${quoteArg(v)}`)));
  console.log('');
  console.log(`rerun a failed scenario alone:`);
  // Locations are relative to the package root (Cucumber's cwd); the command is for the user's cwd.
  const here = (location: string) => {
    const at = location.lastIndexOf(':');
    return `${path.relative(process.cwd(), path.resolve(ROOT, location.slice(0, at))) || '.'}${location.slice(at)}`;
  };
  for (const location of failed.slice(0, 10))
    console.log(`  kubespec run ${[...flags, quoteArg(here(location))].join(' ')}`);
  if (failed.length > 10) console.log(`  … and ${failed.length - 10} more`);
  console.log(
    `or all ${failed.length} of them: kubespec run ${[...flags, '--rerun-failed', ...(args.flags.has('report-dir') ? [`--report-dir ${quoteArg(one(args, 'report-dir')!)}`] : [])].join(' ')}`,
  );
}

function quoteArg(v: string): string {
  return /^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}
