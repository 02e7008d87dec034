Feature: Controllers own what they create, and only that
  Objects a controller creates carry its labels and an ownerReference with controller:
  true; a controller only counts, adopts or deletes pods that have no controller or have
  it as their controller. So a Job and a ReplicationController whose pods carry the same
  labels never touch each other's pods. The garbage collector deletes dependents whose
  owners are gone (background), keeps an owner until its blocking dependents are gone
  (foreground), or strips the owner from its dependents (orphan).
  Source: 000 §2.4 "设计". Upstream: ClaimPods (controller_ref_manager.go), the job
  strategy's generated selector, attemptToDeleteItem / orphanDependents
  (pkg/controller/garbagecollector/garbagecollector.go).

  Background:
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"
    When I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata:
        name: web
      spec:
        replicas: 2
        selector: { app: shared }
        template:
          metadata:
            labels: { app: shared }
          spec:
            nodeName: n1
            containers:
              - name: nginx
                image: nginx
      """
    And I create this object:
      """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: task
      spec:
        completions: 2
        parallelism: 2
        template:
          metadata:
            labels: { app: shared }
            annotations: { kubespec.io/run-seconds: "30" }
          spec:
            nodeName: n1
            restartPolicy: Never
            containers:
              - name: main
                image: busybox
      """

  @CTRL-OWNERSHIP
  Scenario: A Job and an RC with the same pod labels keep to their own pods
    Then 4 pods are labelled "app=shared"
    And replicationcontroller "web" controls 2 active pods
    And job "task" controls 2 active pods
    When 30 seconds pass
    Then the job "task" has a condition Complete "True"
    And 2 pods of job "task" have status.phase "Succeeded"
    And replicationcontroller "web" controls 2 active pods
    And the replicationcontroller "web" has:
      | status.replicas      | 2 |
      | status.readyReplicas | 2 |

  @CTRL-OWNERSHIP
  Scenario: Deleting the Job in the background removes its pods and leaves the RC's
    When I delete the job "task" with propagation policy Background
    Then 2 pods are labelled "app=shared"
    And replicationcontroller "web" controls 2 active pods

  @CTRL-OWNERSHIP @CTRL-RECONCILE
  Scenario: An orphaned pod matching the RC's selector is adopted
    When I delete the replicationcontroller "web" with propagation policy Orphan
    Then the pods labelled "app=shared,!controller-uid" have no controller
    When I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata:
        name: web2
      spec:
        replicas: 2
        selector: { app: shared }
        template:
          metadata:
            labels: { app: shared }
          spec:
            nodeName: n1
            containers:
              - name: nginx
                image: nginx
      """
    Then replicationcontroller "web2" controls 2 active pods
    And 4 pods are labelled "app=shared"
    And job "task" controls 2 active pods
