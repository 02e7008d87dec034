import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Quiescence } from '../../src/clock';
import { describeStore, openStore, parseStoreSpec } from '../../src/store/open';
import { SqliteStore } from '../../src/store/sqlite';

// --sqlite-sync reaches the store: PRAGMA synchronous FULL unless NORMAL is asked for.
test('a sqlite store is opened with synchronous=FULL by default, NORMAL when asked', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-open-'));
  try {
    const spec = parseStoreSpec('sqlite', dir);
    assert.ok(spec.kind === 'sqlite');
    assert.equal(describeStore(spec), `sqlite ${path.join(dir, 'kubespec.db')} (synchronous=FULL)`);
    const full = (await openStore(spec, new Quiescence())) as SqliteStore;
    assert.equal(full.sync, 'full');
    await full.close();
    const normal = (await openStore({ ...spec, sync: 'normal' }, new Quiescence())) as SqliteStore;
    assert.equal(normal.sync, 'normal');
    assert.match(describeStore({ ...spec, sync: 'normal' }), /\(synchronous=NORMAL\)$/);
    await normal.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
