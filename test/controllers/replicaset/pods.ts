import { Pod } from '../../../src/api/core';

/** The pods the replication tests rank and count: bound or not, a phase, readiness since when, restarts, age. */
export const T0 = Date.UTC(2025, 0, 1);
export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function pod(
  name: string,
  o: {
    node?: string;
    phase?: Pod['status'] extends infer S ? (S extends { phase?: infer P } ? P : never) : never;
    ready?: boolean;
    readySince?: number;
    restarts?: number[];
    created?: number;
  } = {},
): Pod {
  return {
    metadata: { name, creationTimestamp: o.created !== undefined ? iso(o.created) : undefined },
    spec: { containers: [{ name: 'c' }], ...(o.node ? { nodeName: o.node } : {}) },
    status: {
      phase: o.phase ?? 'Pending',
      conditions:
        o.ready === undefined
          ? []
          : [
              {
                type: 'Ready',
                status: o.ready ? 'True' : 'False',
                ...(o.readySince !== undefined ? { lastTransitionTime: iso(o.readySince) } : {}),
              },
            ],
      containerStatuses: (o.restarts ?? []).map((r, i) => ({
        name: `c${i}`,
        ready: true,
        restartCount: r,
        image: '',
        imageID: '',
      })),
    },
  };
}
