@needs-http @API-LIST-WATCH
Feature: List and watch over HTTP
  A list returns the resourceVersion it was read at; a watch streams ADDED, MODIFIED and
  DELETED events as JSON lines, in order; without a resourceVersion it first replays the
  current objects as ADDED. A version older than the API server's watch cache keeps is
  answered 410 Expired ("too old resource version"); one it keeps is served from it even
  when storage has compacted it (v1.32). A list may come in chunks: limit cuts it, and
  the continue token of each chunk fetches the next at the first chunk's resourceVersion.
  Source: 002 §2 (list/watch), §3. Upstream: k8s.io/apiserver endpoints/handlers/watch.go,
  storage/cacher; chunking: storage/etcd3 store.GetList and storage.EncodeContinue (v1.12
  and v1.32); resourceVersionMatch: apimachinery internalversion/validation
  ValidateListOptions (v1.32).

  Background:
    Given a ready node "n1"

  Scenario: A watch replays the current objects, then streams every change in order
    When I create a pod "web"
    And I start "kubectl get --raw /api/v1/namespaces/default/pods?watch=true" in the background
    Then the background kubectl prints a line matching "^\{"type":"ADDED","object":\{.*"name":"web""
    When I delete the pod "web"
    Then the background kubectl prints lines matching, in order:
      | ^\{"type":"ADDED","object":\{.*"kind":"Pod".*"name":"web"   |
      | ^\{"type":"DELETED","object":\{.*"kind":"Pod".*"name":"web" |

  Scenario: A watch from a listed resourceVersion streams the changes made since
    The pod created after the list is not in the list, so the watch must replay it (ADDED)
    from the history kept since that resourceVersion; the pod from before is not replayed.
    When I create a pod "old"
    And I note the resourceVersion of the pod list
    And I create a pod "new"
    And I start "kubectl get --raw /api/v1/namespaces/default/pods?watch=true&resourceVersion=$RV" in the background
    Then the background kubectl prints a line matching "^\{"type":"ADDED","object":\{.*"name":"new""

  @profile-seed
  Scenario: A resourceVersion older than the watch cache's first event answers 410 Expired
    v1.12's watch cache serves a watch only from the first event it holds on
    (k8s.io/apiserver watchCache.GetAllEventsSinceThreadUnsafe: "too old resource version"
    below it), whatever storage has kept; the pod's creation is after version 1. The answer
    comes at once; a server that starts the watch anyway streams nothing, and the request
    timeout turns that into a failure in seconds instead of the step's 90. Either form the
    API defines is the answer: an HTTP 410, or a 200 stream whose one event is an ERROR
    with the 410 Status, which `kubectl get --raw` prints and exits 0 on.
    When I create a pod "web"
    And the API server compacts its storage
    And I run "kubectl get --raw /api/v1/namespaces/default/pods?watch=true&resourceVersion=1 --request-timeout=15s"
    Then the watch answers 410 Expired with "too old resource version: 1"

  @profile-kubernetes-1.32
  Scenario: A resourceVersion compacted in storage is served from the watch cache that still holds it
    v1.32's watch cache serves a watch from any version since the list it began from at
    start until it drops an event (k8s.io/apiserver cacher watchCache.getAllEventsSinceLocked,
    listResourceVersion; the ring keeps eventFreshDuration, 75 s, of events at least), from
    memory: etcd's compaction does not reach it. Found on upstream v1.32.13, where this
    watch replayed the pod's creation after the compaction. The version is one listed after
    the API server started: an API server that served earlier scenarios began its cache at
    its own start, and answers 410 for a version from before it (seen in a full run).
    When I note the resourceVersion of the pod list
    And I create a pod "web"
    And the API server compacts its storage
    And I start "kubectl get --raw /api/v1/namespaces/default/pods?watch=true&resourceVersion=$RV" in the background
    Then the background kubectl prints a line matching "^\{"type":"ADDED","object":\{.*"name":"web""

  @profile-kubernetes-1.32
  Scenario: A resourceVersion whose event the watch cache has dropped answers 410 Expired
    v1.32's ring keeps 75 s of events at least (eventFreshDuration): while it is full of
    fresher ones it grows (watchCache.resizeCacheLocked, 100 up to 102400), and once it is
    full with an older event first it drops that one; a watch from before the first event
    kept is then "too old" (watchCache.getAllEventsSinceLocked), whatever etcd still holds.
    150 pod creations fill a ring of 100 after the pod "web" is 80 s old.
    When I note the resourceVersion of the pod list
    And I create a pod "web"
    And 80 seconds pass
    And I create 150 pods whose names start with "batch-"
    And I run "kubectl get --raw /api/v1/namespaces/default/pods?watch=true&resourceVersion=$RV --request-timeout=15s"
    Then the watch answers 410 Expired with "too old resource version"

  Scenario: A list in chunks: limit answers part of it with a continue token, and kubectl follows the tokens
    With limit=2 of three pods the answer has two and a token to fetch the rest (and, with
    no selector, how many remain); kubectl get --chunk-size=1 pages through all three.
    When I create a pod "a"
    And I create a pod "b"
    And I create a pod "c"
    And I run "kubectl get --raw /api/v1/namespaces/default/pods?limit=2"
    Then kubectl prints ""continue":""
    And kubectl prints ""remainingItemCount":1"
    When I run "kubectl get pods --chunk-size=1 -o name"
    Then kubectl prints exactly:
      """
      pod/a
      pod/b
      pod/c
      """

  @profile-kubernetes-1.32
  Scenario: resourceVersionMatch Exact with resourceVersion 0 is refused as invalid
    When I run "kubectl get --raw /api/v1/namespaces/default/pods?resourceVersion=0&resourceVersionMatch=Exact"
    Then kubectl fails with "resourceVersionMatch "exact" is forbidden for resourceVersion "0""
