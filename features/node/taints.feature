@NODE-TAINT-BY-CONDITION
Feature: Node conditions become NoSchedule taints
  With TaintNodesByCondition the node controller keeps a NoSchedule taint for each
  unhealthy condition — Ready False → node.kubernetes.io/not-ready, Ready Unknown →
  unreachable, MemoryPressure/DiskPressure/PIDPressure/NetworkUnavailable True →
  memory-pressure/disk-pressure/pid-pressure/network-unavailable — and for
  spec.unschedulable → unschedulable. It reconciles on every node change, with no rate
  limit, and never touches other taints. The scheduler then looks at taints and
  tolerations, not at conditions.
  Source: 000 §1.2 "节点控制" (为节点添加污点). Upstream: doNoScheduleTaintingPass,
  nodeConditionToTaintKeyStatusMap (node_lifecycle_controller.go).

  Background:
    Given the node monitor period is 5 seconds
    And the node monitor grace period is 40 seconds
    And a ready node "n1"

  Scenario Outline: A <condition> "<status>" condition gives the <taint> NoSchedule taint, and its end removes it
    When the kubelet on "n1" stops
    And node "n1" reports condition <condition> "<status>"
    Then node "n1" has the taint "node.kubernetes.io/<taint>:NoSchedule"
    When node "n1" reports condition <condition> "<healthy>"
    Then node "n1" does not have the taint "node.kubernetes.io/<taint>:NoSchedule"

    Examples:
      | condition          | status | healthy | taint               |
      | Ready              | False  | True    | not-ready           |
      | MemoryPressure     | True   | False   | memory-pressure     |
      | DiskPressure       | True   | False   | disk-pressure       |
      | PIDPressure        | True   | False   | pid-pressure        |
      | NetworkUnavailable | True   | False   | network-unavailable |

  @profile-seed @NODE-CONDITIONS
  Scenario: In the seed's release OutOfDisk "True" gives the out-of-disk NoSchedule taint, and its end removes it
    v1.12 still had the OutOfDisk condition (the kubelet out of disk space) and mapped it to
    node.kubernetes.io/out-of-disk; both went in v1.13.
    When the kubelet on "n1" stops
    And node "n1" reports condition OutOfDisk "True"
    Then node "n1" has the taint "node.kubernetes.io/out-of-disk:NoSchedule"
    When node "n1" reports condition OutOfDisk "False"
    Then node "n1" does not have the taint "node.kubernetes.io/out-of-disk:NoSchedule"

  Scenario: A silent node is tainted unreachable as soon as it is Unknown, and untainted when it reports again
    When the kubelet on "n1" stops
    Then node "n1" is still Ready 40 seconds after its last heartbeat
    And node "n1" does not have the taint "node.kubernetes.io/unreachable:NoSchedule"
    And node "n1" becomes Unknown within 50 seconds of its last heartbeat
    And node "n1" has the taint "node.kubernetes.io/unreachable:NoSchedule"
    When the kubelet on "n1" starts again
    Then node "n1" does not have the taint "node.kubernetes.io/unreachable:NoSchedule"

  Scenario: Taints the controller does not manage are left alone
    When I taint node "n1" with "example.com/dedicated=db:NoSchedule"
    And the kubelet on "n1" stops
    And 60 seconds pass
    Then node "n1" has the taint "example.com/dedicated=db:NoSchedule"
    And node "n1" has the taint "node.kubernetes.io/unreachable:NoSchedule"

  Scenario: The scheduler judges the taint, not the condition: only a pod that tolerates memory-pressure lands on a node under memory pressure
    With TaintNodesByCondition the scheduler no longer filters on node conditions (v1.12
    dropped CheckNodeMemoryPressure and friends from its predicates): the condition's taint
    and the pod's tolerations decide.
    When the kubelet on "n1" stops
    And node "n1" reports condition MemoryPressure "True"
    Then node "n1" has the taint "node.kubernetes.io/memory-pressure:NoSchedule"
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: tolerant, namespace: default }
      spec:
        tolerations: [{ key: node.kubernetes.io/memory-pressure, operator: Exists, effect: NoSchedule }]
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: plain, namespace: default }
      spec:
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "tolerant" is bound to node "n1"
    And pod "plain" is not scheduled
