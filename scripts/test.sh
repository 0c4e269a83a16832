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
# The run writes to a temp folder of its own (each test file to a folder inside it, test/setup/tmpdir.ts), so what is
# left there afterwards was left by this run, whatever else the machine runs: an entry a test or its processes made
# (rf-*, engine and cdktf temp files) fails the run; tools' caches (tsx, vite) are removed with the folder.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf-run-XXXXXX")
export TMPDIR="$run_tmp"
set +e
npx vitest run "$@"
code=$?
set -e
left=$(ls -A "$run_tmp" | grep -E '^(rf-|cdktf\.outdir\.|tf-|plugin[0-9]|rackform)' || true)
rm -rf "$run_tmp"
if [[ -n "$left" ]]; then
  echo "error: the tests left $(wc -l <<<"$left") entries in the temp folder (lab CA keys, workdirs …):" >&2
  sed 's/^/  /' <<<"$left" >&2
  exit 1
fi
exit "$code"
