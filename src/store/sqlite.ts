import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Quiescence } from '../clock';
import { Fanout } from './fanout';
import { KeyValue, RangeOptions, RangeResult, Store, StoreError, Watch, WatchEvent, WatchOptions } from './store';
import { checkWatchStart } from './revision-errors';

export interface SqliteOptions {
  /**
   * 'full' (default): each commit is fsynced before the write is acknowledged, so it
   * survives a power cut as well as kill -9. 'normal': committed to the WAL by write(2)
   * only, which survives kill -9 (the kernel has the bytes) but not a power cut.
   */
  sync?: 'full' | 'normal';
}

interface Row {
  key: string;
  value: string;
  create_rev: number;
  mod_rev: number;
  version: number;
}

interface LogRow {
  rev: number;
  key: string;
  deleted: number;
  value: string;
  create_rev: number;
  version: number;
  prev_value: string | null;
  prev_mod_rev: number | null;
  prev_version: number | null;
}

/**
 * The embedded backend (as k3s keeps its state in SQLite): one file in WAL mode, written
 * by this process alone (an exclusive lock refuses a second server on the same file).
 *
 * - kv: each key's current value with its create/mod revision and version.
 * - log: one row per revision, the event as a watch delivers it (with the previous value),
 *   kept until compaction: watches that start in the past read it, also after a restart.
 * - meta: the global revision and the compacted revision.
 *
 * Every write is one transaction that updates kv, appends to log and bumps the revision;
 * it is acknowledged only once SQLite has committed it. Watches are fed from the writer:
 * the committed event goes to the watchers of this process (there is no other writer).
 */
export class SqliteStore implements Store {
  readonly backend = 'sqlite';
  private readonly db: Database.Database;
  private readonly fanout: Fanout;
  private rev: number;
  private compacted: number;
  private closed = false;
  private readonly stmt: ReturnType<SqliteStore['prepare']>;

  constructor(
    readonly file: string,
    quiescence = new Quiescence(),
    options: SqliteOptions = {},
  ) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.db = new Database(file);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.sync === 'normal' ? 'NORMAL' : 'FULL'}`);
      // One writer: a second process on the same file would keep its own revision counter.
      this.db.pragma('locking_mode = EXCLUSIVE');
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, create_rev INTEGER NOT NULL, mod_rev INTEGER NOT NULL, version INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS log (rev INTEGER PRIMARY KEY, key TEXT NOT NULL, deleted INTEGER NOT NULL, value TEXT NOT NULL, create_rev INTEGER NOT NULL, version INTEGER NOT NULL, prev_value TEXT, prev_mod_rev INTEGER, prev_version INTEGER);
        CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        INSERT OR IGNORE INTO meta (name, value) VALUES ('revision', 1), ('compacted', 0);
      `);
    } catch (e) {
      this.db.close();
      if ((e as { code?: string }).code === 'SQLITE_BUSY')
        throw new Error(`the store ${file} is in use by another process (one server per SQLite file)`);
      throw e;
    }
    this.stmt = this.prepare();
    this.rev = this.stmt.meta.get('revision') as number;
    this.compacted = this.stmt.meta.get('compacted') as number;
    this.fanout = new Fanout(quiescence);
  }

  private prepare() {
    const db = this.db;
    return {
      meta: db.prepare('SELECT value FROM meta WHERE name = ?').pluck(),
      setMeta: db.prepare('UPDATE meta SET value = ? WHERE name = ?'),
      get: db.prepare('SELECT * FROM kv WHERE key = ?'),
      rangeAll: db.prepare('SELECT * FROM kv WHERE key >= ? ORDER BY key LIMIT ?'),
      rangeTo: db.prepare('SELECT * FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?'),
      countTo: db.prepare('SELECT count(*) FROM kv WHERE key >= ? AND key < ?').pluck(),
      countAll: db.prepare('SELECT count(*) FROM kv WHERE key >= ?').pluck(),
      insert: db.prepare('INSERT INTO kv (key, value, create_rev, mod_rev, version) VALUES (?, ?, ?, ?, ?)'),
      replace: db.prepare('UPDATE kv SET value = ?, mod_rev = ?, version = ? WHERE key = ?'),
      remove: db.prepare('DELETE FROM kv WHERE key = ?'),
      log: db.prepare(
        'INSERT INTO log (rev, key, deleted, value, create_rev, version, prev_value, prev_mod_rev, prev_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      history: db.prepare('SELECT * FROM log WHERE rev > ? ORDER BY rev'),
      forget: db.prepare('DELETE FROM log WHERE rev <= ?'),
    };
  }

  revision(): number {
    return this.rev;
  }

  async progress(): Promise<number> {
    const revision = this.rev;
    await this.fanout.flushed();
    return revision;
  }

  async currentRevision(): Promise<number> {
    return this.rev;
  }

  async get<V>(key: string): Promise<KeyValue<V> | undefined> {
    this.open();
    const row = this.stmt.get.get(key) as Row | undefined;
    return row ? toKv<V>(row) : undefined;
  }

  async range<V>(prefix: string, options: RangeOptions = {}): Promise<RangeResult<V>> {
    this.open();
    const end = prefixEnd(prefix);
    const from = options.startAfter !== undefined && options.startAfter >= prefix ? `${options.startAfter}\0` : prefix;
    const limit = options.limit && options.limit > 0 ? options.limit + 1 : -1;
    // Synchronous: no write comes between the rows and the revision they were read at.
    const rows = (
      end === undefined ? this.stmt.rangeAll.all(from, limit) : this.stmt.rangeTo.all(from, end, limit)
    ) as Row[];
    const more = options.limit !== undefined && options.limit > 0 && rows.length > options.limit;
    if (more) rows.pop();
    return { items: rows.map((r) => toKv<V>(r)), revision: this.rev, more };
  }

  async count(prefix: string): Promise<number> {
    this.open();
    const end = prefixEnd(prefix);
    return (end === undefined ? this.stmt.countAll.get(prefix) : this.stmt.countTo.get(prefix, end)) as number;
  }

  async create<V>(key: string, value: V): Promise<KeyValue<V>> {
    const event = this.write(() => {
      if (this.stmt.get.get(key)) throw new StoreError('KeyExists', key, `key exists: ${key}`);
      const rev = this.rev + 1;
      const json = JSON.stringify(value);
      this.stmt.insert.run(key, json, rev, rev, 1);
      this.stmt.log.run(rev, key, 0, json, rev, 1, null, null, null);
      return {
        type: 'PUT',
        kv: { key, value, createRevision: rev, modRevision: rev, version: 1 },
        created: true,
      } as WatchEvent<V>;
    });
    return event.kv;
  }

  async update<V>(key: string, value: V, expectedModRevision?: number): Promise<KeyValue<V>> {
    const event = this.write(() => {
      const prev = this.guarded(key, expectedModRevision);
      const rev = this.rev + 1;
      const json = JSON.stringify(value);
      this.stmt.replace.run(json, rev, prev.version + 1, key);
      this.stmt.log.run(rev, key, 0, json, prev.create_rev, prev.version + 1, prev.value, prev.mod_rev, prev.version);
      const kv: KeyValue<V> = {
        key,
        value,
        createRevision: prev.create_rev,
        modRevision: rev,
        version: prev.version + 1,
      };
      return { type: 'PUT', kv, prevKv: toKv<V>(prev), created: false } as WatchEvent<V>;
    });
    return event.kv;
  }

  async delete<V>(key: string, expectedModRevision?: number): Promise<KeyValue<V>> {
    const event = this.write(() => {
      const prev = this.guarded(key, expectedModRevision);
      const rev = this.rev + 1;
      this.stmt.remove.run(key);
      this.stmt.log.run(rev, key, 1, prev.value, prev.create_rev, prev.version, prev.value, prev.mod_rev, prev.version);
      const prevKv = toKv<V>(prev);
      return { type: 'DELETE', kv: { ...prevKv, modRevision: rev }, prevKv, created: false } as WatchEvent<V>;
    });
    return event.prevKv!;
  }

  async watch<V>(prefix: string, options: WatchOptions, onEvent: (events: WatchEvent<V>[]) => void): Promise<Watch> {
    this.open();
    const after = options.afterRevision ?? this.rev;
    checkWatchStart(prefix, after, this.compacted, this.rev);
    // Synchronous from the read of the backlog to the registration: no write can come between.
    const backlog =
      after < this.rev
        ? (this.stmt.history.all(after) as LogRow[]).filter((r) => r.key.startsWith(prefix)).map(toEvent)
        : [];
    return this.fanout.add(prefix, backlog, onEvent);
  }

  async compact(revision: number): Promise<void> {
    this.open();
    if (revision > this.rev)
      throw new StoreError('FutureRevision', '', `cannot compact to future revision ${revision}`);
    if (revision <= this.compacted) return;
    this.db.transaction(() => {
      this.stmt.forget.run(revision);
      this.stmt.setMeta.run(revision, 'compacted');
    })();
    this.compacted = revision;
  }

  compactedRevision(): number {
    return this.compacted;
  }

  /** The synchronous setting in force (PRAGMA synchronous: 2 FULL, 1 NORMAL). */
  get sync(): 'full' | 'normal' {
    return this.db.pragma('synchronous', { simple: true }) === 1 ? 'normal' : 'full';
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fanout.close();
    this.db.close();
  }

  /** Runs one write in a transaction at the next revision; publishes its event once committed. */
  private write<V>(body: () => WatchEvent<V>): WatchEvent<V> {
    this.open();
    const event = this.db
      .transaction(() => {
        const e = body();
        this.stmt.setMeta.run(e.kv.modRevision, 'revision');
        return e;
      })
      .immediate();
    this.rev = event.kv.modRevision;
    this.fanout.publish([event as WatchEvent]);
    return event;
  }

  private guarded(key: string, expectedModRevision: number | undefined): Row {
    const prev = this.stmt.get.get(key) as Row | undefined;
    if (!prev) throw new StoreError('KeyNotFound', key, `key not found: ${key}`);
    if (expectedModRevision !== undefined && prev.mod_rev !== expectedModRevision) {
      throw new StoreError(
        'RevisionMismatch',
        key,
        `key ${key} is at revision ${prev.mod_rev}, not ${expectedModRevision}`,
      );
    }
    return prev;
  }

  private open(): void {
    if (this.closed) throw new Error(`the store ${this.file} is closed`);
  }
}

function toKv<V>(r: Row): KeyValue<V> {
  return {
    key: r.key,
    value: JSON.parse(r.value) as V,
    createRevision: r.create_rev,
    modRevision: r.mod_rev,
    version: r.version,
  };
}

function toEvent(r: LogRow): WatchEvent {
  const prevKv =
    r.prev_value === null
      ? undefined
      : {
          key: r.key,
          value: JSON.parse(r.prev_value),
          createRevision: r.create_rev,
          modRevision: r.prev_mod_rev!,
          version: r.prev_version!,
        };
  const kv = {
    key: r.key,
    value: JSON.parse(r.value),
    createRevision: r.create_rev,
    modRevision: r.rev,
    version: r.version,
  };
  return { type: r.deleted ? 'DELETE' : 'PUT', kv, prevKv, created: !r.deleted && prevKv === undefined };
}

/** The smallest string above every string starting with prefix (undefined: no bound). */
export function prefixEnd(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xffff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return undefined;
}
