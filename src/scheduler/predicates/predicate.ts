import { Pod } from '../../api/core';
import { PodMeta } from '../meta';
import { NodeInfo } from '../nodeinfo';
import { FailureReason } from '../reasons';

/** A fit predicate: the reasons the node does not fit the pod; empty when it fits. */
export type Predicate = (pod: Pod, meta: PodMeta, node: NodeInfo) => FailureReason[];

export const FITS: FailureReason[] = [];
