@needs-http
Feature: A node writes only what is its own: NodeRestriction
  Under --authorization-mode Node,RBAC a kubelet's identity (user system:node:<name>, group
  system:nodes) may read a secret only when a pod bound to its node names it (the Node
  authorizer). NodeRestriction keeps a node from widening that: the only pods it may create
  are mirror pods bound to itself, owned by its Node, that name no service account, secret,
  configmap or claim (secrets and service accounts the ServiceAccount plugin already refuses
  in any mirror pod, whoever creates it); it may change its own Node but not another's, not its taints, and not
  labels under node-restriction.kubernetes.io or kubernetes.io / k8s.io keys outside the
  kubelet's own set (so it cannot steer workloads to itself). NodeRestriction is not among
  kube-apiserver's default plugins: installers (kubeadm) enable it with the Node mode, and the
  reference enables it with the Node mode too; these scenarios name it.
  Source: 002 §2.4.1 (安全端口: 认证与授权). Upstream: plugin/pkg/admission/noderestriction
  (Plugin.Admit: admitPodCreate, admitNode, getForbiddenLabels), k8s.io/kubelet/pkg/apis
  IsKubeletLabel, plugin/pkg/auth/authorizer/node.

  Background:
    Given the flag "--authorization-mode" is "Node,RBAC"
    And the flag "--enable-admission-plugins" is "NodeRestriction"
    And a ready node "n1"
    And a ready node "n2"
    When I run "kubectl create namespace team"
    And I run "kubectl create secret generic db -n team --from-literal=password=hunter2"
    Then kubectl succeeds

  @NODE-RESTRICTION-MIRROR-POD
  Scenario: A node cannot create a mirror pod that names a secret, and so cannot read the secret
    When I note the uid of node "n1"
    And a file "steal.yaml" containing:
      """
      apiVersion: v1
      kind: Pod
      metadata:
        name: steal
        namespace: team
        annotations: {kubernetes.io/config.mirror: "x"}
        ownerReferences:
        - {apiVersion: v1, kind: Node, name: n1, uid: "$NODE_UID", controller: true}
      spec:
        nodeName: n1
        containers:
        - name: c
          image: busybox
          envFrom: [{secretRef: {name: db}}]
      """
    And a file "config.yaml" containing:
      """
      apiVersion: v1
      kind: Pod
      metadata:
        name: config
        namespace: team
        annotations: {kubernetes.io/config.mirror: "x"}
        ownerReferences:
        - {apiVersion: v1, kind: Node, name: n1, uid: "$NODE_UID", controller: true}
      spec:
        nodeName: n1
        containers:
        - name: c
          image: busybox
          envFrom: [{configMapRef: {name: settings}}]
      """
    And a file "static.yaml" containing:
      """
      apiVersion: v1
      kind: Pod
      metadata:
        name: static-web
        namespace: team
        annotations: {kubernetes.io/config.mirror: "x"}
        ownerReferences:
        - {apiVersion: v1, kind: Node, name: n1, uid: "$NODE_UID", controller: true}
      spec:
        nodeName: n1
        containers:
        - {name: c, image: busybox}
      """
    When I run "kubectl create -f steal.yaml" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "pods "steal" is forbidden: a mirror pod may not reference secrets"
    When I run "kubectl get secret db -n team" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "no relationship found between node 'n1' and this object"
    When I run "kubectl create -f config.yaml" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "pods "config" is forbidden: node "n1" can not create pods that reference configmaps"
    When I run "kubectl create -f static.yaml" as user "system:node:n1" in groups "system:nodes"
    Then kubectl prints "pod/static-web created"

  @NODE-RESTRICTION-MIRROR-POD
  Scenario: A node reads a config map only when a pod bound to it uses it
    The Node authorizer relates a node to the config maps its pods name, as to their secrets
    (authorizeReadNamespacedObject, configMapVertexType). ConfigMaps are core/v1 in every
    release (the reference once served none: 404).
    When I run "kubectl create configmap settings --from-literal=mode=fast"
    Then kubectl prints "configmap/settings created"
    When I run "kubectl get configmap settings" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "no relationship found between node 'n1' and this object"
    Given a pod "app" running on node "n1" with container:
      """
      {name: c, image: busybox, envFrom: [{configMapRef: {name: settings}}]}
      """
    When I run "kubectl get configmap settings -o jsonpath={.data.mode}" as user "system:node:n1" in groups "system:nodes"
    Then kubectl prints "fast"
    When I run "kubectl get configmap settings" as user "system:node:n2" in groups "system:nodes"
    Then kubectl fails with "no relationship found between node 'n2' and this object"
    When I run "kubectl get configmaps" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "cannot list resource "configmaps""

  @NODE-RESTRICTION-OWN-NODE
  Scenario: A node cannot take off the taints an admin put on it, nor touch another node
    When I run "kubectl taint node n1 dedicated=db:NoSchedule"
    Then kubectl succeeds
    When I run "kubectl taint node n1 dedicated-" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "nodes "n1" is forbidden: node "n1" is not allowed to modify taints"
    When I run "kubectl taint node n1 dedicated=db:PreferNoSchedule --overwrite" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "node "n1" is not allowed to modify taints"
    When I run "kubectl get node n1 -o jsonpath={.spec.taints[*].key}={.spec.taints[*].effect}"
    Then kubectl prints "dedicated=NoSchedule"
    When I run "kubectl label node n2 a=b" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "nodes "n2" is forbidden"
    When I run "kubectl label node n1 a=b" as user "system:node:n1" in groups "system:nodes"
    Then kubectl prints "node/n1 labeled"

  @NODE-RESTRICTION-OWN-NODE
  Scenario: A node cannot change its taints through nodes/status either
    NodeRestriction judges the object as the request made it, before the status strategy
    keeps the stored spec: a status write that carries other taints is refused, not quietly
    stripped. (The kubelet writes its status as a patch of the status alone, so it never
    carries a spec.)
    When I run "kubectl taint node n1 dedicated=db:NoSchedule"
    Then kubectl succeeds
    And a file "n1-status.yaml" containing:
      """
      apiVersion: v1
      kind: Node
      metadata: {name: n1}
      spec: {}
      """
    When I run "kubectl replace --subresource=status -f n1-status.yaml" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "nodes "n1" is forbidden: node "n1" is not allowed to modify taints"
    When I run "kubectl get node n1 -o jsonpath={.spec.taints[*].key}"
    Then kubectl prints "dedicated"

  @NODE-RESTRICTION-OWN-NODE
  Scenario: A stale write the plugin refuses is refused, not a conflict
    NodeRestriction is a mutating plugin (Plugin.Admit): on an update it runs inside
    UpdatedObject, before Store.Update compares the request's resourceVersion with the stored
    one. A node's stale write that changes its taints is therefore 403, and only a stale write
    the plugin lets through is 409. (A resourceVersion inside a patch is such a precondition.)
    When I run "kubectl taint node n1 dedicated=db:NoSchedule"
    Then kubectl succeeds
    When I run "kubectl patch node n1 --type merge -p '{"metadata":{"resourceVersion":"1"},"spec":{"taints":[]}}'" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "nodes "n1" is forbidden: node "n1" is not allowed to modify taints"
    When I run "kubectl patch node n1 --type merge -p '{"metadata":{"resourceVersion":"1","labels":{"a":"b"}}}'" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "Operation cannot be fulfilled on nodes "n1": the object has been modified"
    When I run "kubectl get node n1 -o jsonpath={.spec.taints[*].key}"
    Then kubectl prints "dedicated"

  @NODE-RESTRICTION-LABELS @profile-kubernetes-1.32
  Scenario: A node sets only the kubelet's labels on itself, none that steer workloads to it
    Kubelets were bounded to this label set in v1.13–v1.16 (KEP "Bounding Self-Labeling
    Kubelets"); the seed's v1.12 let a node set any label on itself.
    When I run "kubectl label node n1 node-restriction.kubernetes.io/tier=secure" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/tier"
    When I run "kubectl label node n1 node-role.kubernetes.io/control-plane=" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "is not allowed to modify labels: node-role.kubernetes.io/control-plane"
    When I run "kubectl label node n1 node.kubernetes.io/instance-type=big topology.kubernetes.io/zone=z1" as user "system:node:n1" in groups "system:nodes"
    Then kubectl prints "node/n1 labeled"
    When I run "kubectl label node n1 node-restriction.kubernetes.io/tier=secure"
    Then kubectl prints "node/n1 labeled"
    When I run "kubectl label node n1 node-restriction.kubernetes.io/tier-" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "is not allowed to modify labels: node-restriction.kubernetes.io/tier"
    When I run "kubectl get node n1 -o jsonpath={.metadata.labels.node-restriction\.kubernetes\.io/tier}"
    Then kubectl prints "secure"

  @NODE-AUTHZ-POD-SELECTOR @profile-kubernetes-1.32
  Scenario: A node lists and watches pods only by its own spec.nodeName, and reads only its own pods
    AuthorizeNodeWithSelectors (beta, on by default since v1.32) subdivides a node's pod reads:
    list and watch need the field selector spec.nodeName=<the node> (what the kubelet's pod
    informer sends), and a get needs a pod bound to that node. The seed's v1.12 let a node
    read every pod.
    Given a pod "mine" running on node "n1" with container:
      """
      {name: c, image: busybox}
      """
    And a pod "theirs" running on node "n2" with container:
      """
      {name: c, image: busybox}
      """
    When I run "kubectl get pods -A" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector"
    When I run "kubectl get pods -n default --field-selector spec.nodeName=n2" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "can only list/watch pods with spec.nodeName field selector"
    When I run "kubectl get pods -A --field-selector spec.nodeName=n1 -o name" as user "system:node:n1" in groups "system:nodes"
    Then kubectl prints exactly:
      """
      pod/mine
      """
    When I run "kubectl get pod theirs -n default" as user "system:node:n1" in groups "system:nodes"
    Then kubectl fails with "no relationship found between node 'n1' and this object"
    When I run "kubectl get pod mine -n default -o name" as user "system:node:n1" in groups "system:nodes"
    Then kubectl prints "pod/mine"
