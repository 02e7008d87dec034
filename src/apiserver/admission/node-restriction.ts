import { isDeepStrictEqual } from 'node:util';
import { errors } from '../../api/errors';
import type { Node, Pod } from '../../api/core';
import type { KubeObject } from '../../api/meta';
import {
  podClaimNames,
  podConfigMapNames,
  podHasResourceClaims,
  podProjects,
  podSecretNames,
} from '../../api/pod-references';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission';
import type { ApiServer } from '../apiserver';
import { nodeIdentity } from '../auth/node-authorizer';

/**
 * NodeRestriction (plugin/pkg/admission/noderestriction, v1.32 `Plugin.Admit`): a kubelet
 * identity may change only its own Node — not its taints, ownerReferences or labels outside
 * the kubelet's set (`admitNode`, `getForbiddenLabels`) — create only mirror pods bound to
 * itself, owned by its Node and naming no other API object (`admitPodCreate`: no service
 * account, secret, configmap, claim, cluster trust bundle or resource claim, so that a node
 * cannot widen what the Node authorizer lets it read), and update the status of, delete or
 * evict only pods bound to itself. Other users are not its concern.
 */
const MIRROR = 'kubernetes.io/config.mirror';

export function nodeRestriction(api: ApiServer): AdmissionPlugin {
  return {
    name: 'NodeRestriction',
    // A mutating plugin upstream (Plugin.Admit): on an update it runs inside UpdatedObject,
    // before the resourceVersion check, so a stale write it refuses is 403, not 409.
    admit(attrs) {
      const node = attrs.user ? nodeIdentity(attrs.user) : undefined;
      if (!node) return;
      const rt = attrs.resource;
      if (rt.group !== '') return;
      if (rt.resource === 'nodes') return admitNode(node, attrs);
      if (rt.resource !== 'pods') return;
      const forbid = forbidder(attrs);
      switch (attrs.subresource ?? '') {
        case '':
          if (attrs.operation === 'CREATE') return admitMirrorPod(api, node, attrs);
          if (attrs.operation === 'DELETE') {
            if ((attrs.oldObject ?? attrs.object) && !boundTo(attrs.oldObject ?? attrs.object, node))
              throw forbid(`node "${node}" can only delete pods with spec.nodeName set to itself`);
            return;
          }
          throw forbid(
            `unexpected operation "${attrs.operation}", node "${node}" can only create and delete mirror pods`,
          );
        case 'status': {
          if (attrs.operation !== 'UPDATE') throw forbid(`unexpected operation "${attrs.operation}"`);
          if (!boundTo(attrs.oldObject, node))
            throw forbid(`node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
          if (!sameMap(attrs.oldObject?.metadata.labels, attrs.object?.metadata.labels))
            throw forbid(`node "${node}" cannot update labels through pod status`);
          return;
        }
        case 'eviction':
          return; // the eviction's DELETE of the pod is admitted against the pod above
        default:
          throw forbid(`unexpected pod subresource "${attrs.subresource}", only 'status' and 'eviction' are allowed`);
      }
    },
  };
}

const forbidder = (attrs: AdmissionAttributes) => (why: string) =>
  errors.forbidden({ kind: attrs.resource.resource, name: attrs.name ?? attrs.object?.metadata.name }, why);

const boundTo = (o: KubeObject | undefined, node: string) => (o as Pod | undefined)?.spec?.nodeName === node;

/** The empty and the absent map or list are one (apiequality.Semantic.DeepEqual). */
const orNothing = <T>(v: T | undefined) =>
  v === undefined || v === null || (typeof v === 'object' && Object.keys(v).length === 0) ? undefined : v;
const sameMap = (a: unknown, b: unknown) => isDeepStrictEqual(orNothing(a), orNothing(b));

async function admitMirrorPod(api: ApiServer, node: string, attrs: AdmissionAttributes): Promise<void> {
  const forbid = forbidder(attrs);
  const pod = attrs.object as Pod;
  if (pod.metadata.annotations?.[MIRROR] === undefined)
    throw forbid(`pod does not have "${MIRROR}" annotation, node "${node}" can only create mirror pods`);
  if (pod.spec?.nodeName !== node) throw forbid(`node "${node}" can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata.ownerReferences ?? [];
  if (owners.length > 1)
    throw forbid(`node "${node}" can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (owner?.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node)
    throw forbid(`node "${node}" can only create pods with an owner reference set to itself`);
  if (!owner.controller)
    throw forbid(`node "${node}" can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion) throw forbid(`node "${node}" must not set blockOwnerDeletion on an owner reference`);
  const self = await api.storage<Node>({ resource: 'nodes' }).get(undefined, node); // NotFound as upstream's nodesGetter
  if (owner.uid !== self.metadata.uid)
    throw forbid(`node ${node} UID mismatch: expected ${self.metadata.uid} got ${owner.uid}`);
  // a mirror pod names no other API object: the Node authorizer would then let its node read it
  if (pod.spec.serviceAccountName) throw forbid(`node "${node}" can not create pods that reference a service account`);
  if (podSecretNames(pod).length) throw forbid(`node "${node}" can not create pods that reference secrets`);
  if (podConfigMapNames(pod).length) throw forbid(`node "${node}" can not create pods that reference configmaps`);
  if (podProjects(pod, 'clusterTrustBundle'))
    throw forbid(`node "${node}" can not create pods that reference clustertrustbundles`);
  if (podClaimNames(pod).length)
    throw forbid(`node "${node}" can not create pods that reference persistentvolumeclaims`);
  if (podHasResourceClaims(pod)) throw forbid(`node "${node}" can not create pods that reference resourceclaims`);
}

function admitNode(node: string, attrs: AdmissionAttributes): void {
  const forbid = forbidder(attrs);
  const name = attrs.name ?? attrs.object?.metadata.name;
  if (name !== node) throw forbid(`node "${node}" is not allowed to modify node "${name}"`);
  // A nodes/status write is judged as sent (upstream's Admit runs before the status
  // strategy resets the spec): a kubelet's status PUT carrying changed taints is refused.
  const now = (attrs.sent ?? attrs.object) as Node | undefined;
  const before = attrs.oldObject as Node | undefined;
  const configSource = (n: Node | undefined) => (n?.spec as { configSource?: unknown } | undefined)?.configSource;
  if (attrs.operation === 'CREATE' && now) {
    if (configSource(now) !== undefined)
      throw forbid(`node "${node}" is not allowed to create pods with a non-nil configSource`);
    const labels = forbiddenLabels(modifiedLabels(now.metadata.labels, undefined));
    if (labels.length) throw forbid(`node "${node}" is not allowed to set the following labels: ${labels.join(', ')}`);
  }
  if (attrs.operation === 'UPDATE' && now && before) {
    if (configSource(now) !== undefined && !isDeepStrictEqual(configSource(now), configSource(before)))
      throw forbid(`node "${node}" is not allowed to update configSource to a new non-nil configSource`);
    if (!sameMap(now.spec?.taints, before.spec?.taints)) throw forbid(`node "${node}" is not allowed to modify taints`);
    if (!sameMap(now.metadata.ownerReferences, before.metadata.ownerReferences))
      throw forbid(`node "${node}" is not allowed to modify ownerReferences`);
    const labels = forbiddenLabels(modifiedLabels(now.metadata.labels, before.metadata.labels));
    if (labels.length) throw forbid(`is not allowed to modify labels: ${labels.join(', ')}`);
  }
}

function modifiedLabels(a: Record<string, string> = {}, b: Record<string, string> = {}): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]);
}

/** The label keys a kubelet may set on its Node (k8s.io/kubelet/pkg/apis IsKubeletLabel). */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const labelNamespace = (key: string) => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, of: string) => ns === of || ns.endsWith(`.${of}`);

/** Sorted, as sets.String.List(): node-restriction.kubernetes.io and kubernetes.io / k8s.io keys not the kubelet's. */
function forbiddenLabels(keys: string[]): string[] {
  return keys
    .filter((key) => {
      const ns = labelNamespace(key);
      if (inNamespace(ns, 'node-restriction.kubernetes.io')) return true;
      const kubernetes = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
      const kubelets = KUBELET_LABELS.has(key) || KUBELET_LABEL_NAMESPACES.some((of) => inNamespace(ns, of));
      return kubernetes && !kubelets;
    })
    .sort();
}
