import { Pod } from '../api/core';

/** The pods-by-node index (upstream's informer index on spec.nodeName), shared by the controllers that act per node. */
export const POD_NODE_INDEX = 'spec.nodeName';
export const podsByNode = (p: Pod): string[] => (p.spec.nodeName ? [p.spec.nodeName] : []);
