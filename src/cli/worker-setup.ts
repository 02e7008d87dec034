// Loaded by Cucumber before the step files, in the run's process and in each worker
// (--parallel): the errors components handle in the background (client/background.ts) go to
// the report directory's background-errors.log, not raw to stderr. A passing scenario's
// `kubelet: Error: nodes "n1" not found` is not news for the console; the reference driver
// attaches each such error to the scenario it happened in (and so to its JUnit system-out),
// and the CLI names the log and how many lines it got at the end of the run.
import * as fs from 'node:fs';
import { backgroundErrors } from '../client/background';
import { BACKGROUND_LOG_ENV } from './commands';

const log = process.env[BACKGROUND_LOG_ENV];
if (log) {
  backgroundErrors.report = (component: string, e: unknown): void => {
    try {
      fs.appendFileSync(
        log,
        `${new Date().toISOString()} [pid ${process.pid}] ${component}: ${(e as Error)?.stack ?? e}\n`,
      );
    } catch (err) {
      // The log cannot be written: the error must still be seen.
      console.error(
        `${component}: ${(e as Error)?.stack ?? e} (and ${log} cannot be written: ${(err as Error).message})`,
      );
    }
  };
}
