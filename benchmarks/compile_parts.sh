#!/usr/bin/env bash
# What each part of the analysis costs the compiler: the instructions g++ 12's compiler
# proper (cc1plus) executes, under valgrind's callgrind, for the separate core's pass TU
# of the reference IR, cut down to `analyze` alone (compile_time/analyze_pass.cpp) and
# then, in a copy of the headers, with one part of the analysis removed at a time (its
# call deleted: what only that part calls goes with it). A count that the machine's load
# does not move. The copies do not run; they only compile.
#
#   benchmarks/compile_parts.sh         about 8 minutes on 2 cores
#
# Each part is cut by deleting one exact line of the headers; when the code moves and a
# line is not found, the script says which and stops, rather than measure a copy that
# was not cut.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=SCRIPTDIR/cc1plus_instructions.sh
source "$root/benchmarks/cc1plus_instructions.sh"
cc1plus_setup compile_parts.sh

# name | file under include/commscope/detail | the exact line cut | what replaces it (none:
# the line is deleted). The steps after the walk are cut by a return right before them,
# so that the walk stays.
parts=(
  "the walk (collector)|collect.hpp|    walker_.run(a_, a_.body(f), *this);|"
  "the steps after the walk|function_analysis.hpp|    vars_.end_walk();|    return;    vars_.end_walk();"
  "the read-back of materialized bodies|function_analysis.hpp|        read_back<Traits>(a_, f, fp);|"
  "the function analysis at all|function_analysis.hpp|      fa.run(f, fp, result.diagnostics);|"
)

copy() { # name -> a copy of include/ in $out/name
  mkdir -p "$out/$1"
  cp -r "$root/include" "$out/$1/"
}
cut_line() { # tree file line [replacement]
  local file="$out/$1/include/commscope/detail/$2"
  python3 - "$file" "$3" "${4-}" <<'PY'
import sys
path, line, replacement = sys.argv[1], sys.argv[2] + "\n", sys.argv[3]
text = open(path).read()
if text.count(line) != 1:
    sys.exit(f"compile_parts.sh: {path}: the line to cut is not there once: {line!r}")
open(path, "w").write(text.replace(line, replacement + ("\n" if replacement else ""), 1))
PY
}
count() { # tree source output [flags] -> millions of cc1plus instructions, in output
  # shellcheck disable=SC2086 # flags: words
  cc1plus_instructions "$out" "$3" "$cxx" -std=c++20 -O2 -DCOMMSCOPE_SEPARATE_COMPILATION -w \
    ${4:-} -I"$out/$1/include" -c "$2"
}

probe="$root/benchmarks/compile_time/analyze_pass.cpp"
headers="$root/benchmarks/compile_time/headers_only.cpp"
full="$root/benchmarks/compile_time/reference_pass.cpp"
copy whole
for i in "${!parts[@]}"; do
  IFS='|' read -r _ file line replacement <<< "${parts[$i]}"
  copy "part$i"
  cut_line "part$i" "$file" "$line" "$replacement"
done

jobs_=(
  "whole $headers headers"
  "whole $full full"
  "whole $probe analyze"
  "whole $headers headers_syntax -fsyntax-only"
  "whole $probe analyze_syntax -fsyntax-only"
)
for i in "${!parts[@]}"; do jobs_+=("part$i $probe part$i"); done
running=0
for j in "${jobs_[@]}"; do
  read -r tree source name flags <<< "$j"
  count "$tree" "$source" "$out/$name.count" "${flags:-}" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait

c() { cat "$out/$1.count"; }
printf 'cc1plus instructions, %s -O2, separate core (millions)\n' "$("$cxx" -dumpfullversion)"
printf '%-58s %8d\n' "headers alone (headers_only.cpp)" "$(c headers)"
printf '%-58s %8d  %.2fx headers\n' "full pass (reference_pass.cpp)" "$(c full)" \
  "$(awk -v a="$(c full)" -v b="$(c headers)" 'BEGIN { print a / b }')"
printf '%-58s %8d  +%d over headers\n' "analyze only (analyze_pass.cpp)" "$(c analyze)" \
  $(($(c analyze) - $(c headers)))
printf '%-58s %8d  +%d (front end: -fsyntax-only)\n' "analyze only, front end alone" \
  "$(c analyze_syntax)" $(($(c analyze_syntax) - $(c headers_syntax)))
for i in "${!parts[@]}"; do
  IFS='|' read -r name _ _ _ <<< "${parts[$i]}"
  printf '%-58s %8d  -%d\n' "analyze only, without $name" "$(c "part$i")" \
    $(($(c analyze) - $(c "part$i")))
done
