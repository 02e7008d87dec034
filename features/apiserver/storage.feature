@needs-http @needs-durable-storage
Feature: Storage that outlives the control plane
  Only the API server talks to storage, and what it acknowledged is stored: after the
  control plane is killed without warning (SIGKILL) and started again on the same data
  (SQLite file or etcd), every object is there with its uid and resourceVersion, revisions go
  on from where they were, clients and their kubeconfigs keep working, and a watch resumes
  from a resourceVersion of before the kill. The API server compacts storage on a schedule
  (--etcd-compaction-interval, 5 minutes: each pass compacts to the revision the previous
  pass saw); a resourceVersion compacted away answers 410 Expired.
  Run on the serve-sqlite and serve-etcd targets (`--target serve --target-config
  targets/serve-sqlite.yaml`); not applicable where the store is memory.
  Source: 002 §2.1 (the API server alone touches etcd), §3. Upstream:
  k8s.io/apiserver storage/etcd3 store.go (resourceVersion = etcd mod revision, watch from
  a revision), compact.go (compactor, compact_rev_key), cacher (410 "too old resource version").

  @API-LIST-WATCH @COMM-APISERVER-ONLY
  Scenario: Objects and revisions come back after the control plane is killed
    The pods are at rest before the kill (the scheduler has written that they cannot be
    placed), so no component's write moves their resourceVersion around it: on upstream
    v1.32.13 the scheduler's PodScheduled write landed between the noting and the kill.
    When I create a pod "a"
    And I create a pod "b"
    Then pod "a" has condition PodScheduled "False"
    And pod "b" has condition PodScheduled "False"
    When the control plane is killed (SIGKILL) and started again on its data
    Then every pod of before the restart is there with the same uid and resourceVersion
    And a kubeconfig written before the restart still lists the pods
    When I create a pod "c"
    Then the pod "c" has a resourceVersion above every one of before the restart

  @API-LIST-WATCH
  Scenario: After a restart a watch from before it is expired; one from a list made since streams on
    A restarted API server's watch cache begins at the revision it lists at start (upstream
    k8s.io/apiserver cacher: watchCache.getAllEventsSinceLocked answers "too old resource
    version" below it; found on upstream v1.32.13, where the reference replayed the store's
    history): a version noted before the kill is expired, and the client lists again and
    watches from the list's version, seeing what comes next.
    When I create a pod "old"
    And I note the resourceVersion of the pod list
    And I create a pod "new"
    And the control plane is killed (SIGKILL) and started again on its data
    And I run "kubectl get --raw /api/v1/namespaces/default/pods?watch=true&resourceVersion=$RV"
    Then the watch answers 410 Expired with "too old resource version"
    When I note the resourceVersion of the pod list
    And I start "kubectl get --raw /api/v1/namespaces/default/pods?watch=true&resourceVersion=$RV" in the background
    And I create a pod "after"
    Then the background kubectl prints lines matching, in order:
      | ^\{"type":"ADDED","object":\{.*"name":"after" |

  @API-LIST-WATCH
  Scenario: A resourceVersion compacted on schedule answers 410 Expired
    Two compaction passes (at 5 and 10 minutes) leave nothing of the history before the
    first; the version noted before the restart is older than that.
    When I create a pod "old"
    And I note the resourceVersion of the pod list
    And I create a pod "new"
    And the control plane is killed (SIGKILL) and started again on its data
    And 11 minutes pass
    And I run "kubectl get --raw /api/v1/namespaces/default/pods?watch=true&resourceVersion=$RV"
    Then the watch answers 410 Expired with "too old resource version"
