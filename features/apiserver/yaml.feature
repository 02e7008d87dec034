Feature: Manifests are YAML 1.1, as Kubernetes reads them
  kubectl turns a manifest into JSON with sigs.k8s.io/yaml, and the API server reads a YAML
  body the same way; both parse with go-yaml v2, whose resolve.go follows YAML 1.1: yes,
  on and y are true, no, off and n false; 017 is octal and 0x1F hex, underscores in a
  number are dropped (1_000), 08 is the float 8; a date such as 2020-01-01 stays the text
  written. A manifest here means what it means to kubectl: a ConfigMap value `yes` is a
  boolean the API server refuses for a label (a string), `replicas: 010` is 8.
  Upstream: sigs.k8s.io/yaml YAMLToJSON; gopkg.in/yaml.v2 resolve.go (resolveMapList,
  resolve); json.Unmarshal's type error when the API server decodes the object.

  @API-YAML
  Scenario: yes is a boolean, so a label written yes is refused; quoted it is the string
    When I try to create this object:
      """
      apiVersion: v1
      kind: Namespace
      metadata:
        name: flags
        labels: { enabled: yes }
      """
    Then the request fails with 400 BadRequest
    When I create this object:
      """
      apiVersion: v1
      kind: Namespace
      metadata:
        name: flags
        labels: { enabled: "yes", checked: "on" }
      """
    Then the namespace "flags" has label "enabled" = "yes"
    And the namespace "flags" has label "checked" = "on"

  @API-YAML
  Scenario: Numbers are read the YAML 1.1 way: octal, underscores, and a date that stays a string
    Given a ready node "n1"
    When I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata:
        name: web
        annotations: { released: 2020-01-01 }
      spec:
        replicas: 010
        minReadySeconds: 1_0
        selector: { app: web }
        template:
          metadata: { labels: { app: web } }
          spec:
            containers: [{ name: c, image: nginx }]
      """
    Then the replicationcontroller "web" has:
      | spec.replicas        | 8 |
      | spec.minReadySeconds | 10 |
    And the replicationcontroller "web" has annotation "released" = "2020-01-01"
