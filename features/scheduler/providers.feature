@SCHED-PROVIDER @profile-seed
Feature: Algorithm providers and the scheduler policy file
  An algorithm provider is a named set of predicates and priorities with weights
  (一个调度算法提供者就是包括一组预选策略与一组优选策略的结构体). kube-scheduler loads one by
  name (--algorithm-provider, default DefaultProvider) or builds one from a Policy file
  (--policy-config-file): predicates and priorities by name, or custom ones with an
  argument (labelsPresence, serviceAffinity, labelPreference, serviceAntiAffinity) under a
  name of your choosing. With TaintNodesByCondition, PodToleratesNodeTaints and
  CheckNodeUnschedulable are mandatory in every provider and policy. These flags exist up
  to v1.22/v1.23, so the feature describes the seed profile (v1.12).
  Source: 002 §5.2 (调度流程), §5.3 (3.5 CheckNodeLabelPresence, 3.6 CheckServiceAffinity).
  Upstream: algorithmprovider/defaults/defaults.go (defaultPredicates, defaultPriorities,
  ClusterAutoscalerProvider via copyAndReplace, ApplyFeatureGates), factory/plugins.go
  (RegisterCustomFitPredicate, RegisterCustomPriorityFunction), factory.go CreateFromConfig,
  predicates.go (NewNodeLabelPredicate, NewServiceAffinityPredicate).

  Scenario Outline: DefaultProvider spreads by least requested; ClusterAutoscalerProvider scores by most requested
    ClusterAutoscalerProvider only swaps LeastRequestedPriority for MostRequestedPriority;
    BalancedResourceAllocation stays and can still outweigh it (first example).
    Given the scheduler algorithm provider is "<provider>"
    And the nodes:
      | name | cpu | memory |
      | n1   | 4   | 8Gi    |
      | n2   | 4   | 8Gi    |
    And pods running:
      | name | node | cpu | memory     |
      | used | n1   | 2   | <used mem> |
    When I create a pod "web" requesting cpu "500m" and memory "64Mi"
    Then the scheduler scored the nodes for pod "web":
      | node | <priority> | BalancedResourceAllocation | total      |
      | n1   | <n1>       | <bra n1>                   | <total n1> |
      | n2   | <n2>       | <bra n2>                   | <total n2> |
    And pod "web" is bound to node "<winner>"

    Examples:
      | provider                  | used mem | priority               | n1 | n2 | bra n1 | bra n2 | total n1 | total n2 | winner |
      | DefaultProvider           | -        | LeastRequestedPriority | 6  | 8  | 4      | 8      | 100030   | 100036   | n2     |
      | ClusterAutoscalerProvider | -        | MostRequestedPriority  | 3  | 0  | 4      | 8      | 100027   | 100028   | n2     |
      | DefaultProvider           | 4Gi      | LeastRequestedPriority | 3  | 8  | 8      | 8      | 100031   | 100036   | n2     |
      | ClusterAutoscalerProvider | 4Gi      | MostRequestedPriority  | 5  | 0  | 8      | 8      | 100033   | 100028   | n1     |

  @PRED-LABEL-PRESENCE
  Scenario Outline: CheckNodeLabelPresence: every listed label present, or none (upstream TestNodeLabelPresence)
    Given the scheduler policy file:
      """
      {"kind": "Policy", "apiVersion": "v1",
       "predicates": [{"name": "RequireLabels", "argument": {"labelsPresence": {"labels": <labels>, "presence": <presence>}}}],
       "priorities": [{"name": "LeastRequestedPriority", "weight": 1}]}
      """
    And the nodes:
      | name | cpu | memory |
      | n1   | 4   | 8Gi    |
      | n2   | 4   | 8Gi    |
    And pods running:
      | name | node | cpu |
      | used | n1   | 2   |
    And I add label "foo=bar" to node "n2"
    And I add label "bar=foo" to node "n2"
    When I create a pod "web" requesting cpu "100m" and memory "64Mi"
    Then the scheduler found for pod "web":
      | node | predicate   |
      | n2   | <n2>        |

    Examples:
      | labels         | presence | n2            |
      | ["baz"]        | true     | RequireLabels |
      | ["baz"]        | false    | fits          |
      | ["foo", "baz"] | true     | RequireLabels |
      | ["foo", "baz"] | false    | RequireLabels |
      | ["foo", "bar"] | true     | fits          |
      | ["foo", "bar"] | false    | RequireLabels |

  @PRED-SERVICE-AFFINITY
  Scenario: CheckServiceAffinity: a service's pods follow its first pod's region
    Given the scheduler policy file:
      """
      {"kind": "Policy", "apiVersion": "v1",
       "predicates": [{"name": "GeneralPredicates"},
                      {"name": "RegionAffinity", "argument": {"serviceAffinity": {"labels": ["region"]}}}],
       "priorities": [{"name": "LeastRequestedPriority", "weight": 1}]}
      """
    And the nodes:
      | name | cpu | memory |
      | n1   | 4   | 8Gi    |
      | n2   | 4   | 8Gi    |
    And pods running:
      | name | node | cpu |
      | used | n1   | 2   |
    And I add label "region=r1" to node "n1"
    And I add label "region=r2" to node "n2"
    And a node "n3" with allocatable cpu "4", memory "8Gi" and pods "110"
    And I add label "region=r1" to node "n3"
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: web, namespace: default }
      spec: { selector: { app: web }, ports: [{ port: 80 }] }
      """
    And pods running:
      | name  | node | labels  |
      | first | n2   | app=web |
    When I create a pod "second" with:
      | labels | app=web |
    And I create a pod "loner" with:
      | labels | app=other |
      | cpu    | 3         |
    Then pod "second" is bound to node "n2"
    And the scheduler found for pod "second":
      | node | predicate      | reasons                                 |
      | n1   | RegionAffinity | node(s) didn't match service affinity   |
      | n3   | RegionAffinity | node(s) didn't match service affinity   |
    And the scheduler found for pod "loner":
      | node | predicate         |
      | n1   | GeneralPredicates |
      | n2   | fits              |
      | n3   | fits              |

  Scenario: A policy that omits predicates gets the DefaultProvider's; the mandatory ones always run
    Given the scheduler policy file:
      """
      {"kind": "Policy", "apiVersion": "v1", "priorities": [{"name": "MostRequestedPriority", "weight": 3}]}
      """
    And the nodes:
      | name | cpu | memory |
      | n1   | 4   | 8Gi    |
      | n2   | 4   | 8Gi    |
    And pods running:
      | name | node | cpu |
      | used | n1   | 2   |
    When I set spec.unschedulable of node "n1" to true
    And I create a pod "web" requesting cpu "8" and memory "64Mi"
    Then pod "web" is unschedulable with message "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable."

  @SCHED-POLICY-NAMES
  Scenario: Every predicate and priority name v1.12 registers may be named in a policy
    The volume predicates see no PersistentVolumes here: MaxEBSVolumeCount,
    MaxGCEPDVolumeCount and MaxAzureDiskVolumeCount count inline volumes (none here), and
    MaxCSIVolumeCount, NoVolumeZoneConflict and CheckVolumeBinding pass every pod.
    Given the scheduler policy file:
      """
      {"kind": "Policy", "apiVersion": "v1",
       "predicates": [{"name": "PodFitsPorts"}, {"name": "PodFitsHostPorts"}, {"name": "PodFitsResources"},
                      {"name": "HostName"}, {"name": "MatchNodeSelector"}, {"name": "NoDiskConflict"},
                      {"name": "GeneralPredicates"}, {"name": "PodToleratesNodeTaints"},
                      {"name": "MatchInterPodAffinity"}, {"name": "NoVolumeZoneConflict"},
                      {"name": "MaxEBSVolumeCount"}, {"name": "MaxGCEPDVolumeCount"},
                      {"name": "MaxAzureDiskVolumeCount"}, {"name": "MaxCSIVolumeCount"},
                      {"name": "CheckVolumeBinding"}, {"name": "CheckNodeUnschedulable"}],
       "priorities": [{"name": "SelectorSpreadPriority", "weight": 1}, {"name": "InterPodAffinityPriority", "weight": 1},
                      {"name": "LeastRequestedPriority", "weight": 1}, {"name": "BalancedResourceAllocation", "weight": 1},
                      {"name": "NodePreferAvoidPodsPriority", "weight": 1}, {"name": "NodeAffinityPriority", "weight": 1},
                      {"name": "TaintTolerationPriority", "weight": 1}, {"name": "ImageLocalityPriority", "weight": 1},
                      {"name": "ServiceSpreadingPriority", "weight": 1}, {"name": "EqualPriority", "weight": 1},
                      {"name": "MostRequestedPriority", "weight": 1}, {"name": "RequestedToCapacityRatioPriority", "weight": 1}]}
      """
    And the nodes:
      | name | cpu | memory |
      | n1   | 4   | 8Gi    |
      | n2   | 2   | 8Gi    |
    When I create a pod "web" requesting cpu "1" and memory "1Gi"
    Then the scheduler scored the nodes for pod "web":
      | node | LeastRequestedPriority | MostRequestedPriority | RequestedToCapacityRatioPriority | EqualPriority |
      | n1   | 7                      | 1                     | 8                                | 1             |
      | n2   | 6                      | 3                     | 7                                | 1             |
    And pod "web" is bound to node "n1"

  @SCHED-POLICY-NAMES
  Scenario Outline: With TaintNodesByCondition the condition predicates are unregistered: a policy naming one does not start
    Given the scheduler policy file:
      """
      {"kind": "Policy", "apiVersion": "v1", "predicates": [{"name": "<predicate>"}]}
      """
    Then the control plane does not start: "Invalid configuration: Predicate type not found for <predicate>"

    Examples:
      | predicate               |
      | CheckNodeCondition      |
      | CheckNodeMemoryPressure |
      | CheckNodePIDPressure    |
      | NoSuchPredicate         |
