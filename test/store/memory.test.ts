import { MemoryStore } from '../../src/store';
import { storeContract } from './contract';

storeContract({ name: 'memory', open: async (q) => new MemoryStore(q) });
