// A host orchestrator whose body already is a comm-domain scope is skipped by the pass
// (idempotence, pass.md "Output invariants"); its plan is read back from the scopes so
// that a printed-and-reparsed program gives the same plan again.
#pragma once

#include <commscope/analysis/collect.hpp>
#include <commscope/concepts.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <functional>
#include <utility>

namespace commscope::analysis {

/// The body's only statement, if it is a scope.
template <class Traits>
constexpr std::optional<typename Traits::statement> sole_scope(auto&& statements) {
  std::optional<typename Traits::statement> only;
  std::size_t n = 0;
  for (auto&& s : statements) {
    if (++n > 1)
      return std::nullopt;
    only = s;
  }
  if (only && Traits::statement_kind_of(*only) == statement_kind::scope)
    return only;
  return std::nullopt;
}

template <class Traits>
constexpr bool is_materialized(typename Traits::function f) {
  return sole_scope<Traits>(Traits::body(f)).has_value();
}

/// Reads the scope chain (outermost first) into domains and allocations, and the
/// variables whose type points at a window buffer into views.
template <class Traits>
constexpr void read_back(typename Traits::function f, function_plan<Traits>& fp) {
  using storage = storage_t<Traits>;
  using window_buffer = typename Traits::window_buffer;
  typename storage::template vector<std::pair<window_buffer, std::uint32_t>> index;
  auto scope = sole_scope<Traits>(Traits::body(f));
  typename Traits::statement innermost = *scope;
  while (scope) {
    const typename Traits::statement s = *scope;
    innermost = s;
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
      dom.slots.push_back(a);
      index.push_back({w, a});
    }
    scope = sole_scope<Traits>(Traits::children(s));
  }
  std::sort(index.begin(), index.end(), [](const auto& a, const auto& b) {
    return std::less<window_buffer>{}(a.first, b.first);
  });
  // Views: every variable an assignment binds whose type points at a window buffer.
  typename storage::template vector<typename Traits::statement> stack;
  for (auto&& s : Traits::children(innermost))
    stack.push_back(s);
  std::reverse(stack.begin(), stack.end());
  typename storage::template vector<typename Traits::statement> scratch;
  while (!stack.empty()) {
    const auto s = stack.back();
    stack.pop_back();
    if (Traits::statement_kind_of(s) == statement_kind::assignment)
      for (auto&& v : Traits::targets(s)) {
        const window_buffer w = Traits::view_window_buffer(v);
        if (w == window_buffer{})
          continue;
        auto it = std::lower_bound(index.begin(), index.end(), w, [](const auto& e, const auto& k) {
          return std::less<window_buffer>{}(e.first, k);
        });
        const auto a = it != index.end() && it->first == w ? it->second : no_index;
        const auto vi = static_cast<std::uint32_t>(fp.views.size());
        fp.views.push_back({v, a});
        if (a != no_index)
          fp.allocations[a].views.push_back(vi);
      }
    scratch.clear();
    for (auto&& c : Traits::children(s))
      scratch.push_back(c);
    for (auto i = scratch.size(); i-- > 0;)
      stack.push_back(scratch[i]);
  }
}

} // namespace commscope::analysis
