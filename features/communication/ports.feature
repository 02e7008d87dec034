@needs-http
Feature: The API server's two ports
  The secure port serves HTTPS (--secure-port, 6443 by default, on --bind-address) and
  requires authentication and authorization. The insecure port serves plain HTTP without
  authentication or authorization, and only ever binds to loopback (--insecure-bind-address,
  127.0.0.1 by default, another loopback address if asked). As the seed says, the seed's
  release (v1.12) serves it on 8080 by default (--insecure-port 0 turns it off); upstream
  removed the port in v1.20, so on the kubernetes-1.32 profile it is off unless a scenario
  asks for it (the reference still has one; upstream v1.32 is not applicable there).
  Tests listen on free ports: the port numbers are the flags', the behaviour is the same.
  Source: 002 §2.4.1 "默认有两个端口"; 000 §2.2 Cluster to Master.
  Upstream: k8s.io/apiserver SecureServingOptions, kube-apiserver InsecureServingOptions (≤ v1.19).

  Background:
    Given the flag "--authorization-mode" is "RBAC"

  @COMM-SECURE-PORT @COMM-INSECURE-PORT @needs-api-server-defaults @profile-kubernetes-1.32
  Scenario: By default only the secure port listens, on every address
    Judges kube-apiserver's default --bind-address (0.0.0.0): not applicable where the target
    starts its API server on loopback (upstream: found on v1.32.13, where the target binds
    127.0.0.1 by design, so that no scenario's server is reachable from outside the machine).
    Given a ready node "10.4.42.5"
    When the API server serves over HTTP
    Then the secure port listens on "0.0.0.0"
    And the insecure port is off
    When I run "kubectl get nodes"
    Then kubectl prints a table whose columns include:
      | NAME      | STATUS |
      | 10.4.42.5 | Ready  |

  @COMM-SECURE-PORT @COMM-INSECURE-PORT @profile-seed
  Scenario: By default the seed's API server also serves plain HTTP, on loopback, without authentication
    The port is the profile's 8080 (--insecure-port); the test listens on a free one.
    Given a ready node "10.4.42.5"
    When the API server serves over HTTP
    Then the insecure port listens on "127.0.0.1"
    When I run "kubectl get nodes" on the insecure port
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |

  @COMM-INSECURE-PORT @profile-seed
  Scenario: --insecure-port 0 turns the seed's insecure port off
    Given the flag "--insecure-port" is "0"
    When the API server serves over HTTP
    Then the insecure port is off

  @COMM-INSECURE-PORT
  Scenario: --insecure-bind-address chooses the loopback address the insecure port listens on
    Given the flag "--insecure-port" is "8080"
    And the flag "--insecure-bind-address" is "127.0.0.2"
    And a ready node "10.4.42.5"
    When the API server serves over HTTP
    Then the insecure port listens on "127.0.0.2"
    When I run "kubectl get nodes" on the insecure port
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |

  @COMM-SECURE-PORT
  Scenario: --bind-address chooses where the secure port listens
    Given the flag "--bind-address" is "127.0.0.1"
    When the API server serves over HTTP
    Then the secure port listens on "127.0.0.1"

  @COMM-INSECURE-PORT
  Scenario: The insecure port, when on, listens on loopback and skips authentication and authorization
    Given the flag "--insecure-port" is "8080"
    And a ready node "10.4.42.5"
    When the API server serves over HTTP
    Then the insecure port listens on "127.0.0.1"
    When I run "kubectl get nodes" on the insecure port
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |
    When I run "kubectl get --raw /api/v1/nodes" without credentials
    Then kubectl fails with "Error from server (Forbidden): nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope"

  @COMM-INSECURE-PORT
  Scenario: The insecure port refuses any address but loopback
    Given the flag "--insecure-port" is "8080"
    And the flag "--insecure-bind-address" is "0.0.0.0"
    When the API server serves over HTTP
    Then the API server refuses to serve with "--insecure-bind-address 0.0.0.0 is not a loopback address"

  @COMM-SECURE-PORT @COMM-SERVICE-ACCOUNT @needs-api-server-defaults
  Scenario: By default the secure port is 6443: the kubernetes service sends pods there
    No flag is stated: the port in the kubernetes service's Endpoints is the API server's
    --secure-port as the profile defaults it (upstream: the master endpoint reconciler
    publishes the secure port).
    Given a ready node "n1"
    Then the service "kubernetes" has:
      | spec.ports[0].port       | 443  |
      | spec.ports[0].targetPort | 6443 |
    And the endpoints "kubernetes" has:
      | subsets[0].ports[0].port | 6443 |
    And connections from node "n1" to service "kubernetes" port 443 reach 10.0.0.1:6443
