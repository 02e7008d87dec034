import { Priority } from './priority';

/** EqualPriority: every node 1 (what the scheduler uses when no priority is configured). */
export const equalPriority: Priority = (_pod, _meta, nodes) => nodes.map(() => 1);
