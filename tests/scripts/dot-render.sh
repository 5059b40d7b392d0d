#!/usr/bin/env bash
# Renders commscope-opt's --emit=dot pictures with Graphviz (Debian's graphviz, installed
# by .ci/setup): the built-in example's SVG must hold its domains, allocations and calls;
# every file of the corpus and of the CLI tests must render without a warning; the CLI
# test of pictures must show a rejected program's allocations beside its red diagnostic.
# usage: dot-render.sh COMMSCOPE_OPT SOURCE_DIR WORK_DIR
set -u
opt=$1 src=$2 work=$3
if ! command -v dot > /dev/null; then
  echo "SKIP: Graphviz's dot is not installed (.ci/setup installs the graphviz package)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
status=0
"$opt" --emit=dot > "$work/builtin.dot" || status=1
dot -Tsvg "$work/builtin.dot" -o "$work/builtin.svg" 2> "$work/builtin.log" || status=1
for name in '&lt;builtin&gt;' 'program Example' host_orch comm_d0 comm_d1 'devices: all' \
            'devices: [0, 1]' buf staging signal chip_orch allreduce '256 * 4' 'line 25'; do
  grep -qF -- "$name" "$work/builtin.svg" || { echo "FAIL: builtin.svg lacks '$name'" >&2; status=1; }
done
n=0
for f in "$src"/tests/corpus/*.py "$src"/tests/corpus/rejected/*.py "$src"/tests/cli/*.py; do
  k=$(basename "$f" .py)
  "$opt" --emit=dot "$f" > "$work/$k.dot" 2> /dev/null
  if ! dot -Tsvg "$work/$k.dot" -o "$work/$k.svg" 2> "$work/$k.log" || [ -s "$work/$k.log" ] ||
     ! grep -q '<svg' "$work/$k.svg"; then
    echo "FAIL: $f does not render:" >&2
    cat "$work/$k.log" >&2
    status=1
  fi
  n=$((n + 1))
done
# emit_dot.py draws an edge to a whole domain's cluster and rejected programs (SVG text
# writes a hyphen as &#45;).
svg="$work/emit_dot.svg"
for name in 'no domains: rejected' lonely used 'has no window view [dead&#45;alloc]' \
            'allocation by shape needs' w1 w4 chip4; do
  grep -qF -- "$name" "$svg" || { echo "FAIL: emit_dot.svg lacks '$name'" >&2; status=1; }
done
grep -q 'stroke="red"' "$svg" || { echo "FAIL: emit_dot.svg has nothing red" >&2; status=1; }
echo "rendered $n pictures and the built-in example's"
exit $status
