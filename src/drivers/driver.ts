import { Event } from '../api/core';
import type { KubeObject } from '../api/meta';
import type { ApiAuditReport } from '../apiserver/audit';
import type { SchedulingDecision } from '../scheduler/decision';
import { Client } from '../client/client';
import { KubeletSpec } from '../cluster/config';
import { Flags, Profile } from '../profile/profile';

export type { KubeletSpec };

/** What a target can do; scenarios needing more are reported not applicable there. */
export interface Capabilities {
  /** Time moves only when told to (advance is instant and exact). */
  virtualTime: boolean;
  /** Control-plane flags can be set per scenario. */
  configurableFlags: boolean;
  /** Hollow kubelets can be added, stopped and restarted. */
  hollowKubelets: boolean;
  /** A simulated cloud provider whose machines can be deleted. */
  cloudProvider: boolean;
  /** The API server's audit (writes per user, writes to storage) can be read. */
  audit?: boolean;
  /**
   * A change seen through the client's watches is seen at the cluster time it happened
   * (in process, or on a real clock); not so over HTTP on a virtual clock, where changes
   * arrive only when an advance returns.
   */
  exactEventTimes?: boolean;
  /** The scheduler's decisions (per node: failed predicate, each priority's score) can be read. */
  schedulerDecisions?: boolean;
  /** The API server is reachable over HTTP(S), for kubectl and client libraries. */
  http: boolean;
  /**
   * The API server reaches the hollow kubelets' HTTPS API (logs, proxy, certificate checks):
   * true where the kubelets live beside the API server (in process, `kubespec serve`), not
   * where they join a real cluster as API clients with no address it can dial.
   */
  kubeletApi?: boolean;
  /**
   * The scenario has the cluster to itself: every node, zone and the master are its own (a
   * fresh cluster per scenario). Off on a shared, long-lived cluster, where verdicts that
   * depend on the whole cluster (every zone down, cluster-size thresholds) cannot be judged.
   */
  dedicatedCluster?: boolean;
  /**
   * The API server runs with kube-apiserver's own defaults for every flag a scenario does not
   * state (secure port 6443 on 0.0.0.0, --authorization-mode AlwaysAllow): in process, and on
   * `serve`, which gives port 6443 to the scenarios that ask for this (see ClusterDriver.need;
   * the others get free ports, so that parallel scenarios do not queue for one port). The
   * `upstream` target listens on free loopback ports with Node,RBAC: not there.
   */
  apiServerDefaults?: boolean;
  /**
   * The control plane keeps its state in a durable store (SQLite, etcd) and can be killed
   * (SIGKILL) and started again on it (restartControlPlane): `kubespec serve` over sqlite or
   * etcd (the serve target's default store is sqlite; serve-etcd keeps etcd).
   */
  durableStorage?: boolean;
  /**
   * Two API servers on one etcd, each with its controller manager and scheduler under
   * --leader-elect (an HA pair of masters): a client of each, their leader election
   * identities and audits, and SIGKILL of the leader (apiServers, killLeader). The serve-ha
   * and upstream targets (upstream: for the scenarios that ask, with processes, not
   * containers); the others run one control plane (reference, serve) or one they do not own.
   */
  apiServerPair?: boolean;
}

/** One API server of an HA pair (capability apiServerPair), as a scenario sees it. */
export interface ApiServerMember {
  /** "first" (the one the driver speaks to until it is killed) or "second". */
  name: string;
  /** The admin's client of this server. */
  client: Client;
  /**
   * The identities its controller manager and its scheduler campaign with; undefined while
   * not known: upstream's (hostname_uuid, logged nowhere) show only once the candidate has
   * written its lock through this server, so a standby's is known once it took over.
   */
  controllerManagerIdentity: string | undefined;
  schedulerIdentity: string | undefined;
  /** False once killed. */
  alive: boolean;
  /** What this server's API server has handled (capability audit). */
  audit(): Promise<ApiAuditReport>;
}

/** Every capability a scenario may ask for with @needs-<name> (kebab-case there). */
export const CAPABILITY_NAMES: readonly (keyof Capabilities)[] = [
  'virtualTime',
  'configurableFlags',
  'hollowKubelets',
  'cloudProvider',
  'audit',
  'exactEventTimes',
  'schedulerDecisions',
  'http',
  'kubeletApi',
  'dedicatedCluster',
  'apiServerDefaults',
  'durableStorage',
  'apiServerPair',
];

/** Who a kubeconfig speaks for: the admin, a user by client certificate, a bearer token, or nobody. */
export type Credentials =
  | { admin: true }
  | {
      user: string;
      groups: string[] /** a certificate no CA of the cluster issued (kubelet requests) */;
      untrustedCA?: boolean;
    }
  | { token: string }
  | { basic: { username: string; password: string } }
  | { anonymous: true }
  | { insecurePort: true };

/** The API server over HTTP(S), as kubectl sees it. */
export interface HttpAccess {
  /** Files that exist once the cluster serves, known before it starts (to name them in flags). */
  readonly files: { kubeletCA: string };
  /** Starts serving (idempotent) and returns where. */
  serve(): Promise<HttpEndpoint>;
  /** Writes a kubeconfig for these credentials and returns its path. */
  kubeconfig(credentials: Credentials): Promise<string>;
  /**
   * One request straight to a hollow kubelet's HTTPS API (not through the API server), with
   * these credentials: for the kubelet API's own authentication and authorization.
   */
  kubelet?(
    node: string,
    credentials: Credentials,
    method: string,
    path: string,
  ): Promise<{ status: number; body: string }>;
}

/** Credentials as a caller of a kubelet: a client certificate's user and groups, a bearer token, or nothing. */
export function kubeletCaller(
  c: Credentials,
): { user: string; groups: string[]; untrustedCA?: boolean } | { token: string } | { anonymous: true } {
  if ('admin' in c) return { user: 'kubernetes-admin', groups: ['system:masters'] };
  if ('user' in c) return { user: c.user, groups: c.groups, ...(c.untrustedCA ? { untrustedCA: true } : {}) };
  if ('token' in c) return { token: c.token };
  if ('anonymous' in c) return { anonymous: true };
  if ('basic' in c) throw new NotApplicableError('kubelets take no HTTP basic auth');
  throw new NotApplicableError("the insecure port is the API server's, not a kubelet's");
}

export interface HttpEndpoint {
  /** The URL kubeconfigs point at (the secure port when on). */
  server: string;
  secure?: { host: string; port: number };
  insecure?: { host: string; port: number };
  caFile: string;
}

/**
 * Thrown when a scenario needs something a target cannot give (a flag it cannot set, a
 * fault it cannot inject). Reported "not applicable" with the reason, never as a failure.
 */
export class NotApplicableError extends Error {}

/** An object (or one of its subresources: nodes/status) whose requests requestTimes reads. */
export interface RequestRef {
  resource: string;
  namespace?: string;
  name: string;
  subresource?: string;
}

/**
 * The only thing steps touch. The reference driver runs the control plane in-process in
 * virtual time; other drivers reach real clusters. Same features, same verdicts.
 */
export interface ClusterDriver {
  readonly target: string;
  readonly profile: Profile;
  readonly capabilities: Capabilities;
  /** Control-plane flags for this scenario; only before start(). */
  configure(flags: Flags): void;
  /**
   * The capabilities the scenario asks for (its @needs- tags, all offered), before start(): a
   * target may give one only to the scenarios that ask, where giving it to all would cost
   * (serve: port 6443 is one per machine, so only the scenarios judging the defaults wait for it).
   */
  need?(capabilities: readonly (keyof Capabilities)[]): void;
  /** Starts the cluster (or connects to it); idempotent. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** An admin client for objects: create, get, list, update, patch, delete, watch. */
  readonly client: Client;
  /** The cluster's current time, ms since the epoch. */
  now(): number;
  /** Lets time pass; the cluster is at rest when it returns. */
  advance(ms: number): Promise<void>;
  /**
   * How many times advance (by more than nothing) or a waitFor that did not hold at once has
   * let time pass: a check that let it pass moved the scenario's timeline (steps/support.ts).
   */
  timeMoves(): number;
  /** Polls check (after letting the cluster settle) until it holds or the time is up. */
  waitFor(description: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void>;
  addKubelet(spec: KubeletSpec): Promise<void>;
  /** Posts one last heartbeat, then silences the kubelet; returns that heartbeat's time. */
  stopKubelet(name: string): Promise<number>;
  /**
   * stopKubelet for several at once on a real clock: every last status first, then every Lease
   * renewal, then every kubelet stops, so their last renewals are as close together as the
   * target's answers allow (the node lifecycle controller stamps a renewal with the monitor pass
   * that first sees it). Returns each one's last heartbeat time, in the order given.
   */
  stopKubelets?(names: string[]): Promise<number[]>;
  startKubelet(name: string): Promise<void>;
  events(filter?: { involvedName?: string; reason?: string; namespace?: string }): Promise<Event[]>;
  /**
   * Deletes the machine behind a node at the cloud provider (capability cloudProvider), as
   * an operator deleting a VM; its kubelet stops with it.
   */
  deleteMachine(name: string): Promise<void>;
  /** The scheduler's decisions for a pod (namespace/name), oldest first; with capability schedulerDecisions. */
  schedulerDecisions?(pod: string): Promise<SchedulingDecision[]>;
  /**
   * Sends one connection to clusterIP:port through the kube-proxy of a node; returns the
   * endpoint it reached, or undefined when the service has no endpoint (refused).
   */
  route(node: string, clusterIP: string, port: number): Promise<{ ip: string; port: number } | undefined>;
  /** The cloud's load balancers (needs the cloudProvider capability). */
  loadBalancers(): Promise<
    { name: string; service: string; nodes: string[]; ingress: { ip?: string; hostname?: string }[] }[]
  >;
  /** Who the API server takes a bearer token for (a TokenReview), or undefined if it refuses it. */
  authenticate(token: string): Promise<{ username: string; groups: string[] } | undefined>;
  /** The HTTP(S) face of the API server (capability http). */
  readonly http?: HttpAccess;
  /**
   * Who wrote through the API server (requests per user), who read (gets, lists, watches per
   * user, when the server counts them), how many writes the API server made to storage, and
   * by how much storage's revision moved in all (capability audit).
   */
  apiAudit?(): Promise<ApiAuditReport>;
  /**
   * When the API server received each successful `verb` of each object (or the subresource
   * named) in this scenario (ms since the epoch, in order; one list per object), from its own
   * record: on a real clock, exact where a watch tells a change only when its event arrives
   * (seconds late on a loaded machine).
   */
  requestTimes?(verb: string, refs: readonly RequestRef[]): Promise<number[][]>;
  /**
   * The objects of a resource in a namespace (or the one named) as the API server stored them
   * at `since` (ms since the epoch) and after each write since, from its own record; an instant
   * at which one's state is not known is left out. Undefined where the target does not keep
   * the resource's states. On a real clock a check reads the cluster some time after the
   * instant it names: this tells what held at that instant.
   */
  objectStates?(
    ref: { resource: string; namespace?: string; name?: string },
    since: number,
  ): Promise<{ at: number; objects: KubeObject[] }[] | undefined>;
  /** Compacts the API server's storage up to now (older resourceVersions answer 410). */
  compactStorage?(): Promise<void>;
  /**
   * Kills the control plane without warning (SIGKILL) and starts it again on the same data
   * dir, store and port (capability durableStorage); resolves once it serves again.
   */
  restartControlPlane?(): Promise<void>;
  /** The two API servers of an HA pair, the first first (capability apiServerPair). */
  apiServers?(): Promise<ApiServerMember[]>;
  /**
   * SIGKILL of the server whose controller manager holds the lock kube-system/
   * kube-controller-manager (capability apiServerPair); the driver's client then speaks to
   * the survivor. Resolves with the instant of the kill (ms since the epoch).
   */
  killLeader?(): Promise<number>;
  /**
   * The errors the cluster's components handed to their HandleError sink (utilruntime.HandleError)
   * since it started, one line each: a background failure no request saw. The run attaches
   * them to the scenario that was running.
   */
  unexpectedErrors?(): string[];
}
