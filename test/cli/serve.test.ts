import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serveCommand } from '../../src/cli/serve';
import { SERVE_HELP } from '../../src/cli/help';

// --sqlite-sync: full or normal, for a sqlite store only; refused before anything starts.
test('--sqlite-sync takes full or normal, and only with a sqlite store', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-serve-args-'));
  try {
    await assert.rejects(
      serveCommand(['--data-dir', dir, '--sqlite-sync', 'fast']),
      /--sqlite-sync must be full or normal, got "fast"/,
    );
    await assert.rejects(
      serveCommand(['--data-dir', dir, '--store', 'memory', '--sqlite-sync', 'normal']),
      /--sqlite-sync is for a sqlite store/,
    );
    assert.match(SERVE_HELP, /--sqlite-sync full\|normal/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
