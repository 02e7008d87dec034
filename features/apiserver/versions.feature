@needs-http @API-GROUP-VERSIONS
Feature: Each release serves the workload resources at its own API versions
  The seed's release (v1.12) served Deployments, DaemonSets, ReplicaSets, StatefulSets and
  ControllerRevisions at apps/v1 and also at the older apps/v1beta1, apps/v1beta2 and
  extensions/v1beta1: the same objects, shown with the version asked for, and written with
  that version's defaults (an extensions/v1beta1 DaemonSet is OnDelete unless it says
  otherwise; apps/v1 defaults to RollingUpdate). v1.16 stopped serving the older versions:
  v1.32 serves apps/v1 only and answers 404 for the others. Discovery lists what is served.
  Source: 000 §2.4 控制器 (the workload controllers); 002 §2.1 (the API server's REST API).
  Upstream: v1.12 pkg/master (DefaultAPIResourceConfigSource), SetDefaults_DaemonSet
  (extensions/v1beta1), and v1.16's removal of the deprecated workload versions (CHANGELOG-1.16:
  "DaemonSet, Deployment, and ReplicaSet resources will no longer be served from extensions/v1beta1,
  apps/v1beta1, or apps/v1beta2").

  @profile-seed
  Scenario: v1.12 lists and serves apps/v1beta1, apps/v1beta2 and extensions/v1beta1 too
    When I run "kubectl api-versions"
    Then kubectl prints these lines in order:
      """
      apps/v1
      apps/v1beta1
      apps/v1beta2
      extensions/v1beta1
      """
    Given a file "agent.yaml" containing:
      """
      apiVersion: extensions/v1beta1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    When I run "kubectl create -f agent.yaml"
    Then kubectl prints "daemonset.extensions/agent created"
    When I run "kubectl get --raw /apis/extensions/v1beta1/namespaces/default/daemonsets/agent"
    Then kubectl prints ""apiVersion":"extensions/v1beta1""
    And kubectl prints ""updateStrategy":{"type":"OnDelete"}"
    And kubectl prints ""selector":{"matchLabels":{"app":"agent"}}"
    When I run "kubectl get --raw /apis/apps/v1/namespaces/default/daemonsets/agent"
    Then kubectl prints ""apiVersion":"apps/v1""
    And kubectl prints ""updateStrategy":{"type":"OnDelete"}"
    When I run "kubectl get --raw /apis/apps/v1beta2/namespaces/default/daemonsets"
    Then kubectl prints ""apiVersion":"apps/v1beta2""
    When I run "kubectl get --raw /apis/apps/v1beta1/namespaces/default/daemonsets"
    Then kubectl fails with "the server could not find the requested resource"

  @profile-kubernetes-1.32
  Scenario: v1.32 serves apps/v1 only
    When I run "kubectl api-versions"
    Then kubectl prints "apps/v1"
    And kubectl's output has no line "apps/v1beta1"
    And kubectl's output has no line "apps/v1beta2"
    And kubectl's output has no line "extensions/v1beta1"
    When I run "kubectl get --raw /apis/extensions/v1beta1/namespaces/default/daemonsets"
    Then kubectl fails with "the server could not find the requested resource"
    When I run "kubectl get --raw /apis/apps/v1beta2"
    Then kubectl fails with "the server could not find the requested resource"
    Given a file "agent.yaml" containing:
      """
      apiVersion: extensions/v1beta1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    When I run "kubectl create --validate=false -f agent.yaml"
    Then kubectl fails with "no matches for kind "DaemonSet" in version "extensions/v1beta1""

  Scenario: kubectl works against apps/v1 on every release
    Given a ready node "n1"
    And a file "agent.yaml" containing:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    When I run "kubectl apply -f agent.yaml"
    Then kubectl prints "daemonset.apps/agent created"
    When I run "kubectl get --raw /apis/apps/v1/namespaces/default/daemonsets/agent"
    Then kubectl prints ""updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1"
