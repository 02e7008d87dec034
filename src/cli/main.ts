import * as path from 'node:path';
import { HELP } from './help';
import { checkKnown, one, parseArgs } from './args';

// Each command loads what it needs when it runs (import() below): `kubespec --help` and
// `kubespec serve` start without Cucumber, the reports, the drivers or the kube client.

async function reportCommand(argv: string[]): Promise<number> {
  const dirs: string[] = [];
  let out = 'reports';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i];
    else dirs.push(argv[i]);
  }
  if (dirs.length === 0) throw new Error('usage: kubespec report DIR... [--out DIR]');
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
  const args = parseArgs(argv);
  checkKnown(args, ['results', 'out', 'profile'], 'docs');
  const started = Date.now();
  const root = path.resolve(__dirname, '../..');
  const { buildConformance, loadCatalogue, loadRun, mergeShards } = await import('../report');
  const { loadFeatures } = await import('../report/features');
  const { buildSite, writeSite } = await import('../report/site');
  const { loadProfile } = await import('../profile/profile');
  const { clusterConfig } = await import('../profile/config');
  const { Cluster } = await import('../cluster/cluster');
  const results = args.flags.get('results') ?? [];
  const catalogue = loadCatalogue();
  const report =
    results.length > 0
      ? buildConformance(catalogue, mergeShards(results.map((r) => loadRun(path.resolve(r)))))
      : undefined;
  // The architecture picture is drawn from what a reference cluster of the profile is made of.
  const config = clusterConfig(loadProfile(one(args, 'profile', 'seed')!));
  const cluster = new Cluster({ config, clock: 'virtual' });
  const components = cluster.components();
  await cluster.stop();
  const kcm = config.flags['kube-controller-manager'];
  const zoneParams = {
    nodeEvictionRate: Number(kcm['node-eviction-rate'] ?? 0.1),
    secondaryNodeEvictionRate: Number(kcm['secondary-node-eviction-rate'] ?? 0.01),
    largeClusterSizeThreshold: Number(kcm['large-cluster-size-threshold'] ?? 50),
    unhealthyZoneThreshold: Number(kcm['unhealthy-zone-threshold'] ?? 0.55),
  };
  const out = path.resolve(one(args, 'out', 'reports/docs')!);
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
  const args = parseArgs(argv, ['expired-only']);
  checkKnown(args, ['kubeconfig', 'context', 'expired-only'], 'clean');
  const kubeconfig = one(args, 'kubeconfig');
  if (!kubeconfig) throw new Error('usage: kubespec clean --kubeconfig FILE [--context NAME] [--expired-only]');
  const { KubeconfigClient } = await import('../client/kubeconfig');
  const { coreRegistry } = await import('../api/resources');
  const { cleanRuns } = await import('../drivers/clean');
  const api = KubeconfigClient.fromFile(path.resolve(kubeconfig), coreRegistry(), one(args, 'context'));
  const { removed } = await cleanRuns(api, { all: !args.flags.has('expired-only') });
  const parts = Object.entries(removed).map(([r, n]) => `${n} ${r}`);
  console.log(
    parts.length ? `removed ${parts.join(', ')} (namespaced objects go with their namespaces)` : 'nothing to remove',
  );
  return 0;
}

/** Writes a target declaration from what a cluster reveals (version → profile, nodes, zones, flags). */
async function initTargetCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  checkKnown(args, ['kubeconfig', 'context', 'name', 'out'], 'init-target');
  const kubeconfig = one(args, 'kubeconfig');
  if (!kubeconfig)
    throw new Error('usage: kubespec init-target --kubeconfig FILE [--context NAME] [--name NAME] [--out FILE]');
  const { KubeconfigClient } = await import('../client/kubeconfig');
  const { coreRegistry } = await import('../api/resources');
  const { discover, declarationYaml } = await import('../drivers/init-target');
  const api = KubeconfigClient.fromFile(path.resolve(kubeconfig), coreRegistry(), one(args, 'context'));
  const facts = await discover(api);
  const name = one(args, 'name', 'my-cluster')!;
  const out = path.resolve(one(args, 'out', `${name}.target.yaml`)!);
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
    `review its CONFIRM lines, then: kubespec run --target kube --kubeconfig ${kubeconfig} --target-config ${shown}`,
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
      console.log(HELP);
      return 0;
    default:
      console.error(`kubespec: unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}
