// Reading materialized IR through the scope readers (traits.hpp, layer 2): one walk,
// `read_scopes`, serves the verifier (verify.hpp) and the analysis, which does not wrap a
// host orchestrator that already holds comm-domain scopes again (idempotence,
// docs/semantics.md, "Output invariants") but reads its plan back from the scopes, so
// that a printed-and-reparsed program gives the same plan again.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/compiled.hpp>
#include <commscope/detail/coverage.hpp>
#include <commscope/detail/link_views.hpp>
#include <commscope/detail/sort.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/detail/walk.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace commscope::detail {

/// What `read_scopes` finds in bodies: scopes with their slots and devices, and the
/// variables bound by assignments whose type points at a window buffer. Positions step
/// by 4, so that a client can place up to three findings right after an event.
template <class Adapter> struct scope_records {
  using window_buffer = typename Adapter::window_buffer;
  struct scope {
    typename Adapter::statement statement{};
    std::string_view name;
    typename Adapter::location where{};
    std::uint64_t begin = 0, end = 0; ///< positions strictly inside: (begin, end)
    std::uint32_t first_slot = 0, slot_count = 0;
    std::uint32_t first_device = 0, device_count = 0;
    std::uint32_t first_progression = 0, progression_count = 0; ///< symbolic sets only
  };
  struct view {
    typename Adapter::statement statement{};
    typename Adapter::variable variable{};
    window_buffer buffer{};
    std::uint64_t at = 0;
    typename Adapter::location where{};
  };
  struct allocation { ///< an assignment of alloc_window_buffer(...) to its first target
    typename Adapter::variable base{};
    std::uint64_t at = 0;
    typename Adapter::location where{};
    std::string_view name;
  };
  vec<scope> scopes;
  vec<handle_or_none<window_buffer>> slots; ///< none: a null slot
  vec<std::int64_t> devices;
  vec<device_progression> progressions;
  vec<view> views;
  vec<allocation> allocations;
  std::uint64_t order = 0;

  constexpr void clear() {
    scopes.clear();
    slots.clear();
    devices.clear();
    progressions.clear();
    views.clear();
    allocations.clear();
  }
};

/// sort_by_buffer at run time for pointer and integer handles.
template <class Vec> void sort_as_keys(Vec& entries) {
  using window_buffer = typename Vec::value_type::first_type;
  vec<keyed_index> keys(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i)
    keys[i] = {key_of(entries[i].first), entries[i].second};
  sort_keyed(keys.data(), keys.size());
  for (std::size_t i = 0; i < entries.size(); ++i)
    entries[i] = {handle_of<window_buffer>(keys[i].key), keys[i].index};
}

/// Sorts pairs of a window buffer and an index (of an allocation, of a scope) by buffer,
/// then index. read_back and the verifier both sort such pairs, the verifier every slot
/// of a program: a direct sort. With the separate core, pointer and integer handles are
/// sorted as keys by the core's one sort, so that the pass TU compiles none (and, in
/// constant evaluation, by the shared index sort); otherwise a sort of their own.
template <class Vec> constexpr void sort_by_buffer(Vec& entries) {
  using window_buffer = typename Vec::value_type::first_type;
  const auto by_buffer = [](const auto& x, const auto& y) {
    const std::less<window_buffer> less;
    return less(x.first, y.first) || (!less(y.first, x.first) && x.second < y.second);
  };
  if constexpr (separate_core && keyable<window_buffer>) {
    if (__builtin_is_constant_evaluated())
      sort_by(entries, by_buffer);
    else
      sort_as_keys(entries);
  } else {
    std::sort(entries.begin(), entries.end(), by_buffer);
  }
}

/// The walk of read_scopes.
template <class Adapter> class scope_reader {
public:
  constexpr scope_reader(const Adapter& a, scope_records<Adapter>& out) : a_(a), out_(out) {}

  constexpr bool enter(typename Adapter::statement s) {
    ++out_.order;
    const auto kind = a_.statement_kind_of(s);
    if (kind == statement_kind::scope) {
      typename scope_records<Adapter>::scope sc{s, a_.scope_name(s), a_.location_of(s), out_.order};
      sc.first_slot = static_cast<std::uint32_t>(out_.slots.size());
      for (auto&& w : a_.scope_slots(s))
        out_.slots.push_back(a_.handed_out(w));
      sc.slot_count = static_cast<std::uint32_t>(out_.slots.size()) - sc.first_slot;
      sc.first_device = static_cast<std::uint32_t>(out_.devices.size());
      for (auto d : a_.scope_devices(s))
        out_.devices.push_back(static_cast<std::int64_t>(d));
      sc.device_count = static_cast<std::uint32_t>(out_.devices.size()) - sc.first_device;
      if constexpr (Adapter::symbolic) {
        sc.first_progression = static_cast<std::uint32_t>(out_.progressions.size());
        for (auto&& p : a_.scope_progressions(s))
          out_.progressions.push_back(device_progression(p));
        sc.progression_count =
            static_cast<std::uint32_t>(out_.progressions.size()) - sc.first_progression;
      }
      open_.push_back(static_cast<std::uint32_t>(out_.scopes.size()));
      out_.scopes.push_back(sc);
      return true;
    }
    if (kind == statement_kind::assignment) {
      bool first = true;
      for (auto&& v : a_.targets(s)) {
        if (const auto w = a_.handed_out(a_.view_window_buffer(s, v)))
          out_.views.push_back({s, v, *w, out_.order, a_.location_of(s)});
        if (first) {
          const auto e = a_.value(s);
          if (a_.expression_kind_of(e) == expression_kind::call) {
            const call_target t = a_.call_target_of(e);
            if (t.what == call_target::kind::operation && t.op == operation::alloc_window_buffer)
              out_.allocations.push_back({v, out_.order, a_.location_of(s), a_.allocation_name(e)});
          }
        }
        first = false;
      }
    }
    return false;
  }
  constexpr void leave(typename Adapter::statement) {
    ++out_.order;
    out_.scopes[open_.back()].end = out_.order;
    open_.pop_back();
  }

private:
  const Adapter& a_;
  scope_records<Adapter>& out_;
  vec<std::uint32_t> open_;
};

/// Appends the scopes and views of function f's body to `out`. Out of line: once per
/// function, for the read-back and the verifier alike.
template <class Adapter>
[[gnu::noinline]] constexpr void read_scopes(const Adapter& a, typename Adapter::function f,
                                             scope_records<Adapter>& out) {
  scope_reader<Adapter> reader(a, out);
  statement_walker<Adapter> walker;
  walker.run(a, a.body(f), reader);
}

/// The devices a scope lists, as read (its part of scope_records' arrays): what the
/// steps that judge them take, so that they do not depend on the IR.
struct listed_devices {
  const std::int64_t* ids = nullptr;
  std::uint32_t id_count = 0;
  const device_progression* progressions = nullptr;
  std::uint32_t progression_count = 0;
};

template <class Records, class Scope>
constexpr listed_devices listed(const Records& found, const Scope& sc) {
  return {found.devices.data() + sc.first_device, sc.device_count,
          found.progressions.data() + sc.first_progression, sc.progression_count};
}

/// The devices of a scope: its ids, its well-formed progressions (a malformed one is the
/// verifier's finding); `all` when it lists neither.
constexpr device_set scope_devices_impl(const listed_devices& l) {
  device_set::builder ids;
  for (std::uint32_t k = 0; k < l.id_count; ++k)
    ids.add(device_interval{l.ids[k], l.ids[k]});
  if (l.id_count == 0 && l.progression_count == 0)
    ids.add_all();
  device_set s = ids.finish();
  for (std::uint32_t k = 0; k < l.progression_count; ++k)
    if (const auto p = l.progressions[k]; p.start >= 0 && p.step >= 1 && p.stop_offset >= 0)
      s.join(device_set::progression(p));
  return s;
}
constexpr device_set scope_devices(const listed_devices& l) {
  COMMSCOPE_RUN_COMPILED(scope_devices(l));
  return scope_devices_impl(l);
}

/// Every scope of the body (in walk order: outermost first) becomes a domain, its slots
/// allocations; every variable an assignment binds whose type points at a window buffer
/// becomes a view.
template <class Traits, class Adapter>
constexpr void read_back(const Adapter& a, typename Adapter::function f,
                         function_plan<Traits>& fp) {
  using window_buffer = typename Adapter::window_buffer;
  fp.allocations.clear();
  fp.views.clear();
  fp.domains.clear();
  scope_records<Adapter> found;
  read_scopes(a, f, found);
  vec<plain_pair<window_buffer, std::uint32_t>> index;
  // At most one allocation per slot: a long body's records are not moved as they come.
  fp.allocations.reserve(found.slots.size());
  index.reserve(found.slots.size());
  for (const auto& sc : found.scopes) {
    const auto d = static_cast<std::uint32_t>(fp.domains.size());
    fp.domains.emplace_back();
    fp.domains.back().name = sc.name;
    fp.domains[d].devices = scope_devices(listed(found, sc));
    for (std::uint32_t i = 0; i < sc.slot_count; ++i) {
      const auto& w = found.slots[sc.first_slot + i];
      if (!w)
        continue; // a null slot: the verifier reports it
      const auto alloc_index = static_cast<std::uint32_t>(fp.allocations.size());
      // Made in place, and the views below by resize: the growth the analysis instantiates
      // for the plan's lists, not another one per kind of insertion.
      allocation<Traits>& alloc = fp.allocations.emplace_back();
      alloc.statement = sc.statement;
      alloc.base = a.window_buffer_base(*w);
      alloc.size = a.window_buffer_size(*w);
      alloc.name = a.window_buffer_name(*w);
      alloc.where = sc.where;
      alloc.devices = fp.domains[d].devices;
      alloc.domain = d;
      alloc.existing = *w;
      append(fp.domains[d].slots, alloc_index);
      index.push_back({*w, alloc_index});
    }
  }
  // The first scope that lists a window buffer owns it (the verifier reports others).
  const std::less<window_buffer> less;
  sort_by_buffer(index);
  fp.views.resize(found.views.size());
  for (std::size_t i = 0; i < found.views.size(); ++i) {
    const auto& v = found.views[i];
    auto it = std::lower_bound(index.begin(), index.end(), v.buffer,
                               [&](const auto& e, const auto& k) { return less(e.first, k); });
    const auto alloc_index = it != index.end() && it->first == v.buffer ? it->second : no_index;
    fp.views[i] = {v.statement, v.variable, alloc_index, no_index};
  }
  link_views(fp);
}

} // namespace commscope::detail
