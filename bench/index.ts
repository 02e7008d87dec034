import { runSuiteBenchmark } from './suite';
import { runNodesBenchmark, runNodesOnce, runScalingBenchmark } from './nodes';
import { runSchedulerBenchmark } from './scheduler';
import { runControllersBenchmark } from './controllers';
import { runHttpBenchmark } from './http';
import { runUpstreamBenchmark } from './upstream';
import { runStorageBenchmark } from './storage';
import { runStartupBenchmark } from './startup';
import { printTable } from './table';
import { goalRows, writeReport } from './report';

/** Every benchmark, each printing a table. Later benchmarks add themselves here. */
async function main(): Promise<void> {
  const only = process.argv[2];
  const benches: Record<string, () => Promise<void>> = {
    startup: runStartupBenchmark,
    suite: runSuiteBenchmark,
    nodes: runNodesBenchmark,
    scaling: runScalingBenchmark,
    scheduler: runSchedulerBenchmark,
    controllers: runControllersBenchmark,
    http: runHttpBenchmark,
    storage: runStorageBenchmark,
  };
  // Needs the upstream binaries (npm run upstream:build): only when asked for by name.
  if (only === 'upstream') return runUpstreamBenchmark();
  // One measurement of the nodes benchmark, in a process of its own (bench/nodes.ts runs it).
  if (only === 'nodes-once') return runNodesOnce();
  if (only && !benches[only])
    throw new Error(`no benchmark named ${only}: ${Object.keys(benches).join(', ')}, upstream`);
  for (const [name, run] of Object.entries(benches)) {
    if (only && only !== name) continue;
    await run();
  }
  const goals = goalRows();
  if (goals.length > 0) printTable('Goals (issue 16): each figure beside its goal', goals);
  for (const file of writeReport()) console.log(`wrote ${file}`);
}

let finished = false;
// A benchmark awaiting something that can never happen (a virtual clock with nothing left to
// fire) would let Node exit quietly with code 0 and no table: say so and fail instead.
process.on('beforeExit', () => {
  if (finished) return;
  console.error('bench: stopped before finishing: the event loop emptied while a measurement was still waiting');
  process.exit(1);
});
main().then(
  () => {
    finished = true;
  },
  (e) => {
    finished = true;
    console.error(e);
    process.exitCode = 1;
  },
);
