@NODE-EVICTION-TIMEOUT @NODE-TAINT-NOEXECUTE @NODE-ZONE-PARTIAL-SMALL @NODE-ZONE-FULL
Feature: A node that reports Ready=False is treated like a silent one
  The seed says pods are evicted when a node's Ready condition stays "Unknown or False". A
  silent node (its kubelet gone) is the Unknown branch; here the kubelet stays alive but its
  runtime is down: it keeps posting status every 10 s with Ready=False (reason
  KubeletNotReady), so the grace period never runs out and the node never becomes Unknown.
  Seed (v1.12): the pods go strictly after --pod-eviction-timeout measured from the moment the
  controller saw the transition to False. Kubernetes 1.32: the node gets the NoExecute taint
  node.kubernetes.io/not-ready (not unreachable), and its pods go when their 300 s default
  toleration of it runs out. A Ready=False node counts as not ready in its zone's state.
  Source: 000 §1.2 "节点控制" (Ready 状态为 Unknown 或 False). Upstream: processNoTaintBaseEviction
  (readyTransitionTimestamp + podEvictionTimeout), processTaintBaseEviction (NotReadyTaintTemplate),
  ComputeZoneState (node_lifecycle_controller.go).

  Background:
    Given zone "healthy" has 1 ready node
    And zone "z1" has 10 ready nodes, each running 1 pod

  @profile-seed
  Scenario: The seed deletes the pods of a Ready=False node after the pod eviction timeout, counted from the transition
    When 1 node of zone "z1" reports Ready "False" for 6 minutes
    Then the pods of node "z1-node-1" were marked for deletion between 300 and 310.1 seconds after its kubelet stopped
    And node "z1-node-1" has condition Ready "False" with reason "KubeletNotReady"
    And node "z1-node-1" has no NoExecute taints

  @profile-kubernetes-1.32
  Scenario: Kubernetes 1.32 taints a Ready=False node not-ready (not unreachable) and its pods go after their toleration
    When 1 node of zone "z1" reports Ready "False" for 6 minutes
    Then node "z1-node-1" has the taint "node.kubernetes.io/not-ready:NoExecute"
    And node "z1-node-1" does not have the taint "node.kubernetes.io/unreachable:NoExecute"
    And node "z1-node-1" has condition Ready "False" with reason "KubeletNotReady"
    And the pods of node "z1-node-1" were marked for deletion between 300 and 310.1 seconds after its kubelet stopped

  Scenario: Ready=False nodes count as not ready: 6 of 10 is a partial disruption of a small zone, and evictions stop
    When 6 nodes of zone "z1" report Ready "False" for 10 minutes
    Then no pod of zone "z1" has been marked for deletion

  Scenario: A zone whose every node is Ready=False is fully disrupted and drains at the normal rate
    When every node of zone "z1" reports Ready "False" for 8 minutes
    Then the pods of zone "z1" have gone node by node at 0, 10, 20, 30, 40, 50, 60, 70, 80, 90 seconds
