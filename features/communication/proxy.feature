@needs-http
Feature: Proxying through the API server, and kubectl proxy in front of it
  /api/v1/nodes/{name}/proxy/… forwards to the node's kubelet, so what it returns is the
  kubelet's own view (its pods, its health), which may differ from what the API stores;
  /api/v1/namespaces/{ns}/pods/{name}/proxy/… forwards to the pod (a hollow pod answers
  with who it is). `kubectl proxy` is a plain-HTTP reverse proxy on localhost that adds the
  user's credentials. (services/{name}/proxy waits for Services in this control plane.)
  Source: 002 §2.4.2 Kubectl Proxy, §2.5 通过API Server访问Node、Pod和Service; 000 §2.3.
  Upstream: pkg/registry/core/node/rest/proxy.go, pod/rest/subresources.go; kubectl proxy.

  Background:
    # Pod CIDRs, so that pods have IPs, as on any real cluster (the pod proxy dials the IP).
    Given a ready node "10.4.42.5" with pod CIDR "10.244.1.0/24"
    And a ready node "10.4.42.6" with pod CIDR "10.244.2.0/24"
    And a pod "web" running on node "10.4.42.5"

  @COMM-PROXY @needs-kubelet-api
  Scenario: The node proxy answers with the kubelet's own view of its pods
    When I run "kubectl get --raw /api/v1/nodes/10.4.42.5/proxy/pods"
    Then kubectl prints ""kind":"PodList""
    And kubectl prints ""name":"web""
    When I run "kubectl get --raw /api/v1/nodes/10.4.42.6/proxy/pods"
    Then kubectl prints ""items":[]"
    When I run "kubectl get --raw /api/v1/nodes/10.4.42.5/proxy/healthz"
    Then kubectl prints exactly:
      """
      ok
      """

  @COMM-PROXY @needs-kubelet-api
  Scenario: The kubelet's view differs from the stored object by the annotations the kubelet adds
    The kubelet's pod config marks each pod it receives with its source and the time it first
    saw it; the API server stores neither (pkg/kubelet/config/config.go, podStorage.merge:
    kubernetes.io/config.source, and recordFirstSeenTime: kubernetes.io/config.seen in
    time.RFC3339Nano, the kubelet's local zone). Same uid, same spec: the same pod, seen by
    the kubelet.
    When I run "kubectl get --raw /api/v1/nodes/10.4.42.5/proxy/pods"
    Then in the PodList kubectl printed, pod "web" is the stored pod with these annotations added:
      | kubernetes.io/config.source | api                                                                        |
      | kubernetes.io/config.seen   | <matches /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z\|[+-]\d\d:\d\d)$/> |

  @COMM-PROXY @needs-kubelet-api
  Scenario: The node proxy is named by the node's name: a node's IP is not a name
    The seed names its nodes by their IPs, so there the two look alike; but upstream resolves
    nodes/{name}/proxy by the Node's name alone (ResourceLocation in
    pkg/registry/core/node/strategy.go asks the kubelet connection info getter, which gets the
    Node by that name and only then dials its preferred address). For a node named otherwise,
    its IP names no node: 404 NotFound, in both releases. The node's Hostname address is its
    IP (--hostname-override), as the seed's are: upstream resolves the preferred address
    (Hostname first by default) through DNS before it proxies (isProxyableHostname), and a
    bare "worker-1" resolves nowhere on a test machine — 400 "lookup worker-1 … no such host"
    on upstream v1.32.13.
    When a kubelet starts on node "worker-1" with:
      | --node-ip           | 10.4.42.9 |
      | --hostname-override | 10.4.42.9 |
    Then node "worker-1" is Ready
    When I run "kubectl get --raw /api/v1/nodes/worker-1/proxy/healthz"
    Then kubectl prints exactly:
      """
      ok
      """
    When I run "kubectl get --raw /api/v1/nodes/10.4.42.9/proxy/healthz"
    Then kubectl fails with the line "Error from server (NotFound): nodes "10.4.42.9" not found"

  @COMM-PROXY
  Scenario: Once the kubelet is gone the node proxy cannot reach it, while the stored pod still runs there
    When the kubelet on "10.4.42.5" stops
    And I run "kubectl get --raw /api/v1/nodes/10.4.42.5/proxy/pods"
    # The proxy's transport gets the bare dial error: 503 "error trying to reach service".
    Then kubectl fails with "Error from server (ServiceUnavailable): error trying to reach service: "
    And kubectl fails with "dial tcp 10.4.42.5:10250: connect: no route to host"
    And pod "web" is Running on node "10.4.42.5"

  @COMM-PROXY @needs-kubelet-api
  Scenario: The pod proxy reaches the pod through its node
    When I run "kubectl get --raw /api/v1/namespaces/default/pods/web/proxy/index.html"
    Then kubectl prints "hollow pod default/web on node 10.4.42.5"
    And kubectl prints "answered GET /index.html"

  @COMM-PROXY
  Scenario: A pod without an IP cannot be proxied to
    Given a ready node "10.4.42.7"
    And a pod "no-ip" running on node "10.4.42.7"
    When I run "kubectl get --raw /api/v1/namespaces/default/pods/no-ip/proxy/"
    Then kubectl fails with "(BadRequest): address not allowed"

  @COMM-KUBECTL-PROXY @needs-kubelet-api
  Scenario: kubectl proxy serves the API on localhost without credentials of its own
    When I start "kubectl proxy --port=0" in the background
    Then a GET of "/api/v1/nodes" through the background kubectl proxy answers 200 with "10.4.42.5"
    And a GET of "/api/v1/nodes/nope" through the background kubectl proxy answers 404 with "nodes \"nope\" not found"
    And a GET of "/api/v1/nodes/10.4.42.5/proxy/healthz" through the background kubectl proxy answers 200 with "ok"
