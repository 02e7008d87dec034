@needs-http @needs-kubelet-api
Feature: services/{name}/proxy reaches an endpoint of the service through the API server
  The API server's proxy reaches any node, pod or service: /api/v1/namespaces/{ns}/services/
  {name}[:port]/proxy/… goes to one endpoint of the service. The id names the service and
  optionally its port (`web:http`, or the port number `web:80`, which is mapped to the
  service port's name; `https:web:443` picks the scheme). The API server picks an address
  at random among the Endpoints whose port has that name — without a port, the port that has
  no name — and forwards the request to that pod IP and port; no such endpoint: 503 "no
  endpoints available for service". Hollow pods have no network of their own: the pod's
  kubelet stands for the pod network, and a hollow pod answers on each containerPort it
  declares (a port it does not declare refuses the dial).

  The seed also names the root paths /api/v1/proxy/nodes/{name}, /api/v1/proxy/…: upstream
  removed them in v1.10 (deprecated since v1.2), so neither the seed's release v1.12 nor
  v1.32 serves them.
  Source: 000 §2.3 Master to Cluster › 2、apiserver ot nodes pods services; 002 §2.5.3 Service相关接口.
  Upstream: pkg/registry/core/service/storage (ResourceLocation, ProxyREST),
  k8s.io/apimachinery/pkg/util/net SplitSchemeNamePort; kubernetes#59884 (root /proxy removed).

  Background:
    # A caller with a bearer token, to see whether the API server passes it on to the pod.
    Given a token file for the API server with:
      | token  | user  | uid | groups         |
      | s3cr3t | alice | 1   | system:masters |
    And a ready node "n1" with pod CIDR "10.244.1.0/24"
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
      kind: Service
      metadata: { name: web }
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
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: solo }
      spec:
        selector: { app: web }
        ports:
          - port: 8000
            targetPort: 8080
      """
    And 1 second passes

  @COMM-PROXY
  Scenario: The service proxy reaches a pod of the service on the service port's target port
    When I run "kubectl get --raw /api/v1/namespaces/default/services/web:http/proxy/index.html"
    Then kubectl prints "hollow pod default/a on node n1 (10.244.1.2) port 8080 answered GET /index.html"
    When I run "kubectl get --raw /api/v1/namespaces/default/services/web:80/proxy/by-number"
    Then kubectl prints "hollow pod default/a on node n1 (10.244.1.2) port 8080 answered GET /by-number"
    When I run "kubectl get --raw /api/v1/namespaces/default/services/solo/proxy/"
    Then kubectl prints "hollow pod default/a on node n1 (10.244.1.2) port 8080 answered GET /"

  @COMM-PROXY
  Scenario: The API server reaches pods over plain HTTP with no credentials; https: is TLS that verifies nothing
    The seed: from the API server to nodes, pods and services the connections are plain
    HTTP, neither authenticated nor encrypted; an https prefix in the request URL makes them
    HTTPS, but the certificate is not verified and no client credentials are given. A hollow
    pod answers TLS with a certificate of a CA nobody is given, so a handshake that completes
    is one that did not verify it, and its answer says what its caller presented. The caller
    here authenticates to the API server with a bearer token, which the API server keeps to
    itself: WithAuthentication removes the Authorization header once the request is
    authenticated. A pod named without a port is reached at the first port its containers
    declare. (The node proxy at the kubelet's port is HTTPS with the API server's kubelet
    client certificate: the kubelet features.)
    Upstream: CreateProxyTransport (cmd/kube-apiserver/app/server.go: InsecureSkipVerify, no
    client certificate), SplitSchemeNamePort, pod and service ResourceLocation,
    k8s.io/apiserver pkg/endpoints/filters/authentication.go (Authorization removed).
    When I run "kubectl get --raw /api/v1/namespaces/default/services/web:http/proxy/index.html" with bearer token "s3cr3t"
    Then kubectl prints "hollow pod default/a on node n1 (10.244.1.2) port 8080 answered GET /index.html over HTTP, no credentials"
    When I run "kubectl get --raw /api/v1/namespaces/default/services/https:web:http/proxy/index.html" with bearer token "s3cr3t"
    Then kubectl prints "hollow pod default/a on node n1 (10.244.1.2) port 8080 answered GET /index.html over HTTPS, no credentials"
    When I run "kubectl get --raw /api/v1/namespaces/default/pods/https:a:8080/proxy/status" with bearer token "s3cr3t"
    Then kubectl prints "hollow pod default/a on node n1 (10.244.1.2) port 8080 answered GET /status over HTTPS, no credentials"
    When I run "kubectl get --raw /api/v1/namespaces/default/pods/a/proxy/status" with bearer token "s3cr3t"
    Then kubectl prints "hollow pod default/a on node n1 (10.244.1.2) port 8080 answered GET /status over HTTP, no credentials"
    When I run "kubectl get --raw /api/v1/namespaces/default/pods/ftp:a:8080/proxy/"
    Then kubectl fails with "(BadRequest): invalid pod request "ftp:a:8080""

  @COMM-PROXY
  Scenario: Without a port, only a port without a name matches; an unknown port number is refused
    When I run "kubectl get --raw /api/v1/namespaces/default/services/web/proxy/"
    Then kubectl fails with "no endpoints available for service "web""
    When I run "kubectl get --raw /api/v1/namespaces/default/services/web:81/proxy/"
    Then kubectl fails with "no service port 81 found for service "web""

  @COMM-PROXY
  Scenario: An endpoint port nothing listens on, and a service without endpoints, answer 503
    When I run "kubectl get --raw /api/v1/namespaces/default/services/web:metrics/proxy/"
    # Where the API server dials through an egress proxy (konnectivity; the upstream target's
    # hollow kubelets) the proxy's words come between: "proxy error from … while dialing …".
    Then kubectl fails with "error trying to reach service: "
    And kubectl fails with "dial tcp 10.244.1.2:9102: connect: connection refused"
    When I delete the pod "a"
    And 1 second passes
    And I run "kubectl get --raw /api/v1/namespaces/default/services/web:http/proxy/"
    Then kubectl fails with "(ServiceUnavailable): no endpoints available for service "web""

  @COMM-PROXY
  Scenario: The seed's root proxy paths are gone, as upstream removed them in v1.10
    When I run "kubectl get --raw /api/v1/proxy/namespaces/default/services/web:http/"
    Then kubectl fails with "the server could not find the requested resource"
    When I run "kubectl get --raw /api/v1/proxy/nodes/n1/pods"
    Then kubectl fails with "the server could not find the requested resource"
