import { KubeObject } from '../api/meta';
import { ResourceType } from '../api/registry';
import { UserInfo } from '../api/request';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  resource: ResourceType;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** The incoming object (a private copy mutating plugins may change); absent on DELETE. */
  object?: KubeObject;
  oldObject?: KubeObject;
  /**
   * An update of a subresource (status): the object as the request made it, before the
   * subresource's strategy kept the rest of the stored object. Upstream's mutating admission
   * runs inside UpdatedObject, before PrepareForUpdate, and so sees this (NodeRestriction's
   * admitNode judges a nodes/status write's taints and labels as sent).
   */
  sent?: KubeObject;
  user?: UserInfo;
  dryRun: boolean;
}

/**
 * One admission plugin, as upstream's admission.Interface: mutating plugins change the
 * object in admit(), validating plugins refuse in validate(); both throw a StatusError.
 */
export interface AdmissionPlugin {
  readonly name: string;
  admit?(attrs: AdmissionAttributes): void | Promise<void>;
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}

/**
 * The order plugins run in, whatever order they are added in: upstream's AllOrderedPlugins
 * (pkg/kubeapiserver/options/plugins.go) for the plugins the reference has. The order is
 * observable: ServiceAccount's refusal of a mirror pod naming a secret comes before
 * NodeRestriction's. RBACEscalationCheck is upstream's rbac registry check, made before the
 * store's validation and so before any validating plugin; a plugin not listed runs last.
 */
const ORDER = [
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'DefaultTolerationSeconds',
  'RBACEscalationCheck',
  'ResourceQuota',
];
const rank = (name: string) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);

/** Runs every plugin's admit() in order, then every validate(), as the API server does. */
export class AdmissionChain {
  private readonly plugins: AdmissionPlugin[] = [];

  use(plugin: AdmissionPlugin): this {
    if (this.plugins.some((p) => p.name === plugin.name))
      throw new Error(`admission plugin ${plugin.name} added twice`);
    const after = this.plugins.findIndex((p) => rank(p.name) > rank(plugin.name));
    this.plugins.splice(after < 0 ? this.plugins.length : after, 0, plugin);
    return this;
  }

  names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  // A plugin that answers synchronously (most, for most resources: a Lease renewal concerns
  // none of them) is not awaited: an await per plugin per write is a microtask turn each.
  async admit(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) {
      const pending = p.admit?.(attrs);
      if (pending) await pending;
    }
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) {
      const pending = p.validate?.(attrs);
      if (pending) await pending;
    }
  }
}
