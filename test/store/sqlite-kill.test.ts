import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteStore } from '../../src/store/sqlite';

/**
 * Which SQLite setting keeps every acknowledged write through kill -9 of the process (not
 * a power cut)? In WAL mode a commit is in the WAL file once write(2) returned, in the
 * kernel's page cache, which outlives the process: synchronous=NORMAL (no fsync per
 * commit) already survives kill -9; FULL (fsync of the WAL on every commit, the default
 * here, as etcd fsyncs its log) adds the power cut. Both are killed mid-storm here; every
 * acknowledged create is there afterwards, and the acknowledged rate of each is printed.
 */
const WRITER = path.join(__dirname, 'sqlite-writer.ts');

function storm(file: string, sync: 'full' | 'normal', ms: number): Promise<{ acked: number; perSecond: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', 'ts-node/register', WRITER, file, sync], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    });
    let acked = -1;
    let firstAt = 0;
    let err = '';
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        const m = /^ack (\d+)$/.exec(l);
        if (!m) continue;
        acked = Number(m[1]);
        if (!firstAt) {
          firstAt = Date.now();
          setTimeout(() => child.kill('SIGKILL'), ms);
        }
      }
    });
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`the writer exited with ${code}:\n${err}`));
      resolve({ acked: acked + 1, perSecond: Math.round((acked + 1) / ((Date.now() - firstAt) / 1000)) });
    });
  });
}

describe('sqlite: kill -9 of the writing process loses no acknowledged write', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-sqlite-kill-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const sync of ['full', 'normal'] as const) {
    test(`synchronous=${sync.toUpperCase()} in WAL mode`, async () => {
      const file = path.join(dir, `${sync}.db`);
      const { acked, perSecond } = await storm(file, sync, 1500);
      assert.ok(acked > 20, `only ${acked} creates acknowledged`);
      const store = new SqliteStore(file);
      try {
        const keys = new Set((await store.range('/registry/pods/storm/')).items.map((kv) => kv.key));
        const lost = Array.from({ length: acked }, (_, i) => `/registry/pods/storm/p-${i}`).filter((k) => !keys.has(k));
        assert.deepEqual(lost, [], `${lost.length} of ${acked} acknowledged creates lost`);
        console.log(
          `# synchronous=${sync.toUpperCase()}: ${acked} acknowledged creates (${perSecond}/s, one writer) all there after kill -9`,
        );
      } finally {
        await store.close();
      }
    });
  }
});
