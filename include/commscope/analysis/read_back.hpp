// A host orchestrator that already holds comm-domain scopes is not wrapped again
// (idempotence, pass.md "Output invariants"): its plan is read back from the scopes, so
// that a printed-and-reparsed program gives the same plan again, and an allocation never
// ends up a slot of two scopes.
#pragma once

#include <commscope/concepts.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

namespace commscope::analysis {

/// The fast check before any walk: the body's only statement is a scope.
template <class Traits>
constexpr bool is_materialized(typename Traits::function f) {
  std::optional<typename Traits::statement> only;
  std::size_t n = 0;
  for (auto&& s : Traits::body(f)) {
    if (++n > 1)
      return false;
    only = s;
  }
  return only && Traits::statement_kind_of(*only) == statement_kind::scope;
}

/// Every scope of the body (in walk order: outermost first) becomes a domain, its slots
/// allocations; every variable an assignment binds whose type points at a window buffer
/// becomes a view.
template <class Traits>
constexpr void read_back(typename Traits::function f, function_plan<Traits>& fp) {
  using storage = storage_t<Traits>;
  using window_buffer = typename Traits::window_buffer;
  using statement = typename Traits::statement;
  fp.allocations.clear();
  fp.views.clear();
  fp.domains.clear();
  typename storage::template vector<std::pair<window_buffer, std::uint32_t>> index;
  typename storage::template vector<std::pair<typename Traits::variable, window_buffer>> views;
  typename storage::template vector<statement> stack;
  const auto push_children = [&](auto&& range) {
    const auto mark = stack.size();
    for (auto&& c : range)
      stack.push_back(c);
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  };
  push_children(Traits::body(f));
  while (!stack.empty()) {
    const statement s = stack.back();
    stack.pop_back();
    const auto kind = Traits::statement_kind_of(s);
    if (kind == statement_kind::scope) {
      const auto d = static_cast<std::uint32_t>(fp.domains.size());
      fp.domains.emplace_back();
      auto& dom = fp.domains.back();
      dom.name = Traits::scope_name(s);
      typename device_set<storage>::builder devices;
      bool any = false;
      for (auto id : Traits::scope_devices(s)) {
        devices.add(device_interval{id, id});
        any = true;
      }
      if (!any)
        devices.add_all();
      dom.devices = devices.finish();
      for (auto&& w : Traits::scope_slots(s)) {
        if (w == window_buffer{})
          continue; // a null slot: the verifier reports it
        const auto a = static_cast<std::uint32_t>(fp.allocations.size());
        allocation<Traits> alloc;
        alloc.base = Traits::window_buffer_base(w);
        alloc.size = Traits::window_buffer_size(w);
        alloc.name = Traits::window_buffer_name(w);
        alloc.where = Traits::statement_location(s);
        alloc.devices = dom.devices;
        alloc.domain = d;
        alloc.existing = w;
        fp.allocations.push_back(std::move(alloc));
        fp.domains[d].slots.push_back(a);
        index.push_back({w, a});
      }
    } else if (kind == statement_kind::assignment) {
      for (auto&& v : Traits::targets(s)) {
        const window_buffer w = Traits::view_window_buffer(v);
        if (w != window_buffer{})
          views.push_back({v, w});
      }
    }
    push_children(Traits::children(s));
  }
  // The first scope that lists a window buffer owns it (the verifier reports others).
  std::sort(index.begin(), index.end(), [](const auto& a, const auto& b) {
    if (std::less<window_buffer>{}(a.first, b.first))
      return true;
    if (std::less<window_buffer>{}(b.first, a.first))
      return false;
    return a.second < b.second;
  });
  for (const auto& [v, w] : views) {
    auto it = std::lower_bound(index.begin(), index.end(), w, [](const auto& e, const auto& k) {
      return std::less<window_buffer>{}(e.first, k);
    });
    const auto a = it != index.end() && it->first == w ? it->second : no_index;
    const auto vi = static_cast<std::uint32_t>(fp.views.size());
    fp.views.push_back({v, a});
    if (a != no_index)
      fp.allocations[a].views.push_back(vi);
  }
}

} // namespace commscope::analysis
