import { runSuiteBenchmark } from './suite';
import { runNodesBenchmark } from './nodes';
import { runSchedulerBenchmark } from './scheduler';
import { runControllersBenchmark } from './controllers';
import { runHttpBenchmark } from './http';
import { runUpstreamBenchmark } from './upstream';
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
  };
  // Needs the upstream binaries (npm run upstream:build): only when asked for by name.
  if (only === 'upstream') return runUpstreamBenchmark();
  for (const [name, run] of Object.entries(benches)) {
    if (only && only !== name) continue;
    await run();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
