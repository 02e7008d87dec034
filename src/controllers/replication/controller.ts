import { Clock, Quiescence } from '../../clock';
import { ReplicationController } from '../../api/resources/replicationcontroller';
import { Client } from '../../client/client';
import { InformerFactory } from '../../client/informer';
import {
  DEFAULT_REPLICASET_OPTIONS,
  REPLICATION_CONTROLLER_KIND,
  ReplicaSetController,
  ReplicaSetOptions,
} from '../replicaset/controller';

export type ReplicationOptions = ReplicaSetOptions;

export const DEFAULT_REPLICATION_OPTIONS: ReplicationOptions = DEFAULT_REPLICASET_OPTIONS;

/**
 * The replication manager (pkg/controller/replication): upstream runs the ReplicaSet
 * controller over ReplicationControllers through a conversion layer; so does this one —
 * the same controller with the RC's equality-based selector, resource and event source.
 */
export class ReplicationManager extends ReplicaSetController<ReplicationController> {
  constructor(
    informers: InformerFactory,
    client: Client,
    clock: Clock,
    quiescence: Quiescence,
    options: ReplicationOptions = DEFAULT_REPLICATION_OPTIONS,
  ) {
    super(informers, client, clock, quiescence, options, REPLICATION_CONTROLLER_KIND);
  }
}
