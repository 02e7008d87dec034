// The commands' help texts, apart from the commands themselves: `kubespec --help` (and
// `kubespec run --help`) must not load Cucumber or the control plane to print them.
import { knownFlags } from '../profile/flags';
import { RUN, synopses, synopsis } from './commands';

/** The exit codes of \`kubespec run\`, as the README's table states them. */
export const EXIT_CODES = `Exit codes:
  0    every selected scenario passed or was not applicable (with --all-applicable: all passed);
       --dry-run: the listing was printed
  1    a scenario failed (with --all-applicable: or was not applicable)
  2    bad usage; an empty selection (paths or tags that match no scenario); a --tags syntax
       error; an unreachable or unauthorized cluster (the pre-flight); a crash
  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM: what was started is stopped, and the
       report of the scenarios that finished is written, marked interrupted`;

export const RUN_HELP = `kubespec run — run the features against a target and write conformance reports

${synopsis(RUN)}

  --target reference        the control plane to judge:
                              reference  in-process, virtual time (default)
                              serve      a fresh \`kubespec serve\` per scenario, over HTTPS (--serve-clock
                                         virtual|real; --serve-flag name=value forces a flag on every server)
                              serve-ha   per scenario an etcd and two \`kubespec serve --leader-elect true\` on it (an
                                         HA pair, real time): features/apiserver/ha.feature
                              upstream   upstream Kubernetes v1.32 (etcd, kube-apiserver, controller manager,
                                         scheduler) per scenario, built by \`npm run upstream:build\`; real time
                              kube       any API server: --kubeconfig FILE (default: $KUBECONFIG) [--context NAME]
                                         [--target-config targets/x.yaml: its profile, flags, capabilities]
                              container  a control plane from a container image (testcontainers; needs a Docker
                                         engine): per scenario, upstream v1.32 from \`npm run image:build\`;
                                         --target-config targets/x.yaml declares another image (see README)
                              k3s        starts k3s v1.32 from rancher/k3s (a container declaration)
  --profile seed            the release semantics: ${'seed | kubernetes-1.32 | path/to/profile.yaml'}
  --tags EXPR               a Cucumber tag expression, e.g. '@NODE-GRACE-UNKNOWN and not @slow'
  --report-dir DIR          where reports go (default: reports); messages always at DIR/messages.ndjson.
                            Written to a temporary directory and moved there at the end: a run that
                            selects nothing or stops on bad usage leaves the previous report as it was
  --label NAME              the run's column in \`kubespec report\` (default: the target declaration's
                            name, else "target · profile"): runs of two clusters stand side by side
  --dry-run                 list the scenarios that would run (file:line), and for each why it would
                            be not applicable on this target, as far as is known before it runs
  --driver ./driver.js      a third-party ClusterDriver module (see README); the target is its name
  --fail-fast               stop at the first failing scenario
  --rerun-failed            run only the scenarios that did not pass in DIR/messages.ndjson, and merge
                            their results into that run's record (messages, JUnit, conformance)
  --shard INDEX/TOTAL       run every TOTAL-th scenario starting at INDEX (1-based), for CI splits;
                            merge the shards' report dirs with kubespec report
  --parallel N              run scenarios in N worker processes, the longest first: by what each took
                            in the last run into DIR, else by --lengths, else by its stated waits
  --lengths FILE.json       seconds per scenario ({"features/x.feature:12": 300, …}) for that order
                            when DIR holds no earlier run (upstream/scenario-seconds.json: the
                            upstream target's, written from a full run by npm run upstream:lengths)
  --quiet-summary           print only the summary, no per-step progress
  --all-applicable          fail when a selected scenario is not applicable: for fixed selections
                            (CI smokes) that must really run, not be set aside by a flag or capability

Feature paths are read from the current directory. Before a run on a cluster (kube, k3s) a
pre-flight asks its /version, who the kubeconfig's user is allowed to be, and for a dry-run
create; a cluster that fails it ends the run at once (exit 2) naming the server, user and cause.

${EXIT_CODES}`;

export const SERVE_HELP = `kubespec serve — the whole control plane as one process, over HTTP(S)

  --profile seed                 release semantics and defaults: seed | kubernetes-1.32 | file.yaml
  --clock virtual|real           virtual (default): time moves only by POST /kubespec/v1/clock
  --store sqlite                 the storage backend: sqlite (default: DATA-DIR/kubespec.db),
                                 sqlite:FILE, etcd://host:port[,host:port…], or memory
                                 (nothing kept); --etcd-servers URL[,URL] also selects etcd
  --sqlite-sync full|normal      with sqlite: full (default) fsyncs every commit before the write
                                 is acknowledged, so it survives a power cut (as etcd fsyncs its
                                 log); normal only hands it to the kernel, which survives kill -9
                                 but not a power cut, and writes some 15 times faster
  --store-key-prefix /PATH        with etcd: keep this server's keys under PATH (PATH/registry/…),
                                 for several clusters on one etcd
  --etcd-compaction-interval 5m  compact the store's history this often (0 = never); older
                                 resourceVersions are then answered 410 Gone
  --data-dir DIR                 everything kept across restarts (default ~/.kubespec): the
                                 PKI with the service-account key (pki/), the SQLite store,
                                 the admin kubeconfig
  --secure-port 6443             HTTPS port (0 = off); --bind-address 0.0.0.0
  --insecure-port PORT           plain-HTTP port without authentication (0 = off): 8080 by
                                 default on the seed profile (v1.12), off on kubernetes-1.32;
                                 --insecure-bind-address 127.0.0.1 (loopback only)
  --authorization-mode RBAC      RBAC | AlwaysAllow (comma-separated union)
  --token-auth-file FILE         bearer tokens: CSV token,user,uid,"group1,group2"
  --basic-auth-file FILE         HTTP basic auth (seed profile only; removed in v1.19):
                                 CSV password,user,uid,"group1,group2"
  --anonymous-auth true          unauthenticated requests are system:anonymous (false: 401)
  --kubelet-certificate-authority FILE   verify kubelets' serving certificates with this CA
  --<flag> VALUE                 any other control-plane flag by its upstream name
                                 (${knownFlags('kube-controller-manager').slice(0, 4).join(', ')}, …)

On start it prints the listening addresses and the path of a kubeconfig for its admin
(client certificate CN=kubernetes-admin, O=system:masters): kubectl --kubeconfig PATH get nodes.
Hollow kubelets join with POST /kubespec/v1/kubelets {"nodeName": "n1"} (DELETE …/{name}
removes one). Besides the API it tells what the reference driver reads in process:
TokenReview (authentication.k8s.io/v1), /kubespec/v1/scheduler/decisions, /kubespec/v1/cloud,
/kubespec/v1/proxies/{node}/route, /kubespec/v1/audit, /kubespec/v1/storage/compact,
/kubespec/v1/settle and /kubespec/v1/revisions (the cluster time of each revision).`;

export const HELP = `kubespec — an executable specification of the Kubernetes control plane

${synopses()}

Commands:
  run      run the features against a target and write conformance reports
  serve    the control plane as one process over HTTP(S), for kubectl and client libraries
  report   merge report directories: kubespec report DIR... [--out DIR] (shards of one run
           become one column; other targets and profiles stand side by side)
  docs     the documentation site: kubespec docs [--results DIR]... [--out reports/docs] [--profile seed]
  init-target  a target declaration from what a cluster reveals: kubespec init-target --kubeconfig FILE [--name N] [--out FILE]
  clean    remove what kubespec runs left on a long-lived cluster (objects labelled
           kubespec.io/run, and the hollow kubelets behind such nodes):
           kubespec clean --kubeconfig FILE [--context NAME] [--expired-only]
  help     this text

${RUN_HELP}

${SERVE_HELP}`;
