Feature: An Endpoints object holds at most 1000 addresses from v1.19 on
  v1.32's endpoints controller keeps at most maxCapacity (1000) addresses in one Endpoints
  object: ready ones first, each subset its proportional share, and it marks the object
  with endpoints.kubernetes.io/over-capacity: truncated (truncateEndpoints); the
  EndpointSlices carry the full set. v1.12 has no cap and no annotation. The service is
  created once the 1001 pods are Ready, so its Endpoints are computed once from ready
  addresses. A fixed 30 s was not: on upstream v1.32.13 the 1001 pods were Ready some 50 s
  after the controller was created on a quiet machine (kube-controller-manager creates pods
  at its --kube-api-qps, 20/s), and later under load, so the first check saw fewer.
  Upstream: syncService, truncateEndpoints, capacityAnnotationSetCorrectly
  (pkg/controller/endpoint/endpoints_controller.go, v1.32; v1.12 for the seed).

  Background:
    Given the flag "--allocate-node-cidrs" is "true"
    And the flag "--cluster-cidr" is "10.244.0.0/16"
    And ready nodes "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10"
    When I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata: { name: many }
      spec:
        replicas: 1001
        selector: { app: many }
        template:
          metadata: { labels: { app: many } }
          spec:
            containers: [{ name: c, image: pause }]
      """
    And every pod of replicationcontroller "many" is Ready
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: many }
      spec:
        selector: { app: many }
        ports: [{ port: 80 }]
      """

  @EP-CAPACITY @profile-kubernetes-1.32
  Scenario: v1.32 truncates 1001 ready addresses to 1000 and says so
    Then the endpoints "many" has 1000 items in subsets[0].addresses
    And the endpoints "many" has annotation "endpoints.kubernetes.io/over-capacity" = "truncated"
    When I scale replicationcontroller "many" to 1000 replicas
    Then the endpoints "many" has 1000 items in subsets[0].addresses
    And the endpoints "many" has no annotation "endpoints.kubernetes.io/over-capacity"

  @EP-CAPACITY @profile-seed
  Scenario: v1.12 keeps all 1001 addresses, with no annotation
    Then the endpoints "many" has 1001 items in subsets[0].addresses
    And the endpoints "many" has no annotation "endpoints.kubernetes.io/over-capacity"
