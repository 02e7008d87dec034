@NODE-EVICTION-RATE @NODE-ZONE-PARTIAL-SMALL @NODE-ZONE-PARTIAL-LARGE @NODE-MONITOR-PERIOD @NODE-EVICTION-TIMEOUT
Feature: The profile's defaults, judged without stating them
  Every other eviction, zone and heartbeat scenario states the parameters it depends on, and
  other-values.feature states each at a value other than its default, so the mechanism is
  judged for more than one value. These scenarios state none: what they expect
  follows from the defaults the seed names, which the profile must carry —
  --node-monitor-period 5 s, --node-eviction-rate 0.1 nodes per second,
  --secondary-node-eviction-rate 0.01, --unhealthy-zone-threshold 0.55,
  --large-cluster-size-threshold 50, --pod-eviction-timeout 5 min (seed), and the grace
  period of each release (40 s in the seed, 50 s in 1.32). "none" on a real clock is judged
  from the monitor pass that made the zone partially disrupted, as in zones.feature.
  Source: 000 §1.2 "节点控制" (the flags and their defaults). Upstream:
  NodeLifecycleControllerConfiguration defaults (pkg/controller/nodelifecycle/config/v1alpha1/defaults.go,
  cmd/kube-controller-manager/app/options).

  Background:
    Given zone "healthy" has 1 ready node

  Scenario: By default a zone's nodes lose their pods 10 s apart: 0.1 nodes per second
    Given zone "z1" has 10 ready nodes, each running 1 pod
    When 3 nodes of zone "z1" stop reporting
    Then 10 minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at 0, 10, 20 seconds

  Scenario Outline: By default a zone of <size> with <down> down is <state>
    Given zone "z1" has <size> ready nodes, each running 1 pod
    When <down> nodes of zone "z1" stop reporting
    Then <minutes> minutes after the nodes stopped reporting, the pods of zone "z1" have gone node by node at <times> seconds

    Examples: the unhealthy zone threshold is 0.55: 10 of 20 is below it, 11 of 20 reaches it
      | size | down | state                             | minutes | times                                 |
      | 20   | 10   | Normal (0.5 < 0.55)               | 10      | 0, 10, 20, 30, 40, 50, 60, 70, 80, 90 |
      | 20   | 11   | partially disrupted, small: stops | 20      | none                                  |

    Examples: the large cluster size threshold is 50: a zone of 50 is small, 51 large (secondary rate 0.01)
      | size | down | state                                | minutes | times           |
      | 50   | 30   | partially disrupted, small: stops    | 20      | none            |
      | 51   | 30   | partially disrupted, large: 0.01/s   | 9.5     | 0, 100.1, 200.2 |

  @profile-seed
  Scenario: By default the seed deletes a silent node's pods strictly after 5 minutes
    Given zone "z1" has 2 ready nodes, each running 1 pod
    When 1 node of zone "z1" stops reporting
    Then the pods of node "z1-node-1" are marked for deletion between 300 and 310.1 seconds after its kubelet stopped

  @profile-seed @needs-virtual-time
  Scenario: By default the controller looks every 5 seconds: the seed's node is Unknown at the first pass after 40 s
    The heartbeat is seen at the next pass (up to 5 s later); the node is marked Unknown at the
    first pass strictly after that + 40 s — so never before 45 s, always by 50 s. With a 2 s
    period it would be Unknown by 44 s.
    Given a ready node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    Then node "10.4.42.5" is still Ready 45 seconds after its last heartbeat
    And node "10.4.42.5" is Unknown 50 seconds after its last heartbeat

  @profile-kubernetes-1.32 @needs-virtual-time
  Scenario: By default the controller looks every 5 seconds: a 1.32 node is Unknown at the first pass after 50 s
    As the seed's above, with v1.32's 50 s grace: exact instants, so a virtual clock only; on
    a real clock the same defaults are judged as a window by lease.feature's "The default
    grace period is 50 seconds from v1.32" (Ready at 50 s, Unknown by 60 s = grace + 2 × period).
    Given a ready node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    Then node "10.4.42.5" is still Ready 55 seconds after its last heartbeat
    And node "10.4.42.5" is Unknown 60 seconds after its last heartbeat
