@needs-http @needs-kubelet-api
Feature: kubectl port-forward reaches a port inside the pod through the API server and its kubelet
  "提供 kubectl port-forward 功能": the API server reaches the kubelet's HTTPS port to forward
  a local port to a port inside a pod. kubectl asks for pods/{name}/portforward; the API
  server finds the pod's node and connects to that kubelet's /portForward/{namespace}/{pod};
  for every local connection kubectl opens a pair of streams (error and data) naming the pod
  port, and the bytes flow through the API server.

  kubectl ≥ 1.31 (PortForwardWebsockets) sends SPDY/3.1 inside a WebSocket (subprotocol
  `SPDY/3.1+portforward.k8s.io`), which the API server turns into SPDY towards the kubelet;
  KUBECTL_PORT_FORWARD_WEBSOCKETS=false makes it speak plain SPDY/3.1, as a v1.12 kubectl
  did. A hollow pod listens on each TCP containerPort it declares: an HTTP request gets a
  one-line answer naming the pod, its node and the port; other bytes are echoed. A port the
  pod does not declare refuses the connection: the kubelet reports it on the error stream,
  and kubectl prints it and gives up ("lost connection to pod").
  Source: 000 §2.3 Master to Cluster › 1、apiserver to kubelet.
  Upstream: pkg/registry/core/pod/rest/subresources.go (PortForwardREST, the WebSocket
  tunneling handler of KEP-4006), pkg/kubelet/cri/streaming/portforward (httpstream.go),
  client-go tools/portforward (tunneling_dialer.go, fallback_dialer.go).

  Background:
    Given ready nodes "10.4.42.5", "10.4.42.6"
    And a pod "web" running on node "10.4.42.6" with container:
      """
      name: app
      image: registry.k8s.io/pause:3.9
      ports:
        - containerPort: 80
        - containerPort: 7000
      """

  @COMM-PORT-FORWARD @upstream-smoke
  Scenario: A forwarded local port reaches the pod's port, SPDY tunnelled in a WebSocket
    When I start "kubectl port-forward -v=6 pod/web :80" in the background
    Then a GET of "/index.html" through the background kubectl port-forward to port 80 answers 200 with "hollow pod default/web on node 10.4.42.6"
    And a GET of "/healthz" through the background kubectl port-forward to port 80 answers 200 with "port 80 answered GET /healthz"
    And the background kubectl prints a line matching "GET https://.*/api/v1/namespaces/default/pods/web/portforward 101 Switching Protocols"
    And the background kubectl prints a line matching "negotiated protocol: portforward.k8s.io"

  @COMM-PORT-FORWARD
  Scenario: kubectl's plain SPDY/3.1 fallback reaches the same port
    When I start "kubectl port-forward -v=6 pod/web :80" in the background over SPDY
    Then a GET of "/over-spdy" through the background kubectl port-forward to port 80 answers 200 with "port 80 answered GET /over-spdy"
    And the background kubectl prints a line matching "POST https://.*/api/v1/namespaces/default/pods/web/portforward 101 Switching Protocols"

  @COMM-PORT-FORWARD
  Scenario: Bytes that are not HTTP travel both ways unchanged
    When I start "kubectl port-forward pod/web :7000" in the background
    Then bytes sent through the background kubectl port-forward to port 7000 come back unchanged

  @COMM-PORT-FORWARD
  Scenario: A port the pod does not listen on refuses the connection, and kubectl says so
    When I start "kubectl port-forward pod/web :8081" in the background
    Then a GET through the background kubectl port-forward to port 8081 gets no answer
    And the background kubectl prints a line matching "an error occurred forwarding .* -> 8081: .*connection refused"
