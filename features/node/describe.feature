@needs-http @NODE-DESCRIBE
Feature: kubectl describe node: the sections the node's status and its pods fill
  What kubectl.feature's section-by-section scenario leaves out, each section compared line
  for line: the creation time, the pod CIDR the controller manager allocated (PodCIDR and
  kubectl 1.32's PodCIDRs), the Lease (the seed's v1.12 kubelet holds none: kubectl 1.32
  says it failed to get it), the Conditions table in the release's order (the seed's
  OutOfDisk first), the System Info the kubelet reported, and the node's non-terminated pods
  only: a pod that finished is left out of the list and the totals; the Events the kubelet
  and the node controller wrote about the node, compared as a set of rows.
  Source: 000 §1.1 "kubectl describe node". Upstream: kubectl v1.32 describe.go
  (NodeDescriber.Describe, describeNodeResource: PodCIDR/PodCIDRs, describeNodeLease,
  Conditions, System Info; the pods listed by a field selector excluding Succeeded and
  Failed; DescribeEvents); the kubelet's events: its StartingKubelet event (kubelet.go),
  containerManager's NodeAllocatableEnforced, the nodestatus setters' recordEventFunc for each
  condition's healthy value; the node lifecycle controller's RecordNodeEvent "RegisteredNode".

  Background:
    Given the flag "--allocate-node-cidrs" is "true"
    And the flag "--cluster-cidr" is "10.244.0.0/16"
    And a ready node "10.4.42.5"
    And a pod "web" running on node "10.4.42.5"
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: once, annotations: { kubespec.io/run-seconds: "30" } }
      spec:
        nodeName: "10.4.42.5"
        restartPolicy: Never
        containers: [{ name: c, image: busybox, resources: { requests: { cpu: 500m } } }]
      """
    And 30 seconds pass
    Then pod "once" is Succeeded
    When I run "kubectl describe node 10.4.42.5"

  Scenario: Creation time, pod CIDR, and only the pods that have not finished
    Then kubectl prints the "CreationTimestamp" section as:
      """
      CreationTimestamp:  <time>
      """
    And kubectl prints the "PodCIDR" section as:
      """
      PodCIDR:                      10.244.0.0/24
      """
    And kubectl prints the "PodCIDRs" section as:
      """
      PodCIDRs:                     10.244.0.0/24
      """
    And kubectl prints the "Non-terminated Pods" section as:
      """
      Non-terminated Pods:          (1 in total)
        Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
        ---------                   ----    ------------  ----------  ---------------  -------------  ---
        default                     web     0 (0%)        0 (0%)      0 (0%)           0 (0%)         <age>
      """
    And kubectl prints the "Allocated resources" section as:
      """
      Allocated resources:
        (Total limits may be over 100 percent, i.e., overcommitted.)
        Resource           Requests  Limits
        --------           --------  ------
        cpu                0 (0%)    0 (0%)
        memory             0 (0%)    0 (0%)
        ephemeral-storage  0 (0%)    0 (0%)
      """

  @profile-seed
  Scenario: The seed's node: no Lease, OutOfDisk among the conditions, CentOS 7 with Docker 1.13
    Then kubectl prints the "Lease" section as:
      """
      Lease:              Failed to get lease: leases.coordination.k8s.io "10.4.42.5" not found
      """
    And kubectl prints the "Conditions" section as:
      """
      Conditions:
        Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
        ----             ------  -----------------                 ------------------                ------                       -------
        OutOfDisk        False   <time>   <time>   KubeletHasSufficientDisk     kubelet has sufficient disk space available
        MemoryPressure   False   <time>   <time>   KubeletHasSufficientMemory   kubelet has sufficient memory available
        DiskPressure     False   <time>   <time>   KubeletHasNoDiskPressure     kubelet has no disk pressure
        PIDPressure      False   <time>   <time>   KubeletHasSufficientPID      kubelet has sufficient PID available
        Ready            True    <time>   <time>   KubeletReady                 kubelet is posting ready status
      """
    And kubectl prints the "System Info" section as:
      """
      System Info:
        Machine ID:                 <machine-id>
        System UUID:                <uuid>
        Boot ID:                    <uuid>
        Kernel Version:             3.10.0-693.el7.x86_64
        OS Image:                   CentOS Linux 7 (Core)
        Operating System:           linux
        Architecture:               amd64
        Container Runtime Version:  docker://1.13.1
        Kubelet Version:            v1.12.10
        Kube-Proxy Version:         v1.12.10
      """

  @profile-kubernetes-1.32
  Scenario: The 1.32 node: its Lease, four conditions, Ubuntu 24.04 with containerd 1.7
    Then kubectl prints the "Lease" section as:
      """
      Lease:
        HolderIdentity:  10.4.42.5
        AcquireTime:     <unset>
        RenewTime:       <time>
      """
    And kubectl prints the "Conditions" section as:
      """
      Conditions:
        Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
        ----             ------  -----------------                 ------------------                ------                       -------
        MemoryPressure   False   <time>   <time>   KubeletHasSufficientMemory   kubelet has sufficient memory available
        DiskPressure     False   <time>   <time>   KubeletHasNoDiskPressure     kubelet has no disk pressure
        PIDPressure      False   <time>   <time>   KubeletHasSufficientPID      kubelet has sufficient PID available
        Ready            True    <time>   <time>   KubeletReady                 kubelet is posting ready status
      """
    And kubectl prints the "System Info" section as:
      """
      System Info:
        Machine ID:                 <machine-id>
        System UUID:                <uuid>
        Boot ID:                    <uuid>
        Kernel Version:             6.8.0-45-generic
        OS Image:                   Ubuntu 24.04.1 LTS
        Operating System:           linux
        Architecture:               amd64
        Container Runtime Version:  containerd://1.7.22
        Kubelet Version:            v1.32.0
        Kube-Proxy Version:         v1.32.0
      """

  @profile-seed
  Scenario: The seed's ready node's Events: the kubelet's start and each healthy condition, the node controller's registration
    The rows are compared as a set (type, reason, from, message; not their age or order:
    events of one instant have none the suite can judge), so a row too many or too few fails.
    The seed's own describe, of a node 17 hours old, shows "Events: <none>": events live
    --event-ttl (1 h) in etcd, and these were written at registration. The reference keeps
    events, so the suite judges them on a node that has just registered.
    Then kubectl prints the "Events" section with these rows, in any order:
      | Type   | Reason                  | From            | Message                                                          |
      | Normal | Starting                | kubelet         | Starting kubelet.                                                |
      | Normal | NodeAllocatableEnforced | kubelet         | Updated Node Allocatable limit across pods                       |
      | Normal | NodeHasSufficientDisk   | kubelet         | Node 10.4.42.5 status is now: NodeHasSufficientDisk              |
      | Normal | NodeHasSufficientMemory | kubelet         | Node 10.4.42.5 status is now: NodeHasSufficientMemory            |
      | Normal | NodeHasNoDiskPressure   | kubelet         | Node 10.4.42.5 status is now: NodeHasNoDiskPressure              |
      | Normal | NodeHasSufficientPID    | kubelet         | Node 10.4.42.5 status is now: NodeHasSufficientPID               |
      | Normal | NodeReady               | kubelet         | Node 10.4.42.5 status is now: NodeReady                          |
      | Normal | RegisteredNode          | node-controller | Node 10.4.42.5 event: Registered Node 10.4.42.5 in Controller    |

  @profile-kubernetes-1.32
  Scenario: The 1.32 ready node's Events: the kubelet's start and each healthy condition, the node controller's registration
    As on the seed's node, but without OutOfDisk (gone in v1.13), so no NodeHasSufficientDisk.
    Then kubectl prints the "Events" section with these rows, in any order:
      | Type   | Reason                  | From            | Message                                                          |
      | Normal | Starting                | kubelet         | Starting kubelet.                                                |
      | Normal | NodeAllocatableEnforced | kubelet         | Updated Node Allocatable limit across pods                       |
      | Normal | NodeHasSufficientMemory | kubelet         | Node 10.4.42.5 status is now: NodeHasSufficientMemory            |
      | Normal | NodeHasNoDiskPressure   | kubelet         | Node 10.4.42.5 status is now: NodeHasNoDiskPressure              |
      | Normal | NodeHasSufficientPID    | kubelet         | Node 10.4.42.5 status is now: NodeHasSufficientPID               |
      | Normal | NodeReady               | kubelet         | Node 10.4.42.5 status is now: NodeReady                          |
      | Normal | RegisteredNode          | node-controller | Node 10.4.42.5 event: Registered Node 10.4.42.5 in Controller    |
