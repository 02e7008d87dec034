#!/usr/bin/env bash
# npm run test:upstream — the kubernetes-1.32 profile against upstream v1.32 (built by
# npm run upstream:build), two scenarios at a time, then reports/all/conformance.html with
# the upstream column beside the reference (and serve) runs that exist. Extra arguments go
# to kubespec run (e.g. --tags, feature paths). Exits with the run's status.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
node bin/kubespec run --target upstream --profile kubernetes-1.32 --parallel "${KUBESPEC_UPSTREAM_PARALLEL:-2}" \
  --report-dir reports/upstream/kubernetes-1.32 --quiet-summary "$@"
rc=$?
echo "test:upstream: $(( $(date +%s) - start )) s wall"
scripts/report-all.sh || rc=2
exit $rc
