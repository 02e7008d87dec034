/**
 * What the control plane asks of a cloud (upstream cloudprovider.Interface, the parts in
 * use): whether a node's machine still exists. Load balancers and routes come later.
 */
export interface CloudProvider {
  readonly name: string;
  /** Upstream InstanceExistsByProviderID / InstanceExists: false once the machine is gone. */
  instanceExists(nodeName: string, providerID?: string): Promise<boolean>;
  /**
   * What the cloud knows of a node's machine (upstream InstanceMetadata; GetInstanceProviderID
   * for an in-tree kubelet), or undefined when it has no such machine.
   */
  instanceMetadata(nodeName: string, providerID?: string): Promise<{ providerID: string } | undefined>;
}
