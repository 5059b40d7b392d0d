// Step 9 of pass.md: allocations with equal merged descriptors share a domain; domains
// are numbered by their first allocation, slots keep allocation order.
//
// Clustering sorts (descriptor, allocation) pairs once instead of looking each allocation
// up in a map of domains: O(A log A) comparisons in all, no per-domain nodes, and it runs
// during constant evaluation as it does at run time.
#pragma once

#include <commscope/plan.hpp>

#include <algorithm>
#include <cstdint>

namespace commscope::analysis {

/// Fills `domains` and every allocation's `domain` from the allocations' devices.
/// Allocations whose devices are bottom belong to no domain.
template <class Traits>
constexpr void cluster(function_plan<Traits>& fp) {
  using storage = storage_t<Traits>;
  auto& allocs = fp.allocations;
  typename storage::template vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < allocs.size(); ++i)
    if (!allocs[i].devices.is_bottom())
      order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto c = allocs[a].devices <=> allocs[b].devices;
    return c != 0 ? c < 0 : a < b;
  });
  // Each run of equal descriptors is one domain; its leader is its first allocation.
  typename storage::template vector<std::uint32_t> leaders;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const bool starts = i == 0 || allocs[order[i - 1]].devices != allocs[order[i]].devices;
    if (starts)
      leaders.push_back(order[i]);
    allocs[order[i]].domain = static_cast<std::uint32_t>(leaders.size() - 1);
  }
  // Renumber domains by their leader's position: first declared, first domain.
  typename storage::template vector<std::uint32_t> by_leader(leaders.size());
  for (std::uint32_t d = 0; d < by_leader.size(); ++d)
    by_leader[d] = d;
  std::sort(by_leader.begin(), by_leader.end(),
            [&](std::uint32_t a, std::uint32_t b) { return leaders[a] < leaders[b]; });
  typename storage::template vector<std::uint32_t> rank(leaders.size());
  for (std::uint32_t r = 0; r < by_leader.size(); ++r)
    rank[by_leader[r]] = r;
  fp.domains.clear();
  fp.domains.resize(leaders.size());
  for (std::uint32_t r = 0; r < by_leader.size(); ++r)
    fp.domains[r].devices = allocs[leaders[by_leader[r]]].devices;
  for (std::uint32_t i = 0; i < allocs.size(); ++i)
    if (allocs[i].domain != no_index) {
      allocs[i].domain = rank[allocs[i].domain];
      fp.domains[allocs[i].domain].slots.push_back(i);
    }
}

} // namespace commscope::analysis
