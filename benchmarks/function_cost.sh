#!/usr/bin/env bash
# What one instantiated function costs g++: the instructions its compiler proper
# (cc1plus) executes, under valgrind's callgrind, for small generated probes that
# instantiate N element types of a container against the same probe with none:
#
#   std::vector               reserved and pushed to, then destroyed
#   detail::trivial_vector    appended to and destroyed
#   the same, and six one-line accessors of each (size, [], back, begin, end, empty),
#                             at -O2 and with -fsyntax-only (the front end alone)
#
# The difference per type and per accessor is what the pass TU pays for every distinct
# function it instantiates (docs/benchmarks.md, "What one function costs g++"). A count
# that the machine's load does not move. A few minutes on 2 cores.
#
#   benchmarks/function_cost.sh         N=20 element types
#   N=40 benchmarks/function_cost.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=SCRIPTDIR/cc1plus_instructions.sh
source "$root/benchmarks/cc1plus_instructions.sh"
cc1plus_setup function_cost.sh
n="${N:-20}"

# probe NAME TYPES BODY: a TU with TYPES element types, BODY run on a container `v` of each
# (X names the element type).
probe() {
  {
    printf '#include <commscope/detail/vector.hpp>\n#include <cstdint>\n#include <vector>\n'
    for ((i = 0; i < $2; i++)); do printf 'struct T%d { std::uint32_t a, b; };\n' "$i"; done
    printf 'int main(int argc, char**) {\n  std::size_t s = static_cast<std::size_t>(argc);\n'
    for ((i = 0; i < $2; i++)); do printf '  { using X = T%d; %s }\n' "$i" "$3"; done
    printf '  return static_cast<int>(s);\n}\n'
  } > "$out/$1.cpp"
}
std_vector='std::vector<X> v; v.reserve(s); v.push_back(X{1u, 2u}); s += v.size();'
trivial='commscope::detail::trivial_vector<X> v; v.emplace_back(X{1u, 2u}); s += 1;'
accessors='commscope::detail::trivial_vector<X> v; v.emplace_back(X{1u, 2u});
  s += v.size() + v[0].a + v.back().b + (v.begin() != v.end()) + v.empty();'
probe none 0 ''
probe std_vector "$n" "$std_vector"
probe trivial "$n" "$trivial"
probe accessors "$n" "$accessors"

count() { # probe output [flags]
  # shellcheck disable=SC2086 # flags: words
  cc1plus_instructions "$out" "$2" "$cxx" -std=c++20 -O2 ${3:-} -I"$root/include" -c "$out/$1.cpp"
}
jobs_=("none none" "std_vector std_vector" "trivial trivial" "accessors accessors"
  "trivial trivial_syntax -fsyntax-only" "accessors accessors_syntax -fsyntax-only")
running=0
for j in "${jobs_[@]}"; do
  read -r source name flags <<< "$j"
  count "$source" "$out/$name.count" "${flags:-}" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait
c() { cat "$out/$1.count"; }

printf 'cc1plus instructions, %s -O2, %d element types (millions)\n' \
  "$("$cxx" -dumpfullversion)" "$n"
awk -v n="$n" -v none="$(c none)" -v sv="$(c std_vector)" -v tv="$(c trivial)" \
  -v ac="$(c accessors)" -v tvs="$(c trivial_syntax)" -v acs="$(c accessors_syntax)" 'BEGIN {
  printf "%-58s %7d\n", "none of them", none
  printf "%-58s %+7d  %6.1f a type\n", "std::vector, reserved and pushed to", sv - none, (sv - none) / n
  printf "%-58s %+7d  %6.1f a type\n", "trivial_vector, appended to and destroyed", tv - none, (tv - none) / n
  printf "%-58s %+7d  %6.1f an accessor\n", "and six one-line accessors of each", ac - tv, (ac - tv) / (6 * n)
  printf "%-58s %+7d  %6.1f an accessor\n", "of those, the front end alone (-fsyntax-only)", acs - tvs, (acs - tvs) / (6 * n)
}'
