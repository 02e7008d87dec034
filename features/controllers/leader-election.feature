Feature: The controller manager acts only while it holds the leader lock
  For a highly available control plane several kube-controller-managers run; with
  --leader-elect only the one holding the lock acts. It takes the lock when it is free or
  has not been renewed for --leader-elect-lease-duration (15 s), renews it every
  --leader-elect-retry-period (2 s), and when it cannot renew for
  --leader-elect-renew-deadline (10 s) it has lost the lock and stops (upstream: the process
  exits) while a standby takes over. The lock is a Lease in v1.24+ (--leader-elect-resource-lock
  leases); the seed's v1.12 kept the record as JSON in the annotation
  control-plane.alpha.kubernetes.io/leader of an Endpoints object. Both are
  kube-system/kube-controller-manager.
  Source: 000 §2.4 控制器 › 4、运行控制器的方式 ("Kubernetes 可以运行一个 master 集群，以实现内建控制器的高可用").
  Upstream: client-go tools/leaderelection (LeaderElector.tryAcquireOrRenew, acquire, renew),
  resourcelock (LeaseLock, EndpointsLock), cmd/kube-controller-manager leader election options.
  The reference runs one controller manager, so --leader-elect is off unless a scenario
  sets it (upstream's default is on); the standby taking over is another instance,
  written into the lock by a step.

  Background:
    Given the flag "--leader-elect" is "true"
    And a ready node "n1"

  @LEADER-ELECT-LOCK @profile-kubernetes-1.32 @needs-virtual-time
  Scenario: The controller manager takes a Lease and renews it every 2 seconds
    The times are counted from the acquisition, which only a controller manager started on
    the scenario's clock makes at the scenario's start: a real one took the lock while the
    cluster started (found on upstream v1.32.13: renewed 26 s after acquiring).
    Then the controller manager's leader lock is a Lease "kube-controller-manager" in namespace "kube-system"
    And the controller manager's leader record has:
      | holder               | this controller manager |
      | leaseDurationSeconds | 15                      |
      | leaderTransitions    | 0                       |
      | renewed seconds after acquiring | 0            |
    When 1 second passes
    Then the controller manager's leader record has:
      | renewed seconds after acquiring | 0 |
    When 1 more second passes
    Then the controller manager's leader record has:
      | renewed seconds after acquiring | 2 |

  @LEADER-ELECT-LOCK @profile-kubernetes-1.32
  Scenario: The Lease is renewed every retry period, on any clock
    The real-clock form of the scenario above, whose times count from an acquisition only a
    virtual clock places at the scenario's start: the renewals themselves, watched for 10 s,
    come every retry period (2 s; on a real clock within ±2 s of it, a renewal being a
    request), by the same holder with no transition.
    Then the controller manager's leader lock is a Lease "kube-controller-manager" in namespace "kube-system"
    And the controller manager's leader record has:
      | holder               | this controller manager |
      | leaseDurationSeconds | 15                      |
    And the controller manager renews its leader record every 2 seconds for 10 seconds
    And the controller manager's leader record has:
      | holder            | this controller manager |
      | leaderTransitions | 0                       |

  @LEADER-ELECT-LOCK @profile-seed
  Scenario: In v1.12 the controller manager keeps its record on an Endpoints object and renews it every 2 seconds
    Then the controller manager's leader lock is an Endpoints "kube-controller-manager" in namespace "kube-system"
    And the controller manager's leader record has:
      | holder               | this controller manager |
      | leaseDurationSeconds | 15                      |
      | leaderTransitions    | 0                       |
      | renewed seconds after acquiring | 0            |
    When 1 second passes
    Then the controller manager's leader record has:
      | renewed seconds after acquiring | 0 |
    When 1 more second passes
    Then the controller manager's leader record has:
      | renewed seconds after acquiring | 2 |

  @LEADER-ELECT-HANDOVER
  Scenario: A controller manager that cannot renew for the renew deadline stops acting
    The deadline runs from the first failed renewal, one retry period after the last good
    one: client-go's renew() polls every 2 s for at most 10 s per cycle and cycles every 2 s.
    The lock is taken at 1 s, after the renewal at 0 s; the one at 2 s fails, so it stops at
    12 s. On a real clock the last renewal is anywhere in the 2 s before the takeover, so it
    stops between 10 and 12 s after it: it acts at 9 s after and no longer at 13 s after
    (found on upstream v1.32.13, which still acted 9 s after the takeover — the reference
    stopped then, counting from the last success).
    When 1 second passes
    And another controller manager "kcm-b" takes the leader lock
    And 9 seconds pass
    And I create this object:
      """
      apiVersion: v1
      kind: ReplicationController
      metadata:
        name: web
      spec:
        replicas: 1
        template:
          metadata:
            labels: { app: web }
          spec:
            containers:
              - name: nginx
                image: nginx:1.14
      """
    # 9 s after the takeover, 8 s after its first failed renewal: it still leads and acts.
    Then replicationcontroller "web" controls 1 active pod
    When 4 more seconds pass
    And I scale replicationcontroller "web" to 2 replicas
    # 13 s after the takeover: the renew deadline has passed; it no longer acts, the standby's record stands.
    Then replicationcontroller "web" controls 1 active pod
    And the controller manager's leader record has:
      | holder            | kcm-b |
      | leaderTransitions | 1     |
