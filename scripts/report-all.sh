#!/usr/bin/env bash
# reports/all/conformance.html: every run of this checkout that exists, side by side — the
# reference (npm test), kubespec serve (npm run test:serve[:ci]) and upstream v1.32
# (npm run test:upstream). Each script that writes one of these runs calls this afterwards,
# so none of them drops another's column.
set -uo pipefail
cd "$(dirname "$0")/.."
dirs=()
for d in reports/test/seed reports/test/kubernetes-1.32 reports/serve/seed reports/serve/kubernetes-1.32 reports/upstream/kubernetes-1.32; do
  [[ -f "$d/messages.ndjson" ]] || continue
  dirs+=("$d")
  # A rerun of some of its scenarios (kubespec run ... --report-dir DIR-rerun <locations>)
  # newer than the run replaces their results in its column (see mergeShards).
  if [[ -f "$d-rerun/messages.ndjson" && "$d-rerun/messages.ndjson" -nt "$d/messages.ndjson" ]]; then dirs+=("$d-rerun"); fi
done
if [[ ${#dirs[@]} -eq 0 ]]; then echo "report-all: no runs in reports/ yet" >&2; exit 2; fi
exec node bin/kubespec report "${dirs[@]}" --out reports/all
