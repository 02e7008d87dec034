@NODE-ZONE-ALL @needs-dedicated-cluster
Feature: When every zone is fully disrupted the controller stops evicting
  When no node in any zone is Ready, the controller assumes its own network is cut off
  ("master disruption mode"): it removes the NoExecute taints, sets every zone's rate to 0
  and evicts nothing. When some node is Ready again it leaves the mode: every node's
  grace period and eviction timeout start again, and every zone gets its rate back.
  Nodes that had already passed their timeout while the mode lasted are still queued, so
  they go at once on leaving it (upstream keeps the queues; only the limiters change).
  Source: 000 §1.2 "节点控制" (所有的高可用区都完全不可用 … 停止所有的驱逐). Upstream:
  handleDisruption ("Entering/Exiting master disruption mode").
  Its verdict depends on every zone of the cluster, so it needs a cluster of its own: on a
  shared one (other runs' zones are healthy) it is not applicable.

  Background:
    Given the node monitor period is 5 seconds
    And the node eviction rate is 0.1 nodes per second
    And zone "a" has 2 ready nodes, each running 1 pod
    And zone "b" has 3 ready nodes, each running 1 pod

  Scenario: Nothing is evicted or tainted while every zone is down; evictions resume when a node answers
    Zone "b"'s pods go 20–21 min after the stop (the mode left at 15 min, the grace period
    again, the taints 10 s apart, the 300 s toleration): judged at 22 min, which a real
    clock's 24 min per scenario holds (it was 30 min: not applicable on upstream).
    Both zones stop in one step, and the node controller must see them go in one monitor pass:
    where a pass saw zone "a" down while "b" was still Normal (stopped in two steps, seconds
    apart, in the seventeenth run; final Lease renewals straddling a pass in the
    twenty-third), "b"'s first node was tainted at the normal rate, and upstream's entry into
    the mode, working from the nodes it had listed before that taint was written, kept it.
    On a real clock the nodes are started and stopped again until one pass sees them all go.
    When every node of zones "a" and "b" stops reporting, seen down by the node controller in one pass
    Then 15 minutes after the nodes stopped reporting, no pod of zone "a" has been marked for deletion
    And no pod of zone "b" has been marked for deletion
    And no node of zone "a" has a NoExecute taint
    And no node of zone "b" has a NoExecute taint
    When node "a-node-1" of zone "a" reports again
    Then 22 minutes after the nodes stopped reporting, the pods of zone "b" have gone node by node at 0, 10, 20 seconds
    And the pods of zone "a" have gone node by node at 0 seconds
    And no pod of node "a-node-1" has been marked for deletion
