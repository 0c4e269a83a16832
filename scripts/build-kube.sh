#!/usr/bin/env bash
# Builds a pinned kube-apiserver and the etcd it stores in from the Go module proxy, cached outside the repository
# (the contract tests' real Kubernetes API server: test/support/real-kube.ts). Prints the two binaries' paths.
# k8s.io/kubernetes is not meant to be required as a module: its go.mod points its staging modules (k8s.io/api,
# apimachinery, apiserver, client-go, …) at ./staging, so a module of our own requires it and replaces each staging
# module with the same release's published v0.x tag. `go install …@version` refuses replace lines, hence the module.
# Debian's etcd-server (3.4.23) is older than the 3.4.29 that Kubernetes 1.31 and later need (the health endpoints
# kube-apiserver checks), so etcd is built too, from go.etcd.io/etcd/server/v3 (its main package).
# The machine is shared: the builds run at nice 19 on one compile at a time.
set -euo pipefail
K8S="${KUBE_VERSION:-v1.37.2}"
ETCD="${ETCD_VERSION:-v3.6.16}"
CACHE="${RACKFORM_CACHE:-$HOME/.cache/rackform}"
APISERVER="$CACHE/kube-$K8S/kube-apiserver"
ETCD_BIN="$CACHE/etcd-$ETCD/etcd"
ok() { [[ -x "$APISERVER" ]] && [[ -x "$ETCD_BIN" ]] && "$APISERVER" --version >/dev/null 2>&1 && "$ETCD_BIN" --version >/dev/null 2>&1; }
if ok; then echo "$APISERVER"; echo "$ETCD_BIN"; exit 0; fi
command -v go >/dev/null || { echo "build-kube: Go is required to build kube-apiserver $K8S" >&2; exit 1; }
build() { nice -n 19 env GOMAXPROCS=1 go build -p 1 -trimpath "$@"; }
start=$SECONDS

if ! [[ -x "$ETCD_BIN" ]]; then
  dir="$CACHE/etcd-build"
  mkdir -p "$dir" "$(dirname "$ETCD_BIN")"
  printf 'module rackform.local/etcd-build\n\ngo 1.26.0\n' >"$dir/go.mod"
  echo "build-kube: building etcd $ETCD (go.etcd.io/etcd/server/v3)" >&2
  (cd "$dir" && GOFLAGS=-mod=mod go get "go.etcd.io/etcd/server/v3@$ETCD" &&
    build -ldflags "-s -w" -o "$ETCD_BIN.tmp" go.etcd.io/etcd/server/v3)
  mv "$ETCD_BIN.tmp" "$ETCD_BIN"
fi

if ! [[ -x "$APISERVER" ]]; then
  dir="$CACHE/kube-build"
  mkdir -p "$dir" "$(dirname "$APISERVER")"
  gomod="$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$K8S" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -f "$gomod" ]] || { echo "build-kube: cannot download k8s.io/kubernetes@$K8S from the module proxy" >&2; exit 1; }
  mod="$(cat "$gomod")"
  staging="v0.${K8S#v1.}"
  {
    printf 'module rackform.local/kube-build\n\ngo 1.26.0\n\nreplace (\n'
    # Every `k8s.io/x => ./staging/src/k8s.io/x` line of kubernetes' go.mod becomes `k8s.io/x => k8s.io/x v0.N.P`.
    sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*#\t\1 => \1 '"$staging"'#p' <<<"$mod"
    printf ')\n'
  } >"$dir/go.mod"
  echo "build-kube: building kube-apiserver $K8S with staging modules at $staging (long: one compile at a time)" >&2
  ldflags="-s -w"
  for v in gitVersion=$K8S gitMajor=1 gitMinor=$(cut -d. -f2 <<<"$K8S") gitTreeState=clean; do
    ldflags+=" -X k8s.io/component-base/version.$v"
  done
  (cd "$dir" && GOFLAGS=-mod=mod go get "k8s.io/kubernetes/cmd/kube-apiserver@$K8S" &&
    build -ldflags "$ldflags" -o "$APISERVER.tmp" k8s.io/kubernetes/cmd/kube-apiserver)
  mv "$APISERVER.tmp" "$APISERVER"
fi
echo "build-kube: built in $((SECONDS - start)) s" >&2
ok || { echo "build-kube: the built binaries do not run" >&2; exit 1; }
echo "$APISERVER"
echo "$ETCD_BIN"
