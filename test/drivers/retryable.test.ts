import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../src/api/errors';
import { retryableApiError } from '../../src/drivers/kube';

const status = (code: number, reason: string) =>
  new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: reason, reason, code });

// A real-clock wait polls on through these, as upstream's e2e polls do (IsRetryableAPIError).
test('a wait polls on through a reset connection, 429 and server timeouts, and stops on anything else', () => {
  for (const e of [
    Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }),
    status(429, 'TooManyRequests'),
    status(504, 'Timeout'),
    status(500, 'ServerTimeout'),
  ])
    assert.ok(retryableApiError(e), e.message);
  for (const e of [
    status(404, 'NotFound'),
    status(409, 'Conflict'),
    status(500, 'InternalError'),
    Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    new Error('expected 3 to equal 4'),
  ])
    assert.ok(!retryableApiError(e), e.message);
});
