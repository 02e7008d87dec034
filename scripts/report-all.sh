#!/usr/bin/env bash
# reports/all/conformance.html: every run of this checkout that exists, side by side — the
# reference (npm test), kubespec serve (npm run test:serve[:ci]) and upstream v1.32
# (npm run test:upstream). Each script that writes one of these runs calls this afterwards,
# so none of them drops another's column.
set -uo pipefail
cd "$(dirname "$0")/.."
dirs=()
for d in reports/test/seed reports/test/kubernetes-1.32 reports/serve/seed reports/serve/kubernetes-1.32 reports/upstream/kubernetes-1.32; do
  [[ -f "$d/messages.ndjson" ]] && dirs+=("$d")
done
# A rerun of some upstream scenarios (kubespec run --target upstream ... --report-dir
# reports/upstream/kubernetes-1.32-rerun <locations>) newer than the full run replaces
# their results in its column (see mergeShards).
rerun=reports/upstream/kubernetes-1.32-rerun
if [[ -f "$rerun/messages.ndjson" && "$rerun/messages.ndjson" -nt reports/upstream/kubernetes-1.32/messages.ndjson ]]; then dirs+=("$rerun"); fi
if [[ ${#dirs[@]} -eq 0 ]]; then echo "report-all: no runs in reports/ yet" >&2; exit 2; fi
exec node bin/kubespec report "${dirs[@]}" --out reports/all
