#!/usr/bin/env bash
# Builds upstream Kubernetes v1.32 (kube-apiserver, kube-controller-manager, kube-scheduler),
# etcd and an external cloud-controller-manager (ccm/: k8s.io/cloud-provider's with a simulated
# provider of ours) from their published Go modules into a cache directory outside the repository,
# for the `upstream` target. Reuses the binaries when they were built from the same go.mod /
# go.sum (a stamp file holds their hash). Prints the binaries' directory on its last line.
#
#   KUBESPEC_UPSTREAM_CACHE   cache directory (default ~/.cache/kubespec-upstream); binaries in its bin/
#   KUBESPEC_UPSTREAM_REBUILD=1  ignore the stamps
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${KUBESPEC_UPSTREAM_CACHE:-$HOME/.cache/kubespec-upstream}"
bin="$cache/bin"
mkdir -p "$bin"
command -v go >/dev/null || { echo "upstream:build needs Go (https://go.dev/dl/, ≥ 1.23)" >&2; exit 2; }

kube_stamp="$bin/.kubernetes.stamp"
etcd_stamp="$bin/.etcd.stamp"
ccm_stamp="$bin/.cloud-controller-manager.stamp"
version="$(grep -m1 'k8s.io/kubernetes v' "$here/go.mod" | sed 's/.* v//')"
# What /version reports (a plain `go build` of the module says v0.0.0-master).
ldflags="-X k8s.io/component-base/version.gitVersion=v$version -X k8s.io/component-base/version.gitMajor=${version%%.*} -X k8s.io/component-base/version.gitMinor=$(echo "$version" | cut -d. -f2) -X k8s.io/component-base/version.gitTreeState=clean"
# Static binaries (no cgo, as upstream's release builds): the same files run on this machine and in
# the control-plane image (upstream/image/), whose userland is busybox-static and no libc.
export CGO_ENABLED=0
kube_want="$( (cat "$here/go.mod" "$here/go.sum"; echo "$ldflags cgo=$CGO_ENABLED") | sha256sum | cut -d' ' -f1)"
etcd_want="$( (cat "$here/etcd/go.mod" "$here/etcd/go.sum"; echo "cgo=$CGO_ENABLED") | sha256sum | cut -d' ' -f1)"
# Our own source too (the provider), tests aside.
ccm_want="$( (cat "$here/ccm/go.mod" "$here/ccm/go.sum"; ls "$here"/ccm/*.go | grep -v '_test\.go$' | sort | xargs cat; echo "$ldflags cgo=$CGO_ENABLED") | sha256sum | cut -d' ' -f1)"

fresh() { # stamp wanted binaries…
  local stamp="$1" want="$2"; shift 2
  [[ "${KUBESPEC_UPSTREAM_REBUILD:-}" != 1 && -f "$stamp" && "$(cat "$stamp")" == "$want" ]] || return 1
  for b in "$@"; do [[ -x "$bin/$b" ]] || return 1; done
}

if fresh "$kube_stamp" "$kube_want" kube-apiserver kube-controller-manager kube-scheduler; then
  echo "kubernetes: cached in $bin" >&2
else
  echo "kubernetes: building kube-apiserver, kube-controller-manager, kube-scheduler (v$version) — several minutes on a cold cache…" >&2
  start=$(date +%s)
  (cd "$here" && go build -ldflags "$ldflags" -o "$bin/" k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler)
  echo "$kube_want" > "$kube_stamp"
  echo "kubernetes: built in $(( $(date +%s) - start )) s" >&2
fi

if fresh "$etcd_stamp" "$etcd_want" etcd; then
  echo "etcd: cached in $bin" >&2
else
  echo "etcd: building v$(grep -m1 'go.etcd.io/etcd/server/v3 v' "$here/etcd/go.mod" | sed 's/.* v//')…" >&2
  start=$(date +%s)
  if (cd "$here/etcd" && go build -o "$bin/etcd" .); then
    echo "$etcd_want" > "$etcd_stamp"
    echo "etcd: built in $(( $(date +%s) - start )) s" >&2
  else
    # Fallback: Debian's etcd server (another 3.x; the API server only needs the v3 API).
    echo "etcd: the build failed; installing Debian's etcd-server instead" >&2
    if ! command -v etcd >/dev/null; then
      sudo=""; [[ $(id -u) == 0 ]] || sudo="sudo"
      $sudo apt-get update && $sudo apt-get install -y etcd-server
    fi
    ln -sf "$(command -v etcd)" "$bin/etcd"
    echo "debian $(etcd --version | head -1)" > "$etcd_stamp"
  fi
fi
if fresh "$ccm_stamp" "$ccm_want" cloud-controller-manager; then
  echo "cloud-controller-manager: cached in $bin" >&2
else
  echo "cloud-controller-manager: building (k8s.io/cloud-provider $(grep -m1 "k8s.io/cloud-provider v" "$here/ccm/go.mod" | sed "s/.* v/v/")'s app, provider kubespec)…" >&2
  start=$(date +%s)
  # Not fatal: without it the target still runs; the scenarios that need a cloud say why not.
  if (cd "$here/ccm" && go build -ldflags "$ldflags" -o "$bin/cloud-controller-manager" .); then
    echo "$ccm_want" > "$ccm_stamp"
    echo "cloud-controller-manager: built in $(( $(date +%s) - start )) s" >&2
  else
    rm -f "$bin/cloud-controller-manager" "$ccm_stamp"
    echo "cloud-controller-manager: the build failed; scenarios that need a cloud provider will be not applicable" >&2
  fi
fi
ls -l "$bin" >&2
echo "$bin"
