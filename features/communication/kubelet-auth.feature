@needs-http
Feature: The kubelet API guards itself: authentication, authorization, debugging handlers
  "Kubelet authentication/authorization 需要激活，以保护 kubelet API": the kubelet's HTTPS port
  serves pods, stats, logs, exec and port-forward, and decides itself who may use it.
  Authentication: a client certificate of the cluster CA (--client-ca-file) is its CN and O
  groups; with --authentication-token-webhook a bearer token is whoever a TokenReview at
  the API server says; anything else is system:anonymous when --anonymous-auth, else 401
  "Unauthorized". Authorization: --authorization-mode AlwaysAllow lets everyone in; Webhook
  asks the API server a SubjectAccessReview on the node: verb from the method, resource
  nodes, subresource stats (/stats/), metrics, log (/logs/), else proxy; a refusal is 403
  "Forbidden (user=…, verb=…, resource=nodes, subresource…)". --enable-debugging-handlers=false
  turns off exec, attach, port-forward, container logs and run: 405 "Debug endpoints are
  disabled.".

  Defaults follow each profile: the seed's v1.12 kubelet ran on its flags (anonymous
  allowed, AlwaysAllow: the API is open, hence the seed's warning); v1.32 clusters run the
  kubelet with its configuration file, whose defaults are anonymous off, token webhook on,
  Webhook authorization. The API server reaches kubelets with a client certificate of its
  own (--kubelet-client-certificate; here, as kubeadm issues it: CN
  kube-apiserver-kubelet-client in system:masters), so logs and exec keep working.
  Source: 000 §2.3 Master to Cluster › 1、apiserver to kubelet.
  Upstream: pkg/kubelet/server/auth.go (GetRequestAttributes), server.go (InstallAuthFilter,
  InstallDebuggingDisabledHandlers), pkg/kubelet/apis/config/v1beta1/defaults.go,
  cmd/kubelet/app/options; pkg/registry/authorization/subjectaccessreview.

  @COMM-KUBELET-AUTH @profile-seed
  Scenario: With the seed's kubelet defaults the kubelet API is open to anyone
    Given a ready node "n1"
    When I GET "/pods" from the kubelet on "n1" without credentials
    Then the kubelet answers 200 with ""kind":"PodList""
    When I GET "/pods" from the kubelet on "n1" with bearer token "not-a-token"
    Then the kubelet answers 200 with ""kind":"PodList""

  @COMM-KUBELET-AUTH @profile-kubernetes-1.32
  Scenario: With v1.32's kubelet configuration defaults, nobody unknown gets in and access is the API server's decision
    Given the flag "--authorization-mode" is "RBAC"
    And a ready node "n1"
    When I GET "/pods" from the kubelet on "n1" without credentials
    Then the kubelet answers 401 with "Unauthorized"
    When I GET "/pods" from the kubelet on "n1" with bearer token "not-a-token"
    Then the kubelet answers 401 with "Unauthorized"
    When I GET "/pods" from the kubelet on "n1" as user "alice"
    Then the kubelet answers 403 with "Forbidden (user=alice, verb=get, resource=nodes, subresource(s)=[proxy])"
    When I GET "/pods" from the kubelet on "n1" as the cluster admin
    Then the kubelet answers 200 with ""kind":"PodList""
    When I GET "/pods" from the kubelet on "n1" as user "kubernetes-admin" in group "system:masters" with a certificate of an unrelated CA
    Then the kubelet answers 401 with "Unauthorized"

  @COMM-KUBELET-AUTH
  Scenario: In webhook mode a bearer token is checked by a TokenReview and access by a SubjectAccessReview per subresource
    Given the flag "--authorization-mode" is "RBAC"
    And a token file for the API server with:
      | token  | user  | uid | groups |
      | t-bob  | bob   | 1   |        |
      | t-carl | carl  | 2   |        |
    And a kubelet starts on node "n1" with:
      | --anonymous-auth               | false   |
      | --authentication-token-webhook | true    |
      | --authorization-mode           | Webhook |
    When I GET "/pods" from the kubelet on "n1" with bearer token "t-bob"
    Then the kubelet answers 403 with "Forbidden (user=bob, verb=get, resource=nodes, subresource"
    When I GET "/pods" from the kubelet on "n1" with bearer token "t-nobody"
    Then the kubelet answers 401 with "Unauthorized"
    When I create this object:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: { name: bob-kubelet-api }
      roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:kubelet-api-admin }
      subjects: [{ kind: User, apiGroup: rbac.authorization.k8s.io, name: bob }]
      """
    And I create this object:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: { name: node-stats-reader }
      rules: [{ apiGroups: [""], resources: [nodes/stats], verbs: [get] }]
      """
    And I create this object:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: { name: carl-stats }
      roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-stats-reader }
      subjects: [{ kind: User, apiGroup: rbac.authorization.k8s.io, name: carl }]
      """
    And I GET "/pods" from the kubelet on "n1" with bearer token "t-bob"
    Then the kubelet answers 200 with ""kind":"PodList""
    When I GET "/stats/summary" from the kubelet on "n1" with bearer token "t-carl"
    Then the kubelet answers 200 with ""nodeName":"n1""
    When I GET "/pods" from the kubelet on "n1" with bearer token "t-carl"
    Then the kubelet answers 403 with "Forbidden (user=carl, verb=get, resource=nodes, subresource"

  @COMM-KUBELET-AUTH
  Scenario: Anonymous requests pass authentication but not a webhook authorizer
    Given the flag "--authorization-mode" is "RBAC"
    And a kubelet starts on node "n1" with:
      | --anonymous-auth     | true    |
      | --authorization-mode | Webhook |
    When I GET "/healthz" from the kubelet on "n1" without credentials
    Then the kubelet answers 403 with "Forbidden (user=system:anonymous, verb=get, resource=nodes, subresource"
    When I GET "/pods" from the kubelet on "n1" as user "ops" in group "system:masters"
    Then the kubelet answers 200

  @COMM-KUBELET-AUTH @COMM-KUBELET @needs-kubelet-api
  Scenario: Through a webhook-mode kubelet, logs and exec work: the API server presents its own client certificate
    Given the flag "--authorization-mode" is "RBAC"
    And a kubelet starts on node "n1" with:
      | --anonymous-auth               | false   |
      | --authentication-token-webhook | true    |
      | --authorization-mode           | Webhook |
    And a pod "web" running on node "n1"
    When I run "kubectl logs web"
    Then kubectl prints "hollow container app (image registry.k8s.io/pause:3.9) of pod default/web started on node n1"
    When I run "kubectl exec web -- hostname"
    Then kubectl prints "web"
    When I GET "/containerLogs/default/web/app" from the kubelet on "n1" without credentials
    Then the kubelet answers 401 with "Unauthorized"

  @COMM-KUBELET-DEBUGGING-HANDLERS
  Scenario: Without debugging handlers the kubelet refuses container logs and exec, and still serves its pods
    Given a kubelet starts on node "n1" with:
      | --enable-debugging-handlers | false |
    And a pod "web" running on node "n1"
    When I GET "/containerLogs/default/web/app" from the kubelet on "n1" as the cluster admin
    Then the kubelet answers 405 with "Debug endpoints are disabled."
    When I GET "/pods" from the kubelet on "n1" as the cluster admin
    Then the kubelet answers 200 with ""name":"web""
    When I run "kubectl logs web"
    Then kubectl fails with "Error from server (MethodNotAllowed): the server does not allow this method on the requested resource ( pods/log web)"
    When I run "kubectl exec web -- hostname"
    Then kubectl fails with "Debug endpoints are disabled."

  @COMM-KUBELET-DEBUGGING-HANDLERS
  Scenario: Debugging handlers are on by default: the same requests succeed
    Given a ready node "n1"
    And a pod "web" running on node "n1"
    When I GET "/containerLogs/default/web/app" from the kubelet on "n1" as the cluster admin
    Then the kubelet answers 200 with "hollow container app"

  @COMM-KUBELET-AUTH
  Scenario: SubjectAccessReview answers what a user may do: kubectl auth can-i
    Given the flag "--authorization-mode" is "RBAC"
    When I run "kubectl auth can-i get nodes --subresource=proxy" as user "alice"
    Then kubectl exits with code 1
    When I run "kubectl auth can-i get nodes --subresource=proxy"
    Then kubectl prints "yes"
