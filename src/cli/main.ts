import * as path from 'node:path';
import { runCommand, RUN_HELP } from './run';
import { serveCommand, SERVE_HELP } from './serve';
import { ConformanceReport, formatSummary, loadRun, writeReports } from '../report';

const HELP = `kubespec — an executable specification of the Kubernetes control plane

Commands:
  run      run the features against a target and write conformance reports
  serve    the control plane as one process over HTTP(S), for kubectl and client libraries
  report   merge report directories side by side: kubespec report DIR... [--out DIR]
  help     this text

${RUN_HELP}

${SERVE_HELP}`;

async function reportCommand(argv: string[]): Promise<number> {
  const dirs: string[] = [];
  let out = 'reports';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i];
    else dirs.push(argv[i]);
  }
  if (dirs.length === 0) throw new Error('usage: kubespec report DIR... [--out DIR]');
  const { report, files } = writeReports(dirs.map((d) => loadRun(d)), path.resolve(out));
  console.log(formatSummary(report));
  console.log(`reports: ${path.relative(process.cwd(), files.html)}`);
  console.log(closingLine(report));
  return report.runs.some((r) => r.totals.byStatus.fail > 0) ? 1 : 0;
}

/** The plain closing line CI reads: scenarios over every run, not applicable counted as skipped. */
function closingLine(report: ConformanceReport): string {
  let passed = 0, failed = 0, skipped = 0;
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
      return runCommand(rest);
    case 'report':
      return reportCommand(rest);
    case 'serve':
      return serveCommand(rest);
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
