#!/usr/bin/env bash
# Runs the `// RUN:` lines of one .mlir test, lit-style, each with bash -o pipefail.
# usage: run-test.sh COMMSCOPE_MLIR_OPT FILECHECK NOT TEST_FILE WORK_DIR
# Substitutions: %opt (commscope-mlir-opt), %FileCheck, %not (llvm's `not`),
# %s (the test file), %t (a scratch path prefix for this test).
set -u
opt=$1 filecheck=$2 not=$3 test=$4 work=$5
name=$(basename "$test" .mlir)
mkdir -p "$work"
tmp="$work/$name.tmp"
rm -rf "$tmp"*

n=0
while IFS= read -r line; do
  cmd=${line#*// RUN: }
  cmd=${cmd//%opt/$opt}
  cmd=${cmd//%FileCheck/$filecheck}
  cmd=${cmd//%not/$not}
  cmd=${cmd//%s/$test}
  cmd=${cmd//%t/$tmp}
  n=$((n + 1))
  echo "RUN[$n]: $cmd"
  if ! (cd "$work" && bash -o pipefail -c "$cmd"); then
    echo "FAILED: RUN line $n of $test" >&2
    exit 1
  fi
done < <(LC_ALL=C grep -a '// RUN: ' "$test")
if [ "$n" -eq 0 ]; then
  echo "no RUN lines in $test" >&2
  exit 1
fi
echo "PASSED: $n RUN lines"
