// The plan's per-allocation view lists (plan.hpp, allocation::first_view), threaded once
// the views are known: by the analysis and by the read-back of a materialized function.
#pragma once

#include <commscope/plan.hpp>

#include <cstdint>

namespace commscope::detail {

/// Threads every allocation's list through the views (allocation::first_view,
/// view::next), in source order: the views are walked backwards, each put first. Out of
/// line: once per function.
template <class Traits> [[gnu::noinline]] constexpr void link_views(function_plan<Traits>& fp) {
  for (auto& a : fp.allocations) {
    a.first_view = no_index;
    a.view_count = 0;
  }
  for (auto v = static_cast<std::uint32_t>(fp.views.size()); v-- > 0;) {
    auto& w = fp.views[v];
    if (w.allocation == no_index)
      continue;
    auto& a = fp.allocations[w.allocation];
    w.next = a.first_view;
    a.first_view = v;
    ++a.view_count;
  }
}

} // namespace commscope::detail
