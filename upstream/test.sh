#!/usr/bin/env bash
# npm run test:upstream — the kubernetes-1.32 profile against upstream v1.32 (built by
# npm run upstream:build), KUBESPEC_UPSTREAM_PARALLEL scenarios at a time (default 28, as
# measured on 2 cores / 24 GiB: README), the longest scenarios first, then reports/all/conformance.html with the upstream column beside the reference (and
# serve) runs that exist. Progress: a line per finished scenario and a heartbeat per scenario
# running longer than 30 s, each with the run's elapsed time. Extra arguments go to kubespec
# run (e.g. --tags, feature paths). Exits with the run's status.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
# The workers start from the compiled dist/ (a no-op when it is current): from the sources each
# of the workers transpiles src/ through ts-node first — measured 110 s to the first scenario
# at load 10, 27 s from dist/ at load 23 (8 workers, README).
node bin/build.js || exit 2
# kubespec run hands a parallel run's scenarios out longest first (src/cli/longest-first.ts): by
# the last run's lengths in the report directory, else by upstream/scenario-seconds.json (a full
# run's, npm run upstream:lengths): on a fresh clone without it the twelfth run took 51 min, not 36.
node bin/kubespec run --target upstream --profile kubernetes-1.32 --parallel "${KUBESPEC_UPSTREAM_PARALLEL:-28}" \
  --lengths upstream/scenario-seconds.json --report-dir reports/upstream/kubernetes-1.32 "$@"
rc=$?
echo "test:upstream: $(( $(date +%s) - start )) s wall"
scripts/report-all.sh || rc=2
exit $rc
