import { Taint } from '../api/core';
import { MachineProfile } from '../profile/profile';

/** A hollow kubelet's settings, named after the kubelet flags they stand for. */
export interface KubeletConfig {
  /** The node name (--hostname-override when given, else the host name). */
  nodeName: string;
  /** --hostname-override: the Hostname address. Defaults to nodeName. */
  hostnameOverride?: string;
  /** --node-ip: the InternalIP address. */
  nodeIP?: string;
  externalIP?: string;
  /** --node-labels */
  labels?: Record<string, string>;
  /** --register-with-taints */
  registerWithTaints?: Taint[];
  /** --register-node */
  registerNode: boolean;
  /** --node-status-update-frequency, ms */
  nodeStatusUpdateFrequency: number;
  /** --node-status-report-frequency, ms: post unchanged status at most this often. */
  nodeStatusReportFrequency: number;
  /** --node-lease-duration-seconds; the lease is renewed every quarter of it. */
  nodeLeaseDurationSeconds: number;
  /** Heartbeat through a Lease in kube-node-lease (NodeLease, v1.13+). */
  useLease: boolean;
  /** The Pulled event says the pull's durations and the image's size (v1.30+; v1.12: "Successfully pulled image"). */
  imagePullDurations: boolean;
  /** --pod-cidr: used for pod IPs until the node gets spec.podCIDR. */
  podCIDR?: string;
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  machine: MachineProfile;
  /**
   * Who may use the kubelet's HTTPS API: --anonymous-auth (unauthenticated requests are
   * system:anonymous, else 401), --authentication-token-webhook (bearer tokens checked by a
   * TokenReview at the API server), --authorization-mode (AlwaysAllow, or Webhook: a
   * SubjectAccessReview at the API server for nodes/{proxy,stats,log,…}). Client
   * certificates of the cluster CA (--client-ca-file) always authenticate.
   */
  anonymousAuth: boolean;
  authenticationTokenWebhook: boolean;
  authorizationMode: 'AlwaysAllow' | 'Webhook';
  /** --enable-debugging-handlers: exec, attach, port-forward, container logs, run. */
  enableDebuggingHandlers: boolean;
  /**
   * --cloud-provider=external: an external cloud-controller-manager initializes the node, so
   * it registers tainted node.cloudprovider.kubernetes.io/uninitialized, annotates its
   * --node-ip, and keeps the addresses the cloud set (upstream initialNode, nodestatus.NodeAddress).
   */
  externalCloudProvider?: boolean;
  /**
   * --cloud-provider naming an in-tree provider (until v1.30): the providerID the kubelet read
   * from its cloud as it started, which it registers its Node with (initialNode:
   * GetInstanceProviderID).
   */
  providerID?: string;
}
