@needs-http
Feature: Nobody where they don't belong: what a namespace's rights do not reach
  RBAC decides on the attributes the request's URL gives (RequestInfo): a Role bound in a
  namespace grants what is under /namespaces/<ns>/ and nothing else. kube-apiserver installs
  a cluster-scoped resource (nodes, namespaces, clusterroles, persistentvolumes) only at its
  cluster path, so the same resource under a namespace's URL is no route at all: 404, even
  for a user whose Role in that namespace grants every verb on every resource.
  Source: 002 §2.4.1 (安全端口: 认证与授权). Upstream: RequestInfoFactory.NewRequestInfo
  (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go), APIInstaller.registerResourceHandlers
  (endpoints/installer.go: a cluster-scoped resource gets no namespaced routes), NamespaceREST
  (pkg/registry/core/namespace/storage: no rest.CollectionDeleter).

  Background:
    Given the flag "--authorization-mode" is "RBAC"
    And a ready node "10.4.42.5"
    And a file "owner.yaml" containing:
      """
      apiVersion: v1
      kind: Namespace
      metadata: {name: team}
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: Role
      metadata: {name: owner, namespace: team}
      rules:
      - apiGroups: ["*"]
        resources: ["*"]
        verbs: ["*"]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: eve-owns-team, namespace: team}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: owner}
      subjects:
      - {kind: User, apiGroup: rbac.authorization.k8s.io, name: eve}
      """
    When I run "kubectl apply -f owner.yaml"
    Then kubectl succeeds

  @AUTHZ-CLUSTER-SCOPED-PATH
  Scenario: A namespace's owner reaches its namespace's objects, not cluster-scoped ones through its URL
    When I run "kubectl get --raw /api/v1/namespaces/team/pods" as user "eve"
    Then kubectl prints ""kind":"PodList""
    When I run "kubectl get --raw /api/v1/namespaces/team/nodes" as user "eve"
    Then kubectl fails with "Error from server (NotFound): the server could not find the requested resource"
    When I run "kubectl get --raw /api/v1/namespaces/team/nodes/10.4.42.5/proxy/pods" as user "eve"
    Then kubectl fails with "Error from server (NotFound): the server could not find the requested resource"
    When I run "kubectl delete --raw /apis/rbac.authorization.k8s.io/v1/namespaces/team/clusterroles/view" as user "eve"
    Then kubectl fails with "Error from server (NotFound): the server could not find the requested resource"
    When I run "kubectl get clusterrole view -o name"
    Then kubectl prints "clusterrole.rbac.authorization.k8s.io/view"
    When I run "kubectl get --raw /api/v1/nodes" as user "eve"
    Then kubectl fails with "User "eve" cannot list resource "nodes" in API group "" at the cluster scope"

  @AUTHZ-CLUSTER-SCOPED-PATH
  Scenario: Namespaces are not deleted through a namespace's URL, nor by one deletecollection
    When I run "kubectl create namespace other"
    And I run "kubectl label namespace other tenant=yes"
    And I run "kubectl delete --raw /api/v1/namespaces/team/namespaces?labelSelector=tenant%3Dyes" as user "eve"
    Then kubectl fails with "Error from server (NotFound): the server could not find the requested resource"
    When I run "kubectl delete --raw /api/v1/namespaces?labelSelector=tenant%3Dyes"
    Then kubectl fails with the line "Error from server (MethodNotAllowed): the server does not allow this method on the requested resource"
    When I run "kubectl get namespace other -o jsonpath={.status.phase}"
    Then kubectl prints "Active"

  @AUTHZ-APPLY-CREATE
  Scenario: Server-side apply of a missing object is a create: patch alone does not create it
    Given a file "patcher.yaml" containing:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: Role
      metadata: {name: patcher, namespace: team}
      rules:
      - apiGroups: [""]
        resources: [secrets]
        verbs: [get, patch]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: mallory-patches, namespace: team}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: patcher}
      subjects:
      - {kind: User, apiGroup: rbac.authorization.k8s.io, name: mallory}
      """
    And a file "secret.yaml" containing:
      """
      apiVersion: v1
      kind: Secret
      metadata: {name: planted, namespace: team, labels: {by: mallory}}
      stringData: {k: v}
      """
    When I run "kubectl apply -f patcher.yaml"
    And I run "kubectl apply --server-side -f secret.yaml" as user "mallory"
    Then kubectl fails with "User "mallory" cannot create resource "secrets" in API group "" in the namespace "team""
    When I run "kubectl get secret planted -n team"
    Then kubectl fails with the line "Error from server (NotFound): secrets "planted" not found"
    When I run "kubectl create secret generic planted -n team --from-literal=k=v"
    And I run "kubectl apply --server-side -f secret.yaml" as user "mallory"
    Then kubectl prints "secret/planted serverside-applied"
    When I run "kubectl get secret planted -n team -o jsonpath={.metadata.labels.by}"
    Then kubectl prints "mallory"

  @AUTHZ-APPLY-CREATE
  Scenario: Apply to a pod's status never creates the pod
    Given a file "status.yaml" containing:
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: ghost, namespace: team}
      spec:
        containers:
        - {name: c, image: busybox, securityContext: {privileged: true}}
      status: {phase: Running}
      """
    When I run "kubectl apply --server-side --subresource=status -f status.yaml" as user "eve"
    Then kubectl fails with "pods "ghost" not found"
    When I run "kubectl get pod ghost -n team"
    Then kubectl fails with the line "Error from server (NotFound): pods "ghost" not found"

  @AUTHZ-SERVICE-PROXY-NAMESPACE @needs-kubelet-api
  Scenario: The service proxy reaches only pods of the service's own namespace
    Endpoints are written by whoever may write them in the service's namespace; the proxy
    follows an address only to a pod its targetRef names in that namespace with that IP.
    Given a ready node "n1" with pod CIDR "10.244.1.0/24"
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: vault, namespace: default}
      spec:
        nodeName: n1
        containers:
        - {name: c, image: nginx, ports: [{containerPort: 8080}]}
      """
    And 1 second passes
    And I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: app, namespace: team}
      spec:
        nodeName: n1
        containers:
        - {name: c, image: nginx, ports: [{containerPort: 8080}]}
      """
    And 1 second passes
    Given a file "bridge.yaml" containing:
      """
      apiVersion: v1
      kind: Service
      metadata: {name: bridge, namespace: team}
      spec:
        ports: [{name: http, port: 80, targetPort: 8080}]
      ---
      apiVersion: v1
      kind: Endpoints
      metadata: {name: bridge, namespace: team}
      subsets:
      - addresses:
        - ip: 10.244.1.2
          targetRef: {kind: Pod, namespace: default, name: vault}
        ports: [{name: http, port: 8080}]
      """
    And a file "own.yaml" containing:
      """
      apiVersion: v1
      kind: Endpoints
      metadata: {name: bridge, namespace: team}
      subsets:
      - addresses:
        - ip: 10.244.1.3
          targetRef: {kind: Pod, namespace: team, name: app}
        ports: [{name: http, port: 8080}]
      """
    When I run "kubectl get pods -A -o wide"
    Then kubectl prints a table whose columns include:
      | NAME  | IP         |
      | vault | 10.244.1.2 |
      | app   | 10.244.1.3 |
    When I run "kubectl apply -f bridge.yaml" as user "eve"
    Then kubectl succeeds
    When I run "kubectl get --raw /api/v1/namespaces/team/services/bridge:http/proxy/" as user "eve"
    Then kubectl fails with "no endpoints available for service "bridge:http""
    When I run "kubectl apply -f own.yaml" as user "eve"
    And I run "kubectl get --raw /api/v1/namespaces/team/services/bridge:http/proxy/" as user "eve"
    Then kubectl prints "hollow pod team/app on node n1 (10.244.1.3) port 8080 answered GET /"

  @AUTHZ-IMPERSONATE
  Scenario: kubectl --as runs as the impersonated user only for a caller allowed to impersonate
    Each part asked for (user, group, uid, extra) is authorized for the caller with the verb
    impersonate; the request then runs with the impersonated user's rights alone.
    Given a file "impersonator.yaml" containing:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: be-eve}
      rules:
      - apiGroups: [""]
        resources: [users]
        verbs: [impersonate]
        resourceNames: [eve]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: ivan-be-eve}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: be-eve}
      subjects:
      - {kind: User, apiGroup: rbac.authorization.k8s.io, name: ivan}
      """
    When I run "kubectl get secrets -n team --as=eve" as user "ivan"
    Then kubectl fails with "Error from server (Forbidden): users "eve" is forbidden: User "ivan" cannot impersonate resource "users" in API group "" at the cluster scope"
    When I run "kubectl auth can-i create secrets -n team --as=eve" as user "ivan"
    Then kubectl fails with "users "eve" is forbidden: User "ivan" cannot impersonate resource "users" in API group "" at the cluster scope"
    When I run "kubectl apply -f impersonator.yaml"
    And I run "kubectl create secret generic by-ivan -n team --from-literal=k=v --as=eve" as user "ivan"
    Then kubectl prints "secret/by-ivan created"
    When I run "kubectl auth can-i create secrets -n team --as=eve" as user "ivan"
    Then kubectl prints "yes"
    When I run "kubectl auth can-i create secrets -n team" as user "ivan"
    Then kubectl fails
    When I run "kubectl get secrets -n team" as user "ivan"
    Then kubectl fails with "User "ivan" cannot list resource "secrets" in API group "" in the namespace "team""
    When I run "kubectl get nodes --as=eve" as user "ivan"
    Then kubectl fails with "User "eve" cannot list resource "nodes" in API group "" at the cluster scope"
    When I run "kubectl get nodes --as=eve --as-group=system:masters" as user "ivan"
    Then kubectl fails with "groups "system:masters" is forbidden: User "ivan" cannot impersonate resource "groups" in API group "" at the cluster scope"
    When I run "kubectl get secrets -n team --as=mallory" as user "ivan"
    Then kubectl fails with "users "mallory" is forbidden: User "ivan" cannot impersonate resource "users""

  @AUTHZ-NAMED-GET-WATCH
  Scenario: A named GET with ?watch=true answers the object: get does not grant a watch
    Given a file "getter.yaml" containing:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: Role
      metadata: {name: getter, namespace: team}
      rules:
      - apiGroups: [""]
        resources: [secrets]
        verbs: [get]
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: gus-gets, namespace: team}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: getter}
      subjects:
      - {kind: User, apiGroup: rbac.authorization.k8s.io, name: gus}
      """
    When I run "kubectl apply -f getter.yaml"
    And I run "kubectl create secret generic s1 -n team --from-literal=k=v"
    And I run "kubectl get --raw /api/v1/namespaces/team/secrets/s1?watch=true" as user "gus"
    Then kubectl prints ""kind":"Secret""
    When I run "kubectl get secret s1 -n team --watch --request-timeout=5s" as user "gus"
    Then kubectl fails with "User "gus" cannot watch resource "secrets" in API group "" in the namespace "team""

  @AUTHZ-RBAC-BINDING-VALIDATION
  Scenario: A cluster binding names its service account's namespace, and no binding changes its role
    Given a file "sa-admin.yaml" containing:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: {name: sa-admin}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
      subjects:
      - {kind: ServiceAccount, name: default}
      """
    And a file "moved.yaml" containing:
      """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: eve-owns-team, namespace: team}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
      subjects:
      - {kind: User, apiGroup: rbac.authorization.k8s.io, name: eve}
      """
    When I run "kubectl create -f sa-admin.yaml"
    Then kubectl fails with "subjects[0].namespace: Required value"
    When I run "kubectl get clusterrolebinding sa-admin"
    Then kubectl fails with the line "Error from server (NotFound): clusterrolebindings.rbac.authorization.k8s.io "sa-admin" not found"
    When I run "kubectl apply -f moved.yaml"
    Then kubectl fails with "cannot change roleRef"
    When I run "kubectl get rolebinding eve-owns-team -n team -o jsonpath={.roleRef.kind}/{.roleRef.name}"
    Then kubectl prints "Role/owner"

  @SVC-ALLOC-UPDATE
  Scenario: A service's update allocates what it newly needs: a tenant cannot take the kubernetes service's IP
    An ExternalName service holds no cluster IP; turned into a ClusterIP service it must be
    given one like a new service, so an IP already held (the kubernetes service's) is refused,
    and deleting the tenant's service gives back nothing it did not hold.
    Given a file "ext.yaml" containing:
      """
      apiVersion: v1
      kind: Service
      metadata: {name: ext, namespace: team}
      spec: {type: ExternalName, externalName: example.com}
      """
    And a file "steal.yaml" containing:
      """
      apiVersion: v1
      kind: Service
      metadata: {name: ext, namespace: team}
      spec:
        type: ClusterIP
        clusterIP: 10.96.0.1
        ports: [{port: 443}]
      """
    When I run "kubectl apply -f ext.yaml" as user "eve"
    And I run "kubectl apply -f steal.yaml" as user "eve"
    Then kubectl fails with "failed to allocate IP 10.96.0.1: provided IP is already allocated"
    When I run "kubectl delete service ext -n team" as user "eve"
    And I run "kubectl create service clusterip again -n team --tcp=443 --clusterip=10.96.0.1" as user "eve"
    Then kubectl fails with "provided IP is already allocated"
    When I run "kubectl get service kubernetes -o jsonpath={.spec.clusterIP}"
    Then kubectl prints "10.96.0.1"
    When I run "kubectl create service nodeport np -n team --tcp=80 --node-port=30080" as user "eve"
    And I run "kubectl create service clusterip web -n team --tcp=80" as user "eve"
    And I run "kubectl patch service web -n team -p '{"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080}]}}'" as user "eve"
    Then kubectl fails with "spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated"
    When I run "kubectl patch service np -n team -p '{"spec":{"ports":[{"port":80,"nodePort":30081}]}}'" as user "eve"
    And I run "kubectl patch service web -n team -p '{"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080}]}}'" as user "eve"
    Then kubectl prints "service/web patched"

  @QUOTA-SERVICE-UPDATE
  Scenario: A quota is checked on update: ClusterIP to LoadBalancer past services.loadbalancers 0
    When I run "kubectl create quota no-lb -n team --hard=services.loadbalancers=0"
    And I run "kubectl create service clusterip web -n team --tcp=80" as user "eve"
    And 2 seconds pass
    And I run "kubectl patch service web -n team -p '{"spec":{"type":"LoadBalancer"}}'" as user "eve"
    Then kubectl fails with "exceeded quota: no-lb, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0"
    When I run "kubectl get service web -n team -o jsonpath={.spec.type}"
    Then kubectl prints "ClusterIP"
