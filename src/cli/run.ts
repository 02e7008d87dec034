import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfiguration, runCucumber } from '@cucumber/cucumber/api';
import { formatSummary, reportFromMessages, writeReports, writeRunInfo } from '../report';
import { loadProfile } from '../cluster/profile';
import { TARGETS } from '../drivers';
import { checkKnown, one, parseArgs } from './args';

export const ROOT = path.resolve(__dirname, '../..');

export const RUN_HELP = `kubespec run — run the features against a target and write conformance reports

  --target reference        the control plane to judge (default: reference, in-process, virtual time)
  --profile seed            the release semantics: ${'seed | kubernetes-1.32 | path/to/profile.yaml'}
  --tags EXPR               a Cucumber tag expression, e.g. '@NODE-GRACE-UNKNOWN and not @slow'
  --report-dir DIR          where reports go (default: reports); messages always at DIR/messages.ndjson
  --fail-fast               stop at the first failing scenario
  --parallel N              run scenarios in N worker processes
  --quiet-summary           print only the summary, no per-step progress

Exit codes: 0 all scenarios passed or were not applicable; 1 some failed; 2 bad usage or a crash.`;

/** Runs Cucumber on features/ with the given target and profile, then builds the reports. */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['fail-fast', 'quiet-summary', 'help']);
  if (args.flags.has('help')) { console.log(RUN_HELP); return 0; }
  checkKnown(args, ['target', 'profile', 'tags', 'report-dir', 'fail-fast', 'parallel', 'quiet-summary', 'help'], 'run');
  const target = one(args, 'target', 'reference')!;
  const profileName = one(args, 'profile', 'seed')!;
  if (!(TARGETS as readonly string[]).includes(target)) throw new Error(`unknown target "${target}" (known: ${TARGETS.join(', ')})`);
  const profile = loadProfile(profileName); // fails early, with the list of profiles
  const reportDir = path.resolve(one(args, 'report-dir', 'reports')!);
  fs.mkdirSync(reportDir, { recursive: true });
  const messages = path.join(reportDir, 'messages.ndjson');
  const paths = args.positionals.length > 0 ? args.positionals : [path.join(ROOT, 'features/**/*.feature')];
  const quiet = args.flags.has('quiet-summary');

  process.env.TS_NODE_TRANSPILE_ONLY ??= 'true';
  const { runConfiguration } = await loadConfiguration({
    provided: {
      paths,
      require: [path.join(ROOT, 'steps/**/*.ts')],
      requireModule: ['ts-node/register'],
      format: [
        quiet ? 'summary' : 'progress',
        `message:${messages}`,
        `html:${path.join(reportDir, 'cucumber.html')}`,
        `junit:${path.join(reportDir, 'junit.xml')}`,
      ],
      formatOptions: { junit: { suiteName: `kubespec ${target} ${profile.name}` } },
      worldParameters: { target, profile: profileName },
      tags: one(args, 'tags', '')!,
      failFast: args.flags.has('fail-fast'),
      parallel: Number(one(args, 'parallel', '0')),
      strict: true,
    },
  }, { cwd: ROOT });
  const started = Date.now();
  const { success } = await runCucumber(runConfiguration, { cwd: ROOT, stdout: process.stdout, stderr: process.stderr });
  const info = { target, profile: profile.name };
  writeRunInfo(reportDir, info);
  const { report, files } = writeReports([reportFromMessages(messages, info)], reportDir);
  console.log('');
  console.log(formatSummary(report));
  console.log(`reports: ${path.relative(process.cwd(), files.html)} (conformance), ${path.relative(process.cwd(), path.join(reportDir, 'cucumber.html'))}, junit.xml, messages.ndjson — ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return success ? 0 : 1;
}
