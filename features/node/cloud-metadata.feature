Feature: On a cloud the kubelet's node carries the machine's metadata
  Kept apart from registration.feature, whose scenarios CI runs on targets with and without a
  cloud and compares scenario by scenario (the container target has no cloud provider).
  Source: 000 §1.2 节点管理 › 2 节点自注册 (--cloud-provider).

  @NODE-SELF-REGISTER @needs-cloud-provider
  Scenario: On a cloud the node is registered with the providerID the cloud gives its machine
    The seed lists --cloud-provider among the kubelet's registration options, "to read the
    node's own metadata from the cloud provider". The v1.12 kubelet asks its cloud itself as
    it builds its Node (initialNode: GetInstanceProviderID). Since the in-tree providers went
    (v1.31) a kubelet on a cloud runs with --cloud-provider=external: it registers tainted
    node.cloudprovider.kubernetes.io/uninitialized, and the cloud-controller-manager's cloud
    node controller writes the metadata and lifts the taint (k8s.io/cloud-provider
    controllers/node, syncNode). Either way the node ends up named by its machine, with no
    taint left. Each provider names machines its own way: "<cloud>" is its name.
    Given the flag "--cloud-provider" is "simulated"
    And a ready node "vm-1"
    Then node "vm-1" has providerID "<cloud>://vm-1"
    And node "vm-1" has no taints
