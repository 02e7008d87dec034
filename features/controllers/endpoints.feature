Feature: The endpoints controller keeps each service's Endpoints; kube-proxy routes to them
  For every service with a selector, the endpoints controller keeps an Endpoints object of
  the same name listing the selected pods that have an IP: ready pods under addresses,
  the others under notReadyAddresses (all under addresses with publishNotReadyAddresses),
  each port resolved from the service's targetPort (a container port name, or a number).
  Any change to a service or to a pod it selects re-computes them; deleting the service
  deletes them; services without a selector are left alone. kube-proxy on every node reads
  the Endpoints and spreads each ClusterIP:port's connections over them (round robin, as
  the userspace proxy did). Pods here name their node; node n1's pods get 10.244.1.2, .3, …
  Source: 002 §4.5 "Endpoint Controller". Upstream: syncService, FindPort, RepackSubsets
  (pkg/controller/endpoint/endpoints_controller.go, pkg/api/v1/pod/util.go); kube-proxy's
  LoadBalancerRR (pkg/proxy/userspace/roundrobin.go).

  Background:
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: a, labels: { app: web } }
      spec:
        nodeName: n1
        containers:
          - name: nginx
            image: nginx
            ports: [{ name: http, containerPort: 8080 }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: b, labels: { app: web } }
      spec:
        nodeName: n1
        containers:
          - name: nginx
            image: nginx
            ports: [{ name: http, containerPort: 8080 }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: web, labels: { tier: front } }
      spec:
        selector: { app: web }
        ports:
          - name: http
            port: 80
            targetPort: http
          - name: metrics
            port: 9090
            targetPort: 9102
      """

  @EP-SYNC
  Scenario: Endpoints list the selected ready pods with resolved ports
    The ports are a set: upstream sorts them by a hash of each port (found on v1.32.13).
    Then the endpoints "web" has:
      | metadata.labels.tier                  | front      |
      | subsets[0].addresses[0].ip            | 10.244.1.2 |
      | subsets[0].addresses[0].nodeName      | n1         |
      | subsets[0].addresses[0].targetRef.kind | Pod       |
      | subsets[0].addresses[0].targetRef.name | a         |
      | subsets[0].addresses[1].ip            | 10.244.1.3 |
      | subsets[0].notReadyAddresses          | <none>     |
      | subsets[1]                            | <none>     |
    And the endpoints "web" has in subset 0 the ports:
      | name    | port | protocol |
      | http    | 8080 | TCP      |
      | metrics | 9102 | TCP      |

  @EP-SYNC
  Scenario: A change to the service alone re-computes its Endpoints, and a selector needs all its labels
    No pod changes between the service's updates: the new selector and the new port reach the
    Endpoints from the service's own update event. A pod must carry every label of the
    selector (a labels.Set selector), not just one of them. The ports are compared as a set:
    upstream orders a subset's ports by a hash of each (endpoints.SortSubsets), so with two
    ports either may come first (found on v1.32.13, where metrics:9102 came before http:8080).
    When I patch the service "web" with:
      """
      spec: { selector: { app: web, track: canary } }
      """
    Then the endpoints "web" has:
      | subsets[0] | <none> |
    When I patch the pod "a" with:
      """
      metadata: { labels: { track: canary } }
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[0].targetRef.name | a      |
      | subsets[0].addresses[1]                | <none> |
    And the endpoints "web" has in subset 0 the ports:
      | name    | port | protocol |
      | http    | 8080 | TCP      |
      | metrics | 9102 | TCP      |
    When I patch the service "web" with:
      """
      spec:
        ports:
          - { name: http, port: 80, targetPort: 8081 }
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[0].targetRef.name | a      |
    And the endpoints "web" has in subset 0 the ports:
      | name | port | protocol |
      | http | 8081 | TCP      |

  @EP-POD-EVENTS
  Scenario: A pod that is not ready moves to notReadyAddresses, and back
    When I patch the pod "b" status with:
      """
      status:
        conditions: [{ type: Ready, status: "False" }]
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[0].ip         | 10.244.1.2 |
      | subsets[0].addresses[1]            | <none>     |
      | subsets[0].notReadyAddresses[0].ip | 10.244.1.3 |
    When I patch the pod "b" status with:
      """
      status:
        conditions: [{ type: Ready, status: "True" }]
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[1].ip | 10.244.1.3 |
      | subsets[0].notReadyAddresses | <none>   |

  @EP-SYNC
  Scenario: With publishNotReadyAddresses a not-ready pod stays in addresses
    When I patch the service "web" with:
      """
      spec:
        publishNotReadyAddresses: true
      """
    And I patch the pod "b" status with:
      """
      status:
        conditions: [{ type: Ready, status: "False" }]
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[1].ip   | 10.244.1.3 |
      | subsets[0].notReadyAddresses | <none>     |

  @EP-POD-EVENTS
  Scenario: Relabelling or deleting a pod removes it; a new matching pod is added
    When I patch the pod "a" with:
      """
      metadata:
        labels: { app: other }
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[0].ip | 10.244.1.3 |
      | subsets[0].addresses[1]    | <none>     |
    When I delete the pod "b"
    Then the endpoints "web" has:
      | subsets | <none> |
    When I patch the pod "a" with:
      """
      metadata:
        labels: { app: web }
      """
    Then the endpoints "web" has:
      | subsets[0].addresses[0].ip | 10.244.1.2 |

  @EP-SYNC
  Scenario: A named targetPort a pod does not declare leaves that port out for the pod
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: admin }
      spec:
        selector: { app: web }
        ports:
          - name: admin
            port: 81
            targetPort: admin
      """
    Then the endpoints "admin" has:
      | subsets | <none> |

  @EP-SYNC
  Scenario: A headless service's Endpoints are marked headless
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: db }
      spec:
        clusterIP: None
        selector: { app: web }
        ports: [{ port: 5432 }]
      """
    Then the endpoints "db" has label "service.kubernetes.io/headless" = ""
    And the endpoints "web" has no label "service.kubernetes.io/headless"
    And the endpoints "db" has:
      | subsets[0].addresses[0].ip | 10.244.1.2 |
      | subsets[0].ports[0].port   | 5432       |

  @EP-DELETE
  Scenario: Deleting the service deletes its Endpoints; a service without a selector is left alone
    When I delete the service "web"
    Then the endpoints "web" does not exist
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: external }
      spec:
        ports: [{ port: 5432 }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Endpoints
      metadata: { name: external }
      subsets:
        - addresses: [{ ip: 192.168.0.7 }]
          ports: [{ port: 5432 }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: c, labels: { app: web } }
      spec:
        nodeName: n1
        containers: [{ name: c, image: busybox }]
      """
    Then the endpoints "external" has:
      | subsets[0].addresses[0].ip | 192.168.0.7 |
      | subsets[0].addresses[1]    | <none>      |

  @EP-SYNC @CTRL-RECONCILE
  Scenario: Endpoints deleted by hand come back
    When I delete the endpoints "web"
    Then the endpoints "web" has:
      | subsets[0].addresses[0].ip | 10.244.1.2 |
    And the endpoints "web" is a new object, not the one deleted

  @EP-KUBE-PROXY
  Scenario: kube-proxy spreads a service's connections over its endpoints
    Then connections from node "n1" to service "web" port 80 reach 10.244.1.2:8080, 10.244.1.3:8080, 10.244.1.2:8080
    And connections from node "n1" to service "web" port 9090 reach 10.244.1.2:9102, 10.244.1.3:9102
    When I delete the pod "a"
    Then connections from node "n1" to service "web" port 80 reach 10.244.1.3:8080, 10.244.1.3:8080
    When I delete the pod "b"
    Then connections from node "n1" to service "web" port 80 are refused
