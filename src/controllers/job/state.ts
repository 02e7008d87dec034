import { Pod } from '../../api/core';
import { Job, JobCondition } from '../../api/resources/job';

type JobStatus = NonNullable<Job['status']>;

export interface JobPodCounts {
  active: Pod[];
  succeeded: number;
  failed: number;
}

export function countPods(pods: readonly Pod[]): JobPodCounts {
  const active: Pod[] = [];
  let succeeded = 0;
  let failed = 0;
  for (const p of pods) {
    if (p.status?.phase === 'Succeeded') succeeded++;
    else if (p.status?.phase === 'Failed') failed++;
    else if (!p.metadata.deletionTimestamp) active.push(p);
  }
  return { active, succeeded, failed };
}

export function isFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

export type JobDecision =
  | { kind: 'fail'; reason: 'BackoffLimitExceeded'; message: string }
  | { kind: 'complete' }
  | { kind: 'run'; wantActive: number };

/**
 * The Job controller's rule (upstream syncJob, non-indexed): failed pods beyond
 * backoffLimit fail the Job; `completions` successes complete it (with completions unset,
 * the first success once no pod is active); otherwise keep
 * min(parallelism, completions − succeeded) pods active.
 */
export function decide(job: Job, counts: { active: number; succeeded: number; failed: number }): JobDecision {
  const s = job.spec;
  if (counts.failed > (s.backoffLimit ?? 6))
    return { kind: 'fail', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
  const parallelism = s.parallelism ?? 1;
  if (s.completions === undefined) {
    if (counts.succeeded > 0 && counts.active === 0) return { kind: 'complete' };
    return { kind: 'run', wantActive: counts.succeeded > 0 ? 0 : parallelism };
  }
  if (counts.succeeded >= s.completions) return { kind: 'complete' };
  return { kind: 'run', wantActive: Math.min(parallelism, s.completions - counts.succeeded) };
}

export function finishedCondition(
  type: 'Complete' | 'Failed',
  now: string,
  reason?: string,
  message?: string,
): JobCondition {
  return {
    type,
    status: 'True',
    lastProbeTime: now,
    lastTransitionTime: now,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

/** The status fields as upstream writes them: counts are omitempty. */
export function jobStatus(
  prev: JobStatus | undefined,
  counts: { active: number; succeeded: number; failed: number },
  extra: Partial<JobStatus>,
): JobStatus {
  const out: JobStatus = { ...prev, ...extra };
  for (const k of ['active', 'succeeded', 'failed'] as const) {
    if (counts[k] > 0) out[k] = counts[k];
    else delete out[k];
  }
  return out;
}
