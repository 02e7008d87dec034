@needs-http
Feature: REST semantics over HTTP
  Objects live at Kubernetes paths; invalid objects are refused with 422 Invalid and the
  causes kubectl prints one per line; a write carrying a stale resourceVersion is a 409
  Conflict; dry-run requests are validated but not stored.
  Source: 002 §2.2 (REST, validation, entry for quota and admission).
  Upstream: k8s.io/apiserver endpoints/handlers (create, update), pkg/api/errors.

  Background:
    Given a ready node "n1"

  @API-VALIDATION
  Scenario: An invalid pod is refused with its causes
    Given a file "bad.yaml" containing:
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: bad}
      spec:
        containers: [{name: c}]
      """
    When I run "kubectl create -f bad.yaml"
    Then kubectl fails with "The Pod "bad" is invalid: spec.containers[0].image: Required value"
    And the pod "bad" does not exist

  @API-VALIDATION
  Scenario: A namespace name is a DNS-1123 label: 63 characters are accepted, 64 refused
    When I try to create this object:
      """
      apiVersion: v1
      kind: Namespace
      metadata: {name: nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn}
      """
    Then the request fails with 422 Invalid
    When I create this object:
      """
      apiVersion: v1
      kind: Namespace
      metadata: {name: nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn}
      """
    Then the namespace "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" has:
      | status.phase | Active |

  @API-CRUD
  Scenario: A replace with a stale resourceVersion is a conflict
    Given a file "n1.yaml" containing:
      """
      apiVersion: v1
      kind: Node
      metadata: {name: n1, resourceVersion: "1"}
      """
    When I run "kubectl replace -f n1.yaml"
    Then kubectl fails with "Error from server (Conflict): error when replacing "n1.yaml": Operation cannot be fulfilled on nodes "n1": the object has been modified; please apply your changes to the latest version and try again"

  @API-CRUD
  Scenario: A dry-run create is checked but not stored
    When I run "kubectl create namespace dry --dry-run=server"
    Then kubectl prints "namespace/dry created (server dry run)"
    And the namespace "dry" does not exist
