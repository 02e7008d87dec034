@API-WORKFLOW @SCHED-BIND
Feature: A created pod is scheduled, bound and run
  The master workflow end to end: a client creates a pod; the scheduler, watching pods
  without spec.nodeName, picks a node and POSTs a Binding (pods/{name}/binding), which sets
  spec.nodeName and PodScheduled=True; the kubelet of that node sees the pod bound to it,
  runs it and reports Running with an IP. The scheduler records a "Scheduled" event
  "Successfully assigned <namespace>/<name> to <node>".
  Source: 002 §5.1 (Scheduler 承上启下), §3.3 (kube-scheduler与API Server交互).
  Upstream: scheduler.scheduleOne / bind (pkg/scheduler/scheduler.go),
  BindingREST.Create (pkg/registry/core/pod/storage), kubelet syncPod.

  @upstream-smoke
  Scenario: A pod goes from Pending to Running on the node the scheduler chose
    Given the nodes:
      | name | cpu | memory | podCIDR       |
      | n1   | 2   | 4Gi    | 10.244.1.0/24 |
    When I create a pod "web" requesting cpu "100m" and memory "64Mi"
    Then pod "web" is bound to node "n1"
    And pod "web" is Running on node "n1"
    And the pod "web" has:
      | status.conditions[3].type   | PodScheduled |
      | status.conditions[3].status | True         |
      | status.podIP                | 10.244.1.2   |
    And the events of pod "web" include:
      | type   | reason    | message                                  | from              |
      | Normal | Scheduled | Successfully assigned default/web to n1  | default-scheduler |
      | Normal | Started   | Started container app                    | kubelet           |

  Scenario: A pod for another scheduler is left alone
    Given the nodes:
      | name |
      | n1   |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: custom, namespace: default }
      spec:
        schedulerName: my-scheduler
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    And 1 minute passes
    Then pod "custom" is Pending
    And the pod "custom" has:
      | spec.nodeName | <none> |

  Scenario: A pod is bound only through its Binding: an update that sets spec.nodeName is refused
    spec.nodeName may be given at creation, and afterwards only pods/binding sets it: a pod
    update (or patch) that changes it is refused as any other spec change (upstream
    ValidatePodUpdate; BindingREST writes it through the storage, past the update rules).
    Given the nodes:
      | name |
      | n1   |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: custom, namespace: default }
      spec:
        schedulerName: my-scheduler
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    And I try to patch the pod "custom" with:
      """
      spec: { nodeName: n1 }
      """
    Then the request fails with 422 Invalid and a cause "FieldValueForbidden" on field "spec" beginning "Forbidden: pod updates may not change fields other than `spec.containers[*].image`"
    And the pod "custom" has:
      | spec.nodeName | <none> |
    When I try to bind pod "custom" to node "n1"
    Then pod "custom" is bound to node "n1"

  Scenario: A Binding for a pod that already has a node is refused with 409 Conflict
    A pod is bound once: binding it again (to any node) is a conflict and leaves it where it is.
    Given ready nodes "n1", "n2"
    And a pod "web" running on node "n1"
    When I try to bind pod "web" to node "n2"
    Then the request fails with 409 Conflict and message "Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "n1""
    And pod "web" is Running on node "n1"

  Scenario Outline: The kubelet has a container's image before it starts it, pulling it by the image's pull policy
    The seed: the kubelet sees the binding, gets the pod's manifest, downloads the image and
    starts the containers. The API defaults imagePullPolicy (Always for an untagged or
    :latest image, else IfNotPresent); the kubelet pulls an Always image every time, an
    IfNotPresent one only when its machine lacks it, a Never one never: a Never image the
    machine lacks keeps the container waiting (ErrImageNeverPull) and the pod Pending. A new
    machine has no images. The Pulled message says the pull's durations and the image's size
    since v1.30, any value of them ("…") as the runtime measured.
    Upstream: SetDefaults_Container; kubelet EnsureImageExists and shouldPullImage
    (pkg/kubelet/images/image_manager.go).
    Given the nodes:
      | name | podCIDR       |
      | n1   | 10.244.1.0/24 |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: first, namespace: default }
      spec:
        containers: [{ name: app, image: "nginx:1.27" }]
      """
    Then pod "first" is Running on node "n1"
    And the pod "first" has:
      | spec.containers[0].imagePullPolicy | IfNotPresent |
    And the events of pod "first" include:
      | type   | reason  | message                 | from    |
      | Normal | Pulling | <pulling> "nginx:1.27"  | kubelet |
      | Normal | Pulled  | <pulled>                | kubelet |
      | Normal | Created | Created container app   | kubelet |
      | Normal | Started | Started container app   | kubelet |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: second, namespace: default }
      spec:
        containers: [{ name: app, image: "nginx:1.27" }]
      """
    Then pod "second" is Running on node "n1"
    And the events of pod "second" include:
      | type   | reason  | message                                            | from    |
      | Normal | Pulled  | Container image "nginx:1.27" already present on machine | kubelet |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: latest, namespace: default }
      spec:
        containers: [{ name: app, image: nginx }]
      """
    Then pod "latest" is Running on node "n1"
    And the pod "latest" has:
      | spec.containers[0].imagePullPolicy | Always |
    And the events of pod "latest" include:
      | type   | reason  | message             | from    |
      | Normal | Pulling | <pulling> "nginx"   | kubelet |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: again, namespace: default }
      spec:
        containers: [{ name: app, image: nginx }]
      """
    Then pod "again" is Running on node "n1"
    And the events of pod "again" include:
      | type   | reason  | message             | from    |
      | Normal | Pulling | <pulling> "nginx"   | kubelet |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: never, namespace: default }
      spec:
        containers: [{ name: app, image: "redis:7", imagePullPolicy: Never }]
      """
    And 10 seconds pass
    Then pod "never" is Pending
    And the pod "never" has:
      | spec.nodeName                                       | n1                                                       |
      | status.containerStatuses[0].state.waiting.reason    | ErrImageNeverPull                                        |
      | status.containerStatuses[0].state.waiting.message   | Container image "redis:7" is not present with pull policy of Never |
    And the events of pod "never" include:
      | type    | reason            | message                                                        | from    |
      | Warning | ErrImageNeverPull | Container image "redis:7" is not present with pull policy of Never | kubelet |

    @profile-seed
    Examples: v1.12
      | pulling       | pulled                                   |
      | pulling image | Successfully pulled image "nginx:1.27" |

    @profile-kubernetes-1.32
    Examples: v1.32
      | pulling       | pulled                                                                                   |
      | Pulling image | Successfully pulled image "nginx:1.27" in … (… including waiting). Image size: … bytes. |
