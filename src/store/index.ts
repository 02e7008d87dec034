export * from './store';
export { MemoryStore } from './memory';
