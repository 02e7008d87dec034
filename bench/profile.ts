import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * Runs one phase of a benchmark under a V8 profiler when CPU_PROFILE or HEAP_PROFILE names it,
 * writing `<CPU_PROFILE_DIR or .>/<phase>.cpuprofile` or `.heapprofile` (Chrome DevTools reads
 * both); otherwise just runs it.
 *
 * CPU_PROFILE=hour: where the time goes. HEAP_PROFILE=hour: the sampling heap profiler, keeping
 * the samples of objects a minor collection freed out and those a major one freed in: the
 * allocation sites of what outlived the young generation (was promoted), live or not. At
 * thousands of nodes that promotion, not the live heap, is what the collector spends its time on.
 */
export async function profilePhase<T>(phase: string, run: () => Promise<T>): Promise<T> {
  const cpu = process.env.CPU_PROFILE === phase;
  const heap = process.env.HEAP_PROFILE === phase;
  if (!cpu && !heap) return run();
  const session = new Session();
  session.connect();
  if (cpu) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  if (heap) {
    await session.post('HeapProfiler.enable');
    // The two include… options are newer than @types/node's protocol types: sent as a plain object.
    const sampling: object = {
      samplingInterval: 64 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    };
    await session.post('HeapProfiler.startSampling', sampling);
  }
  try {
    return await run();
  } finally {
    const dir = process.env.CPU_PROFILE_DIR ?? '.';
    if (cpu) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${dir}/${phase}.cpuprofile`, JSON.stringify(profile));
      console.error(`CPU profile of ${phase}: ${dir}/${phase}.cpuprofile`);
    }
    if (heap) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      writeFileSync(`${dir}/${phase}.heapprofile`, JSON.stringify(profile));
      console.error(`heap profile of ${phase} (promoted allocations): ${dir}/${phase}.heapprofile`);
    }
    session.disconnect();
  }
}
