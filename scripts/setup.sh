#!/usr/bin/env bash
# Installs what the demo and the tests need beyond npm: the build, OpenTofu, Python clients used as counterparts,
# PostgreSQL (Debian package, only when missing).
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
echo "== PostgreSQL (the pg state backend of the fleet example)"
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && ! command -v initdb >/dev/null; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "setup: PostgreSQL is missing; the pg state tests will fail (apt-get install postgresql)" >&2
  fi
fi
if ! command -v terraform >/dev/null; then
  echo "setup: terraform is not on PATH; the e2e tests under Terraform will fail (install Terraform 1.11)" >&2
fi
