@NODE-PARTITION
Feature: Pods of an unreachable node stay visible until the node answers or is deleted
  When the node controller evicts the pods of a node it cannot reach, the kubelet never
  confirms their end, so in the API they stay Terminating (their Ready condition False)
  — they may still run on the cut-off machine. They are not force-deleted. When the
  kubelet answers again it finishes the deletion; when an administrator deletes the Node
  (`kubectl delete node`), the pod garbage collector removes the pods bound to the
  missing node. Since v1.19 it waits 40 s (quarantine) and re-checks before doing so, on
  its 20 s period; the seed's release deleted them at its next 20 s pass.
  Source: 000 §1.1 "2、Conditions" (状态变为 Terminating 或者 Unknown … kubectl delete node).
  Upstream: gcOrphaned, quarantineTime, gcCheckPeriod (pkg/controller/podgc/gc_controller.go).

  Background:
    Given the node monitor period is 5 seconds
    And the node eviction rate is 0.1 nodes per second
    And zone "z1" has 3 ready nodes, each running 1 pod
    When 1 node of zone "z1" stops reporting
    And 10 minutes pass

  Scenario: The evicted pods stay Terminating while the node is unreachable
    Then pod "z1-node-1-pod-1" is Terminating
    And pod "z1-node-1-pod-1" has condition Ready "False"
    When 1 hour passes
    Then pod "z1-node-1-pod-1" is Terminating

  Scenario: The evicted pods are still Terminating 5 minutes later (a real clock's form)
    The hour above on a window a real clock can wait in a run: nothing force-deletes them.
    Then pod "z1-node-1-pod-1" is Terminating
    When 5 minutes pass
    Then pod "z1-node-1-pod-1" is Terminating
    And pod "z1-node-1-pod-1" has condition Ready "False"

  Scenario: The kubelet answering again completes the deletion
    When node "z1-node-1" of zone "z1" reports again
    Then pod "z1-node-1-pod-1" is gone

  @profile-kubernetes-1.32
  Scenario: Deleting the node removes its pods after the pod GC's 40 s quarantine
    When I delete node "z1-node-1"
    And 40 seconds pass
    Then pod "z1-node-1-pod-1" is Terminating
    When 20 seconds pass
    Then pod "z1-node-1-pod-1" is gone

  @profile-seed
  Scenario: Deleting the node removes its pods at the pod GC's next pass
    When I delete node "z1-node-1"
    Then pod "z1-node-1-pod-1" is Terminating
    When 20 seconds pass
    Then pod "z1-node-1-pod-1" is gone
