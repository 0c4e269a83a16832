#!/usr/bin/env bash
# The test command (`npm test`): sets up everything the suites need on a fresh machine, then runs lint and every suite.
# Counterparts: Terraform from PATH, OpenTofu built from the Go module proxy (cached), Python clients from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d node_modules ]] || npm ci --no-audit --no-fund
bash scripts/setup.sh
echo "== lint (biome)"
npx biome check .
echo "== typecheck"
npx tsc --noEmit -p tsconfig.json && npx tsc -p tsconfig.test.json && npx tsc -p constructs/tsconfig.json \
  && for ex in examples/*/tsconfig.json; do npx tsc -p "$ex" || exit 1; done
echo "== tests"
export TF_CLI_CONFIG_FILE=/dev/null   # the image may point at a missing file; e2e tests set their own
status=0
npx vitest run --reporter=default --reporter=json --outputFile=.rackform/vitest.json "$@" || status=$?
node scripts/test-summary.mjs .rackform/vitest.json || true
exit $status
