Feature: Nodes register themselves, or an administrator creates them by hand
  With --register-node (the default) the kubelet creates its own Node object, with the
  labels of --node-labels and the taints of --register-with-taints, and then posts status
  every --node-status-update-frequency. An administrator may instead create a Node object
  by hand: it is only a description. The node controller checks it by name; with no
  kubelet behind it, it never becomes Ready — after --node-startup-grace-period its
  conditions are Unknown ("Kubelet never posted node status.") — and the object is kept
  and rechecked until someone deletes it.
  Source: 000 §1.2 "节点管理" (node3.yaml). Upstream: kubelet registerWithAPIServer;
  tryUpdateNodeHealth (node_lifecycle_controller.go) for the startup grace period.

  @NODE-SELF-REGISTER
  @upstream-smoke
  Scenario: The kubelet registers its node with --node-labels and --register-with-taints
    Given a kubelet starts on node "10.4.42.5" with:
      | --node-labels          | zone=a,disktype=ssd                           |
      | --register-with-taints | dedicated=infra:NoSchedule,gpu:PreferNoSchedule |
    Then node "10.4.42.5" exists
    And node "10.4.42.5" has labels:
      | zone                   | a         |
      | disktype               | ssd       |
      | kubernetes.io/hostname | 10.4.42.5 |
      | kubernetes.io/os       | linux     |
    And node "10.4.42.5" has taints:
      | key       | value | effect           |
      | dedicated | infra | NoSchedule       |
      | gpu       |       | PreferNoSchedule |
    And node "10.4.42.5" is Ready

  @NODE-SELF-REGISTER
  Scenario Outline: Status is posted every --node-status-update-frequency
    On a real clock the ages are checked to ±2 s: lastHeartbeatTime has whole seconds.
    Given the node status update frequency is <frequency> seconds
    And the node status report frequency is <frequency> seconds
    And a ready node "n1"
    When <frequency> seconds pass
    Then the Ready condition of node "n1" was posted within the last 0 seconds
    When <half> seconds pass
    Then the Ready condition of node "n1" was posted <half> seconds ago

    Examples:
      | frequency | half |
      | 10        | 5    |
      | 4         | 2    |

  @NODE-SELF-REGISTER @profile-seed
  Scenario: By default the seed's kubelet posts its status every 10 seconds
    No frequency is stated: the profile's --node-status-update-frequency (10 s) decides.
    Given a ready node "n1"
    When 10 seconds pass
    Then the Ready condition of node "n1" was posted within the last 0 seconds
    When 5 seconds pass
    Then the Ready condition of node "n1" was posted 5 seconds ago

  @NODE-SELF-REGISTER
  Scenario: With --register-node=false the kubelet does not create its node
    Given a kubelet starts on node "n1" with:
      | --register-node | false |
    When 20 seconds pass
    Then node "n1" does not exist

  @NODE-MANUAL @NODE-STARTUP-GRACE
  Scenario: A hand-made node (the seed's node3.yaml) is kept, Unknown, until deleted
    Given the node monitor period is 5 seconds
    And the node startup grace period is 60 seconds
    When I create this node:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.8"
        labels:
          name: "node3"
      """
    Then node "10.4.42.8" exists
    And node "10.4.42.8" has no conditions
    And node "10.4.42.8" has no conditions 60 seconds after its creation
    When 5 seconds pass
    Then the conditions of node "10.4.42.8" include:
      | type           | status  | reason                 | message                           |
      | Ready          | Unknown | NodeStatusNeverUpdated | Kubelet never posted node status. |
      | MemoryPressure | Unknown | NodeStatusNeverUpdated | Kubelet never posted node status. |
      | DiskPressure   | Unknown | NodeStatusNeverUpdated | Kubelet never posted node status. |
      | PIDPressure    | Unknown | NodeStatusNeverUpdated | Kubelet never posted node status. |
    When 10 minutes pass
    Then node "10.4.42.8" exists
    And node "10.4.42.8" has condition Ready "Unknown" with reason "NodeStatusNeverUpdated"
    When I delete node "10.4.42.8"
    Then node "10.4.42.8" does not exist

  @NODE-MANUAL
  Scenario: The node controller records a node it learns of and one that is deleted; a deleted node stays deleted
    Upstream monitorNodeHealth (node_lifecycle_controller.go, v1.12 and v1.32) records
    RegisteredNode for a node it sees first and RemovingNode for one gone from its list
    (RecordNodeEvent: "Node <name> event: …"). The node's kubelet keeps running and does not
    bring it back: a kubelet registers once per start (registerWithAPIServer returns at once
    once registrationCompleted, which nothing resets; kubelet_node_status.go), and its status
    updates then fail with NotFound (found on upstream v1.32.13, where kubespec's hollow
    kubelet used to register again at its next heartbeat, before the node controller saw the
    node gone).
    Given a ready node "n1"
    When 5 seconds pass
    Then there is an event "RegisteredNode" for node "n1" with message "Node n1 event: Registered Node n1 in Controller"
    When I delete node "n1"
    And 5 seconds pass
    Then there is an event "RemovingNode" for node "n1" with message "Node n1 event: Removing Node n1 from Controller"
    When 30 seconds pass
    Then node "n1" does not exist

  @NODE-STARTUP-GRACE @profile-seed
  Scenario: In the seed's release a never-updated node also gets OutOfDisk Unknown
    When I create this node:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: hand-made
      """
    And 70 seconds pass
    Then node "hand-made" has condition OutOfDisk "Unknown" with reason "NodeStatusNeverUpdated"

  @NODE-STARTUP-GRACE
  Scenario Outline: The startup grace period is a parameter, counted from creation
    Counted from the node's creationTimestamp, which has whole seconds: on a real clock the
    controller may see up to a second more than the steps' own waits (found on upstream v1.32),
    so the boundary is checked against the timestamp itself.
    Given the node monitor period is 5 seconds
    And the node startup grace period is <grace> seconds
    When I create this node:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: hand-made
      """
    Then node "hand-made" has no conditions <grace> seconds after its creation
    When 5 seconds pass
    Then node "hand-made" has condition Ready "Unknown" with reason "NodeStatusNeverUpdated"

    Examples:
      | grace |
      | 30    |
      | 120   |

  @NODE-MANUAL-CAPACITY
  Scenario: A hand-made node reports no capacity until the admin sets it
    When I create this node:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.8"
      """
    And 2 minutes pass
    Then node "10.4.42.8" reports no capacity
    When I set the capacity of node "10.4.42.8" to "cpu=2,memory=4Gi,pods=110"
    Then node "10.4.42.8" has capacity:
      | cpu    | 2   |
      | memory | 4Gi |
      | pods   | 110 |

  @NODE-MANUAL-CAPACITY @NODE-MANUAL
  Scenario: Capacity the admin set survives the node controller marking the node Unknown
    The controller's write of the Unknown conditions changes the conditions only.
    When I create this node:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.9"
      """
    And I set the capacity of node "10.4.42.9" to "cpu=2,memory=4Gi,pods=110"
    And 2 minutes pass
    Then node "10.4.42.9" has condition Ready "Unknown" with reason "NodeStatusNeverUpdated"
    And node "10.4.42.9" has capacity:
      | cpu    | 2   |
      | memory | 4Gi |
      | pods   | 110 |

  @NODE-MANUAL @NODE-SELF-REGISTER
  Scenario: A kubelet that starts behind a hand-made node adopts it and makes it Ready
    When I create this node:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.8"
        labels:
          name: "node3"
      """
    And 2 minutes pass
    And a kubelet starts on node "10.4.42.8" with:
      | --node-ip | 10.4.42.8 |
    Then node "10.4.42.8" is Ready
    And node "10.4.42.8" has labels:
      | name | node3 |

  @NODE-MANUAL @NODE-TAINT-BY-CONDITION
  Scenario: A new node is tainted not-ready as it is created; the controller lifts the taint from a node with no conditions
    The API server's TaintNodesByCondition admission plugin (plugin/pkg/admission/nodetaint)
    adds `node.kubernetes.io/not-ready:NoSchedule` to every Node created, so that no pod lands on
    a new node before the node controller has tainted it by its conditions. The node controller
    then makes the NoSchedule taints match the conditions (doNoScheduleTaintingPass): a hand-made
    node has none, so the taint goes again at once, and a pod created right after is bound to the
    node although no kubelet will ever run it (on upstream v1.32 the pod's first attempt may fail
    on the taint; it is bound once the taint is gone). The plugin came with v1.13 and was
    backported to v1.12.6, on wherever the TaintNodesByCondition feature is: both profiles.
    When I create this node:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: hand-made
      status:
        capacity: {cpu: "2", memory: 4Gi, pods: "110"}
        allocatable: {cpu: "2", memory: 4Gi, pods: "110"}
      """
    Then the node as created carries the taints:
      | key                          | value | effect     |
      | node.kubernetes.io/not-ready |       | NoSchedule |
    When I create a pod "web"
    And 3 seconds pass
    Then node "hand-made" has no taints
    And pod "web" is bound to node "hand-made"
