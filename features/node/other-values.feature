@NODE-MONITOR-PERIOD @NODE-EVICTION-TIMEOUT @NODE-ZONE-PARTIAL-SMALL @NODE-ZONE-PARTIAL-LARGE @NODE-GRACE-UNKNOWN
Feature: Every node-controller flag the seed names, judged at a value other than its default
  The other node scenarios state the parameters they depend on, mostly at the seed's defaults;
  defaults.feature states none. These state each flag at another value and expect that
  value's effect, so a control plane that ignores a flag (keeping its default) turns them red:
  --node-monitor-period, --pod-eviction-timeout (the seed; removed in v1.27: a v1.32
  kube-controller-manager refuses it, and the wait is the API server's
  --default-unreachable-toleration-seconds or --default-not-ready-toleration-seconds),
  --unhealthy-zone-threshold, --large-cluster-size-threshold, --secondary-node-eviction-rate,
  and the kubelet's --node-lease-duration-seconds (renewed every quarter of it).
  (--node-eviction-rate at 0.2, 0.05 and 0 is in eviction.feature; the grace period at 30 s and
  60 s in heartbeat.feature.)
  Source: 000 §1.2 "节点控制". Upstream (pkg/controller/nodelifecycle, node_lifecycle_controller.go):
  monitorNodeHealth every --node-monitor-period (v1.12: monitorNodeStatus, which deletes a
  silent node's pods once probeTimestamp + --pod-eviction-timeout has passed), ComputeZoneState
  (Partial once more than 2 of a zone's nodes, and at least --unhealthy-zone-threshold of
  them, are not ready), setLimiterInZone and ReducedQPSFunc (the secondary rate above
  --large-cluster-size-threshold nodes, else 0); DefaultTolerationSeconds (plugin/pkg/admission/
  defaulttolerationseconds); the kubelet's renewInterval = 0.25 × lease duration
  (nodeLeaseRenewIntervalFraction, pkg/kubelet/kubelet.go; component-helpers/apimachinery/lease).

  Background:
    Given the node monitor period is 5 seconds
    And the node eviction rate is 0.1 nodes per second
    And the secondary node eviction rate is 0.01 nodes per second
    And the large cluster size threshold is 50 nodes
    And the unhealthy zone threshold is 0.55

  Scenario: At an unhealthy zone threshold of 0.3, 3 of 10 down is a partial disruption and evictions stop
    At the default 0.55 the same zone is Normal and loses its pods at 0, 10, 20 s (defaults.feature).
    Given the unhealthy zone threshold is 0.3
    And zone "healthy" has 1 ready node
    And zone "z1" has 10 ready nodes, each running 1 pod
    When 3 nodes of zone "z1" stop reporting
    Then 20 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at none seconds

  Scenario: At an unhealthy zone threshold of 0.8, 11 of 20 down is Normal and evicts at the normal rate
    At the default 0.55 the same zone is partially disrupted, small, and stops.
    Given the unhealthy zone threshold is 0.8
    And zone "healthy" has 1 ready node
    And zone "z1" has 20 ready nodes, each running 1 pod
    When 11 nodes of zone "z1" stop reporting
    Then 10 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 seconds

  Scenario: At a large cluster size threshold of 20, a partially disrupted zone of 21 is large: the secondary rate
    At the default 50 a zone of 21 is small and stops.
    Given the large cluster size threshold is 20 nodes
    And zone "healthy" has 1 ready node
    And zone "z1" has 21 ready nodes, each running 1 pod
    When 12 nodes of zone "z1" stop reporting
    Then 9.5 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at 0, 100.1, 200.2 seconds

  Scenario: At a large cluster size threshold of 20, a partially disrupted zone of exactly 20 is small: evictions stop
    Given the large cluster size threshold is 20 nodes
    And zone "healthy" has 1 ready node
    And zone "z1" has 20 ready nodes, each running 1 pod
    When 12 nodes of zone "z1" stop reporting
    Then 20 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at none seconds

  Scenario Outline: At a secondary eviction rate of 0.02, a partially disrupted large zone loses a node every 50 s
    The bucket holds one token (burst 1) and the eviction pass runs every 100 ms: float32(0.02)
    is just under 0.02, so each token is due a hair after 50 s and taken at the next pass.
    The seed's first node goes about 5 min after the stop, 1.32's about 6 min (taint + toleration).
    Given the secondary node eviction rate is 0.02 nodes per second
    And zone "healthy" has 1 ready node
    And zone "z1" has 51 ready nodes, each running 1 pod
    When 30 nodes of zone "z1" stop reporting
    Then 8 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at <times> seconds

    @profile-seed
    Examples: the seed
      | times                   |
      | 0, 50.1, 100.2, 150.3   |

    @profile-kubernetes-1.32
    Examples: 1.32
      | times           |
      | 0, 50.1, 100.2  |

  @profile-seed
  Scenario: At a pod eviction timeout of 2 minutes the seed deletes a silent node's pods strictly after 2 minutes
    As at 5 minutes (eviction.feature): seen at the next pass (up to 5 s later), deleted at the
    first pass strictly after that + the timeout, then the 100 ms eviction pass.
    Given the pod eviction timeout is 2 minutes
    And zone "healthy" has 1 ready node
    And zone "z1" has 2 ready nodes, each running 1 pod
    When 1 node of zone "z1" stops reporting
    Then the pods of node "z1-node-1" are marked for deletion between 120 and 130.1 seconds after its kubelet stopped

  @profile-seed
  Scenario: At a pod eviction timeout of 2 minutes the seed deletes a Ready=False node's pods 2 minutes after the transition
    The False branch of monitorNodeStatus counts from readyTransitionTimestamp (the pass that
    saw the False), not from the last heartbeat: not-ready.feature at 5 minutes.
    Given the pod eviction timeout is 2 minutes
    And zone "healthy" has 1 ready node
    And zone "z1" has 2 ready nodes, each running 1 pod
    When 1 node of zone "z1" reports Ready "False" for 3 minutes
    Then the pods of node "z1-node-1" were marked for deletion between 120 and 130.1 seconds after its kubelet stopped
    And node "z1-node-1" has no NoExecute taints

  @profile-kubernetes-1.32
  Scenario: At a default unreachable toleration of 120 s, 1.32 evicts a silent node's pods 120 s after the taint
    v1.32 has no --pod-eviction-timeout: the wait is the toleration DefaultTolerationSeconds
    gives each pod (300 s by default, eviction.feature). The taint comes 55–66 s after the
    heartbeat (eviction.feature), so the pods go 175–186.1 s after it.
    Given the flag "--default-unreachable-toleration-seconds" is "120"
    And zone "healthy" has 1 ready node
    And zone "z1" has 2 ready nodes, each running 1 pod
    When 1 node of zone "z1" stops reporting
    Then the pods of node "z1-node-1" are marked for deletion between 175 and 186.1 seconds after its kubelet stopped

  @profile-kubernetes-1.32
  Scenario: At a default not-ready toleration of 120 s, 1.32 evicts a Ready=False node's pods 120 s after the False
    The Ready=False twin of the above (not-ready.feature at the default 300 s): the not-ready
    taint comes at the first pass after the False is seen, and the pods go when the toleration
    DefaultTolerationSeconds gave them for it (--default-not-ready-toleration-seconds) runs out.
    Given the flag "--default-not-ready-toleration-seconds" is "120"
    And zone "healthy" has 1 ready node
    And zone "z1" has 2 ready nodes, each running 1 pod
    When 1 node of zone "z1" reports Ready "False" for 3 minutes
    Then node "z1-node-1" has the taint "node.kubernetes.io/not-ready:NoExecute"
    And the pods of node "z1-node-1" were marked for deletion between 120 and 130.1 seconds after its kubelet stopped

  @profile-kubernetes-1.32
  Scenario: A v1.32 controller manager refuses --pod-eviction-timeout
    v1.27 removed the flag with eviction by deletion (kubernetes/kubernetes#115840): pflag does
    not know it and kube-controller-manager exits before serving (v1.32.13: "Error: unknown
    flag: --pod-eviction-timeout", exit 1), rather than running with the value ignored.
    Given the pod eviction timeout is 2 minutes
    Then the controller manager refuses to start with "unknown flag: --pod-eviction-timeout"

  @profile-seed @needs-virtual-time
  Scenario: At a monitor period of 2 seconds the seed's silent node is Unknown by 44 s
    The heartbeat is seen at the next pass (up to 2 s later) and the node marked Unknown at the
    first pass strictly after that + 40 s. At the default 5 s it is still Ready at 45 s
    (defaults.feature).
    Given the node monitor period is 2 seconds
    And a ready node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    Then node "10.4.42.5" is still Ready 40 seconds after its last heartbeat
    And node "10.4.42.5" is Unknown 44 seconds after its last heartbeat

  @profile-kubernetes-1.32 @needs-virtual-time
  Scenario: At a monitor period of 2 seconds a 1.32 silent node is Unknown by 54 s
    Given the node monitor period is 2 seconds
    And a ready node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    Then node "10.4.42.5" is still Ready 50 seconds after its last heartbeat
    And node "10.4.42.5" is Unknown 54 seconds after its last heartbeat

  @profile-kubernetes-1.32
  Scenario: At a node lease duration of 20 s the kubelet renews its lease every 5 s
    A quarter of the duration, as at the default 40 s every 10 s (lease.feature).
    Given a kubelet starts on node "n1" with:
      | --node-lease-duration-seconds | 20 |
    Then the lease of node "n1" is held by "n1" for 20 seconds
    And over the next 30 seconds the lease of node "n1" is renewed every 5 seconds
