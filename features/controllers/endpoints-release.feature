Feature: What the endpoints controller keeps differs by release
  The endpoints controller of v1.12 and that of v1.32 agree on ready pods, and differ on the
  rest. v1.12 (syncService) tolerates not-ready pods when publishNotReadyAddresses is set or,
  deciding over it, when the deprecated annotation
  service.alpha.kubernetes.io/tolerate-unready-endpoints parses as true (strconv.ParseBool:
  1, t, T, TRUE, true, True); a not-ready pod stays as a not-ready address unless its
  restartPolicy says it will not run again (shouldPodBeInEndpoints: Never and finished,
  OnFailure and Succeeded). v1.32 reads the field only, drops every terminal pod
  (endpointsliceutil.ShouldPodBeInEndpoints), and keeps at most 1000 addresses in one
  Endpoints object, ready ones first, saying so with the annotation
  endpoints.kubernetes.io/over-capacity: truncated (truncateEndpoints).
  Upstream: pkg/controller/endpoint/endpoints_controller.go at v1.12 and v1.32;
  staging/src/k8s.io/endpointslice/util/controller_utils.go (v1.32).

  Background:
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: a, labels: { app: web } }
      spec:
        nodeName: n1
        containers: [{ name: c, image: nginx }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: web }
      spec:
        selector: { app: web }
        ports: [{ port: 80, targetPort: 8080 }]
      """
    And I patch the pod "a" status with:
      """
      status:
        conditions: [{ type: Ready, status: "False" }]
      """

  @EP-TOLERATE-UNREADY @profile-seed
  Scenario Outline: v1.12: the tolerate-unready annotation "<value>" publishes a not-ready pod as ready: <ready>
    When I patch the service "web" with:
      """
      metadata:
        annotations: { service.alpha.kubernetes.io/tolerate-unready-endpoints: "<value>" }
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[0].ip         | <addresses>    |
      | subsets[0].notReadyAddresses[0].ip | <notReady>     |

    Examples:
      | value | ready | addresses  | notReady   |
      | true  | yes   | 10.244.1.2 | <none>     |
      | T     | yes   | 10.244.1.2 | <none>     |
      | 1     | yes   | 10.244.1.2 | <none>     |
      | yes   | no    | <none>     | 10.244.1.2 |
      | false | no    | <none>     | 10.244.1.2 |

  @EP-TOLERATE-UNREADY @profile-seed
  Scenario: v1.12: an annotation that parses as false decides over publishNotReadyAddresses
    When I patch the service "web" with:
      """
      metadata:
        annotations: { service.alpha.kubernetes.io/tolerate-unready-endpoints: "False" }
      spec:
        publishNotReadyAddresses: true
      """
    Then the endpoints "web" has:
      | subsets[0].addresses               | <none>     |
      | subsets[0].notReadyAddresses[0].ip | 10.244.1.2 |

  @EP-TOLERATE-UNREADY @profile-kubernetes-1.32
  Scenario: v1.32 ignores the tolerate-unready annotation; publishNotReadyAddresses alone decides
    When I patch the service "web" with:
      """
      metadata:
        annotations: { service.alpha.kubernetes.io/tolerate-unready-endpoints: "true" }
      """
    Then the endpoints "web" has:
      | subsets[0].addresses               | <none>     |
      | subsets[0].notReadyAddresses[0].ip | 10.244.1.2 |
    When I patch the service "web" with:
      """
      metadata:
        annotations: { service.alpha.kubernetes.io/tolerate-unready-endpoints: "false" }
      spec:
        publishNotReadyAddresses: true
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[0].ip   | 10.244.1.2 |
      | subsets[0].notReadyAddresses | <none>     |

  @EP-FINISHED-PODS @profile-seed
  Scenario Outline: v1.12: a finished pod that is not ready stays by its restartPolicy (<policy>, <phase>)
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: done, labels: { app: web } }
      spec:
        nodeName: n1
        restartPolicy: <policy>
        containers: [{ name: c, image: busybox }]
      """
    And I patch the pod "done" status with:
      """
      status:
        phase: <phase>
        conditions: [{ type: Ready, status: "False" }]
      """
    Then the endpoints "web" has <count> items in subsets[0].notReadyAddresses

    Examples:
      | policy    | phase     | count |
      | Always    | Failed    | 2     |
      | Always    | Succeeded | 2     |
      | OnFailure | Failed    | 2     |
      | OnFailure | Succeeded | 1     |
      | Never     | Failed    | 1     |
      | Never     | Succeeded | 1     |

  @EP-FINISHED-PODS @profile-kubernetes-1.32
  Scenario Outline: v1.32: a finished pod leaves the Endpoints whatever its restartPolicy (<policy>, <phase>)
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: done, labels: { app: web } }
      spec:
        nodeName: n1
        restartPolicy: <policy>
        containers: [{ name: c, image: busybox }]
      """
    And I patch the pod "done" status with:
      """
      status:
        phase: <phase>
        conditions: [{ type: Ready, status: "False" }]
      """
    Then the endpoints "web" has 1 items in subsets[0].notReadyAddresses

    Examples:
      | policy    | phase     |
      | Always    | Failed    |
      | Always    | Succeeded |
      | OnFailure | Failed    |
      | Never     | Succeeded |
