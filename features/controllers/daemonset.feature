Feature: A DaemonSet rolls a changed pod template out node by node
  The DaemonSet controller is one of the controller manager's built-in controllers. Every
  pod template it has run is a ControllerRevision named <daemonset>-<hash>, and the hash
  labels the pods made from it (controller-revision-hash, beside pod-template-generation,
  the template generation the API server keeps in the annotation
  deprecated.daemonset.template.generation). With updateStrategy RollingUpdate (apps/v1's
  default, maxUnavailable 1) a changed template replaces old pods while no more than
  maxUnavailable nodes (rounded up from a percentage) lack an available pod; a pod is
  available once it has been Ready for minReadySeconds. From v1.22, maxSurge instead starts
  the new pod beside the old one and deletes the old one once the new is available; v1.12
  has no maxSurge field (it is dropped, so maxUnavailable 0 is refused). With OnDelete the
  controller replaces only pods someone deletes. Old revisions beyond revisionHistoryLimit
  that no pod uses are deleted.
  Source: 000 §2.4 控制器 (the controller manager runs the DaemonSet controller); 002 §4.1.1
  (rolling upgrade by changing a pod template). Upstream: pkg/controller/daemon (syncDaemonSet, manage,
  podsShouldBeOnNode, rollingUpdate, constructHistory, cleanupHistory, updateDaemonSetStatus),
  SetDefaults_DaemonSet (apps/v1), ValidateRollingUpdateDaemonSet; v1.12's rollingUpdate
  counts every desired node without an available pod, v1.32's update.go counts per node and surges.

  Background:
    Given a ready node "n1"
    And a ready node "n2"
    And a ready node "n3"

  @DS-ROLLING-UPDATE @DS-DEFAULTS
  Scenario: By default one node at a time: the next pod goes once the new one has been available for minReadySeconds
    Which node goes first is not specified: upstream's rollingUpdate (update.go) collects the
    candidates by ranging over a map of nodes, so any one of them may be replaced first (the
    reference takes them in name order). The template changes only once every old pod is
    available: an old pod that is not yet (Ready for less than minReadySeconds) is replaced at
    once, beside the one maxUnavailable allows — on a real clock the pods become Ready a little
    after they are created, so "10 seconds" alone does not make them available.
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        minReadySeconds: 10
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    Then the daemonset "agent" has:
      | spec.updateStrategy.type                         | RollingUpdate |
      | spec.updateStrategy.rollingUpdate.maxUnavailable | 1             |
      | spec.revisionHistoryLimit                        | 10            |
      | status.desiredNumberScheduled                    | 3             |
      | status.updatedNumberScheduled                    | 3             |
    When 11 seconds pass
    Then the daemonset "agent" has:
      | status.numberAvailable | 3 |
    When I set the image of daemonset "agent" to "nginx:1.15"
    And 5 seconds pass
    Then daemonset "agent" runs 1 new and 2 old pods
    And the daemonset "agent" has:
      | status.updatedNumberScheduled | 1 |
      | status.numberReady            | 3 |
      | status.numberAvailable        | 2 |
      | status.numberUnavailable      | 1 |
    When 11 seconds pass
    Then daemonset "agent" runs 2 new and 1 old pods
    When 11 seconds pass
    Then the pods of daemonset "agent" are:
      | node | image      | revision | phase   |
      | n1   | nginx:1.15 | new      | Running |
      | n2   | nginx:1.15 | new      | Running |
      | n3   | nginx:1.15 | new      | Running |
    And every pod of daemonset "agent" carries the hash of its ControllerRevision, which is named after it
    And daemonset "agent" has 2 ControllerRevisions
    And the daemonset "agent" has annotation "deprecated.daemonset.template.generation" = "2"

  @DS-ROLLING-UPDATE @needs-http
  Scenario: kubectl rollout status follows a DaemonSet's rollout to its end
    Each step of the rollout lasts minReadySeconds, 30 s here: longer than kubectl takes to
    start and read the DaemonSet on a loaded machine (found on upstream v1.32.13 at load 50,
    where with 10 s kubectl's first answer came after the first step, and it never printed
    "1 out of 3"). Before the rollout, the DaemonSet may read all 3 available only twice
    minReadySeconds after its pods became Ready: where they became Ready a second apart, the
    controller's resync after minReadySeconds (updateDaemonSetStatus, enqueueDaemonSetAfter)
    counts from the first, comes before the others are available, and the next is
    minReadySeconds later, as the workqueue keeps the sooner of two AddAfter times (found on
    upstream v1.32.13, where 31 s after the creation 2 of 3 read available). Once the rollout
    runs, one new pod is Ready at a time and each step lasts minReadySeconds.
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        minReadySeconds: 30
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    And 61 seconds pass
    Then the daemonset "agent" has:
      | status.numberAvailable | 3 |
    When I set the image of daemonset "agent" to "nginx:1.15"
    And I start "kubectl rollout status daemonset/agent" in the background
    Then the background kubectl prints a line matching "Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated\.\.\."
    When 31 seconds pass
    Then the background kubectl prints a line matching "Waiting for daemon set "agent" rollout to finish: 2 out of 3 new pods have been updated\.\.\."
    When 31 seconds pass
    Then the background kubectl prints a line matching "Waiting for daemon set "agent" rollout to finish: 2 of 3 updated pods are available\.\.\."
    When 31 seconds pass
    Then the background kubectl prints a line matching "daemon set "agent" successfully rolled out"

  @DS-ROLLING-UPDATE
  Scenario Outline: maxUnavailable <max> replaces <first> of 3 nodes at first
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        minReadySeconds: 10
        updateStrategy: { type: RollingUpdate, rollingUpdate: { maxUnavailable: <max> } }
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    And 11 seconds pass
    Then the daemonset "agent" has:
      | status.numberAvailable | 3 |
    When I set the image of daemonset "agent" to "nginx:1.15"
    And 5 seconds pass
    Then daemonset "agent" runs <first> new and <rest> old pods
    When 11 seconds pass
    Then daemonset "agent" runs <then> new and <left> old pods

    Examples:
      | max   | first | rest | then | left |
      | 2     | 2     | 1    | 3    | 0    |
      | "33%" | 1     | 2    | 2    | 1    |
      | "34%" | 2     | 1    | 3    | 0    |

  @DS-ROLLING-UPDATE
  Scenario: A node whose old pod is never confirmed gone holds the rollout back
    The kubelet on n1 has stopped and n1's pod is deleted (as a drain would): it stays
    Terminating, no new pod can take its place (manage creates none while a pod is on the
    node), and the node counts as unavailable (v1.32's rollingUpdate: a node with neither a new
    nor an old pod that is not being deleted; v1.12's: a desired node without an available
    pod), so the one unavailable node maxUnavailable allows is used up and no other node's pod
    is replaced (within the grace period: after it the node is tainted and no longer wants a
    daemon pod). The pod is deleted before the template changes: left to the rollout, upstream
    picks among available old pods in map order (random), so n2 and n3 may go before n1 does.
    When I create this object:
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
    Then the daemonset "agent" has:
      | status.numberAvailable | 3 |
    When the kubelet on "n1" stops
    And I delete the pod of daemonset "agent" on node "n1"
    And I set the image of daemonset "agent" to "nginx:1.15"
    And 10 seconds pass
    Then the pods of daemonset "agent" are:
      | node | image      | revision | phase       |
      | n1   | nginx:1.14 | old      | Terminating |
      | n2   | nginx:1.14 | old      | Running     |
      | n3   | nginx:1.14 | old      | Running     |

  @DS-ON-DELETE
  Scenario: With OnDelete only a deleted pod comes back with the new template
    The pods run before the template changes: on a real clock a change that races their
    creation gives a node created after it the new template (upstream v1.32.13 under load: 1 new,
    2 old), which is not what OnDelete is about.
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        updateStrategy: { type: OnDelete }
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    Then the daemonset "agent" has:
      | status.numberAvailable | 3 |
    When I set the image of daemonset "agent" to "nginx:1.15"
    And 5 minutes pass
    Then daemonset "agent" runs 0 new and 3 old pods
    And the daemonset "agent" has:
      | status.updatedNumberScheduled | <none> |
      | status.numberAvailable        | 3      |
    When I delete the pod of daemonset "agent" on node "n2"
    And 1 second passes
    Then the pods of daemonset "agent" are:
      | node | image      | revision | phase   |
      | n1   | nginx:1.14 | old      | Running |
      | n2   | nginx:1.15 | new      | Running |
      | n3   | nginx:1.14 | old      | Running |

  @DS-REVISIONS
  Scenario: Old revisions beyond revisionHistoryLimit that no pod uses are deleted; the template generation counts template changes only
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        revisionHistoryLimit: 1
        updateStrategy: { type: RollingUpdate, rollingUpdate: { maxUnavailable: 3 } }
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    And I set the image of daemonset "agent" to "nginx:1.15"
    And 1 second passes
    Then daemonset "agent" has 2 ControllerRevisions
    When I patch the daemonset "agent" with:
      """
      spec: { minReadySeconds: 1 }
      """
    Then the daemonset "agent" has annotation "deprecated.daemonset.template.generation" = "2"
    When I set the image of daemonset "agent" to "nginx:1.16"
    And 5 seconds pass
    Then daemonset "agent" runs 3 new and 0 old pods
    And daemonset "agent" has 2 ControllerRevisions
    And the daemonset "agent" has annotation "deprecated.daemonset.template.generation" = "3"
    And every pod of daemonset "agent" carries the hash of its ControllerRevision, which is named after it

  @DS-MAX-SURGE @profile-kubernetes-1.32
  Scenario: maxSurge 2 starts new pods beside old ones, and an old pod goes once its new one is available
    The kubelet on n1 has stopped: its new pod stays Pending, so that node keeps its old pod
    and holds one unit of surge; the other unit replaces n2 and n3 whichever node upstream
    reaches first (maxSurge 1: the next scenario). (Upstream looks at a surged node again only when an event
    or the status resync brings the DaemonSet back; with minReadySeconds and every old pod
    available no resync is due, so the scenario lets pods be available at once.)
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        updateStrategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } }
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    Then the daemonset "agent" has:
      | status.numberAvailable | 3 |
    When the kubelet on "n1" stops
    And I set the image of daemonset "agent" to "nginx:1.15"
    And 5 seconds pass
    Then the pods of daemonset "agent" are:
      | node | image      | revision | phase   |
      | n1   | nginx:1.14 | old      | Running |
      | n1   | nginx:1.15 | new      | Pending |
      | n2   | nginx:1.15 | new      | Running |
      | n3   | nginx:1.15 | new      | Running |

  @DS-MAX-SURGE @profile-kubernetes-1.32
  Scenario: maxSurge 1 starts one new pod at a time: while it cannot start, no other node surges
    No kubelet runs once the template changes, so the first new pod stays Pending beside its old
    one and holds the one unit of surge. Which node that is is not specified: upstream's
    rollingUpdate (update.go) picks surge candidates by ranging over a map of nodes (random),
    so with one stopped kubelet n2 and n3 may or may not be done before n1 is reached (found on
    upstream v1.32.13); with all three stopped the count is the same whichever comes first.
    Every old pod is available before the change: an unavailable one would get its new pod at
    once, beside the surge.
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        updateStrategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    Then the daemonset "agent" has:
      | status.numberAvailable | 3 |
    When the kubelet on "n1" stops
    And the kubelet on "n2" stops
    And the kubelet on "n3" stops
    And I set the image of daemonset "agent" to "nginx:1.15"
    And 5 seconds pass
    Then daemonset "agent" runs 1 new and 3 old pods

  @DS-MAX-SURGE @DS-DEFAULTS @profile-kubernetes-1.32
  Scenario: v1.32 defaults maxSurge to 0 and refuses both or neither of maxSurge and maxUnavailable
    When I create this object:
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
    Then the daemonset "agent" has:
      | spec.updateStrategy.rollingUpdate.maxUnavailable | 1 |
      | spec.updateStrategy.rollingUpdate.maxSurge       | 0 |
    When I try to create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: both, namespace: default }
      spec:
        updateStrategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }
        selector: { matchLabels: { app: both } }
        template:
          metadata: { labels: { app: both } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    Then the request fails with 422 Invalid
    And the refusal names field "spec.updateStrategy.rollingUpdate.maxSurge": Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero
    When I try to create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: neither, namespace: default }
      spec:
        updateStrategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }
        selector: { matchLabels: { app: neither } }
        template:
          metadata: { labels: { app: neither } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    Then the request fails with 422 Invalid
    And the refusal names field "spec.updateStrategy.rollingUpdate.maxUnavailable": Required value: cannot be 0 when maxSurge is 0

  @DS-MAX-SURGE @DS-DEFAULTS @profile-seed
  Scenario: v1.12 has no maxSurge: the field is dropped, and maxUnavailable 0 is refused
    When I try to create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        updateStrategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    Then the request fails with 422 Invalid
    And the refusal names field "spec.updateStrategy.rollingUpdate.maxUnavailable": Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: cannot be 0
    When I create this object:
      """
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent, namespace: default }
      spec:
        updateStrategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec:
            containers:
            - { name: agent, image: "nginx:1.14" }
      """
    Then the daemonset "agent" has:
      | spec.updateStrategy.rollingUpdate.maxUnavailable | 1      |
      | spec.updateStrategy.rollingUpdate.maxSurge       | <none> |
