@needs-cloud-provider
Feature: The service controller gives LoadBalancer services a cloud load balancer
  The service controller watches services: for one of type LoadBalancer it makes sure the
  cloud provider has a load balancer for it over the cluster's eligible nodes, and writes
  its address to status.loadBalancer.ingress; when the node set changes the balancer is
  updated; when the service is deleted or stops being a LoadBalancer the balancer is
  deleted. Since v1.16 the finalizer service.kubernetes.io/load-balancer-cleanup holds a
  deleted service until its balancer is gone (the suite uses it on both profiles).
  Which nodes are eligible changed: v1.12 takes only schedulable, Ready nodes; v1.30+
  (StableLoadBalancerNodeSet) keeps NotReady and cordoned nodes and leaves out nodes
  labelled node.kubernetes.io/exclude-from-external-load-balancers.
  The simulated cloud hands out addresses from 203.0.113.0/24, starting at .10.
  Source: 002 §4.6 "Service Controller". Upstream: syncLoadBalancerIfNeeded, needsCleanup,
  nodeSyncInternal, getNodeConditionPredicate / nodeIncludedPredicate
  (staging/src/k8s.io/cloud-provider/controllers/service/controller.go).

  Background:
    Given ready nodes "n1", "n2"
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: shop }
      spec:
        type: LoadBalancer
        selector: { app: shop }
        ports: [{ port: 80, targetPort: 8080 }]
      """

  @SVC-LOADBALANCER
  Scenario: A LoadBalancer service gets a balancer over the nodes and its address in status
    Then the service "shop" has:
      | status.loadBalancer.ingress[0].ip | 203.0.113.10                                  |
      | metadata.finalizers               | ["service.kubernetes.io/load-balancer-cleanup"] |
      | spec.externalTrafficPolicy        | Cluster                                       |
    And the load balancer of service "shop" sends to nodes "n1", "n2"
    And the cloud has 1 load balancer

  @SVC-LOADBALANCER
  Scenario: A new node joins the balancer
    Given a ready node "n3"
    Then the load balancer of service "shop" sends to nodes "n1", "n2", "n3"

  @SVC-LOADBALANCER @CTRL-RECONCILE @profile-seed
  Scenario: (v1.12) A node that is no longer Ready, or cordoned, leaves the balancer
    # The seed profile's node-monitor-grace-period is 40 s.
    When the kubelet on "n2" stops
    And 50 seconds pass
    Then the load balancer of service "shop" sends to node "n1"
    When the kubelet on "n2" starts again
    Then the load balancer of service "shop" sends to nodes "n1", "n2"
    When I patch the node "n1" with:
      """
      spec:
        unschedulable: true
      """
    Then the load balancer of service "shop" sends to node "n2"

  @SVC-LOADBALANCER @profile-kubernetes-1.32
  Scenario: (v1.32) NotReady and cordoned nodes stay; excluded nodes leave
    When the kubelet on "n2" stops
    And 60 seconds pass
    Then node "n2" has condition Ready "Unknown"
    And the load balancer of service "shop" sends to nodes "n1", "n2"
    When I patch the node "n1" with:
      """
      spec:
        unschedulable: true
      """
    Then the load balancer of service "shop" sends to nodes "n1", "n2"
    When I patch the node "n1" with:
      """
      metadata:
        labels: { node.kubernetes.io/exclude-from-external-load-balancers: "true" }
      """
    Then the load balancer of service "shop" sends to node "n2"

  @SVC-LOADBALANCER
  Scenario: Deleting the service deletes its balancer, then the service
    When I delete the service "shop"
    Then the service "shop" does not exist
    And the cloud has 0 load balancers

  @SVC-LOADBALANCER
  Scenario: A service that stops being a LoadBalancer loses its balancer and finalizer
    When I patch the service "shop" with:
      """
      spec:
        type: ClusterIP
      """
    Then the cloud has 0 load balancers
    And the service "shop" has:
      | status.loadBalancer | {}     |
      | metadata.finalizers | <none> |

  @SVC-LOADBALANCER
  Scenario: A service of another load-balancer class is left to its own controller
    When I create this object:
      """
      apiVersion: v1
      kind: Service
      metadata: { name: internal }
      spec:
        type: LoadBalancer
        loadBalancerClass: example.com/internal
        ports: [{ port: 80 }]
      """
    Then the cloud has 1 load balancer
    And the service "internal" has:
      | status.loadBalancer | {} |
