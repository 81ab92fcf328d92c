#!/usr/bin/env bash
# A Python virtual environment with Pulumi's Python SDK from PyPI, at the version of the CLI the tests
# use, for building and loading the generated Python SDK (test/e2e/sdks.e2e.test.ts). Made once per
# version outside the repo, beside the CLI's cache; prints the environment's python.
#
# What is installed: `pulumi` (the SDK the generated package imports), `parver` (which the generated
# package's _utilities.py imports beside pulumi's own `semver`), `wheel` and `setuptools` (for `pip
# install --no-build-isolation` of the generated pyproject.toml, without fetching a build environment
# each time), and `build` (`python -m build --no-isolation`: the wheel and sdist of
# `npm run release:build`, issue 33).
# Exit codes: 0 ready (the python path on stdout); 3 no python3 here; 1 the install failed (pip's error).
set -euo pipefail

PULUMI_PY_VERSION="3.248.0"   # the Python SDK of the CLI's release (scripts/pulumi-cli.sh)
cache="${PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-fleet-update}"
REQUIREMENTS=("pulumi==$PULUMI_PY_VERSION" "parver==1.0.1.post0" "wheel==0.45.1" "setuptools==80.9.0" "build==1.3.0")
# Another list of requirements makes another environment beside this one (its folder names the list),
# so checkouts with different lists never remove each other's.
venv="$cache/python-pulumi-$PULUMI_PY_VERSION-$(printf '%s\n' "${REQUIREMENTS[@]}" | sha256sum | cut -c1-12)"
stamp="$venv/.ready"

if [ -e "$stamp" ]; then
  echo "$venv/bin/python"
  exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "python-pulumi: python3 is not installed, so the Python SDK cannot be built here" >&2
  exit 3
fi

mkdir -p "$cache"
exec 9>"$cache/.python-pulumi-lock"
flock 9
if [ -e "$stamp" ]; then
  echo "$venv/bin/python"
  exit 0
fi
started=$(date +%s)
echo "python-pulumi: installing pulumi==$PULUMI_PY_VERSION from PyPI into $venv (first run only)..." >&2
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${REQUIREMENTS[@]}" >&2
touch "$stamp"
echo "python-pulumi: ready in $(( $(date +%s) - started )) s" >&2
echo "$venv/bin/python"
