Feature: Service accounts, their tokens, and the kubernetes service
  Every namespace has a `default` service account, kept by the service account controller.
  Pods run as it unless they name another, and get its bearer token at
  /var/run/secrets/kubernetes.io/serviceaccount: in v1.12 from a token secret the token
  controller makes per account (a JWT signed with the cluster's key, which the API server
  verifies while the secret and the account exist); since v1.22 from a projected
  `kube-api-access-…` volume (token, kube-root-ca.crt, namespace). Inside the cluster the
  API server is the `kubernetes` service in `default`: the first address of
  --service-cluster-ip-range (10.96.0.1), port 443, with Endpoints at the API server's
  --advertise-address and --secure-port, re-asserted by the API server.
  "The cluster root CA" is the CA the API server's serving certificate chains to (the
  controller manager's --root-ca-file): v1.12's token controller puts it into every token
  secret as ca.crt; v1.20+'s root-ca-cert-publisher keeps it in the ConfigMap
  kube-root-ca.crt of every namespace, which the projected volume mounts as ca.crt.
  Source: 000 §2.2 "Cluster to Master"; 002 §4. Upstream: ServiceAccountsController,
  TokensController (pkg/controller/serviceaccount), the root CA publisher
  (pkg/controller/certificates/rootcacertpublisher, Publisher.syncNamespace), the ServiceAccount admission plugin,
  legacy token validator (pkg/serviceaccount/legacy.go), kubernetesservice controller
  (pkg/controlplane/controller/kubernetesservice), ipallocator.

  @SA-DEFAULT @CTRL-RECONCILE
  Scenario: Every namespace gets a default service account, and keeps it
    When I create this object:
      """
      apiVersion: v1
      kind: Namespace
      metadata: { name: team-a }
      """
    Then the serviceaccount "default" in namespace "team-a" has:
      | metadata.name      | default |
      | metadata.namespace | team-a  |
    When I delete the serviceaccount "default" in namespace "team-a"
    Then the serviceaccount "default" in namespace "team-a" has:
      | metadata.name | default |

  @COMM-SERVICE-ACCOUNT @profile-seed
  Scenario: (v1.12) The account's token secret holds a signed token the API server accepts
    Then the first secret of service account "default" is called "default-token-" followed by 5 characters
    And the token of service account "default" authenticates as "system:serviceaccount:default:default" in groups "system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"
    When I keep the token of service account "default"
    And I delete the serviceaccount "default"
    Then the kept token of service account "default" is refused
    And the token of service account "default" authenticates as "system:serviceaccount:default:default" in groups "system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"

  @COMM-SERVICE-ACCOUNT @profile-seed
  Scenario: (v1.12) The token secret holds the cluster's root CA, the CA the API server is served with
    The token controller adds the root CA to the secret it makes (tokens_controller.go,
    generateTokenIfNeeded: ca.crt from --root-ca-file); a pod mounting the secret verifies
    the API server at kubernetes.default with it. Compared byte for byte with the CA file
    the target's own kubeconfigs trust.
    Then the first secret of service account "default" holds the API server's CA certificate as "ca.crt"

  @COMM-SERVICE-ACCOUNT @profile-seed
  Scenario: (v1.12) A pod runs as the default account with its token secret mounted
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: app }
      spec:
        containers:
          - name: app
            image: busybox
      """
    Then the pod "app" has:
      | spec.serviceAccountName                     | default                                       |
      | spec.volumes[0].secret.defaultMode          | 420                                           |
      | spec.containers[0].volumeMounts[0].mountPath | /var/run/secrets/kubernetes.io/serviceaccount |
      | spec.containers[0].volumeMounts[0].readOnly | true                                          |

  @COMM-SERVICE-ACCOUNT @profile-kubernetes-1.32
  Scenario: (v1.32) A pod gets a projected kube-api-access volume; a token secret made by hand is filled
    When I create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: app }
      spec:
        containers:
          - name: app
            image: busybox
      """
    Then the pod "app" has:
      | spec.serviceAccountName                                      | default                                       |
      | spec.volumes[0].projected.sources[0].serviceAccountToken.path | token                                        |
      | spec.volumes[0].projected.sources[1].configMap.name          | kube-root-ca.crt                              |
      | spec.volumes[0].projected.sources[2].downwardAPI.items[0].path | namespace                                   |
      | spec.containers[0].volumeMounts[0].mountPath                 | /var/run/secrets/kubernetes.io/serviceaccount |
    And the serviceaccount "default" has 0 items in secrets
    When I create this object:
      """
      apiVersion: v1
      kind: Secret
      metadata:
        name: default-token
        annotations: { kubernetes.io/service-account.name: default }
      type: kubernetes.io/service-account-token
      """
    Then the token of secret "default-token" authenticates as "system:serviceaccount:default:default" in groups "system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"
    And the secret "default-token" holds:
      | namespace | default |

  @COMM-SERVICE-ACCOUNT @profile-kubernetes-1.32
  Scenario: (v1.32) Every namespace holds the root CA in the ConfigMap kube-root-ca.crt, kept as published
    The publisher creates it in a namespace that appears, and puts it back when it is changed
    or deleted: data other than exactly ca.crt is replaced whole, the description annotation
    restored (Publisher.syncNamespace; its configMapUpdated and configMapDeleted handlers).
    When I create this object:
      """
      apiVersion: v1
      kind: Namespace
      metadata: { name: team-a }
      """
    Then the configmap "kube-root-ca.crt" in namespace "team-a" holds exactly the API server's CA certificate as "ca.crt"
    When I run "kubectl -n team-a get configmap kube-root-ca.crt -o jsonpath={.metadata.annotations.kubernetes\.io/description}"
    Then kubectl prints exactly:
      """
      Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.
      """
    When I run "kubectl -n team-a patch configmap kube-root-ca.crt --type merge -p '{"data":{"ca.crt":"forged","extra":"x"},"metadata":{"annotations":{"kubernetes.io/description":null}}}'"
    Then the configmap "kube-root-ca.crt" in namespace "team-a" holds exactly the API server's CA certificate as "ca.crt"
    When I run "kubectl -n team-a get configmap kube-root-ca.crt -o jsonpath={.metadata.annotations}"
    Then kubectl prints "kubernetes.io/description"
    When I delete the configmap "kube-root-ca.crt" in namespace "team-a"
    Then the configmap "kube-root-ca.crt" in namespace "team-a" is a new object, not the one deleted
    And the configmap "kube-root-ca.crt" in namespace "team-a" holds exactly the API server's CA certificate as "ca.crt"

  @COMM-SERVICE-ACCOUNT
  Scenario: A pod naming a service account that does not exist is refused
    When I try to create this object:
      """
      apiVersion: v1
      kind: Pod
      metadata: { name: app }
      spec:
        serviceAccountName: builder
        containers:
          - name: app
            image: busybox
      """
    Then the request fails with 403 Forbidden and message "pods "app" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found"

  @COMM-SERVICE-ACCOUNT @EP-KUBE-PROXY @CTRL-RECONCILE
  Scenario: The kubernetes service has the range's first address and endpoints at the API server
    Given the flag "--secure-port" is "6443"
    And a ready node "n1"
    Then the service "kubernetes" has:
      | spec.clusterIP          | 10.96.0.1  |
      | spec.ports[0].name      | https      |
      | spec.ports[0].port      | 443        |
      | spec.ports[0].targetPort | 6443      |
      | spec.selector           | <none>     |
      | metadata.labels.component | apiserver |
    And the endpoints "kubernetes" has:
      | subsets[0].addresses[0].ip | 10.0.0.1 |
      | subsets[0].ports[0].name   | https    |
      | subsets[0].ports[0].port   | 6443     |
    And connections from node "n1" to service "kubernetes" port 443 reach 10.0.0.1:6443
    When I delete the endpoints "kubernetes"
    And 10 seconds pass
    Then the endpoints "kubernetes" has:
      | subsets[0].addresses[0].ip | 10.0.0.1 |

  @COMM-SERVICE-ACCOUNT
  Scenario: The advertise address and secure port come from the API server's flags
    Given the flag "--advertise-address" is "192.168.10.5"
    And the flag "--secure-port" is "8443"
    And the flag "--service-cluster-ip-range" is "172.30.0.0/16"
    Then the service "kubernetes" has:
      | spec.clusterIP           | 172.30.0.1 |
      | spec.ports[0].targetPort | 8443       |
    And the endpoints "kubernetes" has:
      | subsets[0].addresses[0].ip | 192.168.10.5 |
      | subsets[0].ports[0].port   | 8443         |

  @COMM-SERVICE-ACCOUNT @API-VALIDATION
  Scenario: Cluster IPs are allocated without clashes and released on deletion
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: a }
      spec:
        ports: [{ port: 80 }]
      """
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: b }
      spec:
        ports: [{ port: 80 }]
      """
    Then services "a" and "b" have different cluster IPs in "10.96.0.0/12"
    When I try to create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: c }
      spec:
        clusterIP: 10.96.0.1
        ports: [{ port: 80 }]
      """
    Then the request fails with 422 Invalid and message "Service "c" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated"
    When I try to create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: c }
      spec:
        clusterIP: 10.200.0.1
        ports: [{ port: 80 }]
      """
    Then the request fails with 422 Invalid and message "Service "c" is invalid: spec.clusterIPs: Invalid value: []string{"10.200.0.1"}: failed to allocate IP 10.200.0.1: the provided IP (10.200.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12"
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: c }
      spec:
        clusterIP: 10.96.0.10
        ports: [{ port: 80 }]
      """
    And I delete the service "c"
    And I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: d }
      spec:
        clusterIP: 10.96.0.10
        ports: [{ port: 80 }]
      """
    Then the service "d" has:
      | spec.clusterIP | 10.96.0.10 |

  @COMM-LEGACY-TOKEN-REVOKED
  Scenario: A deleted token secret's token stays refused when a secret of that name comes back with another token
    The legacy token validator compares the token with the one its secret holds now: the
    claims name the secret, but a new secret of that name that carries another token does not
    revive the old one. (Upstream's legacy tokens have no issue time: a secret the token
    controller fills again for the same account gets the very same token back.)
    When I create this object:
      """
      apiVersion: v1
      kind: Secret
      metadata:
        name: ci-token
        annotations: { kubernetes.io/service-account.name: default }
      type: kubernetes.io/service-account-token
      """
    Then the token of secret "ci-token" authenticates as "system:serviceaccount:default:default" in groups "system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"
    When I keep the token of secret "ci-token"
    And I delete the secret "ci-token"
    Then the kept token of secret "ci-token" is refused
    When I create this object:
      """
      apiVersion: v1
      kind: Secret
      metadata:
        name: ci-token
        annotations: { kubernetes.io/service-account.name: default }
      type: kubernetes.io/service-account-token
      stringData: { token: planted-by-someone-else }
      """
    Then the kept token of secret "ci-token" is refused
    And the secret "ci-token" holds:
      | token | planted-by-someone-else |
