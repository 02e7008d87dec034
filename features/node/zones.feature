@NODE-ZONE-PARTIAL-SMALL @NODE-ZONE-PARTIAL-LARGE @NODE-ZONE-FULL @NODE-ZONE-INDEPENDENT
Feature: Each zone is judged and rate-limited on its own
  Before evicting, the node controller looks at the share of not-ready nodes (Ready
  Unknown or False) in the zone. Upstream ComputeZoneState, in order: no ready node and
  at least one not ready → FullDisruption; more than 2 not ready and a not-ready fraction
  of at least --unhealthy-zone-threshold (0.55) → PartialDisruption; else Normal. A
  partially disrupted zone evicts at --secondary-node-eviction-rate (0.01) when it has
  MORE than --large-cluster-size-threshold (50) nodes, and not at all otherwise (the
  seed's "cluster size" is the zone's size; a zone of exactly 50 stops). A fully
  disrupted zone evicts at the normal rate while another zone is healthy. Rates are
  nodes per second (the seed says "pods per second"). The zone is the node's
  topology.kubernetes.io/zone label (failure-domain.beta.kubernetes.io/zone wins).
  At 0.01 the gap is 100.1 s, not 100 s: upstream's rate is a float32, just under 0.01,
  so the token is due a hair after 100 s and taken at the next 100 ms pass.
  On a real clock nodes stopped together can go Unknown in two monitor passes (the controller
  stamps a lease renewal with the pass that first sees it), and the zone is judged at the end
  of each pass: "none" then holds from the pass that made the zone partially disrupted, and a
  node marked in an earlier pass, while the zone was Normal, may have gone at the normal rate
  (steps/zone-passes.ts; the reading is attached to the scenario).
  The large zone is read 9.75 minutes after its nodes stopped: on 1.32 its third node goes
  555–566 s after the stop (the first at 355–366 s, below), the seed's fourth 600.3 s at
  the earliest; 9.5 minutes left 1.32 a real clock 4 s (twenty-sixth full run).
  Source: 000 §1.2 "节点控制" (--unhealthy-zone-threshold, --large-cluster-size-threshold,
  --secondary-node-eviction-rate). Upstream: ComputeZoneState, handleDisruption,
  setLimiterInZone, ReducedQPSFunc, HealthyQPSFunc (node_lifecycle_controller.go);
  GetZoneKey (component-helpers/node/topology).

  Background:
    Given the node monitor period is 5 seconds
    And the node eviction rate is 0.1 nodes per second
    And the secondary node eviction rate is 0.01 nodes per second
    And the large cluster size threshold is 50 nodes
    And the unhealthy zone threshold is 0.55

  Scenario Outline: A zone of <size> nodes with <down> down is <state>: it evicts at <rate> nodes per second
    Given zone "healthy" has 1 ready node
    And zone "z1" has <size> ready nodes, each running 1 pod
    When <down> nodes of zone "z1" stop reporting
    Then <minutes> minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at <times> seconds

    Examples: Normal: at most 2 not ready, or a fraction below the threshold
      | size | down | state  | rate | minutes | times          |
      | 3    | 2    | Normal | 0.1  | 10      | 0, 10          |
      | 10   | 3    | Normal | 0.1  | 10      | 0, 10, 20      |
      | 20   | 10   | Normal | 0.1  | 10      | 0, 10, 20, 30, 40, 50, 60, 70, 80, 90 |

    Examples: PartialDisruption in a small zone (size <= 50): evictions stop
      | size | down | state                     | rate | minutes | times |
      | 5    | 3    | PartialDisruption (small) | 0    | 20      | none  |
      | 20   | 11   | PartialDisruption (small) | 0    | 20      | none  |
      | 50   | 30   | PartialDisruption (small) | 0    | 20      | none  |

    Examples: PartialDisruption in a large zone (size > 50): the secondary rate
      | size | down | state                     | rate | minutes | times            |
      | 51   | 30   | PartialDisruption (large) | 0.01 | 9.75    | 0, 100.1, 200.2  |

    Examples: FullDisruption while another zone is healthy: the normal rate
      | size | down | state          | rate | minutes | times          |
      | 1    | 1    | FullDisruption | 0.1  | 10      | 0              |
      | 4    | 4    | FullDisruption | 0.1  | 10      | 0, 10, 20, 30  |

  Scenario Outline: The first node of a zone goes when the eviction wait has passed, not before
    The offsets above are counted from the first eviction: here the first is placed on the
    clock, so that "1 of 1 down at 0" is not met by a node that went at once. The seed waits
    --pod-eviction-timeout (5 min) from the last heartbeat seen (eviction.feature); 1.32 taints
    at 55–66 s and the pods' default toleration is 300 s.
    Given zone "healthy" has 1 ready node
    And zone "z1" has 1 ready node, each running 1 pod
    When every node of zone "z1" stops reporting
    And 7 minutes pass
    Then the first node of zone "z1" lost its pods between <from> and <to> seconds after the nodes stopped reporting

    @profile-seed
    Examples: the seed
      | from | to    |
      | 300  | 310.1 |

    @profile-kubernetes-1.32
    Examples: 1.32
      | from | to    |
      | 355  | 366.1 |

  Scenario: Zones are rate-limited independently: two failing zones evict in parallel, a partial one not at all
    Given zone "healthy" has 1 ready node
    And zone "a" has 2 ready nodes, each running 1 pod
    And zone "b" has 3 ready nodes, each running 1 pod
    And zone "c" has 4 ready nodes, each running 1 pod
    When every node of zone "a" stops reporting
    And every node of zone "b" stops reporting
    And 3 nodes of zone "c" stop reporting
    Then 10 minutes after the nodes stopped reporting, the pods of zone "a" have gone node by node at 0, 10 seconds
    And the pods of zone "b" have gone node by node at 0, 10, 20 seconds
    And no pod of zone "c" has been marked for deletion
    And the first nodes of zones "a" and "b" lost their pods at the same moment

  Scenario: A node with the exclude-disruption label does not count toward its zone's state
    Four nodes with one excluded: three down out of three counted is a full disruption
    (normal rate, the healthy zone keeps the cluster out of master disruption); counted
    with the excluded ready node it would be 3 of 4, a partial disruption of a small zone.
    Given zone "healthy" has 1 ready node
    And zone "z1" has 3 ready nodes, each running 1 pod
    And a kubelet starts on node "z1-excluded" with:
      | --node-labels | topology.kubernetes.io/zone=z1,node.kubernetes.io/exclude-disruption= |
    When every node of zone "z1" stops reporting
    Then 10 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at 0, 10, 20 seconds

  Scenario: Without the label the same zone is partially disrupted and stops
    Given zone "healthy" has 1 ready node
    And zone "z1" has 3 ready nodes, each running 1 pod
    And a kubelet starts on node "z1-fourth" with:
      | --node-labels | topology.kubernetes.io/zone=z1 |
    When every node of zone "z1" stops reporting
    Then 10 minutes after the nodes stopped reporting, no pod of zone "z1" has been marked for deletion
