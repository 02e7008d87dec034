#!/bin/sh
# Starts etcd, then kube-apiserver, kube-controller-manager and kube-scheduler, and stays up while
# they all do. What it runs comes from the environment, so that the command lines have one author,
# src/drivers/upstream/commands.ts (the same lists the upstream target starts as processes):
#   KUBESPEC_ETCD_ARGS, KUBESPEC_APISERVER_ARGS, KUBESPEC_KCM_ARGS, KUBESPEC_SCHEDULER_ARGS
#       each component's arguments, one per line (values may hold spaces)
#   KUBESPEC_ETCD_PORT       etcd's client port (waited for before the API server starts)
#   KUBESPEC_APISERVER_PORT  the API server's secure port (the server of the kubeconfigs written here)
# The PKI is copied in before start, in /etc/kubespec/pki: ca.crt, ca.key, apiserver.crt/.key,
# sa.key, sa.pub, and a client pair for each kubeconfig written below (admin, kcm, scheduler).
# Ends (non-zero) as soon as one component exits, naming it; SIGTERM stops them all.
set -eu
pki=/etc/kubespec/pki
say() { echo "kubespec-upstream: $*"; }
for v in KUBESPEC_ETCD_ARGS KUBESPEC_APISERVER_ARGS KUBESPEC_KCM_ARGS KUBESPEC_SCHEDULER_ARGS KUBESPEC_ETCD_PORT KUBESPEC_APISERVER_PORT; do
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

pids=""
stop_all() {
  trap - TERM INT
  # shellcheck disable=SC2086
  [ -z "$pids" ] || kill $pids 2>/dev/null || true
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
  pids="$pids $!"
  eval "pid_$(echo "$name" | tr - _)=$!"
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
# The controller manager and the scheduler wait for the API server themselves.
start kube-controller-manager "$KUBESPEC_KCM_ARGS"
start kube-scheduler "$KUBESPEC_SCHEDULER_ARGS"
say "kube-apiserver, kube-controller-manager and kube-scheduler started; admin kubeconfig /etc/kubespec/admin.kubeconfig"

# Until one of them exits: then the container ends, saying which (its log lines are above).
while :; do
  for name in etcd kube-apiserver kube-controller-manager kube-scheduler; do
    eval "pid=\$pid_$(echo "$name" | tr - _)"
    if ! kill -0 "$pid" 2>/dev/null; then
      status=0
      wait "$pid" || status=$?
      say "$name exited (status $status)"
      stop_all
      exit 1
    fi
  done
  sleep 1
done
