@API-CACHE
Feature: Components read through their list/watch caches, not the API server
  Every component keeps the objects it needs in a local cache filled by one list and kept
  current by a watch (an informer); its periodic work reads that cache, so the API server's
  load does not grow with how often a component looks. The API server counts the reads
  (get, list, watch) of each caller, and a caller's count stands still while the cluster
  runs: the node lifecycle controller judges every node every node monitor period from its
  node lister, and the scheduler keeps its node and pod caches, while kubelets heartbeat.
  Source: 002 §3 (集群功能模块之间的通信, 4. 特别说明). Upstream (v1.12 and v1.32):
  client-go tools/cache Reflector.ListAndWatch (one LIST, then WATCH from its
  resourceVersion); pkg/controller/nodelifecycle Controller.monitorNodeHealth ("We are
  listing nodes from local cache": nc.nodeLister.List); the scheduler's informer-backed
  cache (pkg/scheduler/factory at v1.12, pkg/scheduler/eventhandlers.go at v1.32).

  Scenario: Node heartbeats cost the controller manager and the scheduler no reads from the API server
    Neither the controller manager nor the scheduler writes here (the nodes stay Ready), so
    any read they made would be polling; 5 minutes are 60 node monitor periods and dozens
    of heartbeats per node. No get, no list; a watch may start again once, from where it
    ended (client-go's Reflector asks each watch to end after 5–10 min: on upstream v1.32.13
    7 of the controller manager's 51 watches did so within the 5 minutes).
    Given ready nodes "n1", "n2", "n3"
    Then the API server has handled reads from:
      | system:kube-controller-manager |
      | system:kube-scheduler          |
    When I note the API server's reads per caller
    And 5 minutes pass
    Then since then the API server has handled no reads from:
      | system:kube-controller-manager |
      | system:kube-scheduler          |
    And node "n1" is still Ready

  Scenario: The scheduler binds a new pod from its caches, reading nothing from the API server
    The pod reaches the scheduler as a watch event; the nodes it filters and scores and the
    pod it binds come from its caches, so scheduling writes a binding and reads nothing.
    Given ready nodes "n1", "n2"
    And I cordon node "n2"
    When I note the API server's reads per caller
    And I create a pod "web" requesting cpu "100m" and memory "64Mi"
    Then pod "web" is Running on node "n1"
    And since then the API server has handled no reads from:
      | system:kube-scheduler |
