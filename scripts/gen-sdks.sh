#!/usr/bin/env bash
# Writes the `fleet-update` package's SDKs from schema.json with Pulumi's own code generators, at the
# version of the CLI the tests use (v3.248.0): `bash scripts/gen-sdks.sh [--schema FILE] [--out DIR]
# [LANGUAGE...]` writes DIR/<language> for each of nodejs, python and go (default: all three, into
# sdk/, which is committed: `npm run sdks` rewrites schema.json and then runs this; CI checks the
# result with scripts/check-sdks.js) and prints DIR.
#
# Why not `pulumi package gen-sdk schema.json --language <lang>`: at v3.248.0 that command hands the
# schema to the language's host plugin (`pulumi-language-<lang>`, its GeneratePackage call), and the
# module proxy serves neither Pulumi's Python nor its Go host, nor the Node host's generator (ours,
# tools/pulumi-cli/languagehost, only runs programs). tools/pulumi-cli/gensdk is a small program in the
# CLI's wrapper module that calls the same generators those hosts call (pkg/v3/codegen/{nodejs,python,
# go}) after binding the schema the way the CLI does. Where the hosts are installed — a normal Pulumi
# install — `pulumi package gen-sdk` writes the same SDKs (docs/provider-plugin.md).
#
# .NET: its generator moved out of pkg/v3 into github.com/pulumi/pulumi-dotnet, which the module proxy
# does not serve here, so no .NET SDK is written.
#
# The generator is built once (seconds, after scripts/pulumi-cli.sh filled Go's caches) into the CLI's
# cache folder and rebuilt when its source or go.sum changes.
# Exit codes as pulumi-cli.sh's: 0 written (DIR on stdout); 3 Go is not installed; 1 anything else.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/sdk"
schema="$here/schema.json"
languages=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --schema) schema="$2"; shift 2 ;;
    nodejs|python|go) languages+=("$1"); shift ;;
    dotnet) echo "gen-sdks: no .NET SDK: Pulumi's .NET generator (github.com/pulumi/pulumi-dotnet) is not served by the Go module proxy here" >&2; exit 1 ;;
    *) echo "gen-sdks: usage: gen-sdks.sh [--schema FILE] [--out DIR] [nodejs|python|go]..." >&2; exit 1 ;;
  esac
done
[ ${#languages[@]} -gt 0 ] || languages=(nodejs python go)

# The CLI's cache root (and the check that Go is here: exit 3 otherwise).
root="$(bash "$here/scripts/pulumi-cli.sh")"
gen="$root/bin/pulumi-gen-sdk"
stamp="$root/bin/.gen-sdk-$(cat "$here/tools/pulumi-cli/gensdk/main.go" "$here/tools/pulumi-cli/go.sum" | sha256sum | cut -c1-16)"
ready() { [ -x "$gen" ] && [ -e "$stamp" ]; }

if ! ready; then
  # Test files start in parallel and may all ask at once: one builds, the others wait for it.
  exec 9>"$root/.build-gen-sdk-lock"
  flock 9
  if ! ready; then
    echo "gen-sdks: building the SDK generator (tools/pulumi-cli/gensdk) into $root/bin..." >&2
    (
      cd "$here/tools/pulumi-cli"
      go build -trimpath -buildvcs=false -ldflags "-s -w" -o "$gen.partial" ./gensdk
    )
    mv "$gen.partial" "$gen"
    rm -f "$root"/bin/.gen-sdk-*
    touch "$stamp"
  fi
  exec 9>&-
fi

mkdir -p "$out"
for language in "${languages[@]}"; do
  "$gen" "$schema" --language "$language" --out "$out"
done
echo "$out"
