#!/usr/bin/env bash
# Builds the Pulumi CLI the end-to-end tests run (`test/e2e/`) from its Go module, once per version,
# and prints the folder that holds `bin/pulumi` (what `PulumiCommand.get({ root })` takes).
#
# Why from Go: the Pulumi CLI is not on npm (its npm package downloads a binary, which fails on these
# machines), but the Go module proxy serves `github.com/pulumi/pulumi/pkg/v3`. `pkg/go.mod` has
# `replace` directives, so `go install pkg@version` refuses it; tools/pulumi-cli/ is a wrapper module
# that requires pkg/v3 and sdk/v3 at one version and repeats pkg's one non-local replace.
#
# The binaries are cached outside the repo ($PULUMI_CLI_CACHE, default ~/.cache/pulumi-fleet-update),
# so only the first run on a machine builds (about 5 minutes on 2 cores, cold module cache).
#
# Exit codes: 0 ready (the root is printed on stdout); 3 Go is not installed (one line on stderr);
# 1 the build failed (Go's own error on stderr).
set -euo pipefail

VERSION="v3.248.0"   # the CLI for @pulumi/pulumi 3.248.0 (the newest SDK that supports Node 20)
here="$(cd "$(dirname "$0")/.." && pwd)"
cache="${PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-fleet-update}"
root="$cache/pulumi-$VERSION"

# Our Node language host (tools/pulumi-cli/languagehost) is rebuilt when its source changes.
host_stamp="$root/bin/.languagehost-$(cat "$here/tools/pulumi-cli/languagehost/main.go" "$here/tools/pulumi-cli/go.sum" | sha256sum | cut -c1-16)"
ready() { [ -x "$root/bin/pulumi" ] && [ -x "$root/bin/pulumi-language-nodejs" ] && [ -e "$host_stamp" ]; }

if ready; then
  echo "$root"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "pulumi-cli: Go is not installed, so the Pulumi CLI $VERSION cannot be built here (the real-CLI tests need it)" >&2
  exit 3
fi

mkdir -p "$root/bin"
# Test files start in parallel and may all ask at once: one builds, the others wait for it.
exec 9>"$root/.build-lock"
flock 9
if ready; then
  echo "$root"
  exit 0
fi
started=$(date +%s)
if [ ! -x "$root/bin/pulumi" ]; then
  echo "pulumi-cli: building the Pulumi CLI $VERSION from the Go module proxy into $root (first run only)..." >&2
  (
    cd "$here/tools/pulumi-cli"
    # -X version: the automation API parses `pulumi version`; an unset version is refused.
    go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$VERSION" \
      -o "$root/bin/pulumi.partial" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  )
  mv "$root/bin/pulumi.partial" "$root/bin/pulumi"
fi
# Beside `pulumi`, where the engine looks for a language plugin it bundles.
echo "pulumi-cli: building the Node language host (tools/pulumi-cli/languagehost)..." >&2
(
  cd "$here/tools/pulumi-cli"
  go build -trimpath -buildvcs=false -ldflags "-s -w -X main.version=${VERSION#v}" \
    -o "$root/bin/pulumi-language-nodejs.partial" ./languagehost
)
mv "$root/bin/pulumi-language-nodejs.partial" "$root/bin/pulumi-language-nodejs"
rm -f "$root"/bin/.languagehost-*
touch "$host_stamp"
echo "pulumi-cli: built in $(( $(date +%s) - started )) s" >&2
echo "$root"
