// Steps 7, 8 and 10 of docs/semantics.md through the adapter's rewrite hooks (traits.hpp,
// layer 3). All or nothing: the hooks are called only for a plan without diagnostics,
// which covers the whole program, so an IR that is mutated in place is never left
// half-changed.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/domain_name.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/plan.hpp>
#include <commscope/rewrite_result.hpp>
#include <commscope/traits.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope {

/// Writes the plan back into the IR through the traits object's rewrite hooks. Changes
/// nothing unless the plan has no diagnostics; functions without allocations and
/// functions already materialized are not touched.
template <class Program, class Traits>
constexpr rewrite_result materialize(Program& p, const plan<plan_traits<Traits>>& pl,
                                     const Traits& traits) {
  if constexpr (!materializable_ir<Traits>) {
    diagnose_rewrite<Traits>();
    return rewrite_result::rejected;
  } else {
    using window_buffer = typename Traits::window_buffer;
    if (!pl.ok())
      return rewrite_result::rejected;
    bool any = false;
    for (const auto& fp : pl.functions)
      any = any || (fp.status == function_plan<Traits>::state::analyzed);
    if (!any)
      return rewrite_result::unchanged;
    const detail::adapter<Traits> a(traits);
    auto rw = a.begin_rewrite(p);
    detail::vec<window_buffer> buffers;
    detail::vec<window_buffer> slots;
    detail::vec<std::int64_t> devices;
    detail::vec<device_progression> progressions;
    detail::vec<detail::domain_name> names;
    detail::vec<scope_spec<Traits>> scopes;
    for (const auto& fp : pl.functions) {
      if (fp.status != function_plan<Traits>::state::analyzed)
        continue;
      // Step 7: one object per allocation, shared by all of its views.
      buffers.clear();
      for (const auto& al : fp.allocations)
        buffers.push_back(a.make_window_buffer(
            rw, window_buffer_spec<Traits>{al.statement, al.where, al.base, al.size, al.name}));
      // Step 8.
      for (const auto& v : fp.views)
        a.retype_view(rw, view_spec<Traits>{v.statement, v.variable, buffers[v.allocation]});
      // Step 10: flatten slots and device lists first, then take spans into them.
      slots.clear();
      devices.clear();
      progressions.clear();
      names.clear();
      for (std::size_t d = 0; d < fp.domains.size(); ++d) {
        names.emplace_back(d);
        for (auto i : fp.domains[d].slots)
          slots.push_back(buffers[i]);
        fp.domains[d].devices.for_each([&](device_id id) { devices.push_back(id); });
        if constexpr (detail::adapter<Traits>::symbolic)
          if (fp.domains[d].devices.has_progressions())
            for (const device_progression pr : fp.domains[d].devices.progressions())
              progressions.push_back(pr);
      }
      scopes.clear();
      std::size_t slot_at = 0, device_at = 0, progression_at = 0;
      for (std::size_t d = 0; d < fp.domains.size(); ++d) {
        const auto& dom = fp.domains[d];
        const std::size_t ns = dom.slots.size();
        const std::size_t nd =
            dom.devices.is_all() ? 0 : static_cast<std::size_t>(dom.devices.size());
        const std::size_t np = dom.devices.progressions().size();
        scopes.push_back(
            {names[d].view(), std::span<const std::int64_t>(devices.data() + device_at, nd),
             std::span<const window_buffer>(slots.data() + slot_at, ns),
             std::span<const device_progression>(progressions.data() + progression_at, np)});
        slot_at += ns;
        device_at += nd;
        progression_at += np;
      }
      a.wrap_body(rw, fp.function,
                  std::span<const scope_spec<Traits>>(scopes.data(), scopes.size()));
    }
    a.commit(rw, p);
    return rewrite_result::rewritten;
  }
}

/// `materialize(p, pl, Traits{})`.
template <class Program, class Traits>
constexpr rewrite_result materialize(Program& p, const plan<Traits>& pl) {
  if constexpr (!materializable_ir<Traits>) {
    diagnose_rewrite<Traits>();
    return rewrite_result::rejected;
  } else if constexpr (!default_constructible_traits<Traits>) {
    diagnose_default_traits<Traits>();
    return rewrite_result::rejected;
  } else {
    return materialize(p, pl, Traits{});
  }
}

} // namespace commscope

// `run`, for code that includes this header for it.
#include <commscope/run.hpp>
