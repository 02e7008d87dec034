/** The node lifecycle controller's settings, named after kube-controller-manager flags. */
export interface NodeLifecycleOptions {
  /** --node-monitor-period, ms */
  nodeMonitorPeriod: number;
  /** --node-monitor-grace-period, ms */
  nodeMonitorGracePeriod: number;
  /** --node-startup-grace-period, ms */
  nodeStartupGracePeriod: number;
  /** --pod-eviction-timeout, ms: only for eviction by deletion (before v1.27; the flag went with it). */
  podEvictionTimeout?: number;
  /** --node-eviction-rate, nodes per second per zone */
  nodeEvictionRate: number;
  /** --secondary-node-eviction-rate */
  secondaryNodeEvictionRate: number;
  /** --large-cluster-size-threshold */
  largeClusterSizeThreshold: number;
  /** --unhealthy-zone-threshold */
  unhealthyZoneThreshold: number;
  /** Evict by NoExecute taints (v1.13+ default, the only mode since v1.27) or by deletion. */
  taintBasedEvictions: boolean;
  /** Add NoSchedule taints for conditions (TaintNodesByCondition). */
  taintNodesByCondition: boolean;
  /** Condition types set Unknown when the grace period passes. */
  conditionTypes: readonly string[];
}
