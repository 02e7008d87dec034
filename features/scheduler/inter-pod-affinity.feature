@SCHED-INTER-POD-AFFINITY
Feature: Pod affinity and anti-affinity place a pod by the pods already running in a topology
  A pod's required podAffinity terms need, in the node's domain of each term's topologyKey,
  a running pod matching all of them; its required podAntiAffinity terms need that no pod
  matching one of them runs there; and a running pod's own required anti-affinity keeps
  away the pods it matches (symmetry). The first pod of a group with affinity to itself
  may go anywhere while no pod matches yet — in v1.32 only onto nodes that carry every
  topology key. Preferred terms score: weights of matching pods per domain (and a running
  pod's required affinity with hardPodAffinityWeight 1), normalized to 0–10 from 0 (v1.12
  InterPodAffinityPriority, weight 1) or to 0–100 from the lowest node (v1.32
  InterPodAffinity, weight 2).
  Upstream: v1.12 predicates.go InterPodAffinityMatches (satisfiesExistingPodsAntiAffinity,
  satisfiesPodsAffinityAntiAffinity), priorities/interpod_affinity.go
  CalculateInterPodAffinityPriority; v1.32 plugins/interpodaffinity filtering.go
  (PreFilter, Filter, satisfyPodAffinity) and scoring.go (PreScore, Score, NormalizeScore).

  Background:
    Given the nodes:
      | name | labels |
      | n1   | rack=a |
      | n2   | rack=b |
    And pods running:
      | name | node | labels |
      | db   | n1   | app=db |

  Scenario: Required affinity joins the pod's rack, required anti-affinity avoids it
    n2 runs more pods: without its anti-affinity "far" would go to n1.
    Given pods running:
      | name | node | labels |
      | x1   | n2   | app=x  |
      | x2   | n2   | app=x  |
      | x3   | n2   | app=x  |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: near, namespace: default, labels: { app: cache } }
      spec:
        affinity:
          podAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              - { labelSelector: { matchLabels: { app: db } }, topologyKey: rack }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    And I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: far, namespace: default, labels: { app: batch } }
      spec:
        affinity:
          podAntiAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              - { labelSelector: { matchExpressions: [{ key: app, operator: In, values: [db, cache] }] }, topologyKey: rack }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "near" is bound to node "n1"
    And pod "far" is bound to node "n2"

  Scenario: A running pod's anti-affinity keeps the pods it names out of its rack (symmetry)
    Without the running pod's anti-affinity, n1 (two pods) would beat n2 (three).
    Given pods running:
      | name   | node | labels    |
      | other1 | n2   | app=other |
      | other2 | n2   | app=other |
      | other3 | n2   | app=other |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: loner, namespace: default, labels: { app: loner } }
      spec:
        affinity:
          podAntiAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              - { labelSelector: { matchLabels: { app: web } }, topologyKey: rack }
        nodeName: n1
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    And I create a pod "web" with:
      | labels | app=web |
    Then pod "web" is bound to node "n2"

  @profile-seed
  Scenario: No rack holds a matching pod (v1.12 wording)
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: lost, namespace: default, labels: { app: lost } }
      spec:
        affinity:
          podAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              - { labelSelector: { matchLabels: { app: missing } }, topologyKey: rack }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "lost" is unschedulable with message "0/2 nodes are available: 2 node(s) didn't match pod affinity rules, 2 node(s) didn't match pod affinity/anti-affinity."

  @profile-kubernetes-1.32
  Scenario: No rack holds a matching pod (v1.32 wording)
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: lost, namespace: default, labels: { app: lost } }
      spec:
        affinity:
          podAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              - { labelSelector: { matchLabels: { app: missing } }, topologyKey: rack }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "lost" is unschedulable with message "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."

  @profile-seed
  Scenario: The first pod of a self-affine group may land on a node without the topology key (v1.12)
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: first, namespace: default, labels: { app: group } }
      spec:
        affinity:
          podAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              - { labelSelector: { matchLabels: { app: group } }, topologyKey: row }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "first" is bound to node "n1"

  @profile-kubernetes-1.32
  Scenario: The first pod of a self-affine group needs a node with every topology key (v1.32)
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: first, namespace: default, labels: { app: group } }
      spec:
        affinity:
          podAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              - { labelSelector: { matchLabels: { app: group } }, topologyKey: row }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "first" is unschedulable with message "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    When I add label "row=1" to node "n2"
    Then pod "first" is bound to node "n2"

  @profile-seed
  Scenario: Preferred affinity scores the rack of the matching pods, 0–10 (v1.12)
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: fan, namespace: default, labels: { app: fan } }
      spec:
        affinity:
          podAffinity:
            preferredDuringSchedulingIgnoredDuringExecution:
              - { weight: 50, podAffinityTerm: { labelSelector: { matchLabels: { app: db } }, topologyKey: rack } }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then the scheduler scored the nodes for pod "fan":
      | node | InterPodAffinityPriority |
      | n1   | 10                       |
      | n2   | 0                        |
    And pod "fan" is bound to node "n1"

  @profile-kubernetes-1.32
  Scenario: Preferred affinity scores the rack of the matching pods, 0–100 (v1.32)
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: fan, namespace: default, labels: { app: fan } }
      spec:
        affinity:
          podAffinity:
            preferredDuringSchedulingIgnoredDuringExecution:
              - { weight: 50, podAffinityTerm: { labelSelector: { matchLabels: { app: db } }, topologyKey: rack } }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then the scheduler scored the nodes for pod "fan":
      | node | InterPodAffinity |
      | n1   | 100              |
      | n2   | 0                |
    And pod "fan" is bound to node "n1"

  @profile-seed
  Scenario: Anti-affinity scores from 0 as the floor: racks at −10 and −20 score 5 and 0 (v1.12)
    Given pods running:
      | name | node | labels |
      | db2  | n2   | app=db |
      | db3  | n2   | app=db |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: shy, namespace: default, labels: { app: shy } }
      spec:
        affinity:
          podAntiAffinity:
            preferredDuringSchedulingIgnoredDuringExecution:
              - { weight: 10, podAffinityTerm: { labelSelector: { matchLabels: { app: db } }, topologyKey: rack } }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then the scheduler scored the nodes for pod "shy":
      | node | InterPodAffinityPriority |
      | n1   | 5                        |
      | n2   | 0                        |

  @profile-kubernetes-1.32
  Scenario: Anti-affinity scores from the lowest node: racks at −10 and −20 score 100 and 0 (v1.32)
    Given pods running:
      | name | node | labels |
      | db2  | n2   | app=db |
      | db3  | n2   | app=db |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: shy, namespace: default, labels: { app: shy } }
      spec:
        affinity:
          podAntiAffinity:
            preferredDuringSchedulingIgnoredDuringExecution:
              - { weight: 10, podAffinityTerm: { labelSelector: { matchLabels: { app: db } }, topologyKey: rack } }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then the scheduler scored the nodes for pod "shy":
      | node | InterPodAffinity |
      | n1   | 100              |
      | n2   | 0                |
