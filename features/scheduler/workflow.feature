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
