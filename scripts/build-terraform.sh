#!/usr/bin/env bash
# Fallback when Terraform is not on PATH: builds a pinned Terraform from the Go module proxy (as build-opentofu.sh does
# for OpenTofu) and caches the binary outside the repository. Prints the path of the binary on stdout.
set -euo pipefail
VERSION="${TERRAFORM_VERSION:-v1.11.4}"
CACHE="${RACKFORM_CACHE:-$HOME/.cache/rackform}"
BIN="$CACHE/terraform-$VERSION/terraform"
if [[ -x "$BIN" ]] && "$BIN" version >/dev/null 2>&1; then echo "$BIN"; exit 0; fi
command -v go >/dev/null || { echo "build-terraform: Go is required to build Terraform $VERSION" >&2; exit 1; }
mkdir -p "$(dirname "$BIN")"
DIR="$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "github.com/hashicorp/terraform@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
[[ -d "$DIR" ]] || { echo "build-terraform: module download of $VERSION failed" >&2; exit 1; }
echo "build-terraform: building Terraform $VERSION from $DIR (a few minutes on 2 cores)" >&2
(cd "$DIR" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$BIN.tmp" .)
mv "$BIN.tmp" "$BIN"
echo "$BIN"
