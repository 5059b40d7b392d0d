#!/usr/bin/env bash
# Compile-time cost of the library: wall and user time to compile, with g++ 12 at -O2,
# (1) a TU that instantiates the full pass for the reference IR and nothing else
# (compile_time/reference_pass.cpp; its program is built in compile_time/program.cpp),
# (2) that program's TU, the reference IR's checked builder, (3) the TU of the
# compile-time test table, where the compiler runs the pass on every case, and (4) the
# compile-time builder alone (its Hana headers included). Best of N runs, since the
# machine may be shared.
#
# The full pass is also measured against (5) a TU with the same includes that
# instantiates nothing (compile_time/headers_only.cpp): the ratio of the two is what
# instantiating the pass costs over reading its headers. Last, the functions g++ generates
# for the full pass at -O0 are counted, as the compile_cost test does, and at -O2 with the
# bytes of code, header-only and with the separate core.
#
# The same two probes are measured with the separately compiled core
# (COMMSCOPE_SEPARATE_COMPILATION: commscope::separate), with their ratio, and the core's
# own TU, which a program compiles once whatever its number of adapters and pass TUs.
#
# Before and after: the same probe sources are compiled against the headers of this
# tree and against those of the git ref BEFORE (its include/ and tests/compile_time/,
# read with git archive), run for run interleaved so that load from elsewhere hits both
# alike. BEFORE defaults to 38ecf20, the last tree before the analysis' arrays moved to
# detail::vec; BEFORE= (empty) measures this tree alone.
#
# With INSTRUCTIONS=1, last, the instructions the compiler proper (cc1plus) executes for
# the separate core's two probes, and their ratio, under valgrind's callgrind: a count
# that does not move with the machine's load, where the times above do (about 5 minutes;
# against BEFORE too when it is set, two compilations at a time).
#
#   benchmarks/compile_time.sh [runs=3]       CXX=clang++-19 to measure another compiler
#   BEFORE=main benchmarks/compile_time.sh 5
#   INSTRUCTIONS=1 BEFORE= benchmarks/compile_time.sh 1
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cxx="${CXX:-g++-12}"
command -v "$cxx" >/dev/null || cxx=g++
runs="${1:-3}"
before="${BEFORE-38ecf20}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

trees=(after)
declare -A include_dir=([after]="$root")
if [ -n "$before" ]; then
  mkdir -p "$out/before"
  git -C "$root" archive "$before" include tests/compile_time | tar -x -C "$out/before"
  trees=(before after)
  include_dir[before]="$out/before"
fi

printf '#include <commscope/compile_time/builder.hpp>\nint main() {}\n' > "$out/builder_only.cpp"

# The probe must still build and run cleanly: a probe that stopped instantiating the
# pass would measure nothing.
"$cxx" -std=c++20 -O0 -I"$root/include" "$root/benchmarks/compile_time/reference_pass.cpp" \
  "$root/benchmarks/compile_time/program.cpp" -o "$out/probe"
"$out/probe" >/dev/null
# And with the separately compiled core: the pass TU, its program and the core's TU.
printf '#include <commscope/separate_compilation.hpp>\n' > "$out/separate_core.cpp"
"$cxx" -std=c++20 -O0 -DCOMMSCOPE_SEPARATE_COMPILATION -I"$root/include" \
  "$root/benchmarks/compile_time/reference_pass.cpp" "$root/benchmarks/compile_time/program.cpp" \
  "$out/separate_core.cpp" -o "$out/probe_separate"
"$out/probe_separate" >/dev/null

declare -A last_user=()
measure() { # name source [flags] [after-only]
  local -A best_wall=() best_user=()
  local measured=("${trees[@]}")
  [ -n "${4:-}" ] && measured=(after)
  for _ in $(seq "$runs"); do
    for tree in "${measured[@]}"; do
      local base="${include_dir[$tree]}"
      # shellcheck disable=SC2086 # flags: words
      if ! /usr/bin/time -f '%e %U' -o "$out/time" "$cxx" -std=c++20 -O2 ${3:-} -I"$base/include" \
           -I"$base/tests/compile_time" -c "$2" -o "$out/probe.o" 2> "$out/log"; then
        echo "$1 ($tree): does not compile:" >&2
        cat "$out/log" >&2
        exit 1
      fi
      local t wall user
      t=$(tail -1 "$out/time")
      wall=${t% *}
      user=${t#* }
      if [ -z "${best_wall[$tree]:-}" ] || awk "BEGIN{exit !($wall < ${best_wall[$tree]})}"; then
        best_wall[$tree]=$wall
      fi
      if [ -z "${best_user[$tree]:-}" ] || awk "BEGIN{exit !($user < ${best_user[$tree]})}"; then
        best_user[$tree]=$user
      fi
    done
  done
  last_user[$1]=${best_user[after]}
  if [ -n "$before" ] && [ -z "${4:-}" ]; then
    printf '%-40s user %6.2f s -> %6.2f s   wall %6.2f s -> %6.2f s\n' "$1" \
      "${best_user[before]}" "${best_user[after]}" "${best_wall[before]}" "${best_wall[after]}"
  else
    printf '%-40s user %6.2f s   wall %6.2f s\n' "$1" "${best_user[after]}" "${best_wall[after]}"
  fi
}

echo "compiler: $("$cxx" --version | head -1), -O2, best of $runs${before:+, headers of $before -> this tree}"
measure "full pass, reference IR" "$root/benchmarks/compile_time/reference_pass.cpp"
measure "same headers, nothing instantiated" "$root/benchmarks/compile_time/headers_only.cpp"
awk -v full="${last_user[full pass, reference IR]}" \
  -v headers="${last_user[same headers, nothing instantiated]}" \
  'BEGIN { printf "%-40s %.2f (user time, this tree)\n", "full pass / headers only", full / headers }'
# The separately compiled core (commscope::separate): the pass TU calls the IR-independent
# code that one other TU of the program compiles once. Against an earlier tree, whose
# headers ignore the definition, the first line measures the header-only pass again.
sep=-DCOMMSCOPE_SEPARATE_COMPILATION
measure "full pass, separate core" "$root/benchmarks/compile_time/reference_pass.cpp" "$sep"
measure "same headers, separate core" "$root/benchmarks/compile_time/headers_only.cpp" "$sep"
awk -v full="${last_user[full pass, separate core]}" \
  -v headers="${last_user[same headers, separate core]}" \
  'BEGIN { printf "%-40s %.2f (user time, this tree)\n", "full pass / headers only, separate core", full / headers }'
measure "the separate core's own TU (once)" "$out/separate_core.cpp" "$sep" after-only
measure "the probe's program (reference builder)" "$root/benchmarks/compile_time/program.cpp"
cases=$(grep -c '^inline constexpr test_case' "$root/tests/compile_time/cases.hpp")
measure "compile-time table ($cases cases)" "$root/benchmarks/compile_time/table.cpp"
measure "compile-time builder header alone" "$out/builder_only.cpp"
"$cxx" -std=c++20 -O0 -I"$root/include" -c "$root/benchmarks/compile_time/reference_pass.cpp" \
  -o "$out/count.o"
printf '%-40s %d (-O0, defined code symbols)\n' "functions generated, full pass" \
  "$(nm --defined-only "$out/count.o" | grep -c ' [TtWw] ')"
# At -O0 the separate core's pass TU still emits the inline definitions that constant
# evaluation needs: the two builds are compared at -O2, functions and bytes of code.
for build in header-only separate; do
  flags=()
  [ "$build" = separate ] && flags=("$sep")
  "$cxx" -std=c++20 -O2 "${flags[@]}" -I"$root/include" \
    -c "$root/benchmarks/compile_time/reference_pass.cpp" -o "$out/count.o"
  printf '%-40s %d functions, %d bytes of code and constants (-O2)\n' "full pass, $build" \
    "$(nm --defined-only "$out/count.o" | grep -c ' [TtWw] ')" \
    "$(size "$out/count.o" | awk 'NR == 2 { print $1 }')"
done

[ "${INSTRUCTIONS:-0}" = 1 ] || exit 0
command -v valgrind >/dev/null || { echo "INSTRUCTIONS=1 needs valgrind" >&2; exit 2; }
# shellcheck source=SCRIPTDIR/cc1plus_instructions.sh
source "$root/benchmarks/cc1plus_instructions.sh"
instructions() { # tree source output -> millions of cc1plus instructions, in output
  cc1plus_instructions "$out" "$3" "$cxx" -std=c++20 -O2 "$sep" -I"${include_dir[$1]}/include" \
    -c "$2"
}
for tree in "${trees[@]}"; do
  instructions "$tree" "$root/benchmarks/compile_time/reference_pass.cpp" "$out/$tree.full" &
  instructions "$tree" "$root/benchmarks/compile_time/headers_only.cpp" "$out/$tree.headers" &
  wait
done
for tree in "${trees[@]}"; do
  awk -v tree="$tree" -v full="$(cat "$out/$tree.full")" -v headers="$(cat "$out/$tree.headers")" \
    'BEGIN { printf "%-40s %6d M / %6d M = %.2f (cc1plus instructions, %s)\n",
             "full pass / headers only, separate core", full, headers, full / headers, tree }'
done
