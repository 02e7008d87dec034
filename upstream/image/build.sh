#!/usr/bin/env bash
# Builds the control-plane image kubespec/upstream:v1.32.13 (Dockerfile beside this file) from
# upstream's static binaries (`npm run upstream:build`) and Debian's busybox-static, with
# `docker build` on a staged context outside the repository (the binaries are never committed).
# Cached: the image carries the hash of everything it is made of (label io.kubespec.inputs);
# when the image present has the same hash nothing is built. Prints the image's name last.
#
#   KUBESPEC_UPSTREAM_CACHE   where the binaries are (default ~/.cache/kubespec-upstream; in its bin/)
#   KUBESPEC_IMAGE            the image's name (default kubespec/upstream:v1.32.13)
#   KUBESPEC_BUSYBOX          busybox to pack (default /usr/bin/busybox, from busybox-static)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${KUBESPEC_UPSTREAM_CACHE:-$HOME/.cache/kubespec-upstream}/bin"
image="${KUBESPEC_IMAGE:-kubespec/upstream:v1.32.13}"
busybox="${KUBESPEC_BUSYBOX:-/usr/bin/busybox}"
binaries=(etcd kube-apiserver kube-controller-manager kube-scheduler)

command -v docker >/dev/null || { echo "image:build needs docker (apt-get install docker.io)" >&2; exit 2; }
docker info >/dev/null 2>&1 || { echo "image:build: no Docker engine answers (start dockerd)" >&2; exit 2; }
for b in "${binaries[@]}"; do
  [[ -x "$bin/$b" ]] || { echo "image:build: no $bin/$b: run \`npm run upstream:build\` first" >&2; exit 2; }
done
[[ -x "$busybox" ]] || { echo "image:build: no $busybox (apt-get install busybox-static)" >&2; exit 2; }
# FROM scratch has no libc: a dynamically linked file would fail there with a bare "no such file".
if command -v file >/dev/null; then
  for f in "${binaries[@]/#/$bin/}" "$busybox"; do
    file -L "$f" | grep -q 'statically linked' || { echo "image:build: $f is not statically linked (build with CGO_ENABLED=0; busybox from busybox-static)" >&2; exit 2; }
  done
fi

inputs="$( (sha256sum "${binaries[@]/#/$bin/}" "$busybox" | cut -d' ' -f1; cat "$here/Dockerfile" "$here/entrypoint.sh") | sha256sum | cut -d' ' -f1)"
have="$(docker image inspect --format '{{ index .Config.Labels "io.kubespec.inputs" }}' "$image" 2>/dev/null || true)"
if [[ "$have" == "$inputs" ]]; then
  echo "image: $image is up to date (inputs $inputs)" >&2
  echo "$image"
  exit 0
fi

ctx="$(mktemp -d "${TMPDIR:-/tmp}/kubespec-image-XXXXXX")"
trap 'rm -rf "$ctx"' EXIT
# Hard links when the cache is on the same file system (no copy of ~300 MB), else copies.
for f in "${binaries[@]/#/$bin/}" "$busybox"; do
  ln "$(readlink -f "$f")" "$ctx/$(basename "$f")" 2>/dev/null || cp -L "$f" "$ctx/$(basename "$f")"
done
cp "$here/Dockerfile" "$here/entrypoint.sh" "$ctx/"
echo "image: building $image (inputs $inputs)…" >&2
start=$(date +%s)
DOCKER_BUILDKIT=0 docker build --quiet --label "io.kubespec.inputs=$inputs" -t "$image" "$ctx" >&2
echo "image: built $image in $(( $(date +%s) - start )) s, $(docker image inspect --format '{{ .Size }}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }')" >&2
echo "$image"
