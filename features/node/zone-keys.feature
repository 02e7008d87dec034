@NODE-ZONE-INDEPENDENT @NODE-ZONE-FULL @NODE-ZONE-PARTIAL-SMALL
Feature: What a zone is: region and zone labels, the beta label, no label at all
  The node controller keys zones by region and zone (upstream GetZoneKey): zones of the same
  name in two regions are two zones; the beta failure-domain.beta.kubernetes.io/zone label
  names the zone as well as topology.kubernetes.io/zone (and wins when both are set); a node
  with neither region nor zone label belongs to the one zone "" — so a cluster without zone
  labels is a single zone, judged as a whole. The parameters are the profile's defaults
  (0.1 nodes per second, threshold 0.55, large above 50).
  Source: 000 §1.2 "节点控制" (按可用区). Upstream: GetZoneKey (component-helpers/node/topology),
  monitorNodeHealth's zoneToNodeConditions (node_lifecycle_controller.go).

  Background:
    Given zone "healthy" has 1 ready node

  Scenario: Zones of the same name in two regions are two zones
    Three nodes of r1/a down is a fully disrupted zone (normal rate); were r1/a and r2/a one
    zone, 3 of 5 down would be a partial disruption of a small zone, and nothing would go.
    Given zone "a" in region "r1" has 3 ready nodes, each running 1 pod
    And zone "a" in region "r2" has 2 ready nodes, each running 1 pod
    When every node of zone "r1/a" stops reporting
    Then 10 minutes after the nodes stopped reporting, the pods of zone "r1/a" have gone node by node at 0, 10, 20 seconds

  Scenario: The beta failure-domain label names a zone
    Given zone "b1", labelled only with failure-domain.beta.kubernetes.io/zone, has 3 ready nodes, each running 1 pod
    And zone "b2", labelled only with failure-domain.beta.kubernetes.io/zone, has 1 ready node
    When every node of zone "b1" stops reporting
    Then 10 minutes after the nodes stopped reporting, the pods of zone "b1" have gone node by node at 0, 10, 20 seconds

  Scenario Outline: A cluster without zone labels is one zone: <down> of 5 down is <state>
    Given a group "plain" of 5 ready nodes without zone labels, each running 1 pod
    When <down> nodes of group "plain" stop reporting
    Then 10 minutes after the nodes stopped reporting, the pods of group "plain" have gone node by node at <times> seconds

    Examples:
      | down | state                                   | times  |
      | 2    | Normal: 2 nodes go, 10 s apart          | 0, 10  |
      | 3    | a partial disruption of a small zone    | none   |
