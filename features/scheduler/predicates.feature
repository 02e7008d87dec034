@SCHED-TWO-PHASE
Feature: Predicates filter the nodes a pod may run on
  First the scheduler filters: a node is a candidate only if every predicate holds for it
  (返回true表示该节点满足该Pod的调度条件). When no node is left the pod stays Pending with
  PodScheduled=False, reason Unschedulable, and a FailedScheduling event counting the
  reasons over all nodes: "0/N nodes are available: <count> <reason>, …." — reasons sorted
  as strings. The seed profile follows v1.12 (legacy predicates in predicatesOrdering,
  evaluation of a node stopping at the first failing predicate, GeneralPredicates reporting
  all four of its checks); kubernetes-1.32 follows the framework's filter plugins and
  appends the preemption verdict.
  Source: 002 §5.3 (预选策略). Upstream: podFitsOnNode, FitError.Error
  (pkg/scheduler/core/generic_scheduler.go, v1.12), predicates.go; framework/types.go (v1.32).

  @PRED-FITS-RESOURCES @NODE-CAPACITY-FIT
  Scenario Outline: Requests plus the node's used requests must stay within allocatable
    Given a node "n1" with allocatable cpu "<cpu>", memory "<memory>" and pods "<pods>"
    And pods running:
      | name | node | cpu        | memory        |
      | used | n1   | <used cpu> | <used memory> |
    When I create a pod "web" with:
      | cpu      | <want cpu>    |
      | memory   | <want memory> |
      | init cpu | <init cpu>    |
    Then pod "web" <outcome>

    Examples: cpu (the equal edge fits)
      | cpu | memory | pods | used cpu | used memory | want cpu | want memory | init cpu | outcome                  |
      | 1   | 2Gi    | 10   | 500m     | 1Gi         | 500m     | 1Gi         | -        | is bound to node "n1"    |
      | 1   | 2Gi    | 10   | 500m     | 1Gi         | 501m     | 1Gi         | -        | is not scheduled         |
    Examples: memory
      | cpu | memory | pods | used cpu | used memory | want cpu | want memory | init cpu | outcome                  |
      | 1   | 2Gi    | 10   | 100m     | 1Gi         | 100m     | 1Gi         | -        | is bound to node "n1"    |
      | 1   | 2Gi    | 10   | 100m     | 1Gi         | 100m     | 1025Mi      | -        | is not scheduled         |
    Examples: init containers count as the max with the app containers, not the sum
      | cpu | memory | pods | used cpu | used memory | want cpu | want memory | init cpu | outcome                  |
      | 1   | 2Gi    | 10   | 500m     | 1Gi         | 300m     | 100Mi       | 500m     | is bound to node "n1"    |
      | 1   | 2Gi    | 10   | 500m     | 1Gi         | 300m     | 100Mi       | 501m     | is not scheduled         |
    Examples: the pod count, even for a pod that requests nothing
      | cpu | memory | pods | used cpu | used memory | want cpu | want memory | init cpu | outcome                  |
      | 1   | 2Gi    | 2    | -        | -           | -        | -           | -        | is bound to node "n1"    |
      | 1   | 2Gi    | 1    | -        | -           | -        | -           | -        | is not scheduled         |

  @PRED-FITS-RESOURCES @profile-seed
  Scenario: The legacy reason names the resource; the node's full accounting is kept for explanation
    Given a node "n1" with allocatable cpu "1", memory "2Gi" and pods "10"
    And pods running:
      | name | node | cpu  | memory |
      | used | n1   | 600m | 1Gi    |
    When I create a pod "web" requesting cpu "500m" and memory "1025Mi"
    Then pod "web" is unschedulable with message "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory."
    And the scheduler found for pod "web":
      | node | predicate         | reasons                              |
      | n1   | GeneralPredicates | Insufficient cpu; Insufficient memory |

  @PRED-SELECTOR @NODE-LABELS
  Scenario Outline: The node must carry every label of the pod's nodeSelector
    Given the nodes:
      | name | labels         |
      | n1   | <node labels>  |
    When I create a pod "web" with:
      | nodeSelector | <selector> |
    Then pod "web" <outcome>

    Examples:
      | node labels         | selector            | outcome               |
      | disk=ssd            | disk=ssd            | is bound to node "n1" |
      | disk=ssd,zone=a     | disk=ssd            | is bound to node "n1" |
      | disk=hdd            | disk=ssd            | is not scheduled      |
      | zone=a              | disk=ssd            | is not scheduled      |
      | disk=ssd            | disk=ssd,zone=a     | is not scheduled      |

  @PRED-SELECTOR @NODE-LABELS
  Scenario: Required node affinity: terms are ORed, expressions ANDed, Gt compares integers
    Given the nodes:
      | name | labels                         |
      | n1   | kernel-version=0206,disk=hdd   |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default }
      spec:
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
        affinity:
          nodeAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              nodeSelectorTerms:
                - matchExpressions: [{ key: disk, operator: In, values: [ssd] }]
                - matchExpressions:
                    - { key: kernel-version, operator: Gt, values: ["0204"] }
                    - { key: mem-type, operator: NotIn, values: [DDR, DDR2] }
      """
    And I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: nowhere, namespace: default }
      spec:
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
        affinity:
          nodeAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              nodeSelectorTerms: [{ matchExpressions: [{ key: kernel-version, operator: Lt, values: ["0204"] }] }]
      """
    Then pod "web" is bound to node "n1"
    And pod "nowhere" is not scheduled

  @PRED-HOST
  Scenario: A pod naming spec.nodeName fits only that node, and never passes through the scheduler
    The pod is bound from the start: the scheduler only picks pods without spec.nodeName, so
    it records nothing for it (no Scheduled, no FailedScheduling), even when another node
    would score better. PodFitsHost itself is only reachable inside the scheduler.
    Given the nodes:
      | name | cpu |
      | n1   | 1   |
      | n2   | 8   |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: pinned, namespace: default }
      spec:
        nodeName: n1
        containers: [{ name: app, image: registry.k8s.io/pause:3.9 }]
      """
    Then pod "pinned" is Running on node "n1"
    And the scheduler recorded no event for pod "pinned"

  @PRED-PORTS
  Scenario Outline: A host port already used on the node does not fit
    Given the nodes:
      | name |
      | n1   |
    And pods running:
      | name | node | hostPort   | protocol   | hostIP   |
      | used | n1   | <used port> | <used proto> | <used ip> |
    When I create a pod "web" with:
      | hostPort | <port>  |
      | protocol | <proto> |
      | hostIP   | <ip>    |
    Then pod "web" <outcome>

    Examples:
      | used port | used proto | used ip   | port | proto | ip        | outcome               |
      | 8080      | TCP        | 0.0.0.0   | 9090 | TCP   | 0.0.0.0   | is bound to node "n1" |
      | 8080      | TCP        | 0.0.0.0   | 8080 | TCP   | 0.0.0.0   | is not scheduled      |
      | 8080      | UDP        | 127.0.0.1 | 8080 | TCP   | 127.0.0.1 | is bound to node "n1" |
      | 8080      | TCP        | 127.0.0.1 | 8080 | TCP   | 127.0.0.2 | is bound to node "n1" |
      | 8001      | TCP        | 127.0.0.1 | 8001 | TCP   | 0.0.0.0   | is not scheduled      |
      | 8001      | TCP        | 0.0.0.0   | 8001 | TCP   | 127.0.0.1 | is not scheduled      |

  @PRED-NO-DISK-CONFLICT
  Scenario Outline: A volume conflicting with one mounted on the node does not fit
    Given the nodes:
      | name |
      | n1   |
    And pods running:
      | name | node | volume   |
      | used | n1   | <theirs> |
    When I create a pod "web" with:
      | volume | <mine> |
    Then pod "web" <outcome>

    Examples: GCE PD: same disk unless both read-only; AWS EBS: same volume even read-only
      | theirs                 | mine                   | outcome               |
      | gce:foo                | gce:foo                | is not scheduled      |
      | gce:foo                | gce:bar                | is bound to node "n1" |
      | gce:foo:ro             | gce:foo:ro             | is bound to node "n1" |
      | gce:foo:ro             | gce:foo                | is not scheduled      |
      | ebs:foo                | ebs:foo                | is not scheduled      |
      | ebs:foo:ro             | ebs:foo:ro             | is not scheduled      |
      | ebs:foo                | ebs:bar                | is bound to node "n1" |
    Examples: Ceph RBD needs a shared monitor, same pool and image; iSCSI the same IQN; other types never conflict
      | theirs                 | mine                   | outcome               |
      | rbd:a;b/foo/bar        | rbd:b;c/foo/bar        | is not scheduled      |
      | rbd:a;b/foo/bar        | rbd:c;d/foo/bar        | is bound to node "n1" |
      | iscsi:iqn.2016-12.server:storage.target01 | iscsi:iqn.2016-12.server:storage.target01 | is not scheduled |
      | iscsi:iqn.2016-12.server:storage.target01 | iscsi:iqn.2017-12.server:storage.target01 | is bound to node "n1" |
      | empty                  | empty                  | is bound to node "n1" |

  @NODE-CORDON
  Scenario: A cordoned node gets no new pods; uncordoning lets the waiting pod in
    Given the nodes:
      | name |
      | n1   |
    And pods running:
      | name | node |
      | old  | n1   |
    When I set spec.unschedulable of node "n1" to true
    And I create a pod "web" requesting cpu "100m" and memory "64Mi"
    Then pod "web" is not scheduled
    And pod "old" is Running on node "n1"
    When I set spec.unschedulable of node "n1" to false
    Then pod "web" is bound to node "n1"

  @NODE-CORDON @profile-seed
  Scenario: The legacy message for a cordoned node
    Given the nodes:
      | name |
      | n1   |
    When I set spec.unschedulable of node "n1" to true
    And I create a pod "web" requesting cpu "100m" and memory "64Mi"
    Then pod "web" is unschedulable with message "0/1 nodes are available: 1 node(s) were unschedulable."

  @NODE-CORDON @profile-kubernetes-1.32
  Scenario: The 1.32 message for a cordoned node comes from NodeUnschedulable, not from its taint
    The NodeUnschedulable filter runs before TaintToleration and judges spec.unschedulable
    itself (ErrReasonUnschedulable), so the node.kubernetes.io/unschedulable taint is never
    the reason given.
    Given the nodes:
      | name |
      | n1   |
    When I set spec.unschedulable of node "n1" to true
    And I create a pod "web" requesting cpu "100m" and memory "64Mi"
    Then pod "web" is unschedulable with message "0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."

  @NODE-TAINT-BY-CONDITION
  Scenario Outline: The scheduler reads taints, not conditions: a NoSchedule taint keeps pods out unless tolerated
    Given the nodes:
      | name | taints   |
      | n1   | <taints> |
    When I create a pod "web" with:
      | tolerations | <tolerations> |
    Then pod "web" <outcome>

    Examples:
      | taints                                 | tolerations                                  | outcome               |
      | example.com/maintenance:NoSchedule     | -                                            | is not scheduled      |
      | example.com/maintenance:NoSchedule     | example.com/maintenance:Exists:NoSchedule    | is bound to node "n1" |
      | dedicated=user1:NoSchedule             | dedicated=user2:NoSchedule                   | is not scheduled      |
      | dedicated=user1:NoSchedule             | dedicated=user1                              | is bound to node "n1" |
      | dedicated=user1:NoSchedule             | dedicated=user1:PreferNoSchedule             | is not scheduled      |
      | dedicated=user1:PreferNoSchedule       | -                                            | is bound to node "n1" |
      | example.com/maintenance:NoSchedule     | :Exists                                      | is bound to node "n1" |

  @PRED-SELECTOR @PRED-FITS-RESOURCES @profile-seed
  Scenario Outline: FailedScheduling counts every reason of every node, sorted as strings (v1.12 wording)
    Given the nodes:
      | name | cpu | labels   |
      | n1   | 4   |          |
      | n2   | 1   | disk=ssd |
      | n3   | 1   | <n3>     |
    When I create a pod "web" with:
      | cpu          | 2        |
      | nodeSelector | disk=ssd |
    Then pod "web" is unschedulable with message "<message>"

    Examples:
      | n3       | message                                                                                     |
      | disk=ssd | 0/3 nodes are available: 1 node(s) didn't match node selector, 2 Insufficient cpu.          |
      | disk=hdd | 0/3 nodes are available: 2 Insufficient cpu, 2 node(s) didn't match node selector.          |

  @PRED-SELECTOR @PRED-FITS-RESOURCES @profile-kubernetes-1.32
  Scenario Outline: FailedScheduling names the first failing plugin per node, then the preemption verdict (v1.32 wording)
    Given the nodes:
      | name | cpu | labels   |
      | n1   | 4   |          |
      | n2   | 1   | disk=ssd |
      | n3   | 1   | <n3>     |
    When I create a pod "web" with:
      | cpu          | 2        |
      | nodeSelector | disk=ssd |
    Then pod "web" is unschedulable with message "<message>"

    Examples:
      | n3       | message |
      | disk=ssd | 0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod. |
      | disk=hdd | 0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling. |

  @SCHED-TWO-PHASE
  Scenario: A pod that fits nowhere is retried when the cluster changes
    Given a node "n1" with allocatable cpu "1", memory "2Gi" and pods "10"
    And pods running:
      | name | node | cpu  | memory |
      | big  | n1   | 800m | 1Gi    |
    When I create a pod "web" requesting cpu "500m" and memory "64Mi"
    Then pod "web" is not scheduled
    When I delete the pod "big"
    Then pod "web" is bound to node "n1"
    When I create a pod "later" requesting cpu "2" and memory "64Mi"
    Then pod "later" is not scheduled
    Given a node "n2" with allocatable cpu "4", memory "2Gi" and pods "10"
    Then pod "later" is bound to node "n2"

  @NODE-CAPACITY-FIT
  Scenario: The kubelet refuses a pod bound past its allocatable (a bad scheduler is caught)
    Given a node "n1" with allocatable cpu "1", memory "2Gi" and pods "10"
    And pods running:
      | name | node | cpu  | memory |
      | used | n1   | 800m | 1Gi    |
    When I create this pod:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: forced, namespace: default }
      spec:
        nodeName: n1
        containers: [{ name: app, image: registry.k8s.io/pause:3.9, resources: { requests: { cpu: 500m } } }]
      """
    Then pod "forced" has failed with reason "OutOfcpu" and message "Node didn't have enough resource: cpu, requested: 500, used: 800, capacity: 1000"
    And pod "used" is Running on node "n1"
