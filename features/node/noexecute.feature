@NODE-TAINT-NOEXECUTE
Feature: NoExecute taints evict pods that do not tolerate them
  The taint eviction controller (the node controller's "taint manager" before v1.29)
  deletes a pod from a node with a NoExecute taint at once if the pod does not tolerate
  every such taint; if it does, after the smallest tolerationSeconds of the tolerations
  used, counted from when the controller sees the taint; never if none of them sets
  tolerationSeconds. The DefaultTolerationSeconds admission plugin gives every pod
  not-ready and unreachable NoExecute tolerations of 300 s unless it has its own.
  Source: 000 §1.2 "节点控制" (NoExecute 污点). Upstream: processPodOnNode,
  getMinTolerationTime (tainteviction/taint_eviction.go); DefaultTolerationSeconds Admit
  (plugin/pkg/admission/defaulttolerationseconds).

  Background:
    Given a ready node "n1"

  Scenario: A pod gets the default 300 s tolerations for not-ready and unreachable
    Given a pod "web" running on node "n1"
    Then pod "web" has tolerations:
      | key                             | operator | effect    | seconds |
      | node.kubernetes.io/not-ready    | Exists   | NoExecute | 300     |
      | node.kubernetes.io/unreachable  | Exists   | NoExecute | 300     |

  Scenario: A pod with its own not-ready toleration only gets the unreachable default
    Given a pod "web" running on node "n1" with tolerations:
      | key                          | operator | effect    | seconds |
      | node.kubernetes.io/not-ready | Exists   | NoExecute | 60      |
    Then pod "web" has tolerations:
      | key                             | operator | effect    | seconds |
      | node.kubernetes.io/not-ready    | Exists   | NoExecute | 60      |
      | node.kubernetes.io/unreachable  | Exists   | NoExecute | 300     |

  @upstream-smoke
  Scenario: Untolerated goes at once, tolerated for 30 s goes after 30 s
    Given a pod "plain" running on node "n1"
    And a pod "patient" running on node "n1" with tolerations:
      | key             | operator | value | effect    | seconds |
      | example.com/gpu | Equal    | bad   | NoExecute | 30      |
    When I taint node "n1" with "example.com/gpu=bad:NoExecute"
    Then pod "plain" is gone
    And pod "patient" is not Terminating
    When 29 seconds pass after I tainted node "n1"
    Then pod "patient" is not Terminating
    When 1 second passes
    Then pod "patient" is gone

  Scenario: Tolerated forever stays
    Given a pod "forever" running on node "n1" with tolerations:
      | key             | operator | value | effect    | seconds |
      | example.com/gpu | Exists   |       | NoExecute | -       |
    When I taint node "n1" with "example.com/gpu=bad:NoExecute"
    And 1 hour passes
    Then pod "forever" is Running on node "n1"

  Scenario: Tolerated forever stays past twice the default toleration (a real clock's form)
    The hour above on a window a real clock can wait in a run: 10 minutes, twice the 300 s
    every pod's default tolerations grant, with no tolerationSeconds to count from.
    Given a pod "forever" running on node "n1" with tolerations:
      | key             | operator | value | effect    | seconds |
      | example.com/gpu | Exists   |       | NoExecute | -       |
    When I taint node "n1" with "example.com/gpu=bad:NoExecute"
    And 10 minutes pass
    Then pod "forever" is Running on node "n1"

  Scenario: Removing the taint in time cancels the pending eviction
    Given a pod "patient" running on node "n1" with tolerations:
      | key             | operator | value | effect    | seconds |
      | example.com/gpu | Equal    | bad   | NoExecute | 30      |
    When I taint node "n1" with "example.com/gpu=bad:NoExecute"
    And 20 seconds pass
    And I remove the taint "example.com/gpu" from node "n1"
    And 1 minute passes
    Then pod "patient" is Running on node "n1"
    And there is an event "TaintManagerEviction" for pod "patient" with message "Cancelling deletion of Pod default/patient"
