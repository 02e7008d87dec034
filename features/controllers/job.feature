Feature: A Job runs its pods to completion
  The Job controller creates pods for a task and keeps min(parallelism, completions −
  succeeded) of them active; when `completions` pods have succeeded it marks the Job
  Complete, and when more pods have failed than backoffLimit it marks it Failed
  (BackoffLimitExceeded) and stops the rest. The hollow kubelet ends a pod's containers
  after the time its annotation `kubespec.io/run-seconds` asks for, with the exit code of
  `kubespec.io/exit-code` (default 0). The pods here name their node, so no scheduler is needed.
  Source: 000 §2.4 "控制器模式" (the Job example). Upstream: syncJob, manageJob
  (pkg/controller/job/job_controller.go), SetDefaults_Job, job strategy PrepareForCreate.

  Background:
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"

  @CTRL-JOB @CTRL-OWNERSHIP
  Scenario: Three completions, two at a time, then Complete
    Times are relative to the cluster's clock (<now>): a real cluster has no fixed epoch
    (found on upstream v1.32.13, where the absolute 2025-01-01 times could not hold). From
    startTime to completionTime is two waves of 10 s pods: exactly 20 s on a virtual clock,
    at least 20 s on a real one, where every wave also waits for the controller to see the
    last pod finish and for the kubelet to start the next (upstream bounds neither; found on
    v1.32.13 on a loaded machine, where the check "startTime 20 s ago" missed).
    When I create this object:
      """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: pi
      spec:
        completions: 3
        parallelism: 2
        template:
          metadata:
            annotations: { kubespec.io/run-seconds: "10" }
          spec:
            nodeName: n1
            restartPolicy: Never
            containers:
              - name: pi
                image: perl
      """
    Then job "pi" controls 2 active pods
    And every pod of job "pi" has:
      | metadata.ownerReferences[0].apiVersion | batch/v1 |
      | metadata.ownerReferences[0].kind       | Job      |
      | metadata.ownerReferences[0].name       | pi       |
      | metadata.ownerReferences[0].controller | true     |
      | metadata.labels.job-name               | pi       |
    And the job "pi" has:
      | spec.backoffLimit | 6        |
      | status.active     | 2        |
      | status.succeeded  | <none>   |
    When 9 seconds pass after the pods of job "pi" started
    Then the job "pi" has:
      | status.active    | 2      |
      | status.succeeded | <none> |
    When 1 second passes
    Then the job "pi" has:
      | status.active    | 1 |
      | status.succeeded | 2 |
    And the job "pi" has no condition Complete
    When 10 seconds pass
    Then the job "pi" has:
      | status.active         | <none>               |
      | status.succeeded      | 3                    |
      | status.completionTime | <now>                |
    And the job "pi" took 20 seconds from status.startTime to status.completionTime
    And the job "pi" has a condition Complete "True"
    And 3 pods of job "pi" have status.phase "Succeeded"

  @CTRL-JOB
  Scenario: Failures beyond backoffLimit fail the Job
    When I create this object:
      """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: flaky
      spec:
        backoffLimit: 1
        template:
          metadata:
            annotations: { kubespec.io/run-seconds: "5", kubespec.io/exit-code: "1" }
          spec:
            nodeName: n1
            restartPolicy: Never
            containers:
              - name: main
                image: busybox
      """
    And 5 seconds pass
    Then the job "flaky" has:
      | status.failed | 1 |
      | status.active | 1 |
    And the job "flaky" has no condition Failed
    When 5 seconds pass
    Then the job "flaky" has a condition Failed "True" with reason "BackoffLimitExceeded"
    And the job "flaky" has:
      | status.failed | 2      |
      | status.active | <none> |
    And job "flaky" controls 0 active pods

  @CTRL-JOB @API-VALIDATION @profile-seed
  Scenario: A Job's pods must not restart Always (the seed's wording)
    When I try to create this object:
      """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: bad
      spec:
        template:
          spec:
            containers:
              - name: main
                image: busybox
      """
    Then the request fails with 422 Invalid and message "Job.batch "bad" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never""

  @CTRL-JOB @API-VALIDATION @profile-kubernetes-1.32
  Scenario: A Job's pods must not restart Always (v1.32 wording)
    Since v1.26 ValidateJobSpec answers a defaulted or explicit Always with "Required value"
    (found by running upstream v1.32.13; "Unsupported value" is kept for other policies).
    When I try to create this object:
      """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: bad
      spec:
        template:
          spec:
            containers:
              - name: main
                image: busybox
      """
    Then the request fails with 422 Invalid and message "Job.batch "bad" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never""

  @CTRL-RECONCILE @profile-seed
  Scenario: An active pod deleted by hand is replaced (v1.12 counts only finished pods)
    When I create this object:
      """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: long
      spec:
        template:
          metadata:
            annotations: { kubespec.io/run-seconds: "600" }
          spec:
            nodeName: n1
            restartPolicy: OnFailure
            containers:
              - name: main
                image: busybox
      """
    Then job "long" controls 1 active pod
    When I delete 1 pod of job "long"
    Then job "long" controls 1 active pod
    And the job "long" has:
      | status.active | 1      |
      | status.failed | <none> |
