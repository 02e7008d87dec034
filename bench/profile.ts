import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * Runs one phase of a benchmark under the V8 CPU profiler when CPU_PROFILE names it
 * (`CPU_PROFILE=hour`), writing `<CPU_PROFILE_DIR or .>/<phase>.cpuprofile` for Chrome
 * DevTools or any .cpuprofile reader; otherwise just runs it.
 */
export async function profilePhase<T>(phase: string, run: () => Promise<T>): Promise<T> {
  if (process.env.CPU_PROFILE !== phase) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    const file = `${process.env.CPU_PROFILE_DIR ?? '.'}/${phase}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    console.error(`CPU profile of ${phase}: ${file}`);
    session.disconnect();
  }
}
