Feature: A node's status: addresses, conditions, capacity and system info
  Each kubelet reports its node's status: addresses (InternalIP from --node-ip, Hostname
  from --hostname-override, ExternalIP where the environment has one), conditions (Ready
  and the pressure conditions, each with heartbeat and transition times, reason and
  message), capacity and allocatable (capacity minus what is reserved, in Kubernetes
  quantity syntax), and system info gathered from the machine.
  Source: 000 §1.1 "节点状态". Upstream: kubelet nodestatus setters (pkg/kubelet/nodestatus/setters.go).

  @NODE-ADDRESSES
  Scenario: --node-ip and --hostname-override set the InternalIP and Hostname addresses
    Given a kubelet starts on node "10.4.42.5" with:
      | --node-ip           | 10.4.42.5 |
      | --hostname-override | 10.4.42.5 |
    Then node "10.4.42.5" has addresses:
      | type       | address   |
      | InternalIP | 10.4.42.5 |
      | Hostname   | 10.4.42.5 |

  @NODE-ADDRESSES
  Scenario: An external IP, where the machine has one, is listed between them
    Given a kubelet starts on node "worker-1" with:
      | --node-ip           | 192.168.0.11 |
      | external IP         | 203.0.113.7  |
      | --hostname-override | worker-1.lan |
    Then node "worker-1" has addresses:
      | type       | address      |
      | InternalIP | 192.168.0.11 |
      | ExternalIP | 203.0.113.7  |
      | Hostname   | worker-1.lan |

  @NODE-CONDITIONS @profile-seed
  Scenario: The seed's kubelet reports OutOfDisk, MemoryPressure, DiskPressure, PIDPressure and Ready
    Given a ready node "10.4.42.5"
    Then the conditions of node "10.4.42.5" are:
      | type           | status | reason                     | message                                     |
      | OutOfDisk      | False  | KubeletHasSufficientDisk   | kubelet has sufficient disk space available |
      | MemoryPressure | False  | KubeletHasSufficientMemory | kubelet has sufficient memory available     |
      | DiskPressure   | False  | KubeletHasNoDiskPressure   | kubelet has no disk pressure                |
      | PIDPressure    | False  | KubeletHasSufficientPID    | kubelet has sufficient PID available        |
      | Ready          | True   | KubeletReady               | kubelet is posting ready status             |

  @NODE-CONDITIONS @profile-kubernetes-1.32
  Scenario: Today's kubelet reports no OutOfDisk condition
    Given a ready node "10.4.42.5"
    Then the conditions of node "10.4.42.5" are:
      | type           | status | reason                     |
      | MemoryPressure | False  | KubeletHasSufficientMemory |
      | DiskPressure   | False  | KubeletHasNoDiskPressure   |
      | PIDPressure    | False  | KubeletHasSufficientPID    |
      | Ready          | True   | KubeletReady               |

  @NODE-CONDITIONS
  Scenario: Heartbeats move lastHeartbeatTime; lastTransitionTime stays while the status holds
    Given the node status update frequency is 10 seconds
    And the node status report frequency is 10 seconds
    And a ready node "10.4.42.5"
    When 30 seconds pass
    Then the Ready condition of node "10.4.42.5" changed status 30 seconds ago and was posted within the last 10 seconds

  @NODE-CAPACITY
  Scenario: Allocatable is capacity minus reserved, in Kubernetes quantity syntax (the seed's machine)
    Given a kubelet starts on node "10.4.42.5" with:
      | capacity          | cpu=4,memory=8010172Ki,pods=110 |
      | --system-reserved | memory=100Mi                    |
    Then node "10.4.42.5" has capacity:
      | cpu    | 4         |
      | memory | 8010172Ki |
      | pods   | 110       |
    And node "10.4.42.5" has allocatable:
      | cpu    | 4         |
      | memory | 7907772Ki |
      | pods   | 110       |

  @NODE-CAPACITY
  Scenario: Reserved CPU shows in millicores
    Given a kubelet starts on node "n1" with:
      | capacity          | cpu=2,memory=4Gi,pods=110 |
      | --system-reserved | cpu=260m,memory=512Mi     |
    Then node "n1" has allocatable:
      | cpu    | 1740m  |
      | memory | 3584Mi |
      | pods   | 110    |

  @NODE-INFO
  Scenario: System info is gathered by the kubelet
    Each field in the form the kubelet takes it from the machine (cadvisor's MachineInfo:
    /etc/machine-id, the DMI product UUID, the kernel's boot_id; uname -r; /etc/os-release's
    PRETTY_NAME, a name, a version and a codename or LTS; the runtime's
    Version call as "name://version"; the kubelet's own version). kubeProxyVersion is the
    kubelet's version while DisableNodeKubeProxyVersion is off (v1.32: deprecated, default off).
    Given a ready node "10.4.42.5"
    Then node "10.4.42.5" reports node info:
      | machineID               | <matches /^[0-9a-f]{32}$/>                                          |
      | systemUUID              | <matches /^[0-9A-Fa-f]{8}-([0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/>   |
      | bootID                  | <matches /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/>            |
      | operatingSystem         | linux                                                               |
      | architecture            | amd64                                                               |
      | kernelVersion           | <matches /^\d+\.\d+\.\d+/>                                     |
      | osImage                 | <matches /^[A-Z][A-Za-z/-]*( [A-Za-z/-]+)* \d+(\.\d+)*( LTS\| \([A-Za-z ]+\))?$/> |
      | containerRuntimeVersion | <matches /^[a-z]+:\/\/v?\d+\.\d+/>                             |
      | kubeletVersion          | <matches /^v\d+\.\d+\.\d+/>                                    |
      | kubeProxyVersion        | <same as kubeletVersion>                                            |

  @NODE-INFO @profile-seed
  Scenario: The seed's machine: CentOS 7, kernel 3.10, Docker 1.13
    Given a ready node "10.4.42.5"
    Then node "10.4.42.5" reports node info:
      | osImage                 | CentOS Linux 7 (Core)  |
      | kernelVersion           | 3.10.0-693.el7.x86_64  |
      | containerRuntimeVersion | docker://1.13.1        |
      | operatingSystem         | linux                  |
      | architecture            | amd64                  |

  @NODE-INFO @profile-kubernetes-1.32
  Scenario: The 1.32 profile's machine: Ubuntu 24.04, kernel 6.8, containerd 1.7
    Given a ready node "10.4.42.5"
    Then node "10.4.42.5" reports node info:
      | osImage                 | Ubuntu 24.04.1 LTS  |
      | kernelVersion           | 6.8.0-45-generic    |
      | containerRuntimeVersion | containerd://1.7.22 |
      | operatingSystem         | linux               |
      | architecture            | amd64               |
