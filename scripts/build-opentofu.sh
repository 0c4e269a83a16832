#!/usr/bin/env bash
# Builds a pinned OpenTofu from the Go module proxy and caches the binary outside the repository.
# Prints the path of the binary on stdout. `go install …@version` refuses (go.mod has a replace), so build in the module dir.
set -euo pipefail
VERSION="${OPENTOFU_VERSION:-v1.12.6}"
CACHE="${RACKFORM_CACHE:-$HOME/.cache/rackform}"
BIN="$CACHE/opentofu-$VERSION/tofu"
if [[ -x "$BIN" ]] && "$BIN" version >/dev/null 2>&1; then echo "$BIN"; exit 0; fi
command -v go >/dev/null || { echo "build-opentofu: Go is required to build OpenTofu $VERSION" >&2; exit 1; }
mkdir -p "$(dirname "$BIN")"
DIR="$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "github.com/opentofu/opentofu@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
[[ -d "$DIR" ]] || { echo "build-opentofu: module download of $VERSION failed" >&2; exit 1; }
echo "build-opentofu: building OpenTofu $VERSION from $DIR (a few minutes on 2 cores)" >&2
(cd "$DIR" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$BIN.tmp" ./cmd/tofu)
mv "$BIN.tmp" "$BIN"
echo "$BIN"
