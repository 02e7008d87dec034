Feature: ResourceQuota caps a namespace's totals; the quota controller keeps usage true
  ResourceQuota admission refuses a new object that would take any tracked total of its
  namespace past the quota's hard limit, with upstream's message naming what was
  requested, used and limited; when a quota tracks cpu or memory, every container must
  state them. Admission raises status.used as it admits; the quota controller recounts
  status.used from what exists — when objects go, when pods finish, and every
  --resource-quota-sync-period — so usage stays true.
  Source: 002 §4.3 "ResourceQuota Controller", §2.2. Upstream: quotaEvaluator.checkRequest
  (plugin/pkg/admission/resourcequota/controller.go), podEvaluator.Constraints and
  PodUsageFunc (pkg/quota/v1/evaluator/core/pods.go), syncResourceQuota
  (pkg/controller/resourcequota/resource_quota_controller.go).

  Background:
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"
    When I create this object:
      """
      apiVersion: v1
      kind: Namespace
      metadata: { name: test }
      """
    And I create this object:
      """
      apiVersion: v1
      kind: ResourceQuota
      metadata: { name: quota, namespace: test }
      spec:
        hard: { pods: "2", services: "1", replicationcontrollers: "1" }
      """
    # The quota is in force once the controller has filled in status.hard: admission matches a
    # quota by what its status says it tracks (generic Matches and checkQuotas read
    # quota.ResourceNames(resourceQuota.Status.Hard), v1.12 and v1.32), so an object created
    # before the controller's first sync is neither limited nor counted until the next full
    # recount (found on upstream v1.32.13 under load: used.pods stayed 0).
    Then the resourcequota "quota" in namespace "test" is in force

  @QUOTA-STATUS
  Scenario: The controller fills in status.hard and status.used
    Then the resourcequota "quota" in namespace "test" has:
      | status.hard.pods                   | 2 |
      | status.used.pods                   | 0 |
      | status.used.services               | 0 |
      | status.used.replicationcontrollers | 0 |

  @QUOTA-ADMISSION @QUOTA-STATUS
  Scenario: Pods up to the limit are admitted, the next one is refused
    When I create a pod "p1" in namespace "test"
    And I create a pod "p2" in namespace "test"
    Then the resourcequota "quota" in namespace "test" has:
      | status.used.pods | 2 |
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: p3, namespace: test }
      spec:
        containers: [{ name: c, image: busybox }]
      """
    Then the request fails with 403 Forbidden and message "pods "p3" is forbidden: exceeded quota: quota, requested: pods=1, used: pods=2, limited: pods=2"
    When I delete the pod "p1" in namespace "test"
    Then the resourcequota "quota" in namespace "test" has:
      | status.used.pods | 1 |
    When I create a pod "p3" in namespace "test"
    Then the resourcequota "quota" in namespace "test" has:
      | status.used.pods | 2 |

  @QUOTA-ADMISSION
  Scenario: Services and replication controllers are counted too
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: s1, namespace: test }
      spec:
        ports: [{ port: 80 }]
      """
    And I try to create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: s2, namespace: test }
      spec:
        ports: [{ port: 80 }]
      """
    Then the request fails with 403 Forbidden and message "services "s2" is forbidden: exceeded quota: quota, requested: services=1, used: services=1, limited: services=1"
    When I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata: { name: web, namespace: test }
      spec:
        replicas: 3
        template:
          metadata:
            labels: { app: web }
          spec:
            containers: [{ name: c, image: nginx }]
      """
    Then replicationcontroller "web" in namespace "test" controls 2 active pods
    And the replicationcontroller "web" in namespace "test" has a condition ReplicaFailure "True" with reason "FailedCreate"
    And the resourcequota "quota" in namespace "test" has:
      | status.used.replicationcontrollers | 1 |
      | status.used.pods                   | 2 |
      | status.used.services               | 1 |

  @QUOTA-ADMISSION
  Scenario: Compute quota: requests within the limit pass, beyond it are refused
    When I create this object:
      """
      apiVersion: v1
      kind: ResourceQuota
      metadata: { name: compute, namespace: test }
      spec:
        hard: { cpu: "1", memory: 2Gi }
      """
    Then the resourcequota "compute" in namespace "test" is in force
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: small, namespace: test }
      spec:
        containers:
          - name: c
            image: busybox
            resources: { requests: { cpu: 600m, memory: 1Gi } }
      """
    Then the resourcequota "compute" in namespace "test" has:
      | status.used.cpu    | 600m |
      | status.used.memory | 1Gi  |
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: big, namespace: test }
      spec:
        containers:
          - name: c
            image: busybox
            resources: { requests: { cpu: 500m, memory: 1Gi } }
      """
    Then the request fails with 403 Forbidden and message "pods "big" is forbidden: exceeded quota: compute, requested: cpu=500m, used: cpu=600m, limited: cpu=1"
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: fits, namespace: test }
      spec:
        containers:
          - name: c
            image: busybox
            resources: { requests: { cpu: 400m, memory: 1Gi } }
      """
    Then the resourcequota "compute" in namespace "test" has:
      | status.used.cpu    | 1   |
      | status.used.memory | 2Gi |

  @QUOTA-ADMISSION @profile-seed
  Scenario: (v1.12) A container without the tracked requests is refused
    When I create this object:
      """
      apiVersion: v1
      kind: ResourceQuota
      metadata: { name: compute, namespace: test }
      spec:
        hard: { requests.cpu: "1", limits.memory: 1Gi }
      """
    Then the resourcequota "compute" in namespace "test" is in force
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: bare, namespace: test }
      spec:
        containers: [{ name: c, image: busybox }]
      """
    Then the request fails with 403 Forbidden and message "pods "bare" is forbidden: failed quota: compute: must specify limits.memory,requests.cpu"

  @QUOTA-ADMISSION @profile-kubernetes-1.32
  Scenario: (v1.32) A container without the tracked requests is refused, naming the containers
    When I create this object:
      """
      apiVersion: v1
      kind: ResourceQuota
      metadata: { name: compute, namespace: test }
      spec:
        hard: { requests.cpu: "1", limits.memory: 1Gi }
      """
    Then the resourcequota "compute" in namespace "test" is in force
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: bare, namespace: test }
      spec:
        containers: [{ name: c, image: busybox }]
      """
    Then the request fails with 403 Forbidden and message "pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: c; requests.cpu for: c"

  @QUOTA-STATUS
  Scenario: A pod that finishes no longer counts
    The pod runs 30 s, long enough for a real clock to see it counted first.
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: once, namespace: test, annotations: { kubespec.io/run-seconds: "30" } }
      spec:
        nodeName: n1
        restartPolicy: Never
        containers: [{ name: c, image: busybox }]
      """
    Then the resourcequota "quota" in namespace "test" has:
      | status.used.pods | 1 |
    When 30 seconds pass
    Then pod "once" in namespace "test" is Succeeded
    And the resourcequota "quota" in namespace "test" has:
      | status.used.pods | 0 |

  @QUOTA-STATUS @CTRL-RECONCILE
  Scenario: Usage tampered with is recounted at the next resync
    # Both profiles resync quotas every --resource-quota-sync-period of 5 minutes.
    When I create a pod "p1" in namespace "test"
    And I patch the resourcequota "quota" in namespace "test" status with:
      """
      status:
        used: { pods: "0" }
      """
    Then the resourcequota "quota" in namespace "test" has:
      | status.used.pods | 0 |
    When 4 minutes pass
    Then the resourcequota "quota" in namespace "test" has:
      | status.used.pods | 0 |
    When 1 minute passes
    Then the resourcequota "quota" in namespace "test" has:
      | status.used.pods | 1 |
