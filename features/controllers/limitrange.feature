Feature: LimitRanger defaults and bounds container and pod resources
  The LimitRanger admission plugin applies a namespace's LimitRanges to every new pod:
  containers without requests or limits get the Container item's defaultRequest and
  default (noted in the kubernetes.io/limit-ranger annotation), then min, max and
  maxLimitRequestRatio are enforced per container, and for Pod items on the pod's totals;
  a violation is Forbidden with upstream's message. A LimitRange item's default comes from
  max, and its defaultRequest from default or min, when not given.
  Source: 002 §4.3 (LimitRanger, "容器级别", "Pod级别"). Upstream: PodMutateLimitFunc,
  PodValidateLimitFunc, minConstraint, maxConstraint, limitRequestRatioConstraint
  (plugin/pkg/admission/limitranger/admission.go), SetDefaults_LimitRangeItem.

  Background:
    When I create this object:
      """
      apiVersion: v1
      kind: LimitRange
      metadata: { name: limits }
      spec:
        limits:
          - type: Container
            min: { cpu: 50m }
            max: { cpu: "2", memory: 1Gi }
            defaultRequest: { memory: 128Mi }
            maxLimitRequestRatio: { cpu: "4" }
          - type: Pod
            max: { cpu: "3" }
      """

  @LIMITRANGE
  Scenario: The LimitRange's own defaults: default from max, defaultRequest from default or min
    Then the limitrange "limits" has:
      | spec.limits[0].default.cpu           | 2     |
      | spec.limits[0].default.memory        | 1Gi   |
      | spec.limits[0].defaultRequest.cpu    | 2     |
      | spec.limits[0].defaultRequest.memory | 128Mi |
      | spec.limits[1].default               | <none> |

  @LIMITRANGE
  Scenario: A container without resources gets the defaults
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: plain }
      spec:
        containers: [{ name: app, image: busybox }]
      """
    Then the pod "plain" has:
      | spec.containers[0].resources.requests.cpu    | 2     |
      | spec.containers[0].resources.requests.memory | 128Mi |
      | spec.containers[0].resources.limits.cpu      | 2     |
      | spec.containers[0].resources.limits.memory   | 1Gi   |
    And the pod "plain" has annotation "kubernetes.io/limit-ranger" = "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app"

  @LIMITRANGE
  Scenario Outline: Container bounds: min, max and the limit/request ratio
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: p }
      spec:
        containers:
          - name: app
            image: busybox
            resources: { requests: { cpu: <request> }, limits: { cpu: <limit> } }
      """
    Then <outcome>

    Examples:
      | request | limit | outcome |
      | 50m     | 200m  | the pod "p" has no error |
      | 40m     | 100m  | the request fails with 403 Forbidden and message "pods "p" is forbidden: minimum cpu usage per Container is 50m, but request is 40m" |
      | 1       | 2     | the pod "p" has no error |
      | 1       | 2500m | the request fails with 403 Forbidden and message "pods "p" is forbidden: maximum cpu usage per Container is 2, but limit is 2500m" |
      | 500m    | 2     | the pod "p" has no error |
      | 100m    | 600m  | the request fails with 403 Forbidden and message "pods "p" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 6.000000" |

  @LIMITRANGE
  Scenario: Pod bounds apply to the sum of the containers
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: two }
      spec:
        containers:
          - { name: a, image: busybox, resources: { requests: { cpu: 1 }, limits: { cpu: 1500m } } }
          - { name: b, image: busybox, resources: { requests: { cpu: 1 }, limits: { cpu: 1500m } } }
      """
    Then the pod "two" has no error
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: three }
      spec:
        containers:
          - { name: a, image: busybox, resources: { requests: { cpu: 1 }, limits: { cpu: 1500m } } }
          - { name: b, image: busybox, resources: { requests: { cpu: 1 }, limits: { cpu: 1500m } } }
          - { name: c, image: busybox, resources: { requests: { cpu: 1 }, limits: { cpu: 1500m } } }
      """
    Then the request fails with 403 Forbidden and message "pods "three" is forbidden: maximum cpu usage per Pod is 3, but limit is 4500m"
