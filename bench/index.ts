import { runSuiteBenchmark } from './suite';
import { runNodesBenchmark } from './nodes';
import { runSchedulerBenchmark } from './scheduler';
import { runControllersBenchmark } from './controllers';
import { runHttpBenchmark } from './http';
import { runUpstreamBenchmark } from './upstream';
import { runStorageBenchmark } from './storage';
import { runStartupBenchmark } from './startup';

/** Every benchmark, each printing a table. Later benchmarks add themselves here. */
async function main(): Promise<void> {
  const only = process.argv[2];
  const benches: Record<string, () => Promise<void>> = {
    startup: runStartupBenchmark,
    suite: runSuiteBenchmark,
    nodes: runNodesBenchmark,
    scheduler: runSchedulerBenchmark,
    controllers: runControllersBenchmark,
    http: runHttpBenchmark,
    storage: runStorageBenchmark,
  };
  // Needs the upstream binaries (npm run upstream:build): only when asked for by name.
  if (only === 'upstream') return runUpstreamBenchmark();
  for (const [name, run] of Object.entries(benches)) {
    if (only && only !== name) continue;
    await run();
  }
}

let finished = false;
// A benchmark awaiting something that can never happen (a virtual clock with nothing left to
// fire) would let Node exit quietly with code 0 and no table: say so and fail instead.
process.on('beforeExit', () => {
  if (finished) return;
  console.error('bench: stopped before finishing: the event loop emptied while a measurement was still waiting');
  process.exit(1);
});
main().then(() => { finished = true; }, (e) => {
  finished = true;
  console.error(e);
  process.exitCode = 1;
});
