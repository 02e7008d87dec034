@COMM-APISERVER-ONLY @needs-audit
Feature: The API server is the only door to the cluster's state
  All cluster → master traffic goes to the API server: kubelets, the scheduler and the
  controllers are API clients under their own identities, and no other master component
  serves remote calls. Only the API server reads and writes storage (etcd).
  Source: 000 §2 "集群内的通信" (Cluster → Master); 002 §2.1 (the API server is the only
  component that talks to etcd). Upstream: the apiserver's storage layer
  (k8s.io/apiserver/pkg/storage) is the sole etcd client; components use client-go.

  Scenario: A pod's life is written through the API server by each component, under its identity
    Each writes its own part: the admin the pod, the scheduler its Binding, the kubelet its
    status (the second column, as the audit's objectRef names it; "-": anything).
    Given a ready node "n1"
    When I create a pod "web" requesting cpu "100m" and memory "64Mi"
    Then pod "web" is Running on node "n1"
    And the API server has handled writes from:
      | system:node:n1                 | pods/status |
      | system:kube-scheduler          | pods/binding |
      | system:kube-controller-manager | -            |
      | kubernetes-admin               | pods         |
    And every write to storage came through the API server
