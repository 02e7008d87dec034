import { errors } from '../../api/errors';
import { UserInfo } from '../../api/request';
import { queryBool, RequestInfo } from './request-info';

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * Upstream's max-in-flight filter (--max-requests-inflight, --max-mutating-requests-inflight;
 * 0 = no limit): short requests beyond the limit are answered 429 with Retry-After;
 * long-running ones (watch, proxy, logs) and system:masters are never refused.
 *
 * Fairness: one user holds at most a quarter of each budget (at least one slot), so that one
 * client's unfinished requests (bodies announced and never sent) cannot take every write
 * slot from everyone else. kube-apiserver reaches the same end with API Priority and
 * Fairness (per-user flows, shuffle-sharded queues, each flow a fair share of its priority
 * level); this is the documented simplification: a user past its share is answered 429 at
 * once instead of queued.
 */
export class InflightLimit {
  private readonly inflight = { reads: 0, writes: 0 };
  private readonly perUser = new Map<string, number>();
  /** Requests refused with 429 (for tests and figures). */
  refused = 0;

  constructor(
    private readonly maxReads: number,
    private readonly maxWrites: number,
  ) {}

  /** Takes a slot for the request, or throws 429; returns the slot's release (undefined: no slot needed). */
  admit(user: UserInfo, info: RequestInfo, q: URLSearchParams): (() => void) | undefined {
    const longRunning =
      info.verb === 'watch' ||
      queryBool(q.get('watch')) ||
      info.subresource === 'proxy' ||
      info.subresource === 'log' ||
      info.subresource === 'exec' ||
      info.subresource === 'portforward' ||
      info.subresource === 'attach';
    if (longRunning) return undefined;
    const mutating = MUTATING.has(info.verb);
    const key = mutating ? 'writes' : 'reads';
    const limit = mutating ? this.maxWrites : this.maxReads;
    const exempt = user.groups.includes('system:masters');
    const flow = `${key}\0${user.username}`;
    const share = Math.max(1, Math.floor(limit / 4));
    if (limit > 0 && !exempt && (this.inflight[key] >= limit || (this.perUser.get(flow) ?? 0) >= share)) {
      this.refused++;
      throw errors.tooManyRequests('Too many requests, please try again later.', 1);
    }
    this.inflight[key]++;
    this.perUser.set(flow, (this.perUser.get(flow) ?? 0) + 1);
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.inflight[key]--;
        const left = (this.perUser.get(flow) ?? 1) - 1;
        if (left > 0) this.perUser.set(flow, left);
        else this.perUser.delete(flow);
      }
    };
  }
}
