import { errors } from '../../api/errors';
import { UserInfo } from '../../api/request';
import { queryBool, RequestInfo } from './request-info';

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * Upstream's max-in-flight filter (--max-requests-inflight, --max-mutating-requests-inflight;
 * 0 = no limit): short requests beyond the limit are answered 429 with Retry-After;
 * long-running ones (watch, proxy, logs) and system:masters are never refused.
 */
export class InflightLimit {
  private readonly inflight = { reads: 0, writes: 0 };
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
    if (limit > 0 && this.inflight[key] >= limit && !user.groups.includes('system:masters')) {
      this.refused++;
      throw errors.tooManyRequests('Too many requests, please try again later.', 1);
    }
    this.inflight[key]++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.inflight[key]--;
      }
    };
  }
}
