@SCHED-TWO-PHASE
Feature: Priorities score the nodes that fit; the highest weighted sum wins
  Then the scheduler scores every node that passed the predicates with each priority and
  takes Σ score × weight; the best node wins (取最高积分). A single feasible node is taken
  without scoring. Legacy priorities (seed profile, v1.12) score 0–10 and count requests
  with non-zero defaults (100m cpu, 200Mi memory for a container that names none);
  framework plugins (kubernetes-1.32) score 0–100. Ties: v1.12 takes the max-score nodes
  in node order round-robin across decisions (lastNodeIndex); v1.32 samples uniformly
  (reservoir sampling — the reference seeds it, so runs repeat).
  Source: 002 §5.4 (优选策略). Upstream: PrioritizeNodes, selectHost, findMaxScores
  (v1.12 generic_scheduler.go); least_requested.go, balanced_resource_allocation.go,
  priorities/util/non_zero.go; v1.32 noderesources/least_allocated.go, balanced_allocation.go.

  @PRIO-LEAST-REQUESTED @PRIO-BALANCED @profile-seed
  Scenario Outline: LeastRequested and BalancedResourceAllocation, 0–10 (upstream TestLeastRequested, TestBalancedResourceAllocation)
    Given the nodes:
      | name | cpu      | memory      |
      | n1   | <n1 cpu> | <n1 memory> |
      | n2   | <n2 cpu> | <n2 memory> |
    And pods running:
      | name | node | cpu         | memory         |
      | u1   | n1   | <n1 used cpu> | <n1 used mem> |
      | u2   | n2   | <n2 used cpu> | <n2 used mem> |
    When I create a pod "web" requesting cpu "3" and memory "5000"
    Then the scheduler scored the nodes for pod "web":
      | node | LeastRequestedPriority | BalancedResourceAllocation | SelectorSpreadPriority | NodePreferAvoidPodsPriority | total    |
      | n1   | <n1 lr>                | <n1 bra>                   | 10                     | 10                          | <n1 sum> |
      | n2   | <n2 lr>                | <n2 bra>                   | 10                     | 10                          | <n2 sum> |
    And pod "web" is bound to node "<winner>"

    Examples:
      | n1 cpu | n1 memory | n2 cpu | n2 memory | n1 used cpu | n1 used mem | n2 used cpu | n2 used mem | n1 lr | n1 bra | n2 lr | n2 bra | n1 sum | n2 sum | winner |
      | 4      | 10000     | 6      | 10000     | 0           | 0           | 0           | 0           | 3     | 7      | 5     | 10     | 100030 | 100035 | n2     |
      | 10     | 20000     | 10     | 20000     | 3           | 0           | 3           | 5000        | 5     | 6      | 4     | 9      | 100031 | 100033 | n2     |
      | 10     | 20000     | 10     | 50000     | 3           | 0           | 3           | 5000        | 5     | 6      | 6     | 6      | 100031 | 100032 | n2     |

  @PRIO-LEAST-REQUESTED @PRIO-BALANCED @profile-seed
  Scenario: A container that names no request counts as 100m cpu and 200Mi memory
    Given the nodes:
      | name | cpu | memory |
      | n1   | 1   | 1Gi    |
      | n2   | 2   | 1Gi    |
    When I create a pod "web" with:
      | cpu    | - |
      | memory | - |
    Then the scheduler scored the nodes for pod "web":
      | node | LeastRequestedPriority | BalancedResourceAllocation | total  |
      | n1   | 8                      | 9                          | 100037 |
      | n2   | 8                      | 8                          | 100036 |
    And pod "web" is bound to node "n1"

  @PRIO-LEAST-REQUESTED @PRIO-BALANCED @profile-kubernetes-1.32
  Scenario: The framework's scores, 0–100: NodeResourcesFit (least allocated) and balanced allocation
    Given the nodes:
      | name | cpu | memory |
      | n1   | 4   | 10000  |
      | n2   | 6   | 10000  |
    When I create a pod "web" requesting cpu "3" and memory "5000"
    Then the scheduler scored the nodes for pod "web":
      | node | NodeResourcesFit | NodeResourcesBalancedAllocation | TaintToleration | NodeAffinity | total |
      | n1   | 37               | 87                              | 100             | 0            | 424   |
      | n2   | 50               | 100                             | 100             | 0            | 450   |
    And pod "web" is bound to node "n2"

  @PRIO-NODE-LABEL @SCHED-PROVIDER @profile-seed
  Scenario Outline: CalculateNodeLabelPriority favours nodes with (or without) a label (upstream TestNewNodeLabelPriority)
    Given the scheduler policy file:
      """
      {"kind": "Policy", "apiVersion": "v1",
       "predicates": [{"name": "GeneralPredicates"}],
       "priorities": [{"name": "PreferLabel", "weight": 2,
                       "argument": {"labelPreference": {"label": "<label>", "presence": <presence>}}}]}
      """
    And the nodes:
      | name | labels  |
      | m1   | foo=bar |
      | m2   | bar=foo |
      | m3   | bar=baz |
    When I create a pod "web" requesting cpu "100m" and memory "64Mi"
    Then the scheduler scored the nodes for pod "web":
      | node | PreferLabel | total   |
      | m1   | <m1>        | <m1 x2> |
      | m2   | <m2>        | <m2 x2> |
      | m3   | <m3>        | <m3 x2> |

    Examples:
      | label | presence | m1 | m2 | m3 | m1 x2 | m2 x2 | m3 x2 |
      | baz   | true     | 0  | 0  | 0  | 0     | 0     | 0     |
      | baz   | false    | 10 | 10 | 10 | 20    | 20    | 20    |
      | foo   | true     | 10 | 0  | 0  | 20    | 0     | 0     |
      | foo   | false    | 0  | 10 | 10 | 0     | 20    | 20    |
      | bar   | true     | 0  | 10 | 10 | 0     | 20    | 20    |
      | bar   | false    | 10 | 0  | 0  | 20    | 0     | 0     |

  @PRIO-LEAST-REQUESTED @profile-seed @needs-dedicated-cluster
  Scenario: Equal scores go round-robin in node order across decisions (v1.12 selectHost)
    Small pods do not move the integer scores of a 4-cpu node, so every node ties and the
    scheduler's lastNodeIndex walks them in order. That index counts every decision the
    scheduler ever made, so the scenario needs a fresh scheduler (a cluster of its own).
    Given the nodes:
      | name |
      | n1   |
      | n2   |
      | n3   |
    When I create pods "a", "b", "c", "d" requesting cpu "100m" and memory "64Mi"
    Then the scheduler scored the nodes for pod "c":
      | node | LeastRequestedPriority | BalancedResourceAllocation | total  |
      | n1   | 9                      | 9                          | 100038 |
      | n2   | 9                      | 9                          | 100038 |
      | n3   | 9                      | 9                          | 100038 |
    And pod "a" is bound to node "n1"
    And pod "b" is bound to node "n2"
    And pod "c" is bound to node "n3"
    And pod "d" is bound to node "n1"

  @SCHED-TWO-PHASE @profile-seed
  Scenario: SelectorSpreadPriority spreads a service's pods: counts 2, 1, 0 score 0, 5, 10
    Given the nodes:
      | name |
      | n1   |
      | n2   |
      | n3   |
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: web, namespace: default }
      spec: { selector: { app: web }, ports: [{ port: 80 }] }
      """
    And pods running:
      | name | node | labels  |
      | w1   | n1   | app=web |
      | w2   | n1   | app=web |
      | w3   | n2   | app=web |
      | x1   | n3   | app=db  |
    When I create a pod "w4" with:
      | labels | app=web |
    Then the scheduler scored the nodes for pod "w4":
      | node | SelectorSpreadPriority |
      | n1   | 0                      |
      | n2   | 5                      |
      | n3   | 10                     |
    And pod "w4" is bound to node "n3"

  # getSelectors (v1.12 priorities/metadata.go) spreads by the Services, ReplicationControllers,
  # ReplicaSets and StatefulSets that select the pod; CalculateSpreadPriorityReduce weighs the
  # zone (failure-domain.beta.kubernetes.io region/zone) 2/3 and the node 1/3. Four nodes
  # added after web-0, so that v1.12's NodeTree.Next (which goes on from where the last
  # cycle stopped) visits each node once in web-1's cycle: n3, n2, n4, n1.
  @PRIO-SELECTOR-SPREAD @profile-seed
  Scenario: SelectorSpreadPriority spreads a StatefulSet's pods without a Service, away from the zone already used
    Given the nodes:
      | name | labels                                  |
      | n1   | failure-domain.beta.kubernetes.io/zone=a |
    And a statefulset "web" of 1 replica running "nginx:1.14"
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Running |
    Given the nodes:
      | name | labels                                  |
      | n2   | failure-domain.beta.kubernetes.io/zone=a |
      | n3   | failure-domain.beta.kubernetes.io/zone=b |
      | n4   | failure-domain.beta.kubernetes.io/zone=b |
    When I scale statefulset "web" to 2 replicas
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Running |
      | web-1 | Running |
    And the scheduler scored the nodes for pod "web-1":
      | node | SelectorSpreadPriority |
      | n1   | 0                      |
      | n2   | 3                      |
      | n3   | 10                     |
      | n4   | 10                     |
    And pod "web-1" is bound to node "n3"

  # v1.32 PodTopologySpread (podtopologyspread/scoring.go) with systemDefaulted: a pod without
  # topologySpreadConstraints that a Service or its controller selects (helper.DefaultSelector)
  # is spread with hostname maxSkew 3 and topology.kubernetes.io/zone maxSkew 5, ScheduleAnyway,
  # at weight 2. web-1 (n1 holds web-0): raw scores n1 round(1·ln6+2 + 1·ln4+4) = 9,
  # n2 round(2 + ln4+4) = 7, n3 and n4 6; normalized 100·(max+min−s)/max.
  @PRIO-TOPOLOGY-SPREAD-DEFAULT @profile-kubernetes-1.32
  Scenario: PodTopologySpread's system defaults spread a StatefulSet's pods across hosts and zones
    Given the nodes:
      | name | labels                          |
      | n1   | topology.kubernetes.io/zone=a |
    And a statefulset "web" of 1 replica running "nginx:1.14"
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Running |
    Given the nodes:
      | name | labels                        |
      | n2   | topology.kubernetes.io/zone=a |
      | n3   | topology.kubernetes.io/zone=b |
      | n4   | topology.kubernetes.io/zone=b |
    When I scale statefulset "web" to 2 replicas
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Running |
      | web-1 | Running |
    And the scheduler scored the nodes for pod "web-1":
      | node | PodTopologySpread |
      | n1   | 66                |
      | n2   | 88                |
      | n3   | 100               |
      | n4   | 100               |
