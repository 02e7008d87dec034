Feature: Every node carries the TTL annotation the TTL controller sets for the cluster's size
  The annotation `node.alpha.kubernetes.io/ttl` that `kubectl describe node` shows, on the
  seed's kubelet-less node3 as on a registered node, is not the kubelet's: kube-controller-manager's
  TTL controller (pkg/controller/ttl, since v1.6, so in both profiles' releases) writes it on
  every node it sees added or updated. Its value is how long the kubelet may cache secrets and
  config maps, by cluster size (ttlBoundaries): 0 s up to 100 nodes, 15 s above; the ranges
  overlap, so the step goes up when the count exceeds 100 and back down only when it falls
  below 90. A node is looked at only when it is added or updated, never when another node
  comes or goes: a node no one updates keeps the TTL it was given (upstream relies on the
  kubelet's status updates to carry a new TTL to every node).
  Source: 000 §1.1 (describe node shows the annotation). Upstream: ttl_controller.go
  (addNode, deleteNode, updateNodeIfNeeded).

  @NODE-MANUAL @NODE-DESCRIBE
  Scenario: A registered node and a hand-made node without a kubelet both get TTL 0 in a small cluster
    Given a ready node "n1"
    When I create this node:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.8"
      """
    And 1 second passes
    Then the node "n1" has annotation "node.alpha.kubernetes.io/ttl" = "0"
    And the node "10.4.42.8" has annotation "node.alpha.kubernetes.io/ttl" = "0"

  @NODE-MANUAL
  Scenario: The TTL steps up above 100 nodes and back down below 90, reaching each node at its next update
    The controller manager's writes are throttled (its client's 20 requests/s): on a real clock
    the first hundred nodes take seconds to be annotated (and, on 1.32, to lose the taint of
    admission), so the scenario waits for that; the startup grace period is long enough that
    no node is updated for want of a kubelet meanwhile.
    Given the node startup grace period is 300 seconds
    When I create the nodes "big-1" to "big-100" by hand
    And 30 seconds pass
    Then the node "big-100" has annotation "node.alpha.kubernetes.io/ttl" = "0"
    When I create the nodes "big-101" to "big-101" by hand
    And 1 second passes
    Then the node "big-101" has annotation "node.alpha.kubernetes.io/ttl" = "15"
    And the node "big-1" has annotation "node.alpha.kubernetes.io/ttl" = "0"
    When I add label "touched=yes" to node "big-1"
    And 1 second passes
    Then the node "big-1" has annotation "node.alpha.kubernetes.io/ttl" = "15"
    # 90 nodes left: not below the 15 s step's sizeMin of 90, so the TTL stays
    When I delete the nodes "big-91" to "big-101"
    And I add label "touched=yes" to node "big-2"
    And 1 second passes
    Then the node "big-2" has annotation "node.alpha.kubernetes.io/ttl" = "15"
    # 89 nodes: below 90, back to 0 — for the nodes updated from now on
    When I delete the nodes "big-90" to "big-90"
    And I add label "touched=yes" to node "big-3"
    And 1 second passes
    Then the node "big-3" has annotation "node.alpha.kubernetes.io/ttl" = "0"
    And the node "big-1" has annotation "node.alpha.kubernetes.io/ttl" = "15"
