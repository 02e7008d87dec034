@NODE-EVICTION-TIMEOUT @NODE-TAINT-NOEXECUTE
Feature: A node that answers again before its pods go keeps them
  Eviction is pending, not done, until the node's turn comes: a node that is Ready again is
  taken out of its zone's queue (seed: cancelPodEviction) or loses its NoExecute taints
  (1.32: markNodeAsReachable), and its pods stay. The parameters are the profile's defaults.
  Source: 000 §1.2 "节点控制". Upstream: processNoTaintBaseEviction, cancelPodEviction,
  processTaintBaseEviction, markNodeAsReachable (node_lifecycle_controller.go).

  Background:
    Given zone "healthy" has 1 ready node

  @profile-seed
  Scenario: A node that reports again while it waits its turn in the zone's queue keeps its pods
    Three nodes go silent together; after the timeout the first loses its pods at once, the
    second 10 s later; the third reports again before its turn and keeps its pods.
    Given zone "z1" has 10 ready nodes, each running 1 pod
    When 3 nodes of zone "z1" stop reporting
    And 312 seconds pass
    And node "z1-node-3" of zone "z1" reports again
    Then 10 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at 0, 10 seconds
    And no pod of node "z1-node-3" has been marked for deletion

  @profile-seed @needs-virtual-time
  Scenario: The seed evicts at the first pass strictly after the timeout
    The last heartbeat comes right after a monitor pass, so the controller sees it 5 s later;
    at that probe + 300 s it does not evict yet (not strictly after), at the next pass it does.
    Given zone "z1" has 2 ready nodes, each running 1 pod
    When 1 node of zone "z1" stops reporting
    Then the pods of node "z1-node-1" are marked for deletion between 306 and 310.1 seconds after its kubelet stopped

  @profile-kubernetes-1.32
  Scenario: A node that answers again loses its NoExecute taints and keeps its pods
    Given zone "z1" has 2 ready nodes, each running 1 pod
    When 1 node of zone "z1" stops reporting
    And 100 seconds pass
    Then node "z1-node-1" has the taint "node.kubernetes.io/unreachable:NoExecute"
    When node "z1-node-1" of zone "z1" reports again
    And 30 seconds pass
    Then node "z1-node-1" has no NoExecute taints
    And 10 minutes after the nodes stopped reporting, no pod of zone "z1" has been marked for deletion
