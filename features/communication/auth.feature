@needs-http
Feature: Authentication and authorization on the secure port
  Every request on the secure port is authenticated — by a client certificate signed by
  the cluster CA (CN is the user, each O a group) or by a bearer token (--token-auth-file,
  CSV token,user,uid,"groups") — and then authorized by the policy (--authorization-mode
  RBAC: Roles, ClusterRoles and their bindings; AlwaysAllow). A request without
  credentials is system:anonymous in group system:unauthenticated and gets only what the
  policy grants (the default policy: /version and health); with --anonymous-auth=false it
  is refused outright. A credential that fails is refused (401), never downgraded to anonymous.
  Source: 000 §2.2 Cluster to Master; 002 §2.4.1 (安全端口).
  Upstream: k8s.io/apiserver authentication (x509, tokenfile, anonymous),
  plugin/pkg/auth/authorizer/rbac and its bootstrap policy (system:public-info-viewer).

  Background:
    Given the flag "--authorization-mode" is "RBAC"
    And a token file for the API server with:
      | token  | user  | uid | groups         |
      | s3cr3t | alice | 1   | system:masters |
      | t0k3n  | carol | 2   | dev            |

  @COMM-SECURE-PORT
  Scenario: A client certificate names the user and groups; RBAC decides
    Nodes are cluster-scoped: the built-in "view" role does not cover them (found on
    upstream v1.32.13), so the scenario grants them with a ClusterRole of its own.
    Given a ready node "10.4.42.5"
    When I run "kubectl get nodes" as user "bob" in group "dev"
    Then kubectl fails with "Error from server (Forbidden): nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope"
    Given a file "bob-view.yaml" containing:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata:
        name: node-viewer
      rules:
      - apiGroups: [""]
        resources: [nodes]
        verbs: [get, list, watch]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata:
        name: dev-view
      roleRef:
        apiGroup: rbac.authorization.k8s.io
        kind: ClusterRole
        name: node-viewer
      subjects:
      - kind: Group
        apiGroup: rbac.authorization.k8s.io
        name: dev
      """
    When I run "kubectl apply -f bob-view.yaml"
    Then kubectl prints "clusterrolebinding.rbac.authorization.k8s.io/dev-view created"
    When I run "kubectl get nodes" as user "bob" in group "dev"
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |
    When I run "kubectl label node 10.4.42.5 a=b" as user "bob" in group "dev"
    Then kubectl fails with "User "bob" cannot patch resource "nodes" in API group "" at the cluster scope"

  @COMM-SECURE-PORT
  Scenario: A Role in a namespace grants only in that namespace
    Given a ready node "10.4.42.5"
    Given a file "role.yaml" containing:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: Role
      metadata: {name: pod-reader, namespace: default}
      rules:
      - apiGroups: [""]
        resources: [pods]
        verbs: [get, list]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: bob-reads-pods, namespace: default}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}
      subjects:
      - {kind: User, apiGroup: rbac.authorization.k8s.io, name: bob}
      """
    When I run "kubectl apply -f role.yaml"
    Then kubectl succeeds
    When I run "kubectl get pods -n default" as user "bob"
    Then kubectl prints "No resources found in default namespace." on stderr
    When I run "kubectl get pods -n kube-system" as user "bob"
    Then kubectl fails with "User "bob" cannot list resource "pods" in API group "" in the namespace "kube-system""

  @COMM-SECURE-PORT
  Scenario: Bearer tokens from the token file; a wrong token is 401, not anonymous
    Given a ready node "10.4.42.5"
    When I run "kubectl get nodes" with bearer token "s3cr3t"
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |
    When I run "kubectl get nodes" with bearer token "t0k3n"
    Then kubectl fails with "User "carol" cannot list resource "nodes""
    When I run "kubectl get nodes" with bearer token "wrong"
    Then kubectl fails with "error: You must be logged in to the server (Unauthorized)"

  @COMM-SECURE-PORT @COMM-SERVICE-ACCOUNT @profile-seed
  Scenario: A service account's token authenticates over HTTPS; RBAC decides what it may do
    The token a pod gets (here, from the account's token secret, as in the seed's release)
    names the user system:serviceaccount:<namespace>:<name>; with no binding it may do nothing.
    Given a ready node "10.4.42.5"
    When I keep the token of service account "default"
    And I run "kubectl get pods -n default" with the token of service account "default"
    Then kubectl fails with "User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default""

  @COMM-SECURE-PORT
  Scenario: Anonymous requests get only what the policy grants
    Given a ready node "10.4.42.5"
    When I run "kubectl get --raw /version" without credentials
    Then kubectl prints a JSON object with:
      | gitVersion | <matches /^v\d+\.\d+\.\d+/> |
      | major      | <matches /^\d+$/>            |
      | minor      | <matches /^\d+\+?$/>          |
      | platform   | linux/amd64                  |
    When I run "kubectl get --raw /api/v1/nodes" without credentials
    Then kubectl fails with "Error from server (Forbidden): nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope"
    When I run "kubectl get --raw /api" without credentials
    Then kubectl fails with "forbidden: User "system:anonymous" cannot get path "/api""

  @COMM-SECURE-PORT
  Scenario: With --anonymous-auth=false a request without credentials is refused
    Given the flag "--anonymous-auth" is "false"
    And a ready node "10.4.42.5"
    When I run "kubectl get --raw /version" without credentials
    Then kubectl fails with the line "error: You must be logged in to the server (Unauthorized)"

  @COMM-SECURE-PORT
  Scenario: AlwaysAllow authorizes every authenticated request, and turns anonymous requests off
    The API server does not combine AlwaysAllow with anonymous requests: it resets
    --anonymous-auth to false (ApplyAuthorization; found by running upstream v1.32.13).
    Given the flag "--authorization-mode" is "AlwaysAllow"
    And a ready node "10.4.42.5"
    When I run "kubectl get nodes" as user "bob" in group "dev"
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |
    When I run "kubectl get --raw /version" without credentials
    Then kubectl fails with the line "error: You must be logged in to the server (Unauthorized)"

  @COMM-SECURE-PORT @COMM-CLUSTER-CA
  Scenario: A client that does not trust the cluster's CA cannot talk to the secure port
    The API server's serving certificate is signed by the cluster's own CA; a kubeconfig
    without that CA (certificate-authority-data) leaves kubectl with the system's roots,
    which do not know it — even with valid client credentials.
    Given a ready node "10.4.42.5"
    When I run "kubectl get nodes" without the cluster's CA
    Then kubectl fails with "x509: certificate signed by unknown authority"
