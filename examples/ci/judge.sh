#!/usr/bin/env bash
# Judge the cluster $KUBECONFIG points at, from a kubespec checkout (run it from the checkout's
# root after `npm ci`). Writes reports/ci/{conformance.html,junit.xml,…}; exits 1 on a failure.
# FEATURES picks what to judge (default: the scheduler and node registration features, a few minutes).
set -euo pipefail
: "${KUBECONFIG:?set KUBECONFIG to the kubeconfig of the cluster to judge}"
mkdir -p reports/ci && rm -f reports/ci/target.yaml
node bin/kubespec init-target --kubeconfig "$KUBECONFIG" --name ci --out reports/ci/target.yaml
# shellcheck disable=SC2086 # FEATURES is a list of paths
node bin/kubespec run --target kube --kubeconfig "$KUBECONFIG" --target-config reports/ci/target.yaml \
  --report-dir reports/ci ${FEATURES:-features/scheduler features/node/registration.feature}
