#!/usr/bin/env bash
# Builds Pulumi's YAML language host (`pulumi-language-yaml`) beside the CLI that scripts/pulumi-cli.sh
# caches, once per version, and prints the folder that holds `bin/` (the same root as pulumi-cli.sh).
#
# Why: a Pulumi YAML program (`runtime: yaml`) is run by this plugin, which the CLI looks for beside
# itself; the CLI built from Go does not bundle it. Unlike Pulumi's Node host, the Go module proxy
# serves github.com/pulumi/pulumi-yaml (issue 24), and its go.mod has no `replace`, so `go install
# module@version` builds it directly (about 90 s on 2 cores, cold module cache).
#
# Exit codes as pulumi-cli.sh's: 0 ready (the root is printed on stdout); 3 Go is not installed;
# 1 the build failed (Go's own error on stderr).
set -euo pipefail

YAML_VERSION="v1.25.0"   # pulumi-yaml's release built against pulumi v3.248.0's plugin protocol
here="$(cd "$(dirname "$0")/.." && pwd)"
# The CLI first: the YAML host lives in its bin/ (and pulumi-cli.sh prints that root).
root="$(bash "$here/scripts/pulumi-cli.sh")"
host="$root/bin/pulumi-language-yaml"
stamp="$root/bin/.language-yaml-$YAML_VERSION"
ready() { [ -x "$host" ] && [ -e "$stamp" ]; }

if ready; then
  echo "$root"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "pulumi-yaml: Go is not installed, so Pulumi's YAML language host $YAML_VERSION cannot be built here" >&2
  exit 3
fi

# Test files start in parallel and may all ask at once: one builds, the others wait for it.
exec 9>"$root/.build-yaml-lock"
flock 9
if ready; then
  echo "$root"
  exit 0
fi
started=$(date +%s)
echo "pulumi-yaml: building Pulumi's YAML language host $YAML_VERSION into $root/bin (first run only)..." >&2
# Installed into a scratch GOBIN and moved, so an interrupted build never leaves a half-written host.
scratch="$(mktemp -d "$root/.yaml-build-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
GOBIN="$scratch" GOFLAGS="-trimpath -buildvcs=false" \
  go install -ldflags "-s -w" "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@$YAML_VERSION"
mv "$scratch/pulumi-language-yaml" "$host"
rm -f "$root"/bin/.language-yaml-*
touch "$stamp"
echo "pulumi-yaml: built in $(( $(date +%s) - started )) s" >&2
echo "$root"
