#!/usr/bin/env bash
# Compile-time cost of the library: wall and user time to compile, with g++ 12
# at -O2, (1) a TU that instantiates the full pass for the reference IR, (2) the TU of the
# compile-time test table, where the compiler runs the pass on every case, and (3) the
# compile-time builder alone (its Hana headers included). Best of N runs, since the
# machine may be shared.
#
#   benchmarks/compile_time.sh [runs=3]       CXX=clang++-19 to measure another compiler
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cxx="${CXX:-g++-12}"
command -v "$cxx" >/dev/null || cxx=g++
runs="${1:-3}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
flags=(-std=c++20 -O2 -I"$root/include" -I"$root/tests/compile_time")

printf '#include <commscope/compile_time/builder.hpp>\nint main() {}\n' > "$out/builder_only.cpp"

measure() { # name source
  local best_wall="" best_user=""
  for _ in $(seq "$runs"); do
    if ! /usr/bin/time -f '%e %U' -o "$out/time" "$cxx" "${flags[@]}" -c "$2" -o "$out/probe.o" \
         2> "$out/log"; then
      echo "$1: does not compile:" >&2
      cat "$out/log" >&2
      exit 1
    fi
    local t wall user
    t=$(tail -1 "$out/time")
    wall=${t% *}
    user=${t#* }
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; fi
    if [ -z "$best_user" ] || awk "BEGIN{exit !($user < $best_user)}"; then best_user=$user; fi
  done
  printf '%-46s wall %6.2f s   user %6.2f s\n' "$1" "$best_wall" "$best_user"
}

echo "compiler: $("$cxx" --version | head -1), -O2, best of $runs"
measure "full pass, reference IR" "$root/benchmarks/compile_time/reference_pass.cpp"
cases=$(grep -c '^inline constexpr test_case' "$root/tests/compile_time/cases.hpp")
measure "compile-time table ($cases cases)" "$root/benchmarks/compile_time/table.cpp"
measure "compile-time builder header alone" "$out/builder_only.cpp"
