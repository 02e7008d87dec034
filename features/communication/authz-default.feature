@needs-http @needs-api-server-defaults @COMM-SECURE-PORT @COMM-AUTHZ-DEFAULT
Feature: The API server's authorization mode by default
  kube-apiserver's --authorization-mode defaults to AlwaysAllow, in the seed's release
  (v1.12) as in 1.32: with no mode stated, every request that authentication lets through is
  authorized — a user no binding names included. AlwaysAllow cannot be combined with
  anonymous requests: the API server then resets --anonymous-auth to false, so a client
  without credentials is refused as unauthenticated (401), not let in.
  Installers (kubeadm) set Node,RBAC; the suite's other communication scenarios state RBAC.
  Source: 002 §2.4.1 (安全端口: 认证与授权). Upstream: BuiltInAuthorizationOptions defaults
  (pkg/kubeapiserver/options/authorization.go); ApplyAuthorization
  (pkg/kubeapiserver/options/authentication.go: "AnonymousAuth is not allowed with the
  AlwaysAllow authorizer"), in v1.12 as in v1.32 — seen on upstream v1.32.13 by the
  upstream target.

  Scenario: With no --authorization-mode stated, any authenticated user may list nodes
    Given a ready node "10.4.42.5"
    When I run "kubectl get nodes" as user "nobody-bound" in group "nowhere"
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |

  Scenario: With no --authorization-mode stated, a client without credentials is not authenticated
    Given a ready node "10.4.42.5"
    When I run "kubectl get --raw /api/v1/nodes" without credentials
    Then kubectl fails with the line "error: You must be logged in to the server (Unauthorized)"
