@NODE-GRACE-UNKNOWN @NODE-MONITOR-PERIOD
Feature: A node that stops reporting becomes Unknown
  The node controller checks every node every node-monitor-period (5 s). It records a
  heartbeat — a change of the Ready condition's lastHeartbeatTime, or a Lease renewal —
  at the first pass that sees it (its probe time, on the controller's own clock), and once
  now is strictly after probe + node-monitor-grace-period it sets Ready, MemoryPressure,
  DiskPressure and PIDPressure to Unknown with reason NodeStatusUnknown, leaving
  NetworkUnavailable alone. The grace period is 40 s in the seed (v1.12) and 50 s from
  Kubernetes v1.32 (PR #126287).
  Source: 000 §1.2 "节点控制"; 002 §4.2. Upstream: monitorNodeHealth, tryUpdateNodeHealth
  (pkg/controller/nodelifecycle/node_lifecycle_controller.go).

  Background:
    Given the node monitor period is 5 seconds

  Scenario: Never Unknown within the grace period, always Unknown within grace plus two monitor periods
    The controller may see a heartbeat up to one period late, and judges only at its passes:
    so a node stays Ready for at least the grace period after its last heartbeat and is
    Unknown at most grace + 2 × period after it.
    Given the node monitor grace period is 40 seconds
    And a ready node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    Then node "10.4.42.5" is still Ready 40 seconds after its last heartbeat
    And node "10.4.42.5" becomes Unknown within 50 seconds of its last heartbeat
    And node "10.4.42.5" has condition Ready "Unknown" with reason "NodeStatusUnknown"

  @needs-virtual-time
  Scenario: The grace period ends strictly after the probe time, at a monitor pass
    The kubelet's last heartbeat comes right after a monitor pass, so the controller sees
    it (probe) at the next pass, 5 s later. At probe + 40 s the node is still Ready (not
    strictly after); the next pass, 5 s later, marks it Unknown. Only a virtual clock can
    place the heartbeat right after a pass and look at the instants; on a real clock the
    same rule is judged as its window by the first scenario (Ready at 40 s, Unknown by 50 s).
    Given the node monitor grace period is 40 seconds
    And a ready node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    Then node "10.4.42.5" is still Ready 44 seconds after its last heartbeat
    And node "10.4.42.5" is still Ready 45 seconds after its last heartbeat
    And node "10.4.42.5" is Unknown 50 seconds after its last heartbeat

  Scenario: Unknown conditions carry upstream's reason and message and keep the last heartbeat
    Six minutes first, so that the last heartbeat is not the node's creation (1.32's kubelet
    posts an unchanged status every 5 min; the seed's every 10 s).
    Given the node monitor grace period is 40 seconds
    And a ready node "10.4.42.5"
    When 6 minutes pass
    And the kubelet on "10.4.42.5" stops
    And 60 seconds pass
    Then node "10.4.42.5" has condition Ready "Unknown" with reason "NodeStatusUnknown"
    And node "10.4.42.5" has condition MemoryPressure "Unknown" with reason "NodeStatusUnknown"
    And node "10.4.42.5" has condition DiskPressure "Unknown" with reason "NodeStatusUnknown"
    And node "10.4.42.5" has condition PIDPressure "Unknown" with reason "NodeStatusUnknown"
    And the Ready condition of node "10.4.42.5" kept its last heartbeat time
    And every Unknown condition of node "10.4.42.5" has message "Kubelet stopped posting node status."

  Scenario: A kubelet that comes back makes the node Ready again
    Given the node monitor grace period is 40 seconds
    And a ready node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    And 60 seconds pass
    Then node "10.4.42.5" has condition Ready "Unknown"
    When the kubelet on "10.4.42.5" starts again
    Then node "10.4.42.5" is Ready

  Scenario Outline: The grace period is a parameter
    Given the node monitor grace period is <grace> seconds
    And a ready node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    Then node "10.4.42.5" is still Ready <grace> seconds after its last heartbeat
    And node "10.4.42.5" becomes Unknown within <limit> seconds of its last heartbeat

    Examples:
      | grace | limit |
      | 20    | 30    |
      | 90    | 100   |

    @short-periods @upstream-smoke
    Examples: Short enough to run on a real clock
      | grace | limit |
      | 4     | 14    |

  @profile-seed
  Scenario: The seed's default grace period is 40 seconds, and status updates are the heartbeat
    Given a ready node "10.4.42.6"
    When the kubelet on "10.4.42.6" stops
    Then node "10.4.42.6" is still Ready 40 seconds after its last heartbeat
    And node "10.4.42.6" becomes Unknown within 50 seconds of its last heartbeat
    And node "10.4.42.6" has condition OutOfDisk "Unknown" with reason "NodeStatusUnknown"
