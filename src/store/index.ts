export * from './store';
export { MemoryStore } from './memory';
export { LazySortedKeys, lowerBound } from './key-index';
// The sqlite and etcd backends are imported from their own modules (src/store/open.ts picks
// one from --store): their native and gRPC dependencies load only when used.
