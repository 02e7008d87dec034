import { ReplicationController } from '../../api/resources/replicationcontroller';
import { ControllerContext } from '../../client/controller-context';
import {
  DEFAULT_REPLICASET_OPTIONS,
  REPLICATION_CONTROLLER_KIND,
  ReplicaSetController,
  ReplicaSetOptions,
} from './controller';

export type ReplicationOptions = ReplicaSetOptions;

export const DEFAULT_REPLICATION_OPTIONS: ReplicationOptions = DEFAULT_REPLICASET_OPTIONS;

/**
 * The replication manager (pkg/controller/replication): upstream runs the ReplicaSet
 * controller over ReplicationControllers through a conversion layer; so does this one —
 * the same controller with the RC's equality-based selector, resource and event source.
 */
export class ReplicationManager extends ReplicaSetController<ReplicationController> {
  constructor(ctx: ControllerContext, options: ReplicationOptions = DEFAULT_REPLICATION_OPTIONS) {
    super(ctx, options, REPLICATION_CONTROLLER_KIND);
  }
}
