#!/usr/bin/env bash
# Runs the RUN lines of one test file, lit-style, each with bash -o pipefail; shared by
# the CLI examples (`# RUN:`) and the MLIR tests (`// RUN:`).
# usage: run-lit.sh TEST_FILE WORK_DIR [%NAME=VALUE ...]
# The given substitutions apply first, in order; then %s (the test file), %S (its
# folder) and %t (a scratch path prefix for this test).
set -u
test=$1 work=$2
shift 2
name=$(basename "$test")
name=${name%.*}
mkdir -p "$work"
tmp="$work/$name.tmp"
rm -rf "$tmp"*
dir=$(cd "$(dirname "$test")" && pwd)

n=0
while IFS= read -r line; do
  cmd=${line#*RUN: }
  for sub in "$@"; do
    cmd=${cmd//${sub%%=*}/${sub#*=}}
  done
  cmd=${cmd//%s/$test}
  cmd=${cmd//%S/$dir}
  cmd=${cmd//%t/$tmp}
  # `cmd | FileCheck ...; test ${PIPESTATUS[0]} -eq 2` checks cmd's status, and the line's
  # status is that test's alone: FileCheck's must count too, or its failure passes.
  cmd=${cmd//'; test ${PIPESTATUS['/'; s=("${PIPESTATUS[@]}"); test "${s[-1]}" -eq 0 && test ${s['}
  n=$((n + 1))
  echo "RUN[$n]: $cmd"
  if ! (cd "$work" && bash -o pipefail -c "$cmd"); then
    echo "FAILED: RUN line $n of $test" >&2
    exit 1
  fi
done < <(LC_ALL=C grep -aE '(#|//) RUN: ' "$test")
if [ "$n" -eq 0 ]; then
  echo "no RUN lines in $test" >&2
  exit 1
fi
echo "PASSED: $n RUN lines"
