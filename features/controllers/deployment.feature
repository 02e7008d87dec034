Feature: Deployments roll pods from one ReplicaSet to the next
  A Deployment's pod template is rolled out through ReplicaSets, one per template, named
  <deployment>-<pod-template-hash>, the hash also labelling the ReplicaSet's selector,
  template and pods. Changing the template starts a rollout ("通过改变RC中的Pod模板来实现系统的滚动升级"):
  under RollingUpdate the new ReplicaSet grows while all pods stay within replicas +
  maxSurge (rounded up from a percentage) and old ones shrink while available pods stay at
  least replicas − maxUnavailable (rounded down); both default to 25%, and both 0 is
  invalid. Recreate removes every old pod before the new ones start. Each template is a
  revision (deployment.kubernetes.io/revision); revisionHistoryLimit old ReplicaSets are
  kept; rolling back (kubectl rollout undo: apps/v1 has no rollbackTo, the client writes
  the old template back) makes the old ReplicaSet the newest revision again. Status counts
  replicas, updated, ready and available pods, observedGeneration, and the Available and
  Progressing conditions `kubectl rollout status` reads.
  Source: 000 §2.4 控制器 › 4、运行控制器的方式 (Deployment Controller among the controller
  manager's built-in controllers); 002 §4.1.1 (3) rolling upgrade by changing the pod template.
  Upstream: pkg/controller/deployment — rolloutRolling, reconcileNewReplicaSet,
  reconcileOldReplicaSets (rolling.go), rolloutRecreate (recreate.go), getNewReplicaSet,
  cleanupDeployment, syncRolloutStatus, calculateStatus (sync.go, progress.go),
  ResolveFenceposts, NewRSNewReplicas, SetNewReplicaSetAnnotations, DeploymentComplete
  (util/deployment_util.go); ValidateRollingUpdateDeployment; SetDefaults_Deployment (apps/v1).
  Both profiles serve apps/v1 only here (v1.12 also served apps/v1beta1, v1beta2 and
  extensions/v1beta1 with its rollback subresource; those versions are not served).

  Background:
    Given ready nodes "n1", "n2"

  @DEPLOY-CREATE @DEPLOY-STATUS
  Scenario: A Deployment creates one ReplicaSet, labelled by the template's hash, and reports its rollout
    The pods count as available minReadySeconds (10 s) after they became Ready, so the
    Deployment is not Available 9 s after that and is 11 s after. Both moments are counted
    from the pods' Ready time, as IsPodAvailable counts, and not from the end of the checks
    before them: on a real clock those end seconds later. The API keeps that time to the
    whole second, so a real clock cannot look at the 10 s instant itself; the next scenario
    does, on a virtual clock.
    When I create this object:
      """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
      spec:
        replicas: 3
        minReadySeconds: 10
        selector:
          matchLabels: { app: web }
        template:
          metadata:
            labels: { app: web }
          spec:
            containers:
              - name: nginx
                image: nginx:1.14
      """
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | ready | available | image      |
      | 1        | 3        | 3     | 0         | nginx:1.14 |
    And every pod of deployment "web" carries the pod-template-hash of its ReplicaSet, which is named after it
    And the deployment "web" has annotation "deployment.kubernetes.io/revision" = "1"
    And the deployment "web" has:
      | spec.strategy.type                         | RollingUpdate |
      | spec.strategy.rollingUpdate.maxSurge       | 25%           |
      | spec.strategy.rollingUpdate.maxUnavailable | 25%           |
      | spec.revisionHistoryLimit                  | 10            |
      | spec.progressDeadlineSeconds               | 600           |
      | status.observedGeneration                  | 1             |
      | status.replicas                            | 3             |
      | status.updatedReplicas                     | 3             |
      | status.readyReplicas                       | 3             |
      | status.availableReplicas                   | <none>        |
      | status.unavailableReplicas                 | 3             |
    And the deployment "web" has a condition Available "False" with reason "MinimumReplicasUnavailable"
    And the deployment "web" has a condition Progressing "True" with reason "ReplicaSetUpdated"
    When 9 seconds pass after the pods of deployment "web" became ready
    Then the deployment "web" has a condition Available "False" with reason "MinimumReplicasUnavailable"
    When 11 seconds pass after the pods of deployment "web" became ready
    Then the deployment "web" has:
      | status.availableReplicas   | 3      |
      | status.unavailableReplicas | <none> |
    And the deployment "web" has a condition Available "True" with reason "MinimumReplicasAvailable"
    And the deployment "web" has a condition Progressing "True" with reason "NewReplicaSetAvailable"

  @DEPLOY-STATUS @needs-virtual-time
  Scenario: A pod ready for exactly minReadySeconds is not yet available; a moment later it is
    Upstream IsPodAvailable (pkg/api/v1/pod/util.go, v1.12 and v1.32): available when the
    Ready condition's lastTransitionTime + minReadySeconds is strictly before now. Scaling
    at exactly 10 s makes the ReplicaSet count its pods at that instant: the first pod is
    not yet available; the controller looks again just after, and then it is. Only a
    virtual clock can stop at that instant: on a real one, lastTransitionTime is kept to
    the whole second and the scale lands some milliseconds after any moment it aims at,
    when upstream already counts the pod (judged there by the scenario above).
    Given a deployment "web" of 1 replica running "nginx:1.14" with:
      | minReadySeconds | 10 |
    When 10 seconds pass after the pods of deployment "web" became ready
    And I scale deployment "web" to 2 replicas
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | ready | available |
      | 1        | 2        | 2     | 0         |
    When 1 more second passes
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | ready | available |
      | 1        | 2        | 2     | 1         |

  @DEPLOY-ROLLING @DEPLOY-ROLLING-DEFAULTS
  Scenario: A new image rolls out within the default 25% surge (rounded up) and 25% unavailable (rounded down)
    # 3 replicas: maxSurge ceil(0.75) = 1 extra pod, maxUnavailable floor(0.75) = 0 pods below 3.
    Pods are ready at once and available just after minReadySeconds, so each step waits 11 s
    from the moment the last pod became Ready, as IsPodAvailable counts (on a real clock the
    checks before a step end seconds after that moment). The API keeps Ready times to the
    whole second, so the "not yet" check looks 9 s after, not at the 10 s instant itself.
    Given a deployment "web" of 3 replicas running "nginx:1.14" with:
      | minReadySeconds | 10 |
    When 11 seconds pass after the pods of deployment "web" became ready
    And I set the image of deployment "web" to "nginx:1.15"
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | available | image      |
      | 1        | 3        | 3         | nginx:1.14 |
      | 2        | 1        | 0         | nginx:1.15 |
    And the deployment "web" has annotation "deployment.kubernetes.io/revision" = "2"
    And the deployment "web" has:
      | metadata.generation       | 2 |
      | status.observedGeneration | 2 |
      | status.replicas           | 4 |
      | status.updatedReplicas    | 1 |
      | status.availableReplicas  | 3 |
    When 9 seconds pass after the pods of deployment "web" became ready
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image      |
      | 1        | 3        | nginx:1.14 |
      | 2        | 1        | nginx:1.15 |
    When 11 seconds pass after the pods of deployment "web" became ready
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | available | image      |
      | 1        | 2        | 2         | nginx:1.14 |
      | 2        | 2        | 1         | nginx:1.15 |
    When 11 seconds pass after the pods of deployment "web" became ready
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image      |
      | 1        | 1        | nginx:1.14 |
      | 2        | 3        | nginx:1.15 |
    When 11 seconds pass after the pods of deployment "web" became ready
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | available | image      |
      | 1        | 0        | 0         | nginx:1.14 |
      | 2        | 3        | 3         | nginx:1.15 |
    And deployment "web" has 3 active pods, 3 running "nginx:1.15"
    And the deployment "web" has a condition Progressing "True" with reason "NewReplicaSetAvailable"
    And the deployment "web" has a condition Available "True" with reason "MinimumReplicasAvailable"

  @DEPLOY-ROLLING
  Scenario Outline: The first step of a rollout: <surge> surge and <unavailable> unavailable of <replicas>
    Given a deployment "web" of <replicas> replicas running "nginx:1.14" with:
      | minReadySeconds                        | 10            |
      | strategy.rollingUpdate.maxSurge        | <surge>       |
      | strategy.rollingUpdate.maxUnavailable  | <unavailable> |
    When 10 seconds pass
    And I set the image of deployment "web" to "nginx:1.15"
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image      |
      | 1        | <old>    | nginx:1.14 |
      | 2        | <new>    | nginx:1.15 |

    Examples:
      | replicas | surge | unavailable | old | new |
      | 4        | 25%   | 25%         | 3   | 2   |
      | 10       | 3     | 2           | 8   | 5   |
      | 10       | 35%   | 35%         | 7   | 7   |
      | 10       | 0     | 1           | 9   | 1   |
      | 10       | 1     | 0           | 10  | 1   |
      | 10       | 0%    | 5%          | 9   | 1   |

  @DEPLOY-ROLLING
  Scenario: With two old ReplicaSets, the oldest shrinks first
    nginx:3 comes 18 s after nginx:2: revision 2's first pod is available (10 s after it is
    ready) and its second is not yet, whatever the latency of a real cluster up to 8 s. At
    exactly 10 s the first pod's availability raced the next image on a real clock: upstream
    v1.32.13 found it not yet available, scaled revision 2 down as unhealthy and gave
    revision 3 both surge places (cleanupUnhealthyReplicas).
    Given a deployment "web" of 2 replicas running "nginx:1" with:
      | minReadySeconds                       | 10 |
      | strategy.rollingUpdate.maxSurge       | 1  |
      | strategy.rollingUpdate.maxUnavailable | 0  |
    When 11 seconds pass
    And I set the image of deployment "web" to "nginx:2"
    And 18 seconds pass
    And I set the image of deployment "web" to "nginx:3"
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image   |
      | 1        | 1        | nginx:1 |
      | 2        | 1        | nginx:2 |
      | 3        | 1        | nginx:3 |
    When 11 seconds pass
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image   |
      | 1        | 0        | nginx:1 |
      | 2        | 1        | nginx:2 |
      | 3        | 2        | nginx:3 |

  @DEPLOY-ROLLING @profile-seed
  Scenario: Each resize of a ReplicaSet is an event on the Deployment (v1.12 wording)
    Given a deployment "web" of 2 replicas running "nginx:1.14" with:
      | strategy.rollingUpdate.maxSurge       | 1 |
      | strategy.rollingUpdate.maxUnavailable | 0 |
    When I set the image of deployment "web" to "nginx:1.15"
    Then the events of deployment "web" are, in order:
      | reason            | message                                      |
      | ScalingReplicaSet | Scaled up replica set {revision 1} to 2      |
      | ScalingReplicaSet | Scaled up replica set {revision 2} to 1      |
      | ScalingReplicaSet | Scaled down replica set {revision 1} to 1    |
      | ScalingReplicaSet | Scaled up replica set {revision 2} to 2      |
      | ScalingReplicaSet | Scaled down replica set {revision 1} to 0    |

  @DEPLOY-ROLLING @profile-kubernetes-1.32
  Scenario: Each resize of a ReplicaSet is an event on the Deployment (v1.32 wording)
    Given a deployment "web" of 2 replicas running "nginx:1.14" with:
      | strategy.rollingUpdate.maxSurge       | 1 |
      | strategy.rollingUpdate.maxUnavailable | 0 |
    When I set the image of deployment "web" to "nginx:1.15"
    Then the events of deployment "web" are, in order:
      | reason            | message                                           |
      | ScalingReplicaSet | Scaled up replica set {revision 1} from 0 to 2    |
      | ScalingReplicaSet | Scaled up replica set {revision 2} from 0 to 1    |
      | ScalingReplicaSet | Scaled down replica set {revision 1} from 2 to 1  |
      | ScalingReplicaSet | Scaled up replica set {revision 2} from 1 to 2    |
      | ScalingReplicaSet | Scaled down replica set {revision 1} from 1 to 0  |

  @DEPLOY-RECREATE
  Scenario: Recreate stops every old pod before the first new one starts
    Given a deployment "web" of 3 replicas running "nginx:1.14" with:
      | strategy.type | Recreate |
    And the kubelet on "n2" stops
    When I set the image of deployment "web" to "nginx:1.15"
    # The old pods on the silent node cannot be confirmed gone: no new pod yet.
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image      |
      | 1        | 0        | nginx:1.14 |
    And deployment "web" has 0 active pods
    When the kubelet on "n2" starts again
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | available | image      |
      | 1        | 0        | 0         | nginx:1.14 |
      | 2        | 3        | 3         | nginx:1.15 |
    And the deployment "web" has a condition Progressing "True" with reason "NewReplicaSetAvailable"

  @DEPLOY-ROLLBACK @DEPLOY-REVISIONS
  Scenario: Rolling back writes the old template back: its ReplicaSet becomes the newest revision
    Given a deployment "web" of 2 replicas running "nginx:1.14"
    When I set the image of deployment "web" to "nginx:1.15"
    And I set the image of deployment "web" to "nginx:1.16"
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image      |
      | 1        | 0        | nginx:1.14 |
      | 2        | 0        | nginx:1.15 |
      | 3        | 2        | nginx:1.16 |
    When I roll back deployment "web"
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image      | revision-history |
      | 1        | 0        | nginx:1.14 | <none>           |
      | 3        | 0        | nginx:1.16 | <none>           |
      | 4        | 2        | nginx:1.15 | 2                |
    And the deployment "web" has annotation "deployment.kubernetes.io/revision" = "4"
    And deployment "web" has 2 active pods, 2 running "nginx:1.15"
    When I roll back deployment "web" to revision 1
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image      |
      | 3        | 0        | nginx:1.16 |
      | 4        | 0        | nginx:1.15 |
      | 5        | 2        | nginx:1.14 |

  @DEPLOY-REVISIONS
  Scenario: revisionHistoryLimit 2 keeps the two newest scaled-down ReplicaSets
    Given a deployment "web" of 1 replica running "nginx:1.0" with:
      | revisionHistoryLimit | 2 |
    # v1.12 removes the oldest ReplicaSets first (by creation, ties by name), v1.32 the lowest revisions.
    When 1 second passes
    And I set the image of deployment "web" to each of "nginx:1.1", "nginx:1.2", "nginx:1.3", 1 second apart
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image     |
      | 2        | 0        | nginx:1.1 |
      | 3        | 0        | nginx:1.2 |
      | 4        | 1        | nginx:1.3 |

  @DEPLOY-REVISIONS
  Scenario: revisionHistoryLimit 0 keeps no old ReplicaSet
    Given a deployment "web" of 1 replica running "nginx:1.0" with:
      | revisionHistoryLimit | 0 |
    # v1.12 removes the oldest ReplicaSets first (by creation, ties by name), v1.32 the lowest revisions.
    When 1 second passes
    And I set the image of deployment "web" to each of "nginx:1.1", "nginx:1.2", 1 second apart
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image     |
      | 3        | 1        | nginx:1.2 |

  @DEPLOY-REVISIONS
  Scenario: Without a stated limit, 10 old ReplicaSets are kept
    Given a deployment "web" of 1 replica running "nginx:1.0"
    # v1.12 removes the oldest ReplicaSets first (by creation, ties by name), v1.32 the lowest revisions.
    When 1 second passes
    And I set the image of deployment "web" to each of "nginx:1.1", "nginx:1.2", "nginx:1.3", "nginx:1.4", "nginx:1.5", "nginx:1.6", "nginx:1.7", "nginx:1.8", "nginx:1.9", "nginx:1.10", 1 second apart
    Then the ReplicaSets of deployment "web" are:
      | revision | image      |
      | 1        | nginx:1.0  |
      | 2        | nginx:1.1  |
      | 3        | nginx:1.2  |
      | 4        | nginx:1.3  |
      | 5        | nginx:1.4  |
      | 6        | nginx:1.5  |
      | 7        | nginx:1.6  |
      | 8        | nginx:1.7  |
      | 9        | nginx:1.8  |
      | 10       | nginx:1.9  |
      | 11       | nginx:1.10 |
    When 1 second passes
    And I set the image of deployment "web" to "nginx:1.11"
    Then the ReplicaSets of deployment "web" have revisions 2 to 12

  @DEPLOY-STATUS @DEPLOY-PROGRESS-DEADLINE
  Scenario: A rollout that makes no progress for progressDeadlineSeconds is reported as stuck
    The first rollout is awaited before the kubelets stop: on a real clock it is still under
    way a moment after the Deployment is created (found on upstream v1.32.13, where the new
    image raced the first rollout). The 30 s are counted from the condition's lastUpdateTime,
    as DeploymentTimedOut (deployment_util.go) counts, not from the end of the check before.
    Upstream looks again one second after the deadline (requeueStuckDeployment), so on a
    real clock the 30 s instant is still "updated" although the time is kept to the second.
    Which reason the stuck rollout shows is a race in upstream: the sync that creates the new
    ReplicaSet writes NewReplicaSetCreated (getNewReplicaSet), its status write then conflicts,
    and the next sync says ReplicaSetUpdated only if the new ReplicaSet's pod was not yet
    counted by then (DeploymentProgressing: updatedReplicas grew); where the ReplicaSet
    controller was first, no progress is ever seen again and NewReplicaSetCreated stays
    (upstream v1.32.13 at load 46: the thirteenth and twenty-second full runs). Either way
    the deadline counts from the condition's lastUpdateTime.
    Given a deployment "web" of 2 replicas running "nginx:1.14" with:
      | progressDeadlineSeconds | 30 |
    Then the deployment "web" has a condition Progressing "True" with reason "NewReplicaSetAvailable"
    Given the kubelet on "n1" stops
    And the kubelet on "n2" stops
    When I set the image of deployment "web" to "nginx:1.15"
    Then the deployment "web" has a condition Progressing "True" with reason "ReplicaSetUpdated" or "NewReplicaSetCreated"
    When 30 seconds pass after the deployment "web" condition Progressing was last updated
    Then the deployment "web" has a condition Progressing "True" with reason "ReplicaSetUpdated" or "NewReplicaSetCreated"
    When 1 more second passes
    Then the deployment "web" has a condition Progressing "False" with reason "ProgressDeadlineExceeded"
    And the deployment "web" has a condition Available "True" with reason "MinimumReplicasAvailable"

  @DEPLOY-VALIDATION
  Scenario Outline: A rolling update that could never progress is refused: <why>
    The bad value prints as Go's %#v of an intstr.IntOrString: its String() has a pointer
    receiver, so field.Error's ErrorBody does not see a fmt.Stringer (found on upstream v1.32.13;
    the same code in v1.12).
    When I try to create this object:
      """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
      spec:
        selector:
          matchLabels: { app: web }
        strategy:
          rollingUpdate: { maxSurge: <surge>, maxUnavailable: <unavailable> }
        template:
          metadata:
            labels: { app: web }
          spec:
            containers:
              - name: nginx
                image: nginx:1.14
      """
    Then the request fails with 422 Invalid
    And the refusal names field "spec.strategy.rollingUpdate.maxUnavailable": <message>

    Examples:
      | why                        | surge | unavailable | message                                                                                   |
      | both 0                     | 0     | 0           | Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0     |
      | both 0%                    | "0%"  | "0%"        | Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when `maxSurge` is 0   |
      | more than 100% unavailable | 1     | "101%"      | Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%    |

  @DEPLOY-STATUS @needs-http
  Scenario: kubectl rollout status follows a rollout to its end
    Given a deployment "web" of 3 replicas running "nginx:1.14" with:
      | minReadySeconds | 10 |
    When 11 seconds pass
    And I set the image of deployment "web" to "nginx:1.15"
    And I start "kubectl rollout status deployment/web" in the background
    Then the background kubectl prints a line matching "Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated\.\.\."
    When 11 seconds pass
    Then the background kubectl prints a line matching "Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated\.\.\."
    When 11 seconds pass
    Then the background kubectl prints a line matching "Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination\.\.\."
    When 11 seconds pass
    Then the background kubectl prints a line matching "deployment "web" successfully rolled out"

  @DEPLOY-REVISIONS @profile-seed
  Scenario: Over the limit, v1.12 deletes the oldest ReplicaSet by creation, even one a rollback made recent
    Given a deployment "web" of 1 replica running "nginx:1" with:
      | revisionHistoryLimit | 1 |
    When 1 second passes
    And I set the image of deployment "web" to "nginx:2"
    And 1 second passes
    And I roll back deployment "web"
    And 1 second passes
    And I set the image of deployment "web" to "nginx:3"
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image   |
      | 2        | 0        | nginx:2 |
      | 4        | 1        | nginx:3 |

  @DEPLOY-REVISIONS @profile-kubernetes-1.32
  Scenario: Over the limit, v1.32 deletes the lowest revision first
    Given a deployment "web" of 1 replica running "nginx:1" with:
      | revisionHistoryLimit | 1 |
    When 1 second passes
    And I set the image of deployment "web" to "nginx:2"
    And 1 second passes
    And I roll back deployment "web"
    And 1 second passes
    And I set the image of deployment "web" to "nginx:3"
    Then the ReplicaSets of deployment "web" are:
      | revision | replicas | image   |
      | 3        | 0        | nginx:1 |
      | 4        | 1        | nginx:3 |
