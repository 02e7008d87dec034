Feature: EndpointSlices follow a service's pods (v1.32)
  From v1.21 the controller manager also keeps discovery.k8s.io/v1 EndpointSlices. For every
  Service with a selector the EndpointSlice controller writes slices of addressType IPv4,
  labelled kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by:
  endpointslice-controller.k8s.io and owned by the Service, at most 100 endpoints a slice
  (--max-endpoints-per-slice). Each endpoint carries its pod's readiness: serving is the
  pod's Ready condition, terminating its deletionTimestamp, ready is serving and not
  terminating (or always, with publishNotReadyAddresses); terminating pods stay listed.
  The EndpointSliceMirroring controller copies the hand-written Endpoints of a Service
  without a selector into slices managed by endpointslicemirroring-controller.k8s.io.
  v1.12 has neither the API nor the controllers.
  Upstream: pkg/controller/endpointslice (syncService; reconciler.go reconcile; utils.go
  podToEndpoint, setEndpointSliceLabels) and pkg/controller/endpointslicemirroring at v1.32.

  Background:
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"

  @EP-SLICES @profile-kubernetes-1.32
  Scenario: A service's slice lists its pods and follows their readiness
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: a, labels: { app: web } }
      spec:
        nodeName: n1
        containers: [{ name: c, image: nginx, ports: [{ name: http, containerPort: 8080 }] }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: web, labels: { tier: front } }
      spec:
        selector: { app: web }
        ports: [{ name: http, port: 80, targetPort: http }]
      """
    Then service "web" has 1 endpoint slices
    And every one of the endpoint slices of service "web" has:
      | addressType                              | IPv4                            |
      | label kubernetes.io/service-name         | web                             |
      | label endpointslice.kubernetes.io/managed-by | endpointslice-controller.k8s.io |
      | label tier                               | front                           |
      | metadata.ownerReferences[0].kind                  | Service                         |
      | metadata.ownerReferences[0].name                  | web                             |
      | ports[0].name                            | http                            |
      | ports[0].port                            | 8080                            |
    And the endpoint slices of service "web" hold the endpoints:
      | address    | ready | serving | terminating |
      | 10.244.1.2 | true  | true    | false       |
    When I patch the pod "a" status with:
      """
      status:
        conditions: [{ type: Ready, status: "False" }]
      """
    Then the endpoint slices of service "web" hold the endpoints:
      | address    | ready | serving | terminating |
      | 10.244.1.2 | false | false   | false       |
    When I patch the service "web" with:
      """
      spec: { publishNotReadyAddresses: true }
      """
    Then the endpoint slices of service "web" hold the endpoints:
      | address    | ready | serving | terminating |
      | 10.244.1.2 | true  | false   | false       |
    When I delete the service "web"
    Then service "web" has 0 endpoint slices

  @EP-SLICES @profile-kubernetes-1.32
  Scenario: A service without pods keeps one empty slice; 101 pods need two slices of at most 100
    The pods are awaited before the 30 s: on upstream under load 40, 50 of the 101 were Ready
    30 s after the controller was made (thirteenth full run; 7 in the tenth).
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: many }
      spec:
        selector: { app: many }
        ports: [{ port: 80 }]
      """
    Then service "many" has 1 endpoint slices
    And the endpoint slices of service "many" hold the endpoints:
      | address |
    When I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata: { name: many }
      spec:
        replicas: 101
        selector: { app: many }
        template:
          metadata: { labels: { app: many } }
          spec:
            containers: [{ name: c, image: pause }]
      """
    And every pod of replicationcontroller "many" is Ready
    And 30 seconds pass
    Then the endpoints "many" has 101 items in subsets[0].addresses
    And service "many" has 2 endpoint slices

  @EP-SLICE-MIRRORING @profile-kubernetes-1.32
  Scenario: The Endpoints of a service without a selector are mirrored into a slice
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: external }
      spec:
        ports: [{ name: db, port: 5432 }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Endpoints
      metadata: { name: external }
      subsets:
        - addresses: [{ ip: 192.168.0.7 }]
          notReadyAddresses: [{ ip: 192.168.0.8 }]
          ports: [{ name: db, port: 5432 }]
      """
    Then service "external" has 1 mirrored endpoint slices
    And service "external" has 0 endpoint slices
    And every one of the mirrored endpoint slices of service "external" has:
      | label endpointslice.kubernetes.io/managed-by | endpointslicemirroring-controller.k8s.io |
      | metadata.ownerReferences[0].kind                      | Endpoints                                |
      | ports[0].port                                | 5432                                     |
    And the mirrored endpoint slices of service "external" hold the endpoints:
      | address     | ready |
      | 192.168.0.7 | true  |
      | 192.168.0.8 | false |
    When I patch the endpoints "external" with:
      """
      metadata:
        labels: { endpointslice.kubernetes.io/skip-mirror: "true" }
      """
    Then service "external" has 0 mirrored endpoint slices

  @EP-SLICES @EP-SLICE-MIRRORING @profile-seed
  Scenario: v1.12 serves no discovery.k8s.io API
    When I try to create this object:
      """
      apiVersion: discovery.k8s.io/v1
      kind: EndpointSlice
      metadata: { name: s }
      addressType: IPv4
      endpoints: []
      """
    Then the request fails with 404 NotFound
