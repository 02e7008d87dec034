@needs-http @COMM-BASIC-AUTH
Feature: HTTP basic auth on the secure port (the seed's release)
  Besides client certificates and bearer tokens, the seed's kube-apiserver authenticated HTTP
  basic auth against --basic-auth-file, a CSV file of password,user,uid,"group1,group2" (at
  least three columns). A name and password that match make the request that user, in its
  groups plus system:authenticated, for the authorization policy to judge; a name or password
  that does not match is refused (401), never treated as anonymous. Upstream removed the flag
  in v1.19: a v1.32 kube-apiserver does not know it and refuses to start.
  Source: 002 §2.4.1 (安全端口: 用于基于Tocken文件或客户端证书及HTTP Base的认证).
  Upstream: pkg/kubeapiserver/authenticator/config.go (basic auth before x509 in v1.12),
  k8s.io/apiserver plugin/pkg/authenticator/password/passwordfile and request/basicauth
  ("invalid username/password combination"); removed by kubernetes/kubernetes#89069 (v1.19).

  @profile-seed
  Scenario: A matching name and password authenticate; RBAC then decides by the file's groups
    Given the flag "--authorization-mode" is "RBAC"
    And a basic auth file for the API server with:
      | password | user  | uid | groups         |
      | s3cr3t   | alice | 1   | system:masters |
      | pa55     | bob   | 2   | dev            |
    And a ready node "10.4.42.5"
    When I run "kubectl get nodes" with basic auth "alice" and password "s3cr3t"
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |
    When I run "kubectl get nodes" with basic auth "bob" and password "pa55"
    Then kubectl fails with "Error from server (Forbidden): nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope"
    When I run "kubectl get nodes" with basic auth "alice" and password "wrong"
    Then kubectl fails with the line "error: You must be logged in to the server (Unauthorized)"
    When I run "kubectl get nodes" with basic auth "alice" and password "s3cr3t-and-more"
    Then kubectl fails with the line "error: You must be logged in to the server (Unauthorized)"
    When I run "kubectl get nodes" with basic auth "carol" and password "s3cr3t"
    Then kubectl fails with the line "error: You must be logged in to the server (Unauthorized)"

  @profile-seed
  Scenario: Without --basic-auth-file a basic auth header authenticates nobody
    Given the flag "--authorization-mode" is "RBAC"
    And a ready node "10.4.42.5"
    When I run "kubectl get --raw /api/v1/nodes" with basic auth "alice" and password "s3cr3t"
    Then kubectl fails with "Error from server (Forbidden): nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope"

  @profile-kubernetes-1.32
  Scenario: A v1.32 API server refuses to start with --basic-auth-file
    Given a basic auth file for the API server with:
      | password | user  | uid | groups         |
      | s3cr3t   | alice | 1   | system:masters |
    When the API server serves over HTTP
    Then the API server refuses to serve with "unknown flag: --basic-auth-file"
