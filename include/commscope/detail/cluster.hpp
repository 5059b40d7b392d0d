// Step 9 of docs/semantics.md: allocations with equal merged descriptors share a domain;
// domains are numbered by their first allocation, slots keep allocation order.
//
// One pass in allocation order with a hash table of domain leaders: the first allocation
// of a descriptor opens its domain, the others find it in O(1) expected (step 9 asks for
// logarithmic or better; sorting the allocations by descriptor costs A log A
// interval-list comparisons and grows with A). No per-domain nodes, and it runs during
// constant evaluation as it does at run time.
#pragma once

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/hash_index.hpp>
#include <commscope/plan.hpp>

#include <cstdint>
#include <vector>

namespace commscope::detail {

/// v.push_back(i), for the domains' slots: with the separately compiled core,
/// std::vector<std::uint32_t>'s growth is compiled there, once.
constexpr void append(std::vector<std::uint32_t>& v, std::uint32_t i) {
  COMMSCOPE_RUN_COMPILED(append(v, i));
  v.push_back(i);
}

/// Fills `domains` and every allocation's `domain` from the allocations' devices.
/// Allocations whose devices are bottom belong to no domain.
template <class Traits>
constexpr void cluster(function_plan<Traits>& fp, index_table& leaders) {
  auto& allocs = fp.allocations;
  fp.domains.clear();
  leaders.reset(16);                 // a program has few domains; the table grows if it has more
  std::uint32_t previous = no_index; // the last allocation given a domain
  for (std::uint32_t i = 0; i < allocs.size(); ++i) {
    auto& a = allocs[i];
    if (a.devices.is_bottom())
      continue;
    // Neighbouring allocations are often dispatched together: equal to the previous
    // one, the allocation joins its domain without hashing (its leader is in the table).
    if (previous != no_index && allocs[previous].devices == a.devices) {
      a.domain = allocs[previous].domain;
      append(fp.domains[a.domain].slots, i);
      previous = i;
      continue;
    }
    previous = i;
    const auto leader = leaders.find_or_insert(
        hash_of(a.devices), i, [&](std::uint32_t j) { return allocs[j].devices == a.devices; });
    if (leader == i) {
      a.domain = static_cast<std::uint32_t>(fp.domains.size());
      fp.domains.emplace_back();
      fp.domains.back().devices = a.devices;
    } else {
      a.domain = allocs[leader].domain;
    }
    append(fp.domains[a.domain].slots, i);
  }
}

} // namespace commscope::detail
