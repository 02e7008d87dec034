@NODE-GRACE-UNKNOWN @NODE-SELF-REGISTER
Feature: Lease renewals are heartbeats
  Since Kubernetes v1.13 (NodeLease, PR #69241) the kubelet renews a Lease named after its
  node in the kube-node-lease namespace every quarter of --node-lease-duration-seconds
  (40 s → every 10 s), and posts its node status only when it changed or every
  --node-status-report-frequency (5 min). The node controller counts a renewal (a strictly
  later renewTime) as a heartbeat just as it counts a status update; a node whose lease
  keeps being renewed stays healthy even if its status never changes.
  The seed's release (v1.12) had no leases: there, status updates are the only heartbeat.
  Source: 000 §1.2 "节点控制". Upstream: tryUpdateNodeHealth (node_lifecycle_controller.go),
  the kubelet's renewInterval = 0.25 × lease duration (pkg/kubelet/kubelet.go
  nodeLeaseRenewIntervalFraction; lease.NewController, component-helpers/apimachinery/lease).

  @profile-kubernetes-1.32
  Scenario: The kubelet keeps a Lease in kube-node-lease, renewed every 10 seconds
    Every quarter of the default --node-lease-duration-seconds 40 (NewMainKubelet's renewInterval,
    nodeLeaseRenewIntervalFraction 0.25): judged by the gaps between renewals, which a kubelet
    renewing every 20 s fails (the renewal at registration made "renewed within the last 10 s"
    true for it). At a duration of 20 s, every 5 s: other-values.feature.
    Given the node monitor period is 5 seconds
    And a ready node "n1"
    Then the lease of node "n1" is held by "n1" for 40 seconds
    And over the next 45 seconds the lease of node "n1" is renewed every 10 seconds

  @profile-kubernetes-1.32
  Scenario: Lease renewals alone keep a node Ready past the grace period
    The node's status is posted only every 5 minutes; without the lease it would be
    Unknown after 50 s.
    Given the node monitor period is 5 seconds
    And a ready node "n1"
    When 4 minutes pass
    Then node "n1" is Ready
    And the Ready condition of node "n1" was last posted more than 3 minutes ago

  @profile-kubernetes-1.32
  Scenario: The default grace period is 50 seconds from v1.32
    Given a ready node "n1"
    When the kubelet on "n1" stops
    Then node "n1" is still Ready 50 seconds after its last heartbeat
    And node "n1" becomes Unknown within 60 seconds of its last heartbeat

  @profile-seed
  Scenario: The seed's kubelet keeps no lease
    Given a ready node "n1"
    When 30 seconds pass
    Then node "n1" has no lease
