@PRED-TOPOLOGY-SPREAD @profile-kubernetes-1.32
Feature: A DoNotSchedule topology spread constraint keeps a pod out of domains that would skew too far
  For each of a pod's topologySpreadConstraints with whenUnsatisfiable DoNotSchedule the
  node must carry the topologyKey, and the matching pods in the node's domain, plus one if
  the pod matches its own selector, minus the global minimum over the eligible domains, must
  not exceed maxSkew. While fewer than minDomains domains exist the minimum counts as 0.
  Eligible domains come from nodes that pass nodeAffinityPolicy (default Honor: the pod's
  nodeSelector and required node affinity) and nodeTaintsPolicy (default Ignore).
  matchLabelKeys adds the pod's own values to the selector. v1.12 has no
  topologySpreadConstraints (alpha in v1.16).
  Upstream: v1.32 plugins/podtopologyspread filtering.go calPreFilterState, Filter,
  preFilterState.minMatchNum, matchNodeInclusionPolicies; common.go
  filterTopologySpreadConstraints.

  Background:
    Given the nodes:
      | name | labels |
      | n1   | zone=a |
      | n2   | zone=b |
      | n3   |        |

  Scenario: The pod goes where the skew stays within maxSkew, though the other node scores better
    n2 runs more pods, so NodeResourcesFit alone would pick n1; n1's zone already holds two
    matching pods and zone b none: 2 + 1 − 0 > 1.
    Given pods running:
      | name | node | labels    |
      | w1   | n1   | app=web   |
      | w2   | n1   | app=web   |
      | o1   | n2   | app=other |
      | o2   | n2   | app=other |
      | o3   | n2   | app=other |
      | o4   | n2   | app=other |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default, labels: { app: web } }
      spec:
        topologySpreadConstraints:
          - { maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: { matchLabels: { app: web } } }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "web" is bound to node "n2"

  Scenario: Fewer domains than minDomains make the minimum 0; a new domain lets the pod in
    Given pods running:
      | name | node | labels  |
      | w1   | n1   | app=web |
      | w2   | n2   | app=web |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default, labels: { app: web } }
      spec:
        topologySpreadConstraints:
          - { maxSkew: 1, minDomains: 3, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: { matchLabels: { app: web } } }
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "web" is unschedulable with message "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
    When I add label "zone=c" to node "n3"
    Then pod "web" is bound to node "n3"
