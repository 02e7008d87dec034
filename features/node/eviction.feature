@NODE-EVICTION-TIMEOUT @NODE-EVICTION-RATE
Feature: Pods leave a node that stays not ready, one node at a time per zone
  When a node's Ready condition stays Unknown or False, its pods are evicted, and the
  node controller limits evictions to --node-eviction-rate per zone. The rate counts
  NODES, not pods: the seed's "驱逐 Pod 的速率为 0.1 每秒，即每 10 秒驱逐 1 个 Pod" ("0.1 pods
  per second") is upstream's 0.1 NODES per second — all pods of one node go together,
  then the next node 10 s later. Each zone has a token bucket with burst 1 that starts
  full, so the first node goes at once.
  Seed (v1.12, taint-based eviction off): after --pod-eviction-timeout (5 min), strictly
  after, measured from the last heartbeat the controller saw (Unknown) or from the
  transition it saw (False), the controller deletes the node's pods itself, setting
  status.reason NodeLost; DaemonSet pods are skipped.
  Kubernetes 1.32: the controller adds the NoExecute taint node.kubernetes.io/unreachable
  at the zone's rate; the taint eviction controller deletes each pod when its
  tolerationSeconds run out — 300 s from the DefaultTolerationSeconds admission plugin.
  Source: 000 §1.2 "节点控制" (pod-eviction-timeout, --node-eviction-rate). Upstream:
  processNoTaintBaseEviction, evictPods, doEvictionPass, DeletePods (v1.12–v1.26);
  processTaintBaseEviction, doNoExecuteTaintingPass (node_lifecycle_controller.go);
  RateLimitedTimedQueue.Try (scheduler/rate_limited_queue.go); processPodOnNode
  (tainteviction/taint_eviction.go).

  Background:
    Given the node monitor period is 5 seconds
    And the node eviction rate is 0.1 nodes per second

  @profile-seed
  Scenario: The seed deletes a silent node's pods strictly after the pod eviction timeout
    The controller sees the last heartbeat at its next pass (up to 5 s later) and evicts
    at the first pass strictly after that + 5 min, then the 100 ms eviction pass runs.
    Given the pod eviction timeout is 5 minutes
    And zone "z1" has 10 ready nodes, each running 2 pods
    When 1 node of zone "z1" stops reporting
    Then the pods of node "z1-node-1" are marked for deletion between 300 and 310.1 seconds after its kubelet stopped
    And pod "z1-node-1-pod-1" is Terminating
    And the pod "z1-node-1-pod-1" has:
      | status.reason  | NodeLost                                                          |
      | status.message | Node z1-node-1 which was running pod z1-node-1-pod-1 is unresponsive |
    And there is an event "DeletingAllPods" for node "z1-node-1" with message "Deleting all Pods from Node z1-node-1."
    And node "z1-node-1" has no NoExecute taints

  @profile-kubernetes-1.32 @upstream-smoke
  Scenario: Kubernetes 1.32 taints the silent node and its pods go after their 300 s toleration
    The controller sees the last heartbeat at its next pass (the probe, 0–5 s later) and marks
    the node Unknown at the first pass strictly after probe + 50 s; processTaintBaseEviction
    reads the Ready condition as that pass found it (still True), so the NoExecute taint is
    queued one pass (≥ 5 s) later and taken at the next 100 ms tick: more than 55 s and at
    most about 65.1 s after the heartbeat. Upstream's passes slide (wait.Until waits a period
    after each pass ends), so a pass can fall just after probe + 50 s: on upstream v1.32.13
    the taint came at 59–61 s, where the reference's exact 5 s passes give 61–65 s. The
    window is therefore checked at its edges (54 s and 66 s). The pods' default toleration
    is 300 s.
    Given zone "z1" has 10 ready nodes, each running 2 pods
    When 1 node of zone "z1" stops reporting
    And 54 seconds pass
    Then node "z1-node-1" does not have the taint "node.kubernetes.io/unreachable:NoExecute"
    When 12 seconds pass
    Then node "z1-node-1" has the taint "node.kubernetes.io/unreachable:NoExecute"
    And node "z1-node-1" has the taint "node.kubernetes.io/unreachable:NoSchedule"
    And the pods of node "z1-node-1" are marked for deletion between 355 and 365.1 seconds after its kubelet stopped
    And pod "z1-node-1-pod-1" has condition DisruptionTarget "True" with reason "DeletionByTaintManager"

  Scenario: All pods of a node go together, then the next node 10 s later (nodes per second, not pods)
    Given zone "z1" has 10 ready nodes, each running 2 pods
    When 3 nodes of zone "z1" stop reporting
    Then 10 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at 0, 10, 20 seconds
    And node "z1-node-1" runs 0 pods

  Scenario Outline: The rate is a parameter: one node every 1/rate seconds
    A zone's bucket is made at --node-eviction-rate and starts full, so even at rate 0 the
    first node of the zone goes (golang.org/x/time/rate grants the burst at limit 0) and
    none after it. A zone slowed to 0 by disruption (SwapLimiter(0)) lets none go.
    Given the node eviction rate is <rate> nodes per second
    And zone "z1" has 10 ready nodes, each running 2 pods
    When 3 nodes of zone "z1" stop reporting
    Then <minutes> minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at <times> seconds

    Examples:
      | rate | minutes | times     |
      | 0.2  | 10      | 0, 5, 10  |
      | 0.05 | 10      | 0, 20, 40 |
      | 0    | 20      | 0         |

  Scenario: A node that reports again before the timeout keeps its pods
    Given zone "z1" has 10 ready nodes, each running 2 pods
    When 1 node of zone "z1" stops reporting
    And 2 minutes pass
    And node "z1-node-1" of zone "z1" reports again
    And 10 minutes pass
    Then no pod of node "z1-node-1" has been marked for deletion
    And node "z1-node-1" has no NoExecute taints

  Scenario: Pods on a node that stops being Ready are marked not ready (MarkPodsNotReady)
    Given zone "z1" has 10 ready nodes, each running 2 pods
    When 1 node of zone "z1" stops reporting
    And 1 minute passes
    Then pod "z1-node-1-pod-1" has condition Ready "False"
    And pod "z1-node-2-pod-1" has condition Ready "True"

  Scenario: A pod marked not ready is Ready again at its kubelet's next status sync once the node is back
    The node controller only ever marks pods not ready; setting them Ready again is the kubelet's:
    its status manager compares every pod's status in the API server with its own each 10 s
    (status_manager.go syncBatch, needsReconcile) and writes back the Ready condition it owns.
    Given zone "z1" has 10 ready nodes, each running 2 pods
    When 1 node of zone "z1" stops reporting
    And 1 minute passes
    Then pod "z1-node-1-pod-1" has condition Ready "False"
    When node "z1-node-1" of zone "z1" reports again
    And 5 seconds pass
    Then pod "z1-node-1-pod-1" has condition Ready "False"
    When 10 seconds pass
    Then pod "z1-node-1-pod-1" has condition Ready "True"
    And pod "z1-node-1-pod-2" has condition Ready "True"
