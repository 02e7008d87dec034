@PRIO-IMAGE-LOCALITY
Feature: Image locality favours a node that already holds the pod's images, scaled by how widely they are spread
  For each container image the node reports in status.images, its size × (nodes that have
  it ÷ all nodes) is summed; the sum is mapped from [23 MiB, 1000 MiB] onto 0–10 (v1.12
  ImageLocalityPriority, app containers, in the DefaultProvider since v1.12) or from
  [23 MiB, 1000 MiB × containers] onto 0–100 (v1.32 ImageLocality, init containers too),
  weight 1 in both. An image without a tag is ":latest".
  Upstream: v1.12 priorities/image_locality.go ImageLocalityPriorityMap, calculatePriority,
  sumImageScores, scaledImageScore, normalizedImageName; v1.32
  plugins/imagelocality/image_locality.go Score, calculatePriority.

  Background:
    Given the nodes:
      | name |
      | n1   |
      | n2   |
      | n3   |
    When I patch the node "n1" status with:
      """
      status: { images: [{ names: [registry.example/big:1.0], sizeBytes: 1258291200 }] }
      """

  @profile-seed
  Scenario: 1200 MiB on one node of three counts as 400 MiB: 10 × (400 − 23) / 977 = 3 (v1.12)
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default }
      spec:
        containers: [{ name: app, image: registry.example/big:1.0 }]
      """
    Then the scheduler scored the nodes for pod "web":
      | node | ImageLocalityPriority |
      | n1   | 3                     |
      | n2   | 0                     |
      | n3   | 0                     |
    And pod "web" is bound to node "n1"

  @profile-kubernetes-1.32
  Scenario: 1200 MiB on one node of three counts as 400 MiB: 100 × (400 − 23) / 977 = 38 (v1.32)
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default }
      spec:
        containers: [{ name: app, image: registry.example/big:1.0 }]
      """
    Then the scheduler scored the nodes for pod "web":
      | node | ImageLocality |
      | n1   | 38            |
      | n2   | 0             |
      | n3   | 0             |
    And pod "web" is bound to node "n1"

  @profile-kubernetes-1.32
  Scenario: v1.32 counts init containers and raises the ceiling per container: 100 × (400 − 23) / (2000 − 23) = 19
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default }
      spec:
        initContainers: [{ name: fetch, image: registry.example/big:1.0 }]
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then the scheduler scored the nodes for pod "web":
      | node | ImageLocality |
      | n1   | 19            |
      | n2   | 0             |
      | n3   | 0             |
