#!/usr/bin/env bash
# Installs everything the demo and the tests need beyond npm, before any of it is used:
#   the build (tsc with --tests, else a type-check-free transpile: scripts/transpile.mjs); an engine for the demo (Terraform from PATH, else OpenTofu built from the Go module proxy, cached);
#   and, with --tests, both engines (Terraform from PATH, else built from the Go module proxy too), the counterparts the test projects drive: Debian's Ironic, PostgreSQL, Slurm 22.05 (slurmctld, slurmd, slurmrestd, munge) and Chromium (the browser tests), and the Python clients
#   (sushy, python-libmaas) and sushy-tools' Redfish emulator, kube-apiserver and etcd built from the Go module proxy
#   (scripts/build-kube.sh), and a pinned Node 22 for the CDK Terrain (cdktn) tests, from the npm registry into
#   ~/.cache/rackform (scripts/node22.mjs; the machine's Node stays as it is). Ends by checking that each is present (scripts/check-setup.mjs).
# Idempotent and cached; `npm test` runs it with --tests, `npm run demo` without (the demo needs only an engine).
set -euo pipefail
cd "$(dirname "$0")/.."
TESTS=0
[[ "${1:-}" == "--tests" ]] && TESTS=1
mkdir -p .rackform
echo "== build"
if [[ $TESTS == 1 ]]; then
  # tsc, declarations included. The provider and the constructs compile apart (the constructs never import src), so
  # both cores work at once.
  npm run --silent build:provider & provider=$!
  npm run --silent build:constructs & constructs=$!
  wait "$provider" && wait "$constructs"
else
  # The demo runs JavaScript only: esbuild transpiles in a second what tsc type-checks in half a minute.
  node scripts/transpile.mjs
fi
echo "== engines"
# The demo needs one engine: Terraform from PATH, else OpenTofu. The tests need both.
if [[ $TESTS == 1 ]] || ! command -v terraform >/dev/null; then
  bash scripts/build-opentofu.sh >/dev/null
fi
[[ $TESTS == 1 ]] || exit 0
if ! command -v terraform >/dev/null && [[ -z "${RACKFORM_TERRAFORM:-}" ]]; then
  echo "setup: terraform is not on PATH; building Terraform from the Go module proxy"
  bash scripts/build-terraform.sh >/dev/null
fi
echo "== Node 22 (the cdktn tests)"
node scripts/node22.mjs >/dev/null

echo "== kube-apiserver and etcd (the Kubernetes contract tests), in the background"
# Built from the Go module proxy at nice 19 (scripts/build-kube.sh; cached, so only a fresh machine pays: about
# 10 to 15 minutes of one core). It overlaps the package installs below and is awaited before the check.
kube_start=$SECONDS
bash scripts/build-kube.sh >.rackform/build-kube.log 2>&1 & kube=$!

echo "== Debian counterparts (Ironic, PostgreSQL, Slurm, Chromium)"
need=()
command -v ironic-api >/dev/null && command -v ironic-conductor >/dev/null && command -v ironic-dbsync >/dev/null \
  || need+=(ironic-api ironic-conductor)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null || need+=(postgresql)
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || need+=(chromium)
for bin in slurmctld slurmd slurmrestd munged sbatch; do
  command -v "$bin" >/dev/null || { need+=(slurmctld slurmd slurmrestd munge slurm-client); break; }
done
if ((${#need[@]})); then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "setup: installing ${need[*]} (about 2 minutes)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null
    # Debian starts the packaged services; the tests run their own instances on free ports.
    for svc in ironic-api ironic-conductor postgresql slurmctld slurmd slurmrestd munge; do
      command -v systemctl >/dev/null && systemctl stop "$svc" 2>/dev/null || service "$svc" stop >/dev/null 2>&1 || true
    done
  else
    echo "setup: ${need[*]} missing and cannot be installed here (needs root and apt-get)" >&2
  fi
fi
echo "== Python counterparts"
python3 -m pip install --quiet --disable-pip-version-check -r test/contract/requirements.txt
if wait "$kube"; then
  echo "== kube-apiserver and etcd ready ($((SECONDS - kube_start)) s; .rackform/build-kube.log)"
else
  echo "setup: building kube-apiserver or etcd failed:" >&2
  tail -20 .rackform/build-kube.log >&2
fi
echo "== check"
node scripts/check-setup.mjs
