@SCHED-POD-REQUESTS @PRED-FITS-RESOURCES
Feature: What a pod asks of a node depends on the release: sidecars and overhead count from v1.28/v1.16 on
  v1.12 sums a pod's app containers and takes, per resource, the max of that sum and each
  init container (GetResourceRequest; NodeInfo.calculateResource); scoring counts the app
  containers only, each at least 100m cpu and 200Mi memory. v1.32 reads
  component-helpers' PodRequests: an init container with restartPolicy Always is a sidecar
  that keeps running, so it adds to the app containers and to every init container started
  after it; spec.overhead is added on top; the non-zero defaults apply to init containers
  too. v1.12 has no container restartPolicy: such an init container is an ordinary one.
  Upstream: v1.12 predicates.go GetResourceRequest, schedulercache NodeInfo
  calculateResource; v1.32 k8s.io/component-helpers/resource PodRequests and
  AggregateContainerRequests, framework.NodeInfo calculateResource, noderesources
  fitsRequest.

  @profile-kubernetes-1.32
  Scenario: A sidecar's requests add to the app containers' (v1.32)
    Given a node "n1" with allocatable cpu "2", memory "4Gi" and pods "10"
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: big, namespace: default }
      spec:
        initContainers:
          - { name: proxy, image: registry.k8s.io/pause:3.9, restartPolicy: Always, resources: { requests: { cpu: 1500m } } }
        containers:
          - { name: app, image: registry.k8s.io/pause:3.9, resources: { requests: { cpu: 1 } } }
      """
    And I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: small, namespace: default }
      spec:
        initContainers:
          - { name: proxy, image: registry.k8s.io/pause:3.9, restartPolicy: Always, resources: { requests: { cpu: 500m } } }
          - { name: setup, image: registry.k8s.io/pause:3.9, resources: { requests: { cpu: 1500m } } }
        containers:
          - { name: app, image: registry.k8s.io/pause:3.9, resources: { requests: { cpu: 1 } } }
      """
    Then pod "big" is unschedulable with message "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
    And pod "small" is bound to node "n1"

  @profile-seed
  Scenario: An init container is counted alone, whatever its restartPolicy (v1.12)
    Given a node "n1" with allocatable cpu "2", memory "4Gi" and pods "10"
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: big, namespace: default }
      spec:
        initContainers:
          - { name: proxy, image: registry.k8s.io/pause:3.9, restartPolicy: Always, resources: { requests: { cpu: 1500m } } }
        containers:
          - { name: app, image: registry.k8s.io/pause:3.9, resources: { requests: { cpu: 1 } } }
      """
    Then pod "big" is bound to node "n1"
    When I create a pod "web" requesting cpu "500m" and memory "1Gi"
    Then pod "web" is bound to node "n1"

  @PRIO-LEAST-REQUESTED @profile-kubernetes-1.32
  Scenario: A resource the node has none of is left out of the least-allocated mean (v1.32)
    v1.32's resourceAllocationScorer skips a resource whose allocatable is 0, so n1 scores by
    cpu alone: (4 − 1) × 100 / 4 = 75; v1.12 would average in a 0 for memory (37).
    Given the nodes:
      | name | cpu | memory |
      | n1   | 4   | 0      |
      | n2   | 4   | 8Gi    |
    When I create a pod "web" with:
      | cpu    | 1 |
      | memory | - |
    Then the scheduler scored the nodes for pod "web":
      | node | NodeResourcesFit | NodeResourcesBalancedAllocation |
      | n1   | 75               | 100                             |
      | n2   | 86               | 87                              |

  @PRIO-BALANCED @profile-kubernetes-1.32
  Scenario: A best-effort pod is scored by balanced allocation too, on the node's own requests (v1.32)
    v1.32's NodeResourcesBalancedAllocation reads actual requests: a pod that asks nothing adds
    nothing, and n1's running pod (cpu only) leaves it unbalanced: (1 − |0.5 − 0| / 2) × 100 =
    75. Skipping best-effort pods came with v1.33.
    Given the nodes:
      | name | cpu | memory |
      | n1   | 4   | 8Gi    |
      | n2   | 4   | 8Gi    |
    And pods running:
      | name | node | cpu | memory |
      | used | n1   | 2   | -      |
    When I create a pod "web" with:
      | cpu    | - |
      | memory | - |
    Then the scheduler scored the nodes for pod "web":
      | node | NodeResourcesBalancedAllocation |
      | n1   | 75                              |
      | n2   | 100                             |
