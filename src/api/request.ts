import { KubeObject } from './meta';

/*
 * The wire vocabulary of a request, shared by the API server, its clients and the drivers:
 * what a request is about, the options of list, watch and delete as the query string
 * carries them (meta/v1 ListOptions, DeleteOptions), the patch types, watch events and the
 * user a request runs as (authentication/v1 UserInfo). Parsed forms (selectors) belong to
 * the API server's storage.
 */

/** The object or collection a request addresses: /apis/{group}/…/namespaces/{namespace}/{resource}/{name}/{subresource}. */
export interface RequestTarget {
  /** Plural resource name, optionally group-qualified ("leases.coordination.k8s.io"). */
  resource: string;
  group?: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** meta/v1 ListOptions: the selectors as strings, as in ?labelSelector=…&fieldSelector=…, and the read options. */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** List: "" a consistent read, "0" any, N with resourceVersionMatch. Watch: start after it. */
  resourceVersion?: string;
  /** "Exact" or "NotOlderThan" (lists only). */
  resourceVersionMatch?: string;
  /** At most this many items; the list's metadata.continue then fetches the next chunk. */
  limit?: number;
  continue?: string;
}

export interface WatchOptions extends ListOptions {
  /** Start after this resourceVersion; "" or "0" means: current state as ADDED, then changes. */
  resourceVersion?: string;
}

/** meta/v1 DeleteOptions. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** JSON patch (RFC 6902), JSON merge patch (RFC 7386), strategic merge patch. */
export type PatchType = 'merge' | 'json' | 'strategic';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** meta/v1 WatchEvent. */
export interface ApiWatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** authentication/v1 UserInfo: who a request runs as. */
export interface UserInfo {
  username: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** What a request asks to do, as an authorizer sees it (authorization/v1 SubjectAccessReview's attributes). */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  path: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /**
   * A list, watch or deletecollection's field selector, as requirements (AuthorizeWithSelectors,
   * beta and on in v1.32): what the Node authorizer reads to let a kubelet list only its own
   * pods. Absent when the request had none or it did not parse.
   */
  fieldRequirements?: readonly { field: string; operator: string; value: string }[];
}
