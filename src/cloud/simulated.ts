import { CloudProvider } from './provider';

/**
 * A cloud whose machines are a set of names: each hollow kubelet's machine is created
 * with it, and the driver can delete one (as an operator deleting a VM in the console).
 */
export class SimulatedCloud implements CloudProvider {
  readonly name = 'simulated';
  private readonly machines = new Set<string>();

  /** providerID a node on this cloud carries: simulated://<name>. */
  providerID(name: string): string {
    return `simulated://${name}`;
  }

  addMachine(name: string): void {
    this.machines.add(name);
  }

  deleteMachine(name: string): boolean {
    return this.machines.delete(name);
  }

  /** The machines that exist, in name order (served at /kubespec/v1/cloud). */
  machineNames(): string[] {
    return [...this.machines].sort();
  }

  hasMachine(name: string): boolean {
    return this.machines.has(name);
  }

  async instanceExists(nodeName: string, providerID?: string): Promise<boolean> {
    return this.machines.has(this.machineOf(nodeName, providerID));
  }

  async instanceMetadata(nodeName: string, providerID?: string): Promise<{ providerID: string } | undefined> {
    const name = this.machineOf(nodeName, providerID);
    return this.machines.has(name) ? { providerID: this.providerID(name) } : undefined;
  }

  /** A node's machine: the one its providerID names, else the one of its name (not yet initialized). */
  private machineOf(nodeName: string, providerID?: string): string {
    return providerID?.startsWith('simulated://') ? providerID.slice('simulated://'.length) : nodeName;
  }
}
