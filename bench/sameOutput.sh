#!/bin/bash
# Behaviour kept across a performance change (issue 13): `simulate FILE --json` and `plan FILE --json`
# print the same bytes (and the same stderr and exit code) with two builds, for every scenario file of
# the project and any extra files given (e.g. generated ones: node .build/bench/writeScenario.js ...).
#
#   bench/sameOutput.sh OLD_DIST NEW_DIST [EXTRA_FILE...]
#   e.g. bench/sameOutput.sh /work/main/dist dist /tmp/wide-3000-windows.json
set -u
old=$1 new=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
differ=0
count=0
for file in "$here"/examples/scenarios/*.yaml "$here"/test/scenarios/* "$here"/examples/demo/scenario.yaml "$here"/examples/promotion/scenario.yaml "$@"; do
  [ -f "$file" ] || continue
  for command in simulate plan; do
    for build in old new; do
      dist=$old
      [ $build = new ] && dist=$new
      node "$dist/cli/main.js" $command "$file" --json >"$out/$build.out" 2>"$out/$build.err"
      echo "exit $?" >>"$out/$build.err"
    done
    count=$((count + 1))
    if ! cmp -s "$out/old.out" "$out/new.out" || ! cmp -s "$out/old.err" "$out/new.err"; then
      echo "DIFFERENT: $command $file"
      differ=1
    fi
  done
done
echo "$count outputs compared; $([ $differ = 0 ] && echo 'all the same' || echo 'some differ')"
exit $differ
