@SCHED-GATES
Feature: A pod with scheduling gates waits unscheduled until its last gate is removed
  Since v1.26 (GA v1.30) a pod may carry spec.schedulingGates: while any gate remains the
  scheduler does not try it (the SchedulingGates plugin's PreEnqueue holds it out of the
  queue: no attempt, no FailedScheduling event), and the API server gives the new pod the
  condition PodScheduled=False reason SchedulingGated, message "Scheduling is blocked due to
  non-empty scheduling gates". Gates may only be removed after creation; a pod naming a node
  may not have gates. v1.12 has no such field: its API server drops it as an unknown field
  and the pod is scheduled at once.
  Upstream: v1.32 plugins/schedulinggates SchedulingGates.PreEnqueue; pkg/registry/core/pod
  strategy.go applySchedulingGatedCondition; pkg/apis/core/validation ValidatePodCreate,
  validateSchedulingGates, validateOnlyDeletedSchedulingGates (ValidatePodUpdate).

  @profile-kubernetes-1.32
  Scenario: A gated pod stays Pending with the SchedulingGated condition and is scheduled once its gates are gone
    Given the nodes:
      | name |
      | n1   |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: gated, namespace: default }
      spec:
        schedulingGates: [{ name: example.com/quota }, { name: example.com/zone }]
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    And 1 minute passes
    Then pod "gated" is Pending
    And the pod "gated" has:
      | spec.nodeName                 | <none>                                                  |
      | status.conditions[0].type     | PodScheduled                                            |
      | status.conditions[0].status   | False                                                   |
      | status.conditions[0].reason   | SchedulingGated                                         |
      | status.conditions[0].message  | Scheduling is blocked due to non-empty scheduling gates |
    And the scheduler recorded no event for pod "gated"
    When I patch the pod "gated" with:
      """
      spec: { schedulingGates: [{ name: example.com/zone }] }
      """
    And 1 minute passes
    Then pod "gated" is Pending
    And the scheduler recorded no event for pod "gated"
    When I patch the pod "gated" with:
      """
      spec: { schedulingGates: null }
      """
    Then pod "gated" is bound to node "n1"

  @profile-kubernetes-1.32
  Scenario: Gates may only be removed, and a pod naming its node may have none
    Given the nodes:
      | name |
      | n1   |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: gated, namespace: default }
      spec:
        schedulingGates: [{ name: example.com/quota }]
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    And I try to patch the pod "gated" with:
      """
      spec: { schedulingGates: [{ name: example.com/quota }, { name: example.com/zone }] }
      """
    Then the request fails with a cause "FieldValueForbidden" on field "spec.schedulingGates[1].name" saying "Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/zone'"
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: pinned, namespace: default }
      spec:
        nodeName: n1
        schedulingGates: [{ name: example.com/quota }, { name: example.com/quota }, { name: -bad }]
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then the request fails with 422 Invalid
    And the request fails with a cause "FieldValueForbidden" on field "spec.nodeName" saying "Forbidden: cannot be set until all schedulingGates have been cleared"
    And the request fails with a cause "FieldValueDuplicate" on field "spec.schedulingGates[1]" saying "Duplicate value: \"example.com/quota\""
    And the request fails with a cause "FieldValueInvalid" on field "spec.schedulingGates[2]" saying "Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"

  @profile-seed
  Scenario: v1.12 drops the unknown field and schedules the pod at once
    Given the nodes:
      | name |
      | n1   |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: gated, namespace: default }
      spec:
        schedulingGates: [{ name: example.com/quota }]
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "gated" is bound to node "n1"
    And the pod "gated" has:
      | spec.schedulingGates | <none> |
