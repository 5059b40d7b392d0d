// The verifier of the property "comm-domain scopes materialized" (pass.md, "Verifier"),
// usable on any program through the scope readers of traits.hpp. It returns findings
// (code `verify`) in walk order; it never throws.
#pragma once

#include <commscope/concepts.hpp>
#include <commscope/diagnostics.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

namespace commscope {

namespace verify_ {
/// A variable's identity and its hash: the dense index when the adapter numbers
/// variables (usable in constant evaluation), else its key.
template <class Traits>
constexpr auto identity(typename Traits::variable v) {
  if constexpr (numbers_variables<Traits>)
    return static_cast<std::size_t>(Traits::variable_index(v));
  else
    return Traits::variable_key(v);
}
template <class Traits>
constexpr std::size_t hash(typename Traits::variable v) {
  if constexpr (numbers_variables<Traits>)
    return static_cast<std::size_t>(Traits::variable_index(v));
  else
    return std::hash<std::remove_cvref_t<decltype(Traits::variable_key(v))>>{}(Traits::variable_key(v));
}
} // namespace verify_

template <class Program, class Traits = ir_traits<Program>>
[[nodiscard]] constexpr auto verify(const Program& p) {
  if constexpr (!analysable_ir<Traits>) {
    diagnose_analysis<Traits>();
    return;
  } else {
    using storage = storage_t<Traits>;
    using window_buffer = typename Traits::window_buffer;
    using location = typename Traits::location;
    typename storage::template vector<diagnostic<location>> out;
    struct scope_entry {
      std::uint64_t begin, end;
      location where;
    };
    struct slot_entry {
      window_buffer w;
      std::uint32_t scope;
    };
    struct view_entry {
      window_buffer w;
      std::uint64_t at;
      location where;
    };
    using identity = decltype(verify_::identity<Traits>(std::declval<typename Traits::variable>()));
    struct base_entry { ///< an allocation, or the base of a slot
      std::size_t hash;
      identity id;
      std::uint32_t scope; ///< for a slot
      std::uint64_t at;    ///< for an allocation
      location where;
      std::string_view name;
    };
    typename storage::template vector<base_entry> allocations, bases;
    typename storage::template vector<scope_entry> scopes;
    typename storage::template vector<slot_entry> slots;
    typename storage::template vector<view_entry> views;
    struct item {
      typename Traits::statement s{};
      std::uint32_t closes = no_index; ///< a scope index to close, or no_index
    };
    typename storage::template vector<item> stack;
    typename storage::template vector<typename Traits::statement> scratch;
    std::uint64_t order = 0;
    auto report = [&](detail why, std::string_view subject, location where, std::uint64_t at) {
      out.push_back({error_code::verify, why, subject, 0, 0, where, at});
    };
    // Findings on a scope itself take the positions right after it, in check order.
    auto push_children = [&](auto&& range) {
      scratch.clear();
      for (auto&& c : range)
        scratch.push_back(c);
      for (auto i = scratch.size(); i-- > 0;)
        stack.push_back({scratch[i], no_index});
    };
    for (auto&& f : Traits::functions(p)) {
      const bool host = Traits::describe(f).is_host_orchestrator();
      const auto first_scope = scopes.size();
      const auto first_allocation = allocations.size();
      push_children(Traits::body(f));
      while (!stack.empty()) {
        const item it = stack.back();
        stack.pop_back();
        if (it.closes != no_index) {
          scopes[it.closes].end = ++order;
          continue;
        }
        const auto s = it.s;
        const std::uint64_t at = ++order;
        const auto kind = Traits::statement_kind_of(s);
        if (kind == statement_kind::scope) {
          const auto name = Traits::scope_name(s);
          const auto where = Traits::statement_location(s);
          const auto idx = static_cast<std::uint32_t>(scopes.size());
          scopes.push_back({at, 0, where});
          std::size_t n = 0;
          bool null_reported = false;
          for (auto&& w : Traits::scope_slots(s)) {
            ++n;
            if (w == window_buffer{}) {
              if (!null_reported)
                report(detail::null_slot, name, where, ++order);
              null_reported = true;
            } else {
              slots.push_back({w, idx});
            }
          }
          if (n == 0)
            report(detail::empty_scope, name, where, ++order);
          bool first = true, ordered = true;
          std::int64_t prev = 0;
          for (auto d : Traits::scope_devices(s)) {
            if (d < 0 || (!first && d <= prev))
              ordered = false;
            prev = d;
            first = false;
          }
          if (!ordered)
            report(detail::unsorted_devices, name, where, ++order);
          stack.push_back({s, idx});
        } else if (kind == statement_kind::assignment) {
          bool first_target = true;
          for (auto&& v : Traits::targets(s)) {
            const window_buffer w = Traits::view_window_buffer(v);
            if (w != window_buffer{})
              views.push_back({w, at, Traits::statement_location(s)});
            if (host && first_target) {
              const auto e = Traits::value(s);
              if (Traits::expression_kind_of(e) == expression_kind::call) {
                const call_target t = Traits::call_target_of(e);
                if (t.what == call_target::kind::operation && t.op == operation::alloc_window_buffer)
                  allocations.push_back({verify_::hash<Traits>(v), verify_::identity<Traits>(v), 0,
                                         at, Traits::statement_location(s),
                                         Traits::allocation_name(e)});
              }
            }
            first_target = false;
          }
        }
        push_children(Traits::children(s));
      }
      if (scopes.size() == first_scope) // no scopes: not materialized, nothing to hold
        allocations.resize(first_allocation);
    }
    // A window buffer in more than one scope: reported at each later scope.
    const auto by_buffer = [](const slot_entry& a, const slot_entry& b) {
      if (std::less<window_buffer>{}(a.w, b.w))
        return true;
      if (std::less<window_buffer>{}(b.w, a.w))
        return false;
      return a.scope < b.scope;
    };
    std::sort(slots.begin(), slots.end(), by_buffer);
    for (std::size_t i = 1; i < slots.size(); ++i)
      if (slots[i].w == slots[i - 1].w && slots[i].scope != slots[i - 1].scope) {
        const auto& sc = scopes[slots[i].scope];
        report(detail::slot_in_two_scopes, Traits::window_buffer_name(slots[i].w), sc.where,
               sc.begin);
      }
    // Every view's window buffer is a slot of a scope that encloses it.
    for (const auto& v : views) {
      auto it = std::lower_bound(slots.begin(), slots.end(), v.w,
                                 [](const slot_entry& e, const window_buffer& w) {
                                   return std::less<window_buffer>{}(e.w, w);
                                 });
      bool enclosed = false;
      for (; it != slots.end() && it->w == v.w; ++it) {
        const auto& sc = scopes[it->scope];
        enclosed = enclosed || (sc.begin < v.at && v.at < sc.end);
      }
      if (!enclosed)
        report(detail::view_outside_scope, Traits::window_buffer_name(v.w), v.where, v.at);
    }
    // In a host orchestrator with scopes, every allocation is a slot of a scope that
    // encloses it (a partly materialized body is not).
    const auto by_hash = [](const base_entry& a, const base_entry& b) { return a.hash < b.hash; };
    if (!allocations.empty()) {
      for (const auto& sl : slots) {
        const auto base = Traits::window_buffer_base(sl.w);
        bases.push_back({verify_::hash<Traits>(base), verify_::identity<Traits>(base), sl.scope,
                         0, location{}, std::string_view()});
      }
      std::sort(bases.begin(), bases.end(), by_hash);
    }
    for (const auto& a : allocations) {
      auto it = std::lower_bound(bases.begin(), bases.end(), a, by_hash);
      bool held = false;
      for (; it != bases.end() && it->hash == a.hash && !held; ++it) {
        const auto& sc = scopes[it->scope];
        held = it->id == a.id && sc.begin < a.at && a.at < sc.end;
      }
      if (!held)
        report(detail::alloc_not_slot, a.name, a.where, a.at);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return a.order != b.order ? a.order < b.order : a.subject < b.subject;
    });
    return out;
  }
}

} // namespace commscope
