@needs-http
Feature: The real kubectl works against the API server
  Users manage nodes with kubectl: list them with their addresses and system info, read
  one in detail, add one by hand from a manifest, cordon, drain, label and delete them,
  create namespaces and read pod logs. The unmodified kubectl (v1.32) runs against the
  API server over HTTPS with the admin's client certificate; every table it prints is
  computed by the server (meta.k8s.io Table, upstream pkg/printers/internalversion
  printNode/printPod), ages in the cluster's time.
  Source: 000 §1.1 "kubectl get nodes -o wide", "kubectl describe node", §1.2 node3.yaml,
  "kubectl cordon"; 002 §2.4. Upstream: kubectl v1.32 get/describe/apply/drain,
  k8s.io/apiserver endpoints.
  Where the seed (kubectl 1.9) and kubectl 1.32 differ, the suite encodes 1.32: the wide
  table has an INTERNAL-IP column the seed's lacks; describe hides the
  kubectl.kubernetes.io/last-applied-configuration annotation (it is still stored) and
  adds a Lease line; printed statuses follow printNode (Ready, NotReady, Unknown without
  conditions, ",SchedulingDisabled" when cordoned).

  Background:
    Given ready nodes "10.4.42.5", "10.4.42.6"

  @NODE-GET-WIDE @profile-seed
  Scenario: get nodes -o wide shows the seed's columns, computed by the server
    When 17 hours pass
    And I run "kubectl get nodes -o wide"
    Then kubectl prints the table:
      | NAME      | STATUS | ROLES  | AGE | VERSION  | INTERNAL-IP | EXTERNAL-IP | OS-IMAGE              | KERNEL-VERSION        | CONTAINER-RUNTIME |
      | 10.4.42.5 | Ready  | <none> | 17h | v1.12.10 | 10.4.42.5   | <none>      | CentOS Linux 7 (Core) | 3.10.0-693.el7.x86_64 | docker://1.13.1   |
      | 10.4.42.6 | Ready  | <none> | 17h | v1.12.10 | 10.4.42.6   | <none>      | CentOS Linux 7 (Core) | 3.10.0-693.el7.x86_64 | docker://1.13.1   |

  @NODE-GET-WIDE @profile-kubernetes-1.32
  Scenario: get nodes -o wide shows today's node info
    When 17 hours pass
    And I run "kubectl get nodes -o wide"
    Then kubectl prints the table:
      | NAME      | STATUS | ROLES  | AGE | VERSION | INTERNAL-IP | EXTERNAL-IP | OS-IMAGE           | KERNEL-VERSION   | CONTAINER-RUNTIME   |
      | 10.4.42.5 | Ready  | <none> | 17h | v1.32.0 | 10.4.42.5   | <none>      | Ubuntu 24.04.1 LTS | 6.8.0-45-generic | containerd://1.7.22 |
      | 10.4.42.6 | Ready  | <none> | 17h | v1.32.0 | 10.4.42.6   | <none>      | Ubuntu 24.04.1 LTS | 6.8.0-45-generic | containerd://1.7.22 |

  @NODE-GET-WIDE
  Scenario: Without -o wide only the default columns; a silent node turns NotReady
    When the kubelet on "10.4.42.6" stops
    And 10 minutes pass
    And I run "kubectl get nodes"
    Then kubectl prints the header "NAME STATUS ROLES AGE VERSION"
    And kubectl prints a table whose columns include:
      | NAME      | STATUS   | ROLES  | AGE |
      | 10.4.42.5 | Ready    | <none> | 10m |
      | 10.4.42.6 | NotReady | <none> | 10m |

  @NODE-DESCRIBE
  Scenario: describe node shows its name, roles, labels, annotations, taints, schedulability and its pod
    Each section line for line (not as a subsequence of the output): a label or annotation too
    many, a role, a taint or a pod row off fails. The addresses, capacity and allocatable are
    compared the same way in the next scenario, the rest of describe in describe.feature. The
    TTL controller's annotation is waited for first: on a real clock it may come after the pod
    (upstream v1.32.13).
    Given a pod "web" running on node "10.4.42.5"
    And the node "10.4.42.5" has annotation "node.alpha.kubernetes.io/ttl" = "0"
    When I run "kubectl describe node 10.4.42.5"
    Then kubectl prints the "Name" section as:
      """
      Name:               10.4.42.5
      """
    And kubectl prints the "Roles" section as:
      """
      Roles:              <none>
      """
    And kubectl prints the "Labels" section as:
      """
      Labels:             beta.kubernetes.io/arch=amd64
                          beta.kubernetes.io/os=linux
                          kubernetes.io/arch=amd64
                          kubernetes.io/hostname=10.4.42.5
                          kubernetes.io/os=linux
      """
    And kubectl prints the "Annotations" section as:
      """
      Annotations:        node.alpha.kubernetes.io/ttl: 0
                          volumes.kubernetes.io/controller-managed-attach-detach: true
      """
    And kubectl prints the "Taints" section as:
      """
      Taints:             <none>
      """
    And kubectl prints the "Unschedulable" section as:
      """
      Unschedulable:      false
      """
    And kubectl prints the "Non-terminated Pods" section as:
      """
      Non-terminated Pods:          (1 in total)
        Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
        ---------                   ----    ------------  ----------  ---------------  -------------  ---
        default                     web     0 (0%)        0 (0%)      0 (0%)           0 (0%)         <age>
      """

  @NODE-DESCRIBE
  Scenario: describe node, section by section: labels, annotations, taints, addresses, capacity, allocatable, the node's pods and what they request
    Each section is compared line for line (not as a subsequence): a label, taint, address or
    resource too many or too few, or a wrong percentage, fails. Requests are summed over the
    node's non-terminated pods, as a percentage of allocatable, truncated: 300m of 4 cpu is 7%.
    Given a pod "web" requesting cpu "100m" and memory "64Mi" running on node "10.4.42.5"
    And a pod "db" requesting cpu "200m" and memory "1Gi" running on node "10.4.42.5"
    When I taint node "10.4.42.5" with "dedicated=db:NoSchedule"
    And I run "kubectl describe node 10.4.42.5"
    Then kubectl prints the "Labels" section as:
      """
      Labels:             beta.kubernetes.io/arch=amd64
                          beta.kubernetes.io/os=linux
                          kubernetes.io/arch=amd64
                          kubernetes.io/hostname=10.4.42.5
                          kubernetes.io/os=linux
      """
    And kubectl prints the "Annotations" section as:
      """
      Annotations:        node.alpha.kubernetes.io/ttl: 0
                          volumes.kubernetes.io/controller-managed-attach-detach: true
      """
    And kubectl prints the "Taints" section as:
      """
      Taints:             dedicated=db:NoSchedule
      """
    And kubectl prints the "Addresses" section as:
      """
      Addresses:
        InternalIP:  10.4.42.5
        Hostname:    10.4.42.5
      """
    And kubectl prints the "Capacity" section as:
      """
      Capacity:
        cpu:     4
        memory:  8010172Ki
        pods:    110
      """
    And kubectl prints the "Allocatable" section as:
      """
      Allocatable:
        cpu:     4
        memory:  7907772Ki
        pods:    110
      """
    And kubectl prints the "Non-terminated Pods" section as:
      """
      Non-terminated Pods:          (2 in total)
        Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
        ---------                   ----    ------------  ----------  ---------------  -------------  ---
        default                     db      200m (5%)     0 (0%)      1Gi (13%)        0 (0%)         <age>
        default                     web     100m (2%)     0 (0%)      64Mi (0%)        0 (0%)         <age>
      """
    And kubectl prints the "Allocated resources" section as:
      """
      Allocated resources:
        (Total limits may be over 100 percent, i.e., overcommitted.)
        Resource           Requests      Limits
        --------           --------      ------
        cpu                300m (7%)     0 (0%)
        memory             1088Mi (14%)  0 (0%)
        ephemeral-storage  0 (0%)        0 (0%)
      """

  @NODE-MANUAL @API-CRUD
  Scenario: The seed's node3.yaml, applied by hand: a node without a kubelet stays Unknown until deleted
    The ages judged are node3's own: the background nodes are older by however long their
    registration and the apply took, which is nothing on a virtual clock but some seconds on a
    real one (found on upstream v1.32.13: 17 s, 15 s and 12 s after "11 seconds pass").
    Given a file "node3.yaml" containing:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.8"
        labels:
          name: "node3"
      """
    When I run "kubectl apply -f node3.yaml"
    Then kubectl prints "node/10.4.42.8 created"
    When 11 seconds pass
    And I run "kubectl get nodes"
    Then kubectl prints a table whose columns include:
      | NAME      | STATUS  | ROLES  |
      | 10.4.42.5 | Ready   | <none> |
      | 10.4.42.6 | Ready   | <none> |
      | 10.4.42.8 | Unknown | <none> |
    And kubectl prints the row "10.4.42.8" whose columns include:
      | STATUS  | AGE | VERSION |
      | Unknown | 11s |         |
    When I run "kubectl get node 10.4.42.8 -o jsonpath={.metadata.annotations.kubectl\.kubernetes\.io/last-applied-configuration}"
    Then kubectl prints "{"apiVersion":"v1","kind":"Node","metadata":{"annotations":{},"labels":{"name":"node3"},"name":"10.4.42.8"}}"
    When I run "kubectl apply -f node3.yaml"
    Then kubectl prints "node/10.4.42.8 unchanged"
    When I run "kubectl delete node 10.4.42.8"
    Then kubectl prints "node "10.4.42.8" deleted"
    And node "10.4.42.8" does not exist
    When I run "kubectl get node 10.4.42.8"
    Then kubectl fails with "Error from server (NotFound): nodes "10.4.42.8" not found"

  @NODE-DESCRIBE @NODE-MANUAL @profile-seed
  Scenario: describe of the seed's hand-made node3: Unknown conditions (OutOfDisk among them), unreachable NoSchedule, nothing the kubelet reports
    No kubelet ever posts its status: no addresses, capacity or machine; past the startup grace
    period (60 s) the node controller marks each condition Unknown, NodeStatusNeverUpdated
    (tryUpdateNodeHealth), and taints it unreachable by that Ready condition
    (doNoScheduleTaintingPass; doNoExecuteTaintingPass where TaintBasedEvictions is on).
    Given a file "node3.yaml" containing:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.8"
        labels:
          name: "node3"
      """
    When I run "kubectl apply -f node3.yaml"
    And 70 seconds pass
    And I run "kubectl describe node 10.4.42.8"
    Then kubectl prints the "Labels" section as:
      """
      Labels:             name=node3
      """
    And kubectl prints the "Taints" section as:
      """
      Taints:             node.kubernetes.io/unreachable:NoSchedule
      """
    And kubectl prints the "Lease" section as:
      """
      Lease:              Failed to get lease: leases.coordination.k8s.io "10.4.42.8" not found
      """
    And kubectl prints the "Conditions" section as:
      """
      Conditions:
        Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason                   Message
        ----             ------    -----------------                 ------------------                ------                   -------
        Ready            Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
        OutOfDisk        Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
        MemoryPressure   Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
        DiskPressure     Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
        PIDPressure      Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
      """
    And kubectl prints the "Addresses" section as:
      """
      Addresses:
      """
    And kubectl prints the "System Info" section as:
      """
      System Info:
        Machine ID:
        System UUID:
        Boot ID:
        Kernel Version:
        OS Image:
        Operating System:
        Architecture:
        Container Runtime Version:
        Kubelet Version:
        Kube-Proxy Version:
      """
    And kubectl prints the "Non-terminated Pods" section as:
      """
      Non-terminated Pods:          (0 in total)
        Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
        ---------                   ----    ------------  ----------  ---------------  -------------  ---
      """
    And kubectl prints the "Events" section as:
      """
      Events:
        Type    Reason          Age   From             Message
        ----    ------          ----  ----             -------
        Normal  RegisteredNode  <age> node-controller  Node 10.4.42.8 event: Registered Node 10.4.42.8 in Controller
      """

  @NODE-DESCRIBE @NODE-MANUAL @profile-kubernetes-1.32
  Scenario: describe of the hand-made node3 on 1.32: four Unknown conditions, unreachable NoExecute and NoSchedule, nothing the kubelet reports
    No kubelet ever posts its status: no addresses, capacity or machine; past the startup grace
    period (60 s) the node controller marks each condition Unknown, NodeStatusNeverUpdated
    (tryUpdateNodeHealth), and taints it unreachable by that Ready condition
    (doNoScheduleTaintingPass; doNoExecuteTaintingPass where TaintBasedEvictions is on).
    Given a file "node3.yaml" containing:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.8"
        labels:
          name: "node3"
      """
    When I run "kubectl apply -f node3.yaml"
    And 70 seconds pass
    And I run "kubectl describe node 10.4.42.8"
    Then kubectl prints the "Labels" section as:
      """
      Labels:             name=node3
      """
    And kubectl prints the "Taints" section as:
      """
      Taints:             node.kubernetes.io/unreachable:NoExecute
                          node.kubernetes.io/unreachable:NoSchedule
      """
    And kubectl prints the "Lease" section as:
      """
      Lease:              Failed to get lease: leases.coordination.k8s.io "10.4.42.8" not found
      """
    And kubectl prints the "Conditions" section as:
      """
      Conditions:
        Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason                   Message
        ----             ------    -----------------                 ------------------                ------                   -------
        Ready            Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
        MemoryPressure   Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
        DiskPressure     Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
        PIDPressure      Unknown   <time>   <time>   NodeStatusNeverUpdated   Kubelet never posted node status.
      """
    And kubectl prints the "Addresses" section as:
      """
      Addresses:
      """
    And kubectl prints the "System Info" section as:
      """
      System Info:
        Machine ID:
        System UUID:
        Boot ID:
        Kernel Version:
        OS Image:
        Operating System:
        Architecture:
        Container Runtime Version:
        Kubelet Version:
        Kube-Proxy Version:
      """
    And kubectl prints the "Non-terminated Pods" section as:
      """
      Non-terminated Pods:          (0 in total)
        Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
        ---------                   ----    ------------  ----------  ---------------  -------------  ---
      """
    And kubectl prints the "Events" section as:
      """
      Events:
        Type    Reason          Age   From             Message
        ----    ------          ----  ----             -------
        Normal  RegisteredNode  <age> node-controller  Node 10.4.42.8 event: Registered Node 10.4.42.8 in Controller
      """

  @NODE-CORDON
  Scenario: cordon marks a node unschedulable, uncordon clears it (a null in a strategic merge patch)
    When I run "kubectl cordon 10.4.42.5"
    Then kubectl prints "node/10.4.42.5 cordoned"
    And the node "10.4.42.5" has:
      | spec.unschedulable | true |
    When I run "kubectl get nodes"
    Then kubectl prints a table whose columns include:
      | NAME      | STATUS                   |
      | 10.4.42.5 | Ready,SchedulingDisabled |
      | 10.4.42.6 | Ready                    |
    When I run "kubectl uncordon 10.4.42.5"
    Then kubectl prints "node/10.4.42.5 uncordoned"
    And the node "10.4.42.5" has:
      | spec.unschedulable | <none> |

  @NODE-CORDON @API-CRUD
  Scenario: drain cordons the node and evicts its pods through pods/eviction
    Given a pod "web" running on node "10.4.42.5"
    And a pod "other" running on node "10.4.42.6"
    When I run "kubectl drain 10.4.42.5 --force"
    Then kubectl prints "pod/web evicted"
    And kubectl prints "node/10.4.42.5 drained"
    And pod "web" is gone
    And pod "other" is Running on node "10.4.42.6"
    And the node "10.4.42.5" has:
      | spec.unschedulable | true |

  @NODE-LABELS @API-CRUD
  Scenario: label adds a label with a merge patch; a label selector finds the node
    When I run "kubectl label node 10.4.42.5 disktype=ssd"
    Then kubectl prints "node/10.4.42.5 labeled"
    And node "10.4.42.5" has labels:
      | disktype | ssd |
    When I run "kubectl get nodes -l disktype=ssd"
    Then kubectl prints a table whose columns include:
      | NAME      |
      | 10.4.42.5 |
    When I run "kubectl label node 10.4.42.5 disktype-"
    Then kubectl prints "node/10.4.42.5 unlabeled"
    When I run "kubectl get nodes -l disktype=ssd"
    Then kubectl prints "No resources found" on stderr

  @API-CRUD
  Scenario: Patches of every kind; a patch that changes nothing keeps the resourceVersion
    When I run "kubectl patch node 10.4.42.5 -p '{"metadata":{"labels":{"b":"2"}}}'"
    Then kubectl prints "node/10.4.42.5 patched"
    When I run "kubectl patch node 10.4.42.5 -p '{"metadata":{"labels":{"b":"2"}}}'"
    Then kubectl prints "node/10.4.42.5 patched (no change)"
    When I run "kubectl patch node 10.4.42.5 --type merge -p '{"metadata":{"labels":{"c":"3"}}}'"
    Then kubectl prints "node/10.4.42.5 patched"
    When I run "kubectl patch node 10.4.42.5 --type json -p '[{"op":"remove","path":"/metadata/labels/b"}]'"
    Then kubectl prints "node/10.4.42.5 patched"
    And node "10.4.42.5" has labels:
      | c | 3 |
    And the node "10.4.42.5" has:
      | metadata.labels.b | <none> |

  @API-CRUD
  Scenario: Server-side apply creates, then updates, and records its manager
    Given a file "node3.yaml" containing:
      """
      kind: Node
      apiVersion: v1
      metadata:
        name: "10.4.42.8"
        labels:
          name: "node3"
      """
    When I run "kubectl apply --server-side -f node3.yaml"
    Then kubectl prints "node/10.4.42.8 serverside-applied"
    And the node "10.4.42.8" has:
      | metadata.labels.name              | node3   |
      | metadata.managedFields[0].manager | kubectl |
      | metadata.managedFields[0].operation | Apply |

  @API-CRUD
  Scenario: create namespace sends a protobuf body; a second one is refused
    When I run "kubectl create namespace team-a"
    Then kubectl prints "namespace/team-a created"
    And the namespace "team-a" has:
      | status.phase | Active |
    When I run "kubectl create namespace team-a"
    Then kubectl fails with "Error from server (AlreadyExists): namespaces "team-a" already exists"

  @COMM-KUBELET @needs-kubelet-api
  Scenario: logs come from the pod's kubelet through the API server
    Given a pod "web" running on node "10.4.42.5"
    When I run "kubectl logs web"
    Then kubectl prints "hollow container app (image registry.k8s.io/pause:3.9) of pod default/web started on node 10.4.42.5"
    When I run "kubectl logs web -c nope"
    Then kubectl fails with "container nope is not valid for pod web"

  @API-LIST-WATCH
  Scenario: get --watch prints each change as it happens
    When I start "kubectl get nodes --watch --output-watch-events" in the background
    Then the background kubectl prints a line matching "^ADDED\s+10\.4\.42\.6\s+Ready\s"
    When I run "kubectl cordon 10.4.42.6"
    Then the background kubectl prints a line matching "^MODIFIED\s+10\.4\.42\.6\s+Ready,SchedulingDisabled"

  @RC-SCALE @API-CRUD
  Scenario: scale rc goes through the scale subresource; the replication controller follows
    Given a file "rc.yaml" containing:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata:
        name: web
      spec:
        replicas: 1
        selector: { app: web }
        template:
          metadata:
            labels: { app: web }
          spec:
            containers:
              - name: nginx
                image: nginx:1.14
      """
    When I run "kubectl apply -f rc.yaml"
    Then kubectl prints "replicationcontroller/web created"
    When I run "kubectl scale rc web --replicas=3"
    Then kubectl prints "replicationcontroller/web scaled"
    And replicationcontroller "web" controls 3 active pods
    When I run "kubectl get rc web"
    Then kubectl prints a table whose columns include:
      | NAME | DESIRED |
      | web  | 3       |
