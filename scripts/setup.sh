#!/usr/bin/env bash
# Installs what the demo and the tests need beyond npm: the build, OpenTofu, Python clients used as counterparts.
# Idempotent and cached; safe to run on every `npm test` / `npm run demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .rackform
echo "== build"
npm run --silent build
echo "== OpenTofu"
bash scripts/build-opentofu.sh >/dev/null
if [[ -f test/contract/requirements.txt ]]; then
  echo "== Python counterparts"
  python3 -m pip install --quiet --disable-pip-version-check -r test/contract/requirements.txt
fi
if ! command -v terraform >/dev/null; then
  echo "setup: terraform is not on PATH; the e2e tests under Terraform will fail (install Terraform 1.11)" >&2
fi
