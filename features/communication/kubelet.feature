@needs-http
Feature: The API server reaches kubelets over HTTPS
  For logs (and exec, port-forward) the API server connects to the kubelet's HTTPS port at
  the node's address (status.addresses, preferring Hostname, InternalDNS, InternalIP, …, and
  status.daemonEndpoints.kubeletEndpoint.Port). By default it does not verify the
  kubelet's serving certificate — open to a man in the middle on untrusted networks, as the
  seed warns; with --kubelet-certificate-authority it verifies it against that CA.
  Hollow kubelets serve their HTTPS API with a certificate of their own, on loopback.
  SSH tunnels (COMM-SSH-TUNNEL) are informative: upstream removed them.
  Source: 000 §2.3 "apiserver to kubelet". Upstream: pkg/kubelet/client, LogREST
  (pkg/registry/core/pod/rest/log.go).

  @COMM-KUBELET @needs-kubelet-api
  Scenario: With a CA that did not sign the kubelet's certificate, the API server refuses to talk to it
    Given the API server verifies kubelet certificates with an unrelated CA
    And a ready node "10.4.42.5"
    And a pod "web" running on node "10.4.42.5"
    When I run "kubectl logs web"
    Then kubectl fails with "Error from server: Get "https://10.4.42.5:10250/containerLogs/default/web/app": tls: failed to verify certificate: x509: certificate signed by unknown authority"

  @COMM-KUBELET @needs-kubelet-api
  Scenario: With the kubelets' CA the API server verifies and reaches the kubelet
    Given the API server verifies kubelet certificates with the kubelets' CA
    And a ready node "10.4.42.5"
    And a pod "web" running on node "10.4.42.5"
    When I run "kubectl logs web --timestamps"
    # The container's start time, to the second as the pod status keeps it, in RFC 3339 with
    # nanoseconds (the kubelet's --timestamps format); its instant is the clock's.
    Then kubectl prints ".000000000Z hollow container app"

  @COMM-KUBELET @needs-kubelet-api @upstream-smoke
  Scenario: Unverified by default: logs flow whatever certificate the kubelet shows
    Given a ready node "10.4.42.5"
    And a pod "web" running on node "10.4.42.5"
    When I run "kubectl logs web"
    Then kubectl prints "hollow container app (image registry.k8s.io/pause:3.9) of pod default/web started on node 10.4.42.5"

  @COMM-KUBELET
  Scenario: A kubelet that does not answer: logs fail, the stored pod stays
    Given a ready node "10.4.42.5"
    And a pod "web" running on node "10.4.42.5"
    When the kubelet on "10.4.42.5" stops
    And I run "kubectl logs web"
    # LogREST's streamer: the dial error inside Go's url.Error, a 500 with no reason (where an
    # egress proxy carries the dial, its words come between: "proxy error from … code 503: 503").
    Then kubectl fails with "Error from server: Get "https://10.4.42.5:10250/containerLogs/default/web/app": "
    And kubectl fails with "dial tcp 10.4.42.5:10250: connect: no route to host"
    And pod "web" is Running on node "10.4.42.5"
