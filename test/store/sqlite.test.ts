import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteStore } from '../../src/store/sqlite';
import { storeContract } from './contract';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-sqlite-'));
let n = 0;
storeContract({
  name: 'sqlite',
  open: async (q) => new SqliteStore(path.join(dir, `store-${++n}.db`), q),
  reopen: async (closed, q) => new SqliteStore((closed as SqliteStore).file, q),
  teardown: async () => fs.rmSync(dir, { recursive: true, force: true }),
});
