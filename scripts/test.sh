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
# One command per line: under `set -e` a failure inside an `&&` chain does not stop the script (it went unnoticed).
npx tsc --noEmit -p tsconfig.json
npx tsc -p tsconfig.test.json
npx tsc -p constructs/tsconfig.json
for ex in examples/*/tsconfig.json; do npx tsc -p "$ex"; done
echo "== tests"
export TF_CLI_CONFIG_FILE=/dev/null   # the image may point at a missing file; e2e tests set their own
# Each e2e file runs under the engine(s) test/setup/e2e-engines.ts gives it (both where the engines differ).
export RACKFORM_E2E_SPLIT=1
export RACKFORM_TEST_SUMMARY=.rackform/test-summary.md RACKFORM_TEST_DURATIONS=.rackform/test-durations.json
# Nothing a test makes may stay in the temp folder (each file works in a folder of its own there, removed when it ends:
# test/setup/tmpdir.ts). What this run left is what is new afterwards and named as the tests name things (rf-*, engine
# and cdktf temp files): in CI it fails the run (vitest ignores an error thrown by a global teardown, so the check is
# here); on a developer's machine other runs may own what is new, so it is a warning.
tmp_root="${TMPDIR:-/tmp}"
ours() { ls -A "$tmp_root" | grep -E '^(rf-|cdktf\.outdir\.|tf-|plugin[0-9]|rackform)' | sort || true; }
before=$(ours)
set +e
npx vitest run "$@"
code=$?
set -e
left=$(comm -13 <(echo "$before") <(ours) | grep -v '^$' || true)
if [[ -n "$left" ]]; then
  echo "the tests left $(wc -l <<<"$left") entries in $tmp_root (lab CA keys, workdirs …):" >&2
  sed 's/^/  /' <<<"$left" >&2
  [[ -n "${CI:-}" ]] && exit 1
fi
exit "$code"
