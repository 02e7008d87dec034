Feature: StatefulSets start, stop and update pods one ordinal at a time
  A StatefulSet's pods have stable names <set>-<ordinal> (and hostname, subdomain
  serviceName), ordinals 0 … replicas−1. With podManagementPolicy OrderedReady (the
  default) the controller creates them in order, each only once its predecessors are
  Running and Ready, and removes them in reverse order, each only once its successor is
  gone; Parallel creates and removes them all at once. Each pod template is a
  ControllerRevision whose name labels the pods made from it (controller-revision-hash);
  under RollingUpdate, pods with an ordinal ≥ partition (default 0) are replaced from the
  highest ordinal down, one at a time, waiting for each to be Running and Ready; once every
  pod is updated the update revision becomes the current one.
  Source: 000 §2.4 控制器 › 4、运行控制器的方式 (StatefulSet Controller among the controller
  manager's built-in controllers). Upstream: pkg/controller/statefulset — updateStatefulSet,
  getStatefulSetRevisions, newVersionedStatefulSetPod, completeRollingUpdate
  (stateful_set_control.go), newStatefulSetPod / updateIdentity (stateful_set_utils.go);
  SetDefaults_StatefulSet (apps/v1).

  Background:
    Given a ready node "n1"

  @STS-ORDERED @STS-IDENTITY
  Scenario: OrderedReady creates pod N+1 only once pod N is Running and Ready
    Given the kubelet on "n1" stops
    And a statefulset "web" of 3 replicas running "nginx:1.14"
    Then the pods of statefulset "web" are:
      | name  | phase   | spec.hostname | spec.subdomain | pod-name label |
      | web-0 | Pending | web-0         | web            | web-0          |
    When the kubelet on "n1" starts again
    Then the pods of statefulset "web" are:
      | name  | phase   | revision       |
      | web-0 | Running | current+update |
      | web-1 | Running | current+update |
      | web-2 | Running | current+update |
    And the events of statefulset "web" are, in order:
      | reason           | message                                          |
      | SuccessfulCreate | create Pod web-0 in StatefulSet web successful   |
      | SuccessfulCreate | create Pod web-1 in StatefulSet web successful   |
      | SuccessfulCreate | create Pod web-2 in StatefulSet web successful   |
    And the statefulset "web" has:
      | spec.podManagementPolicy                    | OrderedReady  |
      | spec.updateStrategy.type                    | RollingUpdate |
      | spec.updateStrategy.rollingUpdate.partition | 0             |
      | spec.revisionHistoryLimit                   | 10            |
      | status.replicas                             | 3             |
      | status.readyReplicas                        | 3             |
      | status.currentReplicas                      | 3             |
      | status.updatedReplicas                      | 3             |
      | status.observedGeneration                   | 1             |

  @STS-IDENTITY @profile-kubernetes-1.32
  Scenario: Since v1.28 each pod also carries its ordinal as a label
    Given a statefulset "web" of 2 replicas running "nginx:1.14"
    Then the pods of statefulset "web" are:
      | name  | pod-index label |
      | web-0 | 0               |
      | web-1 | 1               |

  @STS-IDENTITY @profile-seed
  Scenario: v1.12 pods carry no ordinal label
    Given a statefulset "web" of 2 replicas running "nginx:1.14"
    Then the pods of statefulset "web" are:
      | name  | pod-index label |
      | web-0 | <none>          |
      | web-1 | <none>          |

  @STS-IDENTITY
  Scenario: A deleted pod comes back with the same name
    The three pods are awaited before one is deleted: on a real clock the StatefulSet creates
    them one after another, each once the previous is Running and Ready (found on upstream
    v1.32.13, where web-1 did not exist yet when the scenario deleted it).
    Given a statefulset "web" of 3 replicas running "nginx:1.14"
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Running |
      | web-1 | Running |
      | web-2 | Running |
    When I delete the pod "web-1"
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Running |
      | web-1 | Running |
      | web-2 | Running |
    And the pod "web-1" is a new object, not the one deleted

  @STS-ORDERED
  Scenario: OrderedReady removes the highest ordinal first and waits until it is gone
    The set is awaited before the kubelet stops: on a real clock OrderedReady is still
    making web-2 a moment after the StatefulSet is created (found on upstream v1.32.13,
    where the kubelet stopped with two pods and the scale-down removed web-1).
    Given a statefulset "web" of 3 replicas running "nginx:1.14"
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Running |
      | web-1 | Running |
      | web-2 | Running |
    Given the kubelet on "n1" stops
    When I scale statefulset "web" to 0 replicas
    # The silent kubelet cannot confirm web-2's end: web-1 and web-0 wait.
    Then the pods of statefulset "web" are:
      | name  | phase       |
      | web-0 | Running     |
      | web-1 | Running     |
      | web-2 | Terminating |
    When the kubelet on "n1" starts again
    Then the pods of statefulset "web" are:
      | name |
    And the events of statefulset "web" are, in order:
      | reason           | message                                          |
      | SuccessfulCreate | create Pod web-0 in StatefulSet web successful   |
      | SuccessfulCreate | create Pod web-1 in StatefulSet web successful   |
      | SuccessfulCreate | create Pod web-2 in StatefulSet web successful   |
      | SuccessfulDelete | delete Pod web-2 in StatefulSet web successful   |
      | SuccessfulDelete | delete Pod web-1 in StatefulSet web successful   |
      | SuccessfulDelete | delete Pod web-0 in StatefulSet web successful   |

  @STS-PARALLEL
  Scenario: Parallel creates and removes every pod at once
    Given the kubelet on "n1" stops
    And a statefulset "web" of 3 replicas running "nginx:1.14" with:
      | podManagementPolicy | Parallel |
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Pending |
      | web-1 | Pending |
      | web-2 | Pending |
    When the kubelet on "n1" starts again
    And the kubelet on "n1" stops
    And I scale statefulset "web" to 1 replica
    Then the pods of statefulset "web" are:
      | name  | phase       |
      | web-0 | Running     |
      | web-1 | Terminating |
      | web-2 | Terminating |

  @STS-ROLLING @STS-PARTITION
  Scenario: A rolling update replaces pods from the highest ordinal down, one at a time, and stops at the partition
    The set is awaited before the kubelet stops: on a real clock OrderedReady is still
    making pods a moment after the StatefulSet is created.
    Given a statefulset "web" of 3 replicas running "nginx:1.14" with:
      | updateStrategy.rollingUpdate.partition | 1 |
    Then the pods of statefulset "web" are:
      | name  | phase   |
      | web-0 | Running |
      | web-1 | Running |
      | web-2 | Running |
    Given the kubelet on "n1" stops
    When I patch the statefulset "web" with:
      """
      {"spec": {"template": {"spec": {"containers": [{"name": "main", "image": "nginx:1.15"}]}}}}
      """
    Then the pods of statefulset "web" are:
      | name  | phase       | image      | revision |
      | web-0 | Running     | nginx:1.14 | current  |
      | web-1 | Running     | nginx:1.14 | current  |
      | web-2 | Terminating | nginx:1.14 | current  |
    When the kubelet on "n1" starts again
    Then the pods of statefulset "web" are:
      | name  | phase   | image      | revision |
      | web-0 | Running | nginx:1.14 | current  |
      | web-1 | Running | nginx:1.15 | update   |
      | web-2 | Running | nginx:1.15 | update   |
    And the statefulset "web" has:
      | status.currentReplicas | 1 |
      | status.updatedReplicas | 2 |
    # Below the partition a pod is recreated at the current revision.
    When I delete the pod "web-0"
    Then the pods of statefulset "web" are:
      | name  | phase   | image      | revision |
      | web-0 | Running | nginx:1.14 | current  |
      | web-1 | Running | nginx:1.15 | update   |
      | web-2 | Running | nginx:1.15 | update   |
    When I patch the statefulset "web" with:
      """
      {"spec": {"updateStrategy": {"rollingUpdate": {"partition": 0}}}}
      """
    Then the pods of statefulset "web" are:
      | name  | phase   | image      | revision       |
      | web-0 | Running | nginx:1.15 | current+update |
      | web-1 | Running | nginx:1.15 | current+update |
      | web-2 | Running | nginx:1.15 | current+update |
    And the statefulset "web" has:
      | status.currentReplicas | 3 |
      | status.updatedReplicas | 3 |
    And statefulset "web" has 2 ControllerRevisions

  @STS-ROLLING @STS-PARALLEL
  Scenario: Parallel still replaces pods one at a time, each once the one above is Running and Ready
    # Upstream updateStatefulSet: the update loop waits on an unhealthy pod whatever the policy
    # (maxUnavailable for Parallel came with the MaxUnavailableStatefulSet gate, off in v1.32).
    Given a statefulset "web" of 3 replicas running "nginx:1.14" with:
      | podManagementPolicy | Parallel |
    And the kubelet on "n1" stops
    When I patch the statefulset "web" with:
      """
      {"spec": {"template": {"spec": {"containers": [{"name": "main", "image": "nginx:1.15"}]}}}}
      """
    Then the pods of statefulset "web" are:
      | name  | phase       | image      | revision |
      | web-0 | Running     | nginx:1.14 | current  |
      | web-1 | Running     | nginx:1.14 | current  |
      | web-2 | Terminating | nginx:1.14 | current  |
    When the kubelet on "n1" starts again
    Then the pods of statefulset "web" are:
      | name  | phase   | image      | revision       |
      | web-0 | Running | nginx:1.15 | current+update |
      | web-1 | Running | nginx:1.15 | current+update |
      | web-2 | Running | nginx:1.15 | current+update |

  @STS-ROLLING
  Scenario: OnDelete leaves running pods alone; a deleted pod comes back at the new revision
    Both pods are awaited before the template changes: on a real clock web-1 comes only once
    web-0 is Running and Ready (found on upstream v1.32.13, where web-1 was made after the
    patch, at the new revision).
    Given a statefulset "web" of 2 replicas running "nginx:1.14" with:
      | updateStrategy.type | OnDelete |
    Then the pods of statefulset "web" are:
      | name  | image      | revision       |
      | web-0 | nginx:1.14 | current+update |
      | web-1 | nginx:1.14 | current+update |
    When I patch the statefulset "web" with:
      """
      {"spec": {"template": {"spec": {"containers": [{"name": "main", "image": "nginx:1.15"}]}}}}
      """
    Then the pods of statefulset "web" are:
      | name  | image      | revision |
      | web-0 | nginx:1.14 | current  |
      | web-1 | nginx:1.14 | current  |
    When I delete the pod "web-0"
    Then the pods of statefulset "web" are:
      | name  | image      | revision |
      | web-0 | nginx:1.15 | update   |
      | web-1 | nginx:1.14 | current  |
