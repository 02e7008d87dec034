import { SqliteStore } from '../../src/store/sqlite';

/**
 * The child of sqlite-kill.test.ts: opens the store with the synchronous setting it is
 * given and creates keys one after another, printing "ack N" once create N has committed,
 * until it is killed.
 */
const [file, sync] = process.argv.slice(2);
const store = new SqliteStore(file, undefined, { sync: sync as 'full' | 'normal' });
void (async () => {
  for (let i = 0; ; i++) {
    await store.create(`/registry/pods/storm/p-${i}`, { i, pad: 'x'.repeat(512) });
    process.stdout.write(`ack ${i}\n`);
  }
})();
