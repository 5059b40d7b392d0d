# shellcheck shell=bash
# Sourced by the compile-time scripts: cc1plus_instructions WORK OUTPUT COMPILER ARGS...
# compiles under valgrind's callgrind (its files in a new directory below WORK, the
# object too) and writes to OUTPUT the millions of instructions that the compiler proper
# (cc1plus) executed, not the driver nor the assembler: a count that the machine's load
# does not move. On failure it prints the compiler's messages and writes no OUTPUT.
cc1plus_instructions() {
  local work=$1 output=$2 dir
  shift 2
  dir=$(mktemp -d "$work/cg.XXXXXX")
  valgrind --tool=callgrind --trace-children=yes --cache-sim=no --branch-sim=no \
    --callgrind-out-file="$dir/cg.%p" "$@" -o "$dir/probe.o" >/dev/null 2>"$dir/log" ||
    { cat "$dir/log" >&2; return 1; }
  awk '/^cmd:/ { cc1 = /cc1plus/ } /^summary:/ && cc1 { printf "%.0f\n", $2 / 1e6 }' "$dir"/cg.* > "$output"
}

# cc1plus_setup SCRIPT: for a script that only counts: the compiler in `cxx` (CXX, else
# g++-12, else g++) and, in `out`, a scratch directory removed on exit; SCRIPT is named
# when valgrind is missing.
cc1plus_setup() {
  # shellcheck disable=SC2034 # read by the sourcing script
  cxx="${CXX:-g++-12}"
  command -v "$cxx" >/dev/null || cxx=g++
  command -v valgrind >/dev/null || { echo "$1: needs valgrind" >&2; exit 2; }
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
}
