import * as fs from 'node:fs';
import * as path from 'node:path';
import * as url from 'node:url';
import { loadProfile, Flags } from '../profile/profile';
import type { TargetOptions } from '../drivers';
import type { ConformanceReport } from '../report';
import { loadTargetDeclaration } from '../drivers/targets';
import { componentOf } from '../profile/flags';
import {
  BACKGROUND_LOG_ENV,
  flag,
  kubeconfigOf,
  list,
  parseCommand,
  RUN,
  str,
  UsageError,
  type Parsed,
} from './commands';
import { RUN_HELP } from './help';
import { plan, scenarioTags, type PlannedScenario } from './selection';
import { onShutdown, onSignal, shutdown, stopDescendants } from '../util/shutdown';

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
  args: Parsed,
  target: string,
  reportDir: string,
  driverModule?: string,
): Promise<{ target: string; options: TargetOptions; stop(): Promise<void> }> {
  const serveFlags = prepareServeFlags(args);
  const options = targetOptions(args, target, driverModule, serveFlags);
  if (target === 'kube' && !options.kubeconfig)
    throw new UsageError(
      '--target kube needs --kubeconfig FILE, or $KUBECONFIG (and optionally --context, --target-config)',
    );
  if (target === 'upstream') {
    const { missingBinaries, upstreamBinDir } = await import('../drivers/upstream');
    const missing = missingBinaries();
    if (missing.length)
      throw new UsageError(
        `--target upstream: no ${missing.join(', ')} in ${upstreamBinDir()}; run \`npm run upstream:build\` first (KUBESPEC_UPSTREAM_CACHE sets the cache)`,
      );
  }
  if (target !== 'container' && target !== 'k3s') return { target, options, stop: async () => undefined };
  const { prepareContainerTarget } = await import('../drivers/container'); // testcontainers loads for these targets only
  return prepareContainerTarget(target, options, reportDir);
}

/** What the drivers are told beyond target and profile; every path read from the user's directory. */
function targetOptions(
  args: Parsed,
  target: string,
  driverModule: string | undefined,
  serveFlags: Flags,
): TargetOptions {
  const serveClock = str(args, 'serve-clock', 'virtual');
  if (serveClock !== 'virtual' && serveClock !== 'real')
    throw new UsageError(`--serve-clock must be virtual or real, got "${serveClock}"`);
  // $KUBECONFIG is a default for the targets that read one, as for kubectl.
  const reads = target === 'kube' || driverModule !== undefined;
  const kubeconfig = reads
    ? kubeconfigOf(str(args, 'kubeconfig'))
    : str(args, 'kubeconfig') && path.resolve(str(args, 'kubeconfig')!);
  return {
    ...(driverModule ? { driverModule: path.resolve(driverModule) } : {}),
    kubeconfig: kubeconfig || undefined,
    context: str(args, 'context'),
    targetConfig: str(args, 'target-config') ? path.resolve(str(args, 'target-config')!) : undefined,
    serveFlags,
    serveClock,
  };
}

/** The run's label: --label, else the name of a target declaration given, else target · profile (a kube run adds its server). */
function labelOf(args: Parsed, target: string, profile: string, options: TargetOptions): string {
  const given = str(args, 'label');
  if (given !== undefined) {
    if (given.trim() === '') throw new UsageError('--label wants a name');
    return given;
  }
  if (options.targetConfig) return loadTargetDeclaration(options.targetConfig).name;
  if (target === 'kube' && options.kubeconfig) {
    // Two clusters judged with the built-in declaration must not merge into one column.
    const server = serverOf(options.kubeconfig, options.context);
    if (server) return `kube ${server} · ${profile}`;
  }
  return `${target} · ${profile}`;
}

function serverOf(kubeconfig: string, context?: string): string | undefined {
  try {
    const { KubeConfig } = require('@kubernetes/client-node') as typeof import('@kubernetes/client-node');
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    if (context) kc.setCurrentContext(context);
    const url = kc.getCurrentCluster()?.server;
    return url ? new URL(url).host : undefined;
  } catch {
    return undefined; // the pre-flight says what is wrong with the kubeconfig
  }
}

/** Runs Cucumber on features/ with the given target and profile, then builds the reports. */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseCommand(RUN, argv);
  if (flag(args, 'help')) {
    console.log(RUN_HELP);
    return 0;
  }
  const shard = str(args, 'shard');
  if (shard !== undefined && !/^[1-9]\d*\/[1-9]\d*$/.test(shard))
    throw new UsageError(`--shard wants INDEX/TOTAL with 1 ≤ INDEX ≤ TOTAL, got "${shard}"`);
  if (shard && Number(shard.split('/')[0]) > Number(shard.split('/')[1]))
    throw new UsageError(`--shard ${shard}: INDEX is larger than TOTAL`);
  const parallel = str(args, 'parallel', '0')!;
  if (!/^\d+$/.test(parallel)) throw new UsageError(`--parallel wants a number, got "${parallel}"`);
  const lengths = readLengths(str(args, 'lengths'));
  // What would run comes first: a misspelled path or tag is told before the control plane loads.
  const reportDir = path.resolve(str(args, 'report-dir', 'reports')!);
  const rerun = flag(args, 'rerun-failed');
  const tags = str(args, 'tags', '')!;

  // Paths are the user's, read from the user's directory (Cucumber's cwd is the package root).
  const typed = args.positionals;
  let paths = typed.length > 0 ? typed.map((p) => path.resolve(p)) : [path.join(ROOT, 'features/**/*.feature')];
  if (rerun) {
    if (!fs.existsSync(path.join(reportDir, 'messages.ndjson')))
      throw new UsageError(`--rerun-failed: no previous run in ${reportDir} (no messages.ndjson)`);
    paths = failedOf(reportDir).map((loc) => path.resolve(ROOT, loc));
    if (paths.length === 0) {
      console.log(
        `--rerun-failed: every scenario of the last run in ${path.relative(process.cwd(), reportDir) || '.'} passed or was not applicable; nothing to rerun`,
      );
      return 0;
    }
  }
  const planned = await plan({
    paths,
    typed: rerun ? paths : typed.length ? typed : ['features/'],
    tags,
    shard,
    cwd: ROOT,
  });
  if (rerun) console.log(`--rerun-failed: ${planned.length} scenario(s) from the last run`);
  const driverModule = str(args, 'driver');
  const { loadDriverModule, TARGETS } = await import('../drivers');
  // A driver module in TypeScript: the compiled CLI has not registered ts-node (the sources have).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (COMPILED && driverModule && /\.[cm]?ts$/.test(driverModule)) require('ts-node/register');
  const target = driverModule ? loadDriverModule(path.resolve(driverModule)).target : str(args, 'target', 'reference')!;
  if (!driverModule && !(TARGETS as readonly string[]).includes(target))
    throw new UsageError(`unknown target "${target}" (known: ${TARGETS.join(', ')}, or --driver ./module.js)`);
  const targetConfig = str(args, 'target-config');
  // A fixed target follows the profile it declares; --profile may only repeat it.
  const declared =
    target === 'kube' || target === 'k3s' || target === 'container' || target === 'upstream'
      ? loadTargetDeclaration(targetConfig ? path.resolve(targetConfig) : target).profile
      : undefined;
  const profileName = str(args, 'profile', declared ?? 'seed')!;
  if (declared && profileName !== declared) {
    throw new UsageError(
      `target ${target} declares the ${declared} profile (see its target declaration); run it with --profile ${declared} or give --target-config for another`,
    );
  }
  const profile = loadProfile(profileName); // fails early, with the list of profiles
  const quiet = flag(args, 'quiet-summary');
  const serveFlags = prepareServeFlags(args);
  const options = targetOptions(args, target, driverModule, serveFlags);
  const label = labelOf(args, target, profile.name, options);
  if (flag(args, 'dry-run')) return dryRun(planned, target, profileName, options);

  process.env.TS_NODE_TRANSPILE_ONLY ??= 'true';
  // Everything is written to a directory of its own and moved into place at the end: a run
  // that stops early (a crash, a pre-flight) leaves the previous report as it was.
  fs.mkdirSync(path.dirname(reportDir), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(reportDir), `.${path.basename(reportDir)}.kubespec-run-`));
  try {
    return await runInto(work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  async function runInto(work: string): Promise<number> {
    const { loadConfiguration, runCucumber } = await import('@cucumber/cucumber/api');
    const report = await import('../report');
    // A rerun's record is the run's: its message files come along, the rerun's are added.
    if (rerun)
      for (const f of report.messageFiles(reportDir))
        if (fs.existsSync(f)) fs.copyFileSync(f, path.join(work, path.basename(f)));
    const messages = rerun ? report.nextRerunFile(work) : path.join(work, 'messages.ndjson');
    const html = path.join(
      work,
      rerun ? path.basename(messages).replace(/^messages(.*)\.ndjson$/, 'cucumber$1.html') : 'cucumber.html',
    );
    const backgroundLog = path.join(work, 'background-errors.log');
    process.env[BACKGROUND_LOG_ENV] = backgroundLog;

    // Whatever the run starts stops when it ends or is interrupted (util/shutdown.ts); the
    // Cucumber workers and all they started go last, SIGKILLed if they linger.
    const offWorkers = onShutdown('Cucumber workers and their children', () => stopDescendants(5000));
    const prepared = await prepareTarget(args, target, work, driverModule);
    const offTarget = onShutdown(`the ${target} target`, () => prepared.stop());
    const started = Date.now();
    const info: import('../report').RunInfo = { target, profile: profile.name, label };
    const finish = (interrupted?: { signal: string; at: string }): number => {
      const run = { ...info, ...(interrupted ? { interrupted } : {}) };
      report.writeRunInfo(work, run);
      const result = report.loadRun(work);
      const { report: conformance } = report.writeReports([result], work, {
        mutation: report.findMutationReport(reportDir) ?? null,
      });
      fs.writeFileSync(
        path.join(work, 'junit.xml'),
        report.junitXml({
          name: `kubespec ${label}`,
          properties: {
            label,
            target,
            profile: profile.name,
            ...(interrupted ? { interrupted: `${interrupted.signal} at ${interrupted.at}` } : {}),
          },
          scenarios: result.scenarios,
          timestamp: new Date(started).toISOString(),
        }),
      );
      moveInto(work, reportDir, rerun);
      console.log('');
      console.log(report.formatSummary(conformance));
      const shown = (f: string) => path.relative(process.cwd(), path.join(reportDir, f));
      console.log(
        `reports: ${shown('conformance.html')} (conformance), ${shown(path.basename(html))}, junit.xml, ${path.basename(messages)} — ${((Date.now() - started) / 1000).toFixed(1)}s`,
      );
      const logged = fs.existsSync(path.join(reportDir, 'background-errors.log'))
        ? fs
            .readFileSync(path.join(reportDir, 'background-errors.log'), 'utf8')
            .split('\n')
            .filter((l) => /^\d{4}-/.test(l)).length
        : 0;
      if (logged > 0)
        console.log(
          `${logged} error(s) components handled in the background: ${shown('background-errors.log')} (each also attached to its scenario)`,
        );
      const failing = result.scenarios.filter((s) => s.status !== 'passed' && s.status !== 'not-applicable').length;
      const setAside = result.scenarios.filter((s) => s.status === 'not-applicable').length;
      if (failing > 0) printRerunCommands(args, conformance, reportDir);
      if (failing > 0) return 1;
      if (flag(args, 'all-applicable') && setAside > 0) {
        console.error(
          `--all-applicable: ${setAside} selected scenario(s) were not applicable; a fixed selection must run in full`,
        );
        return 1;
      }
      return 0;
    };

    // A signal and the end of the run race: whichever comes first writes the report, once.
    // After a signal the run's own end (Cucumber returns when its workers are stopped) waits
    // for the handler, which writes the report marked interrupted and exits 128+n.
    let interruption: { signal: string; at: string } | undefined;
    let cucumberEnded: Promise<unknown> = new Promise(() => undefined);
    onSignal(async (signal) => {
      interruption = { signal, at: new Date().toISOString() };
      console.error(`\nkubespec: ${signal}: stopping what the run started, then writing the report of what finished…`);
      await shutdown();
      // Cucumber ends its run once its workers are gone; the message formatter's last lines
      // are on their way to the file meanwhile.
      await Promise.race([cucumberEnded, new Promise((r) => setTimeout(r, 2000))]);
      await new Promise((r) => setTimeout(r, 300));
      finish(interruption);
      fs.rmSync(work, { recursive: true, force: true });
    });

    // A cluster the run did not start itself, or a container started once for the run.
    if (target === 'kube' || ((target === 'k3s' || target === 'container') && prepared.options.kubeconfig)) {
      const { preflight, PreflightError } = await import('../drivers/preflight');
      try {
        const ok = await preflight(prepared.options.kubeconfig!, prepared.options.context);
        console.log(
          `pre-flight: ${ok.server} (${ok.version}) as ${ok.user}: reachable, authorized, a dry-run create succeeds`,
        );
      } catch (e) {
        if (!(e instanceof PreflightError)) throw e;
        console.error(`kubespec: ${e.message}`);
        console.error('kubespec: nothing was run and the report directory is as it was (exit 2)');
        offTarget();
        await prepared.stop();
        offWorkers();
        return 2;
      }
    }

    const { runConfiguration } = await loadConfiguration(
      {
        provided: {
          paths,
          require: [path.join(ROOT, 'steps/**/*.ts')],
          requireModule: [
            'ts-node/register',
            ...(COMPILED ? [path.join(ROOT, 'bin/use-dist.js')] : []),
            path.join(__dirname, 'worker-setup'),
          ],
          format: [
            // Cucumber import()s formatters; from the sources it needs the CommonJS shim.
            quiet ? 'summary' : path.join(__dirname, COMPILED ? 'progress.js' : 'progress-formatter.js'),
            `message:${messages}`,
            `html:${html}`,
          ],
          // In parallel, the longest scenarios start first (cli/longest-first.ts).
          plugin:
            Number(parallel) > 1
              ? [
                  url.pathToFileURL(path.join(__dirname, COMPILED ? 'longest-first.js' : 'longest-first-plugin.js'))
                    .href,
                ]
              : [],
          // …by what they took in the last run into this report directory (else --lengths), where it was longer.
          pluginOptions: Number(parallel) > 1 ? { measured: { ...lengths, ...report.measuredSeconds(reportDir) } } : {},
          worldParameters: { target: prepared.target, profile: profileName, ...prepared.options },
          ...(shard ? { shard } : {}),
          tags,
          failFast: flag(args, 'fail-fast'),
          parallel: Number(parallel),
          strict: true,
        },
      },
      { cwd: ROOT },
    );
    const running = runCucumber(runConfiguration, { cwd: ROOT, stdout: process.stdout, stderr: process.stderr });
    // Only when it settles, for the interrupt's wait: its failure is the `await running` just below.
    cucumberEnded = running.then(
      () => undefined,
      () => undefined,
    );
    try {
      await running;
    } catch (e) {
      if (!interruption) throw e;
    } finally {
      // After a signal the clean-ups have stopped the target already.
      if (!interruption) {
        offTarget();
        await prepared.stop();
        offWorkers();
      }
    }
    // Interrupted: the signal handler writes the report and ends the process.
    if (interruption) return new Promise<number>(() => undefined);
    return finish();
  }
}

/** --lengths: seconds per scenario (file:line), for the longest-first order of a first run. */
function readLengths(file: string | undefined): Record<string, number> {
  if (file === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`--lengths ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const bad = (why: string) => new UsageError(`--lengths ${file}: ${why}`);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw bad('wants an object of "file.feature:line": seconds');
  for (const [k, v] of Object.entries(parsed)) {
    if (!/^.+\.feature:\d+$/.test(k)) throw bad(`"${k}" is not file.feature:line`);
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw bad(`"${k}": ${JSON.stringify(v)} is not seconds`);
  }
  return parsed as Record<string, number>;
}

function prepareServeFlags(args: Parsed): Flags {
  const serveFlags: Flags = {};
  for (const item of list(args, 'serve-flag')) {
    const eq = item.indexOf('=');
    const name = item.slice(0, eq).replace(/^--/, '');
    const component = eq > 0 ? componentOf(name) : undefined;
    if (!component)
      throw new UsageError(`--serve-flag wants NAME=VALUE with a known control-plane flag, got "${item}"`);
    serveFlags[component] = { ...serveFlags[component], [name]: item.slice(eq + 1) };
  }
  return serveFlags;
}

/** The locations to rerun: what did not pass in the directory's run (reruns merged). */
function failedOf(reportDir: string): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../report') as typeof import('../report')).failedLocations(reportDir);
}

/**
 * Moves the run's files into the report directory, each replacing its namesake (other files
 * there, such as mutants.json, stay). A new run (not a rerun) also removes the previous run's
 * rerun files, which belonged to the record it replaces.
 */
function moveInto(work: string, reportDir: string, rerun: boolean): void {
  fs.mkdirSync(reportDir, { recursive: true });
  if (!rerun)
    for (const f of fs.readdirSync(reportDir))
      if (/^(messages|cucumber)\.rerun-\d+\.(ndjson|html)$/.test(f) || f === 'background-errors.log')
        fs.rmSync(path.join(reportDir, f), { force: true });
  for (const f of fs.readdirSync(work)) {
    const to = path.join(reportDir, f);
    if (fs.statSync(path.join(work, f)).isDirectory()) fs.rmSync(to, { recursive: true, force: true });
    fs.renameSync(path.join(work, f), to);
  }
}

/** --dry-run: what would run, and why each scenario would be not applicable, as far as is known before it runs. */
async function dryRun(
  planned: PlannedScenario[],
  target: string,
  profileName: string,
  options: TargetOptions,
): Promise<number> {
  const { applicability } = await import('../report/applicability');
  const { CAPABILITY_NAMES, createDriver } = await import('../drivers');
  let facts: import('../report/applicability').TargetFacts | undefined;
  let unknown = '';
  try {
    const driver = createDriver(target, profileName, options);
    facts = {
      target: driver.target,
      profile: loadProfile(profileName).name,
      capabilities: driver.capabilities as unknown as Record<string, boolean>,
      capabilityNames: CAPABILITY_NAMES,
      maxScenarioTimeMs: (driver as { declaration?: { maxScenarioTimeMs?: number } }).declaration?.maxScenarioTimeMs,
    };
  } catch (e) {
    unknown = `the target's capabilities are not known before it runs (${(e as Error).message}): only profile tags are judged`;
  }
  let na = 0;
  const lines: string[] = [];
  for (const s of scenarioTags(planned, ROOT)) {
    const ids = s.tags.filter((t) => /^@[A-Z][A-Z0-9-]+$/.test(t)).map((t) => t.slice(1));
    const verdict = applicability(
      s.tags,
      s.steps,
      facts ?? {
        target,
        profile: profileName,
        capabilities: {},
        capabilityNames: [],
      },
    );
    // Without the capabilities, a @needs- tag cannot be judged: said once above, not per scenario.
    const reason = facts || !verdict.reason?.startsWith('needs ') ? verdict.reason : undefined;
    if (reason) na++;
    lines.push(
      `${s.uri}:${s.line}  ${ids.length ? `${ids.join(' ')}  ` : ''}${s.name}${reason ? `\n    ○ n/a: ${reason}` : ''}`,
    );
  }
  console.log(lines.join('\n'));
  if (unknown) console.log(`\n${unknown}`);
  console.log(
    `\n--dry-run: ${planned.length} scenario(s) selected on ${target} · ${profileName}; ${planned.length - na} would run, ${na} would be not applicable (known before running); nothing was run`,
  );
  return 0;
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
  'dry-run',
  'help',
]);

/** Options whose value is a path: absolute in a printed command, so it works from any directory. */
const PATH_FLAGS = new Set(['kubeconfig', 'target-config', 'driver']);

/**
 * On a failure, the command that reruns just that scenario (the first few), into DIR/rerun,
 * and --rerun-failed for all, which merges into DIR's record: absolute paths, so each works
 * from any directory.
 */
function printRerunCommands(args: Parsed, report: ConformanceReport, reportDir: string): void {
  const failed = [
    ...new Set(
      report.rows
        .flatMap((r) => r.results.flatMap((x) => x.scenarios))
        .filter((s) => s.status !== 'passed' && s.status !== 'not-applicable')
        .map((s) => s.location),
    ),
  ];
  if (failed.length === 0) return;
  const flags = args.given
    .filter(({ name }) => !SELECTION_FLAGS.has(name))
    .map(({ name, value }) =>
      value === undefined ? `--${name}` : `--${name} ${quoteArg(PATH_FLAGS.has(name) ? path.resolve(value) : value)}`,
    );
  console.log('');
  console.log(`rerun a failed scenario alone (its report in ${path.join(reportDir, 'rerun')}):`);
  // Locations are relative to the package root (Cucumber's cwd).
  const absolute = (location: string) => {
    const at = location.lastIndexOf(':');
    return `${path.resolve(ROOT, location.slice(0, at))}${location.slice(at)}`;
  };
  const dir = `--report-dir ${quoteArg(path.join(reportDir, 'rerun'))}`;
  for (const location of failed.slice(0, 10))
    console.log(`  kubespec run ${[...flags, dir, quoteArg(absolute(location))].join(' ')}`);
  if (failed.length > 10) console.log(`  … and ${failed.length - 10} more`);
  console.log(
    `or all ${failed.length} of them, merged into this run's record: kubespec run ${[...flags, '--rerun-failed', `--report-dir ${quoteArg(reportDir)}`].join(' ')}`,
  );
}

function quoteArg(v: string): string {
  return /^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}
