#!/usr/bin/env bash
# Counts the instructions the analysis and its traversal floor execute per allocation on
# the benchmarks' synthetic programs, in the reference IR and the index IR, under
# valgrind's callgrind (commscope_instructions: each measured call counted alone), and
# the analysis and the verifier on the program it materialized. A count does not move
# with the machine's load: one run tells what a change to the walk did, where the timed
# ratios (ratios.sh) need interleaved repetitions. It says nothing of memory stalls,
# which both sides share.
#
#   benchmarks/instructions.sh                   sizes 10000 100000
#   SIZES="1000 10000" BUILD_DIR=/tmp/b benchmarks/instructions.sh
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build-bench}
sizes=${SIZES:-"10000 100000"}
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt install valgrind)" >&2; exit 2; }

# shellcheck source=SCRIPTDIR/build_bench.sh
source "$src/benchmarks/build_bench.sh"
build_bench "$build" commscope_instructions

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # function size -> instructions of that function's one call
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" --collect-atstart=no \
    --toggle-collect="$1" "$build/benchmarks/commscope_instructions" "$2" >/dev/null 2>"$out/log" ||
    { cat "$out/log" >&2; exit 1; }
  awk '/^summary:/ {print $2}' "$out/cg"
}

printf 'instructions per allocation (callgrind; g++ -O2; one call each)\n'
printf '%11s | %-26s | %-26s\n' "" "reference IR" "index IR"
printf '%11s | %8s %8s %8s | %8s %8s %8s\n' allocations traverse analyze ratio traverse analyze ratio
materialized=""
for a in $sizes; do
  echo "counting size $a ..." >&2
  rt=$(count commscope_count_traverse "$a")
  ra=$(count commscope_count_analyze "$a")
  it=$(count commscope_count_index_traverse "$a")
  ia=$(count commscope_count_index_analyze "$a")
  awk -v a="$a" -v rt="$rt" -v ra="$ra" -v it="$it" -v ia="$ia" 'BEGIN {
    printf "%11s | %8.0f %8.0f %8.2f | %8.0f %8.0f %8.2f\n", a, rt / a, ra / a, ra / rt,
           it / a, ia / a, ia / it }'
  rm=$(count commscope_count_analyze_materialized "$a")
  rv=$(count commscope_count_verify "$a")
  materialized+=$(awk -v a="$a" -v ra="$ra" -v rm="$rm" -v rv="$rv" 'BEGIN {
    printf "%11s | %8.0f %12.0f %6.2f %8.0f %6.2f\n", a, ra / a, rm / a, rm / ra, rv / a, rv / ra }')$'\n'
done

# The pass on its own output (the reference IR): the analysis of the program run
# materialized, and the verifier on it, against the analysis of the source.
printf '\nthe pass on its own output, reference IR (per allocation; x: against analyze)\n'
printf '%11s | %8s %12s %6s %8s %6s\n' allocations analyze materialized x verify x
printf '%s' "$materialized"
