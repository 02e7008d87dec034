import * as path from 'node:path';
import { Quiescence } from '../clock';
import { MemoryStore } from './memory';
import { Store } from './store';

/** Where `kubespec serve` keeps its SQLite store unless --store names a file: <data-dir>/kubespec.db. */
export const DEFAULT_SQLITE_FILE = 'kubespec.db';

export type StoreSpec =
  | { kind: 'memory' }
  | {
      kind: 'sqlite';
      file: string /** PRAGMA synchronous (--sqlite-sync): FULL unless told. */;
      sync?: 'full' | 'normal';
    }
  | { kind: 'etcd'; endpoints: string[] /** Before every key (several clusters on one etcd). */; keyPrefix?: string };

/**
 * Reads a --store value: `memory`; `sqlite` (the data dir's kubespec.db) or `sqlite:FILE`
 * (relative to the working directory); `etcd://host:port[,host:port…]` (or several
 * http(s)://host:port URLs separated by commas, as kube-apiserver's --etcd-servers).
 */
export function parseStoreSpec(value: string, dataDir: string): StoreSpec {
  if (value === 'memory') return { kind: 'memory' };
  if (value === 'sqlite') return { kind: 'sqlite', file: path.join(dataDir, DEFAULT_SQLITE_FILE) };
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length);
    if (!file) throw new Error('--store sqlite:FILE needs a file name');
    return { kind: 'sqlite', file: path.resolve(file) };
  }
  if (/^(etcd|https?):\/\//.test(value)) {
    const endpoints = value
      .replace(/^etcd:\/\//, '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)
      .map((e) => e.replace(/^etcd:\/\//, ''))
      .map((e) => (/^https?:\/\//.test(e) ? e : `http://${e}`));
    for (const e of endpoints) {
      let url: URL;
      try {
        url = new URL(e);
      } catch {
        throw new Error(`--store ${value}: "${e}" is not host:port`);
      }
      if (!url.hostname || !url.port) throw new Error(`--store ${value}: "${e}" needs a host and a port`);
    }
    if (endpoints.length === 0) throw new Error(`--store ${value}: no endpoint`);
    return { kind: 'etcd', endpoints };
  }
  throw new Error(`--store ${value} is not a store (memory | sqlite | sqlite:FILE | etcd://host:port[,host:port])`);
}

/** Opens the store a spec names; sqlite and etcd load their client libraries only here. */
export async function openStore(spec: StoreSpec, quiescence: Quiescence): Promise<Store> {
  switch (spec.kind) {
    case 'memory':
      return new MemoryStore(quiescence);
    case 'sqlite': {
      const { SqliteStore } = await import('./sqlite');
      return new SqliteStore(spec.file, quiescence, { sync: spec.sync });
    }
    case 'etcd': {
      const { EtcdStore } = await import('./etcd');
      return EtcdStore.open({ endpoints: spec.endpoints, keyPrefix: spec.keyPrefix }, quiescence);
    }
  }
}

export function describeStore(spec: StoreSpec): string {
  return spec.kind === 'memory'
    ? 'memory'
    : spec.kind === 'sqlite'
      ? `sqlite ${spec.file} (synchronous=${(spec.sync ?? 'full').toUpperCase()})`
      : `etcd ${spec.endpoints.join(',')}${spec.keyPrefix ? ` (keys under ${spec.keyPrefix})` : ''}`;
}
