Feature: Deleting a namespace deletes everything in it, then the namespace
  DELETE on a namespace only marks it: deletionTimestamp is set and its phase becomes
  Terminating, while spec.finalizers keeps `kubernetes`. The namespace controller then
  deletes every object in it (service accounts, replication controllers, pods, services,
  …); while content remains it retries; once empty it removes `kubernetes` through
  namespaces/finalize and the namespace goes. Meanwhile NamespaceLifecycle admission
  refuses new objects in it; `default`, `kube-system` and `kube-public` may not be deleted.
  Source: 002 §4.4 "Namespace Controller". Upstream: namespace REST.Delete and FinalizeREST
  (pkg/registry/core/namespace/storage), namespacedResourcesDeleter.Delete
  (pkg/controller/namespace/deletion), Lifecycle.Admit (admission/plugin/namespace/lifecycle).

  Background:
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"
    When I create this object:
      """
      apiVersion: v1
      kind: Namespace
      metadata:
        name: shop
      """
    And I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata: { name: web, namespace: shop }
      spec:
        replicas: 2
        template:
          metadata:
            labels: { app: web }
          spec:
            nodeName: n1
            containers:
              - name: nginx
                image: nginx
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: web, namespace: shop }
      spec:
        selector: { app: web }
        ports:
          - port: 80
      """

  @NS-TERMINATING
  Scenario: A new namespace is Active with the kubernetes finalizer
    Then the namespace "shop" has:
      | status.phase     | Active         |
      | spec.finalizers  | ["kubernetes"] |
    And the serviceaccount "default" in namespace "shop" has:
      | metadata.name | default |

  @NS-TERMINATING @CTRL-RECONCILE
  Scenario: The namespace stays Terminating, refusing new content, until its content is gone
    The deletion time is checked against the cluster's clock (<now>), not a fixed epoch, so
    that the scenario holds on a real cluster too. The controller starts 5 s after the
    namespace is marked (namespaceDeletionGracePeriod).
    When the kubelet on "n1" stops
    And I delete the namespace "shop"
    Then the namespace "shop" has:
      | status.phase              | Terminating          |
      | metadata.deletionTimestamp | <now>                |
      | spec.finalizers           | ["kubernetes"]       |
    When 5 seconds pass
    Then the replicationcontroller "web" in namespace "shop" does not exist
    And the service "web" in namespace "shop" does not exist
    And the endpoints "web" in namespace "shop" does not exist
    And the serviceaccount "default" in namespace "shop" does not exist
    And 2 pods in namespace "shop" are Terminating
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: late, namespace: shop }
      spec:
        containers:
          - name: c
            image: busybox
      """
    Then the request fails with 403 Forbidden and message "pods "late" is forbidden: unable to create new content in namespace shop because it is being terminated"
    And the request fails with a cause "NamespaceTerminating" on field "metadata.namespace" saying "namespace shop is being terminated"
    When the kubelet on "n1" starts again
    And 30 seconds pass
    Then the namespace "shop" does not exist

  @NS-TERMINATING @profile-seed
  Scenario: (v1.12) Deleting a Terminating namespace again is refused while its content remains
    When the kubelet on "n1" stops
    And I delete the namespace "shop"
    And I try to delete the namespace "shop"
    Then the request fails with 409 Conflict and message "Operation cannot be fulfilled on namespaces "shop": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system."

  @NS-TERMINATING @profile-kubernetes-1.32
  Scenario: (v1.32) Deleting a Terminating namespace again answers with it, unchanged
    v1.32's REST.Delete returns a namespace that still has spec.finalizers as it is (200)
    where v1.12 refused with 409 Conflict (found on upstream v1.32.13).
    When the kubelet on "n1" stops
    And I delete the namespace "shop"
    Then the namespace "shop" has:
      | status.phase | Terminating |
    When I try to delete the namespace "shop"
    Then the request succeeds
    And the namespace "shop" has:
      | status.phase    | Terminating    |
      | spec.finalizers | ["kubernetes"] |

  @NS-TERMINATING @profile-seed
  Scenario: (v1.12) The controller re-checks after half the pods' grace period, then removes the namespace
    The controller's first pass comes 5 s after the deletion (namespaceDeletionGracePeriod):
    it deletes the content, and the pods are still there when it looks again; it estimates
    their end from their terminationGracePeriodSeconds (30 s) and re-checks after half of
    it plus one second (estimate/2 + 1 = 16 s, NamespaceController.worker), at 21 s.
    When I delete the namespace "shop"
    Then the namespace "shop" has:
      | status.phase | Terminating |
    When 5 seconds pass
    Then the replicationcontroller "web" in namespace "shop" does not exist
    When 15 seconds pass
    Then the namespace "shop" has:
      | status.phase | Terminating |
    When 1 second passes
    Then the namespace "shop" does not exist

  @NS-TERMINATING @profile-kubernetes-1.32
  Scenario: (v1.32) Each pass writes the deletion conditions, and that update brings the next pass
    As in v1.12 the first pass comes 5 s after the deletion and would re-check after 16 s, but
    since v1.16 it writes its findings to the namespace's conditions; that status update is
    a namespace event, processed 5 s later: the namespace goes at 10 s (found on upstream
    v1.32.13, where it was gone well before the pods' 30 s). The waits count from the
    deletionTimestamp: on a loaded real clock the steps after the deletion took so long that
    the 5 s check came after the 10 s pass (upstream v1.32.13, sixth full run). The kubelet
    is away for the first pass, so the pods are still there when it counts them: a hollow
    kubelet confirms a deletion within milliseconds, and on upstream the first pass then
    sometimes found no pod left and removed the namespace at 5 s (ninth full run, and alone).
    When the kubelet on "n1" stops
    And I delete the namespace "shop"
    Then the namespace "shop" has:
      | status.phase | Terminating |
    When 5 seconds pass after the namespace "shop" was deleted
    Then the replicationcontroller "web" in namespace "shop" does not exist
    And the namespace "shop" has:
      | status.conditions[0].type    | NamespaceDeletionDiscoveryFailure       |
      | status.conditions[0].status  | False                                   |
      | status.conditions[0].reason  | ResourcesDiscovered                     |
      | status.conditions[3].type    | NamespaceContentRemaining               |
      | status.conditions[3].status  | True                                    |
      | status.conditions[3].reason  | SomeResourcesRemain                     |
      | status.conditions[3].message | Some resources are remaining: pods. has 2 resource instances |
      | status.conditions[4].type    | NamespaceFinalizersRemaining            |
      | status.conditions[4].status  | False                                   |
    When the kubelet on "n1" starts again
    And 9 seconds pass after the namespace "shop" was deleted
    Then the namespace "shop" has:
      | status.phase | Terminating |
    When 1 second passes
    Then the namespace "shop" does not exist

  @NS-TERMINATING
  Scenario Outline: The system namespaces may not be deleted
    When I try to delete the namespace "<namespace>"
    Then the request fails with 403 Forbidden and message "namespaces "<namespace>" is forbidden: this namespace may not be deleted"

    Examples:
      | namespace   |
      | default     |
      | kube-system |
      | kube-public |
