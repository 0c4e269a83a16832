#!/usr/bin/env bash
# The test command (`npm test`): installs everything the suites need on a fresh machine (scripts/setup.sh --tests,
# which ends by checking every counterpart), then lint, typecheck and every vitest project.
# Arguments go to vitest (e.g. `npm test -- --project unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d node_modules ]] || npm ci --no-audit --no-fund
bash scripts/setup.sh --tests
echo "== lint (biome)"
npx biome check .
echo "== typecheck"
npx tsc --noEmit -p tsconfig.json && npx tsc -p tsconfig.test.json && npx tsc -p constructs/tsconfig.json \
  && for ex in examples/*/tsconfig.json; do npx tsc -p "$ex" || exit 1; done
echo "== tests"
export TF_CLI_CONFIG_FILE=/dev/null   # the image may point at a missing file; e2e tests set their own
export RACKFORM_TEST_SUMMARY=.rackform/test-summary.md RACKFORM_TEST_DURATIONS=.rackform/test-durations.json
exec npx vitest run "$@"
