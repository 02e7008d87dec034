@NODE-CLOUD-GONE @needs-cloud-provider
Feature: A node whose machine is gone from the cloud is deleted
  For each node that is not Ready, the controller asks the cloud provider whether its
  machine still exists; if it does not, the Node object is deleted. A node that is only
  unreachable (its machine still exists) is kept.
  Source: 000 §1.2 "节点控制" (第二，节点控制器通过云供应商接口检查 … 自动将节点对象从 APIServer 中删除).
  Upstream: v1.7 monitorNodeStatus (nodeExistsInCloudProvider, event DeletingNode); today
  the cloud node lifecycle controller's MonitorNodes (k8s.io/cloud-provider).

  Background:
    Given the flag "--cloud-provider" is "simulated"
    And the node monitor period is 5 seconds
    And the node monitor grace period is 40 seconds
    And ready nodes "vm-1", "vm-2"

  Scenario: The Node goes once it is not Ready and its machine is gone
    When the cloud deletes the machine of node "vm-1"
    And 40 seconds pass
    Then node "vm-1" exists
    When 15 seconds pass
    Then node "vm-1" does not exist
    And there is an event "DeletingNode" for node "vm-1"

  Scenario: An unreachable node whose machine exists is kept
    When the kubelet on "vm-2" stops
    And 10 minutes pass
    Then node "vm-2" exists
    And node "vm-2" has condition Ready "Unknown"
