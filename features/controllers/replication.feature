Feature: The replication controller keeps exactly spec.replicas pods
  A ReplicationController's pod template is a mould: the replication manager keeps exactly
  spec.replicas active pods that match its selector — creating from the template when
  there are too few (at most burstReplicas per sync), deleting when there are too many,
  unassigned and not-ready pods first — and links them to it with a controllerRef.
  Pods already made never change with the template; a pod relabelled out of the selector
  is released and replaced. Only restartPolicy Always is allowed. Deleting a core/v1 RC
  without a propagation policy orphans its pods (the seed: "删除一个RC不会影响它所创建的Pod");
  scaling to 0 first removes them.
  Source: 002 §4.1 "Replication Controller", §4.1.1. Upstream: ReplicaSetController
  manageReplicas / getPodsToDelete (replica_set.go), ActivePods.Less (controller_utils.go),
  calculateStatus (replica_set_utils.go), ClaimPods (controller_ref_manager.go),
  ValidateReplicationControllerSpec, rcStrategy.DefaultGarbageCollectionPolicy.
  Which pods a scale-down removes is each release's getPodsToDelete: v1.12 sorts by
  ActivePods (unassigned, Pending < Unknown < Running, not ready, most recently ready,
  most restarts, newest); v1.32 by ActivePodsWithRanks, where a lower
  controller.kubernetes.io/pod-deletion-cost goes first, before readiness time (compared in
  log2 buckets of age, LogarithmicScaleDown) — an RC has no related ReplicaSets, so the
  pods-per-node rank is 0 for all its pods.

  Background:
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"
    When I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata:
        name: web
      spec:
        replicas: 3
        template:
          metadata:
            labels: { app: web }
          spec:
            containers:
              - name: nginx
                image: nginx:1.14
      """

  @RC-REPLICAS @CTRL-OWNERSHIP
  Scenario: The RC creates its pods from the template, linked to it, and reports them in status
    Then replicationcontroller "web" controls 3 active pods
    And every pod of replicationcontroller "web" has:
      | metadata.generateName                          | web-                  |
      | metadata.labels.app                            | web                   |
      | metadata.ownerReferences[0].apiVersion         | v1                    |
      | metadata.ownerReferences[0].kind               | ReplicationController |
      | metadata.ownerReferences[0].name               | web                   |
      | metadata.ownerReferences[0].controller         | true                  |
      | metadata.ownerReferences[0].blockOwnerDeletion | true                  |
      | spec.containers[0].image                       | nginx:1.14            |
      | spec.restartPolicy                             | Always                |
    And the replicationcontroller "web" has:
      | spec.selector.app           | web    |
      | metadata.labels.app         | web    |
      | metadata.generation         | 1      |
      | status.replicas             | 3      |
      | status.fullyLabeledReplicas | 3      |
      | status.observedGeneration   | 1      |
    When the pods of replicationcontroller "web" are bound to node "n1"
    Then the replicationcontroller "web" has:
      | status.replicas          | 3 |
      | status.readyReplicas     | 3 |
      | status.availableReplicas | 3 |

  @RC-REPLICAS @CTRL-RECONCILE
  Scenario: A deleted pod is replaced and an extra matching pod is removed
    When I delete 1 pod of replicationcontroller "web"
    Then replicationcontroller "web" controls 3 active pods
    # Among equally placed pods the newest goes first (ActivePods.Less); timestamps count whole seconds.
    When 1 second passes
    And I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata:
        name: extra
        labels: { app: web }
      spec:
        containers:
          - name: nginx
            image: nginx:1.14
      """
    Then replicationcontroller "web" controls 3 active pods
    And 3 pods are labelled "app=web"
    And pod "extra" is gone

  @RC-SCALE
  Scenario Outline: Scaling through the scale subresource changes the number of pods
    The Scale's spec.replicas is omitted when 0 (autoscaling/v1 `omitempty`).
    When I scale replicationcontroller "web" to <replicas>
    Then replicationcontroller "web" controls <replicas> active pods
    And the scale of replicationcontroller "web" has:
      | spec.replicas   | <scale>    |
      | status.replicas | <replicas> |
      | status.selector | app=web    |
    And the replicationcontroller "web" has:
      | spec.replicas             | <replicas> |
      | metadata.generation       | 2          |
      | status.observedGeneration | 2          |

    Examples:
      | replicas | scale  |
      | 5        | 5      |
      | 1        | 1      |
      | 0        | <none> |

  @RC-SCALE
  Scenario: Scaling down removes unassigned pods before pods running on a node
    When I scale replicationcontroller "web" to 2
    And the pods of replicationcontroller "web" are bound to node "n1"
    And I cordon node "n1"
    And I scale replicationcontroller "web" to 3
    Then replicationcontroller "web" controls 3 active pods
    And 1 pod of replicationcontroller "web" has spec.nodeName "<none>"
    When I scale replicationcontroller "web" to 2
    Then replicationcontroller "web" controls 2 active pods
    And 2 pods of replicationcontroller "web" have spec.nodeName "n1"

  @RC-TEMPLATE
  Scenario: A template change affects only pods created afterwards
    When I patch the replicationcontroller "web" with:
      """
      spec:
        template:
          spec:
            containers:
              - name: nginx
                image: nginx:1.15
      """
    Then 3 pods of replicationcontroller "web" have spec.containers[0].image "nginx:1.14"
    When I delete 1 pod of replicationcontroller "web"
    Then replicationcontroller "web" controls 3 active pods
    And 2 pods of replicationcontroller "web" have spec.containers[0].image "nginx:1.14"
    And 1 pod of replicationcontroller "web" has spec.containers[0].image "nginx:1.15"

  @RC-RESTART-ALWAYS @API-VALIDATION
  Scenario: A template with any restart policy but Always is refused
    When I try to create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata:
        name: batch
      spec:
        replicas: 1
        template:
          metadata:
            labels: { app: batch }
          spec:
            restartPolicy: OnFailure
            containers:
              - name: worker
                image: busybox
      """
    Then the request fails with 422 Invalid and message "ReplicationController "batch" is invalid: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always""

  @RC-RELABEL @CTRL-OWNERSHIP
  Scenario: A pod relabelled out of the selector is released and replaced
    When I relabel 1 pod of replicationcontroller "web" to "app=debug"
    Then replicationcontroller "web" controls 3 active pods
    And 3 pods are labelled "app=web"
    And 1 pod is labelled "app=debug"
    And the pod labelled "app=debug" has no controller

  @RC-DELETE @CTRL-OWNERSHIP
  Scenario: Deleting an RC without a propagation policy orphans its pods
    When I delete the replicationcontroller "web"
    Then the replicationcontroller "web" does not exist
    And 3 pods are labelled "app=web"
    And the pods labelled "app=web" have no controller

  @RC-DELETE
  Scenario: Scaling to 0 first, then deleting, leaves no pods
    When I scale replicationcontroller "web" to 0
    Then 0 pods are labelled "app=web"
    When I delete the replicationcontroller "web"
    Then the replicationcontroller "web" does not exist
    And 0 pods are labelled "app=web"

  @RC-DELETE @CTRL-OWNERSHIP
  Scenario Outline: Cascading deletion removes the pods with the RC
    When I delete the replicationcontroller "web" with propagation policy <policy>
    Then the replicationcontroller "web" does not exist
    And 0 pods are labelled "app=web"

    Examples:
      | policy     |
      | Background |
      | Foreground |

  # The first pod (labelled first=yes, deletion cost -100) has been ready 10 s longer than the
  # two made later: v1.12 keeps it (a more recently ready pod goes first), v1.32 removes it
  # (the lowest pod-deletion-cost goes first).
  @RC-SCALE-DOWN-ORDER @profile-seed
  Scenario: v1.12 scale-down ignores pod-deletion-cost and removes a more recently ready pod
    When I scale replicationcontroller "web" to 1
    Then replicationcontroller "web" controls 1 active pod
    When I relabel 1 pod of replicationcontroller "web" to "first=yes"
    And I annotate the pods labelled "first=yes" with "controller.kubernetes.io/pod-deletion-cost=-100"
    And 10 seconds pass
    And I scale replicationcontroller "web" to 3
    Then 3 pods of replicationcontroller "web" have status.phase "Running"
    When I scale replicationcontroller "web" to 2
    Then replicationcontroller "web" controls 2 active pods
    And 1 pod is labelled "first=yes"

  @RC-SCALE-DOWN-ORDER @profile-kubernetes-1.32
  Scenario: v1.32 scale-down removes the pod with the lowest pod-deletion-cost first
    When I scale replicationcontroller "web" to 1
    Then replicationcontroller "web" controls 1 active pod
    When I relabel 1 pod of replicationcontroller "web" to "first=yes"
    And I annotate the pods labelled "first=yes" with "controller.kubernetes.io/pod-deletion-cost=-100"
    And 10 seconds pass
    And I scale replicationcontroller "web" to 3
    Then 3 pods of replicationcontroller "web" have status.phase "Running"
    When I scale replicationcontroller "web" to 2
    Then replicationcontroller "web" controls 2 active pods
    And 0 pods are labelled "first=yes"
