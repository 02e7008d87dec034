#!/usr/bin/env bash
# npm run test:upstream — the kubernetes-1.32 profile against upstream v1.32 (built by
# npm run upstream:build), KUBESPEC_UPSTREAM_PARALLEL scenarios at a time (default 8, as
# measured on 2 cores / 24 GiB: README), the feature holding the longest scenario first,
# then reports/all/conformance.html with the upstream column beside the reference (and
# serve) runs that exist. Progress: a line per finished scenario and a heartbeat per scenario
# running longer than 30 s, each with the run's elapsed time. Extra arguments go to kubespec run (e.g. --tags, feature paths;
# with paths, they run in the order given). Exits with the run's status.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
# The workers start from the compiled dist/ (a no-op when it is current): from the sources each
# of the 8 workers transpiles src/ through ts-node first — measured 110 s to the first scenario
# at load 10, 27 s from dist/ at load 23 (8 workers, README).
node bin/build.js || exit 2
# Longest first (upstream/longest-first.js), unless the arguments name feature paths.
paths=()
if ! printf '%s\n' "$@" | grep -q '\.feature\|^features'; then
  mapfile -t paths < <(node upstream/longest-first.js kubernetes-1.32 1440)
fi
node bin/kubespec run --target upstream --profile kubernetes-1.32 --parallel "${KUBESPEC_UPSTREAM_PARALLEL:-8}" \
  --report-dir reports/upstream/kubernetes-1.32 "$@" "${paths[@]}"
rc=$?
echo "test:upstream: $(( $(date +%s) - start )) s wall"
scripts/report-all.sh || rc=2
exit $rc
