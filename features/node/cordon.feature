@NODE-CORDON
Feature: Cordon marks a node unschedulable without touching its pods
  `kubectl cordon` sets spec.unschedulable; the node controller then adds the
  node.kubernetes.io/unschedulable:NoSchedule taint (which the scheduler honours).
  Running pods stay; `kubectl uncordon` reverses both.
  Source: 000 §1.2 "节点管理" (kubectl cordon $NODENAME). Upstream: doNoScheduleTaintingPass
  (node_lifecycle_controller.go); NodeUnschedulable Filter (scheduler).

  Scenario: Cordon taints the node and keeps its pods; uncordon removes the taint
    Given a ready node "n1"
    And a pod "web" running on node "n1"
    When I cordon node "n1"
    Then the node "n1" has:
      | spec.unschedulable | true |
    And node "n1" has the taint "node.kubernetes.io/unschedulable:NoSchedule"
    When 10 minutes pass
    Then pod "web" is Running on node "n1"
    When I uncordon node "n1"
    Then node "n1" does not have the taint "node.kubernetes.io/unschedulable:NoSchedule"

  @upstream-smoke
  Scenario: A cordoned node gets no new pods; uncordoned, it takes them again
    Given a ready node "n1"
    When I cordon node "n1"
    And I create a pod "late" requesting cpu "100m" and memory "64Mi"
    Then pod "late" is not scheduled
    When I uncordon node "n1"
    Then pod "late" is bound to node "n1"

  @NODE-TAINT-BY-CONDITION
  Scenario: An unreachable node is tainted and new pods go elsewhere
    Given the node monitor grace period is 40 seconds
    And ready nodes "n1", "n2"
    When the kubelet on "n1" stops
    And 60 seconds pass
    Then node "n1" has the taint "node.kubernetes.io/unreachable:NoSchedule"
    When I create pods "a", "b", "c" requesting cpu "100m" and memory "64Mi"
    Then pod "a" is bound to node "n2"
    And pod "b" is bound to node "n2"
    And pod "c" is bound to node "n2"
