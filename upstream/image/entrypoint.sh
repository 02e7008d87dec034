#!/bin/sh
# Starts etcd, then kube-apiserver, kube-controller-manager and kube-scheduler, and stays up while
# they all do. What it runs comes from the environment, so that the command lines have one author,
# src/drivers/upstream/commands.ts (the same lists the upstream target starts as processes):
#   KUBESPEC_ETCD_ARGS, KUBESPEC_APISERVER_ARGS, KUBESPEC_KCM_ARGS, KUBESPEC_SCHEDULER_ARGS
#       each component's arguments, one per line (values may hold spaces)
#   KUBESPEC_ETCD_PORT       etcd's client port (waited for before the API server starts)
#   KUBESPEC_APISERVER_PORT  the API server's secure port (the server of the kubeconfigs written here)
#   KUBESPEC_KCM_PORT, KUBESPEC_SCHEDULER_PORT  their secure ports (their /healthz is always allowed)
# The PKI is copied in before start, in /etc/kubespec/pki: ca.crt, ca.key, apiserver.crt/.key,
# sa.key, sa.pub, and a client pair for each kubeconfig written below (admin, kcm, scheduler).
# Ends (non-zero) as soon as one component exits, naming it; SIGTERM stops them all.
# The upstream target starts the controller manager and the scheduler once the API server is
# ready (/readyz with the admin certificate, which busybox's wget cannot present): here they
# start at once, and one that exits before its /healthz first answered (the controller manager
# does while the API server has not made its RBAC roles yet: "extension-apiserver-authentication
# is forbidden") is started again, as the kubelet restarts a kubeadm control plane's static pods.
set -eu
pki=/etc/kubespec/pki
say() { echo "kubespec-upstream: $*"; }
for v in KUBESPEC_ETCD_ARGS KUBESPEC_APISERVER_ARGS KUBESPEC_KCM_ARGS KUBESPEC_SCHEDULER_ARGS KUBESPEC_ETCD_PORT KUBESPEC_APISERVER_PORT KUBESPEC_KCM_PORT KUBESPEC_SCHEDULER_PORT; do
  eval "[ -n \"\${$v:-}\" ]" || { say "$v is not set (see /entrypoint.sh)"; exit 2; }
done
for f in ca.crt ca.key apiserver.crt apiserver.key sa.key sa.pub admin.crt admin.key kcm.crt kcm.key scheduler.crt scheduler.key; do
  [ -s "$pki/$f" ] || { say "no $pki/$f: the PKI is copied in before start"; exit 2; }
done

# kubeconfig NAME: /etc/kubespec/NAME.kubeconfig with NAME.crt/.key embedded, so that a copy
# taken out of the container works as it is.
kubeconfig() {
  cat > "/etc/kubespec/$1.kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: kubespec-upstream
  cluster:
    server: https://127.0.0.1:$KUBESPEC_APISERVER_PORT
    certificate-authority-data: $(base64 -w0 "$pki/ca.crt")
users:
- name: $1
  user:
    client-certificate-data: $(base64 -w0 "$pki/$1.crt")
    client-key-data: $(base64 -w0 "$pki/$1.key")
contexts:
- name: kubespec-upstream
  context: { cluster: kubespec-upstream, user: $1 }
current-context: kubespec-upstream
KUBECONFIG
  chmod 600 "/etc/kubespec/$1.kubeconfig"
}
kubeconfig admin
kubeconfig kcm
kubeconfig scheduler

NAMES="etcd kube-apiserver kube-controller-manager kube-scheduler"
var() { echo "$1" | tr - _; }
pid_of() { eval "echo \${pid_$(var "$1"):-}"; }
stop_all() {
  trap - TERM INT
  for n in $NAMES; do
    p="$(pid_of "$n")"
    [ -z "$p" ] || kill "$p" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap 'say "stopping"; stop_all; exit 0' TERM INT

# start NAME ARGS: the component in the background, its arguments split on newlines only.
start() {
  name="$1"
  old_ifs="$IFS"
  IFS='
'
  set -f
  # shellcheck disable=SC2086
  "$name" $2 &
  set +f
  IFS="$old_ifs"
  eval "pid_$(var "$name")=$!"
}

# ended NAME: sets $status to its exit status once it has exited, to "" while it runs (no
# subshell: only this shell can wait for its children).
ended() {
  eval "p=\${pid_$(var "$1")}"
  status=""
  kill -0 "$p" 2>/dev/null && return 0
  status=0
  wait "$p" || status=$?
}

# fail NAME STATUS: stop the rest and end, naming the one that stopped (last, after their lines).
fail() {
  say "$1 exited (status $2)"
  stop_all
  say "$1 exited (status $2): the control plane is stopped"
  exit 1
}

start etcd "$KUBESPEC_ETCD_ARGS"
i=0
until wget -q -O /dev/null "http://127.0.0.1:$KUBESPEC_ETCD_PORT/health" 2>/dev/null; do
  i=$((i + 1))
  if [ "$i" -gt 600 ] || ! kill -0 "$pid_etcd" 2>/dev/null; then say "etcd did not become healthy"; stop_all; exit 1; fi
  sleep 0.1
done
say "etcd healthy on 127.0.0.1:$KUBESPEC_ETCD_PORT"
start kube-apiserver "$KUBESPEC_APISERVER_ARGS"
start kube-controller-manager "$KUBESPEC_KCM_ARGS"
start kube-scheduler "$KUBESPEC_SCHEDULER_ARGS"

# Until both answered /healthz once: restarted when they exit before (see above).
healthy=""
until case "$healthy" in *kube-controller-manager*kube-scheduler* | *kube-scheduler*kube-controller-manager*) true ;; *) false ;; esac; do
  for n in etcd kube-apiserver; do
    ended "$n"
    [ -z "$status" ] || fail "$n" "$status"
  done
  for n in kube-controller-manager kube-scheduler; do
    case "$healthy" in *" $n"*) continue ;; esac
    if [ "$n" = kube-scheduler ]; then port="$KUBESPEC_SCHEDULER_PORT"; args="$KUBESPEC_SCHEDULER_ARGS"; else port="$KUBESPEC_KCM_PORT"; args="$KUBESPEC_KCM_ARGS"; fi
    if wget -q --no-check-certificate -O /dev/null "https://127.0.0.1:$port/healthz" 2>/dev/null; then
      healthy="$healthy $n"
      continue
    fi
    ended "$n"
    if [ -n "$status" ]; then
      say "$n exited (status $status) before it was healthy: starting it again"
      start "$n" "$args"
    fi
  done
  sleep 1
done
say "kube-apiserver, kube-controller-manager and kube-scheduler started; admin kubeconfig /etc/kubespec/admin.kubeconfig"

# Until one of them exits: then the container ends, saying which (its log lines are above).
while :; do
  for n in $NAMES; do
    ended "$n"
    [ -z "$status" ] || fail "$n" "$status"
  done
  sleep 1
done
