import * as path from 'node:path';
import { HELP } from './help';
import {
  CLEAN,
  DOCS,
  flag,
  INIT_TARGET,
  kubeconfigOf,
  list,
  parseCommand,
  REPORT,
  str,
  synopsis,
  UsageError,
  version,
} from './commands';

// Each command loads what it needs when it runs (import() below): `kubespec --help` and
// `kubespec serve` start without Cucumber, the reports, the drivers or the kube client.

/** Prints `text` when -h/--help was given; true when it was. */
function helped(args: ReturnType<typeof parseCommand>, text: string): boolean {
  if (!flag(args, 'help')) return false;
  console.log(text);
  return true;
}

async function reportCommand(argv: string[]): Promise<number> {
  const args = parseCommand(REPORT, argv);
  if (
    helped(
      args,
      `${synopsis(REPORT)}\n\nMerges report directories of \`kubespec run\` into one conformance report: shards of one run\n(same label) become one column, runs with other labels stand side by side. Exit 1 when a run\nhas a failing behaviour.`,
    )
  )
    return 0;
  const dirs = args.positionals;
  const out = str(args, 'out', 'reports')!;
  if (dirs.length === 0) throw new UsageError(`usage: ${synopsis(REPORT)}`);
  const { formatSummary, loadRun, mergeShards, writeReports } = await import('../report');
  const { report, files } = writeReports(mergeShards(dirs.map((d) => loadRun(d))), path.resolve(out));
  console.log(formatSummary(report));
  console.log(`reports: ${path.relative(process.cwd(), files.html)}`);
  console.log(closingLine(report));
  return report.runs.some((r) => r.totals.byStatus.fail > 0) ? 1 : 0;
}

/**
 * Renders the documentation site (features + catalogue + the latest results, if given; several
 * --results directories give one column each) into --out.
 */
async function docsCommand(argv: string[]): Promise<number> {
  const args = parseCommand(DOCS, argv);
  if (
    helped(
      args,
      `${synopsis(DOCS)}\n\nRenders the documentation site: the features, the catalogue and, per --results DIR, a column of results.`,
    )
  )
    return 0;
  const started = Date.now();
  const root = path.resolve(__dirname, '../..');
  const { buildConformance, loadCatalogue, loadRun, mergeShards } = await import('../report');
  const { loadFeatures } = await import('../report/features');
  const { buildSite, writeSite } = await import('../report/site');
  const { loadProfile } = await import('../profile/profile');
  const { clusterConfig } = await import('../profile/config');
  const { Cluster } = await import('../cluster/cluster');
  const { nodeLifecycleOptions } = await import('../cluster/config');
  const results = list(args, 'results');
  const catalogue = loadCatalogue();
  const report =
    results.length > 0
      ? buildConformance(catalogue, mergeShards(results.map((r) => loadRun(path.resolve(r)))))
      : undefined;
  // The architecture picture is drawn from what a reference cluster of the profile is made of.
  const config = clusterConfig(loadProfile(str(args, 'profile', 'seed')!));
  const cluster = new Cluster({ config, clock: 'virtual' });
  const components = cluster.components();
  await cluster.stop();
  const { nodeEvictionRate, secondaryNodeEvictionRate, largeClusterSizeThreshold, unhealthyZoneThreshold } =
    nodeLifecycleOptions(config);
  const zoneParams = { nodeEvictionRate, secondaryNodeEvictionRate, largeClusterSizeThreshold, unhealthyZoneThreshold };
  const out = path.resolve(str(args, 'out', 'reports/docs')!);
  const site = buildSite({
    catalogue,
    features: loadFeatures(path.join(root, 'features'), root),
    report,
    components,
    zoneParams,
  });
  const { files, bytes } = writeSite(out, site);
  console.log(
    `documentation: ${path.relative(process.cwd(), path.join(out, 'index.html'))} (${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return 0;
}

/**
 * Removes every object kubespec runs labelled on a cluster (a killed run's leftovers), or
 * with --expired-only just those whose expiry has passed (safe while other runs go on).
 */
async function cleanCommand(argv: string[]): Promise<number> {
  const args = parseCommand(CLEAN, argv);
  if (
    helped(
      args,
      `${synopsis(CLEAN)}\n\nRemoves what kubespec runs left on a long-lived cluster (objects labelled kubespec.io/run, and the\nhollow kubelets behind such nodes); --expired-only just those whose expiry has passed.`,
    )
  )
    return 0;
  const kubeconfig = kubeconfigOf(str(args, 'kubeconfig'));
  if (!kubeconfig)
    throw new UsageError(`kubespec clean needs --kubeconfig FILE (or $KUBECONFIG)\nusage: ${synopsis(CLEAN)}`);
  const { KubeconfigClient } = await import('../client/kubeconfig');
  const { coreRegistry } = await import('../api/resources');
  const { cleanRuns } = await import('../drivers/clean');
  const api = KubeconfigClient.fromFile(kubeconfig, coreRegistry(), str(args, 'context'));
  const { removed } = await cleanRuns(api, { all: !flag(args, 'expired-only') });
  const parts = Object.entries(removed).map(([r, n]) => `${n} ${r}`);
  console.log(
    parts.length ? `removed ${parts.join(', ')} (namespaced objects go with their namespaces)` : 'nothing to remove',
  );
  return 0;
}

/** Writes a target declaration from what a cluster reveals (version → profile, nodes, zones, flags). */
async function initTargetCommand(argv: string[]): Promise<number> {
  const args = parseCommand(INIT_TARGET, argv);
  if (
    helped(
      args,
      `${synopsis(INIT_TARGET)}\n\nWrites a target declaration from what a cluster reveals (version → profile, nodes, zones, flags).`,
    )
  )
    return 0;
  const kubeconfig = kubeconfigOf(str(args, 'kubeconfig'));
  if (!kubeconfig)
    throw new UsageError(
      `kubespec init-target needs --kubeconfig FILE (or $KUBECONFIG)\nusage: ${synopsis(INIT_TARGET)}`,
    );
  const { KubeconfigClient } = await import('../client/kubeconfig');
  const { coreRegistry } = await import('../api/resources');
  const { discover, declarationYaml } = await import('../drivers/init-target');
  const api = KubeconfigClient.fromFile(kubeconfig, coreRegistry(), str(args, 'context'));
  const facts = await discover(api);
  const name = str(args, 'name', 'my-cluster')!;
  const out = path.resolve(str(args, 'out', `${name}.target.yaml`)!);
  const fs = await import('node:fs');
  if (fs.existsSync(out))
    throw new Error(`${path.relative(process.cwd(), out)} exists: choose another --out (or remove it)`);
  fs.writeFileSync(out, declarationYaml(name, facts));
  const { loadTargetDeclaration } = await import('../drivers/targets');
  loadTargetDeclaration(out); // what was written must load
  const shown = path.relative(process.cwd(), out);
  console.log(
    `${shown}: ${facts.gitVersion} → profile ${facts.profile}${facts.profileNote ? ` (${facts.profileNote})` : ''}; ${facts.nodes.length} nodes, ${facts.zones.length} zones; flags ${facts.flagSource}`,
  );
  console.log(
    `review its CONFIRM lines, then: kubespec run --target kube --kubeconfig ${path.relative(process.cwd(), kubeconfig)} --target-config ${shown}`,
  );
  return 0;
}

/** The plain closing line CI reads: scenarios over every run, not applicable counted as skipped. */
function closingLine(report: import('../report').ConformanceReport): string {
  let passed = 0,
    failed = 0,
    skipped = 0;
  for (const run of report.runs) {
    const by = run.totals.scenarios.byStatus;
    passed += by.passed;
    skipped += by['not-applicable'];
    failed += run.totals.scenarios.total - by.passed - by['not-applicable'];
  }
  return `scenarios: ${passed} passed, ${failed} failed, ${skipped} skipped`;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return (await import('./run')).runCommand(rest);
    case 'report':
      return reportCommand(rest);
    case 'docs':
      return docsCommand(rest);
    case 'serve':
      return (await import('./serve')).serveCommand(rest);
    case 'init-target':
      return initTargetCommand(rest);
    case 'clean':
      return cleanCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(HELP);
      return 0;
    case '--version':
    case '-V':
      console.log(`kubespec ${version()}`);
      return 0;
    default:
      console.error(`kubespec: unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}
