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
  # Reruns of some of its scenarios (kubespec run ... --report-dir DIR-rerun[N] <locations>)
  # newer than the run replace their results in its column, oldest first, so the latest
  # verdict of each scenario wins (see mergeShards).
  while IFS= read -r r; do
    [[ "$r/messages.ndjson" -nt "$d/messages.ndjson" ]] && dirs+=("$r")
  done < <(ls -1dtr "$d"-rerun* 2>/dev/null | while IFS= read -r x; do [[ -f "$x/messages.ndjson" ]] && echo "$x"; done)
done
if [[ ${#dirs[@]} -eq 0 ]]; then echo "report-all: no runs in reports/ yet" >&2; exit 2; fi
exec node bin/kubespec report "${dirs[@]}" --out reports/all
