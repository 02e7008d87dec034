@needs-http @COMM-SECURE-PORT @COMM-AUTHZ-DEFAULT
Feature: The API server's authorization mode by default
  kube-apiserver's --authorization-mode defaults to AlwaysAllow, in the seed's release
  (v1.12) as in 1.32: with no mode stated, every request that authentication lets through —
  an anonymous one included, as --anonymous-auth defaults to true — is authorized.
  Installers (kubeadm) set Node,RBAC; the suite's other communication scenarios state RBAC.
  Source: 002 §2.4.1 (安全端口: 认证与授权). Upstream: BuiltInAuthorizationOptions defaults
  (pkg/kubeapiserver/options/authorization.go), DelegatingAuthenticationOptions anonymous default.

  Scenario: With no --authorization-mode stated, an anonymous client may list nodes
    Given a ready node "10.4.42.5"
    When I run "kubectl get nodes" without credentials
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |
