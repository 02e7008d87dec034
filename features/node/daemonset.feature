@NODE-DAEMONSET-CORDON
Feature: DaemonSet pods land on cordoned nodes and survive NoExecute
  DaemonSet pods bypass the scheduler's cordon check: the DaemonSet controller gives
  them tolerations for unschedulable, the pressure taints (NoSchedule), and not-ready
  and unreachable (NoExecute, no tolerationSeconds: never evicted).
  The seed says they bypass the scheduler altogether; that was so until v1.11. From v1.12
  (ScheduleDaemonSetPods, beta and on by default, GA in v1.17) the controller creates each pod
  unbound, with a required node affinity `metadata.name In [<node>]` (matchFields, replacing
  any required terms of the template), and the scheduler binds it: the pod passes the
  scheduler's filters, which let it onto the cordoned node because it tolerates the
  unschedulable taint. Both profiles' releases schedule them; this feature encodes that.
  Source: 000 §1.2 "节点管理" (DaemonSet Controller 创建的 Pod 将绕过 Kubernetes 调度器，并且忽略节点的
  unschedulable 属性). Upstream: AddOrUpdateDaemonPodTolerations (daemon/util),
  NodeShouldRunDaemonPod (daemon_controller.go).

  Scenario: A DaemonSet places a pod on a cordoned node, with the daemon tolerations
    Given a ready node "n1"
    And a ready node "n2"
    When I cordon node "n2"
    And I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata:
        name: agent
        namespace: default
      spec:
        selector:
          matchLabels: { app: agent }
        template:
          metadata:
            labels: { app: agent }
          spec:
            containers:
            - name: agent
              image: registry.k8s.io/pause:3.9
      """
    Then node "n1" runs 1 pod
    And node "n2" runs 1 pod
    And the daemonset "agent" has:
      | status.desiredNumberScheduled | 2 |
      | status.currentNumberScheduled | 2 |
    And the daemon pod on node "n2" has tolerations:
      | key                               | operator | effect     | seconds |
      | node.kubernetes.io/not-ready      | Exists   | NoExecute  | -       |
      | node.kubernetes.io/unreachable    | Exists   | NoExecute  | -       |
      | node.kubernetes.io/disk-pressure  | Exists   | NoSchedule | -       |
      | node.kubernetes.io/memory-pressure | Exists  | NoSchedule | -       |
      | node.kubernetes.io/pid-pressure   | Exists   | NoSchedule | -       |
      | node.kubernetes.io/unschedulable  | Exists   | NoSchedule | -       |

  @profile-kubernetes-1.32
  Scenario: A DaemonSet pod stays on an unreachable node while other pods are evicted
    Given the node eviction rate is 0.1 nodes per second
    And zone "z1" has 3 ready nodes, each running 1 pod
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata:
        name: agent
        namespace: default
      spec:
        selector:
          matchLabels: { app: agent }
        template:
          metadata:
            labels: { app: agent }
          spec:
            containers:
            - name: agent
              image: registry.k8s.io/pause:3.9
      """
    And 1 node of zone "z1" stops reporting
    And 15 minutes pass
    Then node "z1-node-1" has the taint "node.kubernetes.io/unreachable:NoExecute"
    And pod "z1-node-1-pod-1" is Terminating
    And node "z1-node-1" runs 1 pod

  @profile-seed
  Scenario: The seed's controller skips DaemonSet pods when it deletes a node's pods
    Given the node eviction rate is 0.1 nodes per second
    And zone "z1" has 3 ready nodes, each running 1 pod
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata:
        name: agent
        namespace: default
      spec:
        selector:
          matchLabels: { app: agent }
        template:
          metadata:
            labels: { app: agent }
          spec:
            containers:
            - name: agent
              image: registry.k8s.io/pause:3.9
      """
    And 1 node of zone "z1" stops reporting
    And 15 minutes pass
    Then pod "z1-node-1-pod-1" is Terminating
    And node "z1-node-1" runs 1 pod

  Scenario: A daemon pod is made for its node by a required node affinity, and the scheduler binds it
    A template naming a scheduler that does not run leaves the pods unbound: the controller
    does not set spec.nodeName itself. The DaemonSet still counts each pod for the node it was
    made for (GetTargetNodeName), so no second pod is made for the same node.
    Given a ready node "n1"
    And a ready node "n2"
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: registry.k8s.io/pause:3.9 }
      """
    And I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: elsewhere, namespace: default }
      spec:
        selector: { matchLabels: { app: elsewhere } }
        template:
          metadata: { labels: { app: elsewhere } }
          spec:
            schedulerName: no-such-scheduler
            affinity:
              nodeAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                  nodeSelectorTerms:
                  - matchExpressions: [{ key: kubernetes.io/os, operator: In, values: [linux] }]
            containers:
            - { name: agent, image: registry.k8s.io/pause:3.9 }
      """
    And 10 seconds pass
    Then the pods of daemonset "agent" are:
      | node | phase   | spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms |
      | n1   | Running | [{"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]                 |
      | n2   | Running | [{"matchFields":[{"key":"metadata.name","operator":"In","values":["n2"]}]}]                 |
    And the pods of daemonset "elsewhere" are:
      | node   | phase   | spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms |
      | <none> | Pending | [{"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]                 |
      | <none> | Pending | [{"matchFields":[{"key":"metadata.name","operator":"In","values":["n2"]}]}]                 |
    And the daemonset "elsewhere" has:
      | status.desiredNumberScheduled | 2 |
      | status.currentNumberScheduled | 2 |
      | status.numberReady            | 0 |
