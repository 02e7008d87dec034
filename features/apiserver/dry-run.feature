@needs-http
Feature: A dry run deletes nothing, wherever its DeleteOptions say so
  dryRun ["All"] asks the API server to run a request through admission and validation and
  answer as if it were done, without storing anything. For a deletion it may come in the
  query (?dryRun=All) or in the DeleteOptions body — client-go's form for a deletecollection,
  and an Eviction's deleteOptions, which is what `kubectl drain --dry-run=server` posts.
  Either way nothing is deleted; a dryRun value other than All is refused (422).
  Source: 002 §2.4 (API Server). Upstream: EvictionREST.Create and propagateDryRun
  (pkg/registry/core/pod/storage/eviction.go), DeleteResource / DeleteCollection
  (k8s.io/apiserver/pkg/endpoints/handlers/delete.go), ValidateDeleteOptions and ValidateDryRun
  (apimachinery pkg/apis/meta/v1/validation).

  Background:
    Given a ready node "n1"
    And a file "dry.json" containing:
      """
      {"kind": "DeleteOptions", "apiVersion": "v1", "dryRun": ["All"]}
      """

  @DRYRUN-DELETE-OPTIONS
  Scenario: kubectl drain --dry-run=server evicts nobody
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: web}
      spec:
        nodeName: n1
        containers:
        - {name: c, image: nginx}
      """
    And 1 second passes
    And I run "kubectl drain n1 --dry-run=server --force"
    Then kubectl prints "evicting pod default/web (server dry run)"
    When 1 second passes
    And I run "kubectl get pod web -o jsonpath={.metadata.name}/{.metadata.deletionTimestamp}"
    Then kubectl prints exactly:
      """
      web/
      """
    When I run "kubectl get node n1 -o jsonpath={.spec.unschedulable}"
    Then kubectl prints exactly:
      """
      """

  @DRYRUN-DELETE-OPTIONS
  Scenario: A deletecollection whose DeleteOptions body says dryRun All deletes nothing
    When I run "kubectl create namespace dry"
    And I run "kubectl create secret generic a -n dry --from-literal=k=v"
    And I run "kubectl create secret generic b -n dry --from-literal=k=v"
    And I run "kubectl delete --raw /api/v1/namespaces/dry/secrets -f dry.json"
    Then kubectl prints ""kind":"SecretList""
    When I run "kubectl get secrets -n dry -o name"
    Then kubectl prints these lines in order:
      """
      secret/a
      secret/b
      """
    When I run "kubectl delete --raw /api/v1/namespaces/dry/secrets/a -f dry.json"
    And I run "kubectl get secret a -n dry -o name"
    Then kubectl prints "secret/a"
