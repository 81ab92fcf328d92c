#!/usr/bin/env bash
# Issue 31: a real Prometheus server for the tests (test/prometheus/, test/e2e/), cached outside the
# repo like the Pulumi CLI, and prints the path of the `prometheus` binary.
#
# Why Debian's package: it is one download of a prebuilt, statically linked Go binary (Prometheus
# 2.42.0 on bookworm), taken with `apt-get download` and unpacked with `dpkg -x` into the cache — no
# service installed, nothing started, no root-owned files outside the cache. `go install
# github.com/prometheus/prometheus/cmd/prometheus@v0.316.0` works too, but builds several hundred
# modules (many minutes on 2 cores); the tests need only Prometheus' HTTP query API, which both have.
#
# The cache is $PROMETHEUS_CACHE, default ~/.cache/pulumi-fleet-update, shared with the Pulumi CLI.
#
# Exit codes: 0 ready (the binary's path on stdout); 3 it cannot be had here (no apt, or the package
# cannot be downloaded: one line on stderr, the tests then skip, saying so); 1 something else failed.
set -euo pipefail

cache="${PROMETHEUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-fleet-update}"
dir="$cache/prometheus"
bin="$dir/bin/prometheus"

ready() { [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; }

if ready; then
  echo "$bin"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
  echo "prometheus: apt-get and dpkg are not here, so Debian's prometheus package cannot be had (the real-Prometheus tests need it)" >&2
  exit 3
fi

mkdir -p "$dir"
# Test files start in parallel and may all ask at once: one downloads, the others wait for it.
exec 9>"$dir/.lock"
flock 9
if ready; then
  echo "$bin"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
download() { (cd "$work" && apt-get download -qq prometheus >/dev/null 2>&1); }
if ! download; then
  # A machine whose package lists were never fetched finds nothing: fetch them once, then try again.
  apt-get update -qq >/dev/null 2>&1 || true
  if ! download; then
    echo "prometheus: Debian's prometheus package could not be downloaded (apt-get download prometheus)" >&2
    exit 3
  fi
fi
deb="$(ls "$work"/prometheus_*.deb | head -1)"
dpkg -x "$deb" "$work/x"
mkdir -p "$dir/bin"
cp "$work/x/usr/bin/prometheus" "$bin.partial"
mv "$bin.partial" "$bin"
echo "prometheus: $(basename "$deb") unpacked into $dir" >&2
if ! ready; then
  echo "prometheus: the unpacked binary does not run" >&2
  exit 1
fi
echo "$bin"
