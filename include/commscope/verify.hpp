// The verifier of the property "comm-domain scopes materialized" (docs/semantics.md,
// "Verifier"), usable on any program through the scope readers of traits.hpp (layer 2).
// It returns findings (code `verify`) in walk order; it never throws. Beyond the
// structure of the scopes it checks their soundness: each scope holds every device that
// the program's dispatches and collectives use for the allocations it holds, as the
// analysis finds them in the body taken as if it were not materialized.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/collect.hpp>
#include <commscope/detail/devices.hpp>
#include <commscope/detail/function_analysis.hpp>
#include <commscope/detail/read_back.hpp>
#include <commscope/detail/variables.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/diagnostics.hpp>
#include <commscope/plan.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace commscope {

namespace detail {
/// A function walked as the analysis walks it (collect.hpp, variables.hpp), once for
/// the questions the verifier asks of its materialized body: which allocation each
/// window reads, and the smallest world that can run it. Only for a function the
/// analysis does not run on (used_devices, below, answers them on its own walk).
template <class Adapter> class function_walk {
public:
  constexpr function_walk(const Adapter& a, const typename Adapter::program& p)
      : a_(a), vars_(a, p) {}

  /// Whether check_pointers can judge anything among `views`: statements must compare.
  template <class Views> static constexpr bool judges(const Views& views) {
    return std::equality_comparable<typename Adapter::statement> && !views.empty();
  }

  /// Out of line: once per function, and the walk it calls is large.
  [[gnu::noinline]] constexpr void collect(typename Adapter::function f) {
    vars_.reset();
    facts_.clear();
    std::uint64_t order = 0;
    collector<Adapter>(a_, vars_, facts_, order).run(f);
  }

  /// Appends to `bad` the indices of `views` (the collected function's, in walk order)
  /// whose window buffer's base is not the base of the allocation its window reads
  /// (check_window_pointers).
  constexpr void check_pointers(std::span<typename scope_records<Adapter>::view> views,
                                vec<std::uint32_t>& bad) {
    check_window_pointers(a_, vars_, facts_, views, bad);
  }

  /// W of the collected function as the analysis takes it (devices.hpp, smallest_world):
  /// from the dispatches, which a materialized body still holds.
  constexpr device_id smallest_world() { return smallest_world_of(a_, vars_, facts_); }

private:
  const Adapter& a_;
  variable_table<Adapter> vars_;
  function_facts<Adapter> facts_;
};

/// The devices each allocation of a materialized host orchestrator is used on: the
/// analysis of its body as if it were not materialized (scopes are plain blocks that run
/// once), so the same inference as the pass's (descriptors, loops, collective
/// inheritance, world-relative progressions), taken from the program as it is now.
template <class Traits> class used_devices {
  using Adapter = adapter<Traits>;

public:
  constexpr used_devices(const Adapter& a, const typename Traits::program& p)
      : analysis_(a, p, order_) {
    analysis_.analyze_as_if_unmaterialized();
  }

  /// Appends the devices of the `count` allocations that read_scopes found in f, in walk
  /// order. Bottom where there is nothing to judge: an allocation whose coverage lost
  /// evidence to a call the analysis reports (its error: the verifier adds no cascade),
  /// and every allocation of a function whose allocations the analysis does not find as
  /// read_scopes does (each one it does not find is an error it reports).
  /// Where `pointers`, the window buffers of `views` (the function's) are judged on the
  /// same walk: the indices of those whose pointer names another allocation go to `bad`.
  /// Returns W, the smallest world the function's dispatches need (smallest_world).
  constexpr device_id add(typename Traits::function f, std::size_t count,
                          std::span<typename scope_records<Adapter>::view> views, bool pointers,
                          vec<std::uint32_t>& bad) {
    plan_ = {};
    diagnostics_.clear();
    if (pointers)
      analysis_.judge_pointers(views, bad);
    analysis_.run(f, plan_, diagnostics_);
    const bool same = plan_.allocations.size() == count;
    for (std::uint32_t i = 0; i < count; ++i)
      append(devices_, same && !analysis_.suppressed(i) ? std::move(plan_.allocations[i].devices)
                                                        : device_set{});
    return analysis_.min_world();
  }
  [[nodiscard]] constexpr const device_set& operator[](std::size_t i) const { return devices_[i]; }

private:
  std::uint64_t order_ = 0;
  function_analysis<Traits> analysis_;
  function_plan<Traits> plan_;
  vec<diagnostic<typename Traits::location>> diagnostics_;
  vec<device_set> devices_; ///< parallel to scope_records::allocations
};

/// The ids of `need` that `have` lacks (both finite): the first, and how many.
struct missing_ids {
  device_id first = 0;
  std::uint64_t count = 0;

  constexpr missing_ids(const device_set& need, const device_set& have) {
    const auto h = have.intervals();
    std::size_t j = 0;
    const auto lack = [&](device_id lo, device_id hi) {
      if (count == 0)
        first = lo;
      count += static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
    };
    for (const auto& r : need.intervals())
      for (device_id lo = r.first;;) {
        while (j < h.size() && h[j].last < lo)
          ++j;
        if (j == h.size() || h[j].first > r.last) {
          lack(lo, r.last);
          break;
        }
        if (h[j].first > lo)
          lack(lo, h[j].first - 1);
        if (h[j].last >= r.last)
          break;
        lo = h[j].last + 1;
      }
  }
};

/// Whether a scope's ids and progressions are in the canonical form (device_set.hpp) for
/// the worlds that can run its function, those of at least `world` devices (the W the
/// analysis canonicalized for; an id may reach it when its dispatch might not run).
constexpr bool canonical_scope_impl(const listed_devices& l, device_id world) {
  device_set set;
  for (std::uint32_t k = 0; k < l.id_count; ++k)
    set.join(device_set::single(l.ids[k]));
  vec<device_progression> given;
  for (std::uint32_t k = 0; k < l.progression_count; ++k) {
    const auto p = l.progressions[k];
    if (p.start < 0 || p.step < 1 || p.stop_offset < 0)
      return false;
    given.push_back(p);
    set.join(device_set::progression(p));
  }
  for (std::size_t k = 1; k < given.size(); ++k) // sorted (a loop: no std::is_sorted to compile)
    if (given[k] < given[k - 1])
      return false;
  const device_set canonical = set.canonical(world);
  if (!canonical.has_progressions())
    return false;
  std::size_t n = 0;
  for (const device_progression p : canonical.progressions())
    if (n >= given.size() || !(given[n++] == p))
      return false;
  const auto ids = canonical.intervals();
  std::size_t ids_count = 0;
  for (const auto& r : ids)
    ids_count += static_cast<std::size_t>(r.last - r.first) + 1;
  return n == given.size() && ids_count == l.id_count;
}
constexpr bool canonical_scope(const listed_devices& l, device_id world) {
  COMMSCOPE_RUN_COMPILED(canonical_scope(l, world));
  return canonical_scope_impl(l, world);
}
} // namespace detail

/// Checks every function of `p` through the traits object `traits`.
template <class Program, class Traits>
[[nodiscard]] constexpr auto verify(const Program& p, const Traits& traits) {
  if constexpr (!analyzable_ir<Traits> || !reads_scopes<Traits>) {
    diagnose_readers<Traits>();
    return diagnostics_of<Traits, contract::verification_needs>{};
  } else {
    using Adapter = detail::adapter<Traits>;
    using window_buffer = typename Traits::window_buffer;
    using location = typename Traits::location;
    const Adapter a(traits);
    std::vector<diagnostic<location>> out;
    detail::scope_records<Adapter> found;
    const auto report = [&](reason why, std::string_view subject, location where,
                            std::uint64_t at) -> auto& {
      return detail::report(out, error_code::verify, why, subject, where, at);
    };
    detail::function_walk<Adapter> walk(a, p);
    detail::used_devices<Traits> used(a, p);
    detail::vec<device_id> worlds; ///< per scope: its function's W
    detail::vec<std::uint32_t> bad; ///< per function: its views of another allocation
    for (auto&& f : a.functions(p)) {
      const auto first_scope = found.scopes.size();
      const auto first_allocation = found.allocations.size();
      const auto first_view = found.views.size();
      detail::read_scopes(a, f, found);
      const bool host = a.describe(f).is_host_orchestrator();
      const auto views = std::span(found.views).subspan(first_view);
      bool symbolic = false;
      if constexpr (Adapter::symbolic)
        symbolic = std::any_of(found.scopes.begin() + static_cast<std::ptrdiff_t>(first_scope),
                               found.scopes.end(),
                               [](const auto& sc) { return sc.progression_count > 0; });
      const bool pointers = host && walk.judges(views);
      // Only a host orchestrator with scopes must hold every allocation in them.
      if (!host || found.scopes.size() == first_scope)
        found.allocations.resize(first_allocation);
      // One walk of the function answers the three questions: the analysis' when it
      // runs (a host orchestrator with scopes), else the collector's alone.
      bad.clear();
      device_id world = 1;
      if (found.allocations.size() > first_allocation) {
        world = used.add(f, found.allocations.size() - first_allocation, views, pointers, bad);
      } else if (pointers || symbolic) {
        walk.collect(f);
        if (pointers)
          walk.check_pointers(views, bad);
        world = walk.smallest_world();
      }
      for (const auto k : bad)
        report(reason::view_of_other_buffer, a.window_buffer_name(views[k].buffer), views[k].where,
               views[k].at);
      if constexpr (Adapter::symbolic)
        worlds.resize(found.scopes.size(), symbolic ? world : device_id{1});
    }
    // (window buffer, scope), as read_back's index: sorted by the same instantiation.
    using slot_entry = detail::plain_pair<window_buffer, std::uint32_t>;
    detail::vec<slot_entry> slots;
    // Findings on a scope itself are at its position; their reasons' ranks order them.
    for (std::uint32_t i = 0; i < found.scopes.size(); ++i) {
      const auto& sc = found.scopes[i];
      bool null_slot = false;
      for (std::uint32_t k = 0; k < sc.slot_count; ++k) {
        const auto& w = found.slots[sc.first_slot + k];
        if (w)
          slots.push_back({*w, i});
        else
          null_slot = true;
      }
      if (null_slot)
        report(reason::null_slot, sc.name, sc.where, sc.begin);
      if (sc.slot_count == 0)
        report(reason::empty_scope, sc.name, sc.where, sc.begin);
      for (std::uint32_t k = 0; k < sc.device_count; ++k) {
        const auto d = found.devices[sc.first_device + k];
        if (d < 0 || (k > 0 && d <= found.devices[sc.first_device + k - 1])) {
          report(reason::unsorted_devices, sc.name, sc.where, sc.begin);
          break;
        }
      }
      if constexpr (detail::adapter<Traits>::symbolic)
        if (sc.progression_count > 0 &&
            !detail::canonical_scope(detail::listed(found, sc), worlds[i]))
          report(reason::noncanonical_devices, sc.name, sc.where, sc.begin);
    }
    // A window buffer in more than one scope: reported at each later scope.
    const std::less<window_buffer> less;
    detail::sort_by_buffer(slots);
    for (std::size_t i = 1; i < slots.size(); ++i)
      if (slots[i].first == slots[i - 1].first && slots[i].second != slots[i - 1].second) {
        const auto& sc = found.scopes[slots[i].second];
        report(reason::slot_in_two_scopes, a.window_buffer_name(slots[i].first), sc.where,
               sc.begin);
      }
    // Every view's window buffer is a slot of a scope that encloses it.
    for (const auto& v : found.views) {
      auto it = std::lower_bound(
          slots.begin(), slots.end(), v.buffer,
          [&](const slot_entry& e, const window_buffer& w) { return less(e.first, w); });
      bool enclosed = false;
      for (; it != slots.end() && it->first == v.buffer; ++it) {
        const auto& sc = found.scopes[it->second];
        enclosed = enclosed || (sc.begin < v.at && v.at < sc.end);
      }
      if (!enclosed)
        report(reason::view_outside_scope, a.window_buffer_name(v.buffer), v.where, v.at);
    }
    // In a host orchestrator with scopes, every allocation is a slot of a scope that
    // encloses it (a partly materialized body is not).
    const auto enclosed_by = [&](std::uint32_t scope, std::uint64_t at) {
      const auto& sc = found.scopes[scope];
      return sc.begin < at && at < sc.end;
    };
    // ... and that scope holds every device the program uses for it, for every world of
    // at least the function's W. Reported at the allocation (ranked after what else is
    // found there).
    detail::vec<device_set> scope_sets;
    detail::vec<std::uint8_t> scope_read;
    const auto holds_devices = [&](std::size_t i, std::uint32_t scope) {
      const device_set& need = used[i];
      if (need.is_bottom())
        return;
      if (scope_sets.empty()) {
        // Made, as the analysis makes its own sets: assign or resize would be another
        // member of std::vector<device_set> for g++ to compile.
        scope_sets = detail::vec<device_set>(found.scopes.size());
        scope_read.resize(found.scopes.size(), 0);
      }
      const auto& sc = found.scopes[scope];
      if (!scope_read[scope]) {
        scope_read[scope] = 1;
        scope_sets[scope] = detail::scope_devices(detail::listed(found, sc));
      }
      const device_set& have = scope_sets[scope];
      device_id world = 1; // finite sets: no world decides more than another
      if constexpr (Adapter::symbolic)
        world = worlds[scope];
      if (have.includes(need, world))
        return;
      const auto& al = found.allocations[i];
      if (need.is_all() || need.has_progressions() || have.has_progressions()) {
        report(reason::uncovered_devices, al.name, al.where, al.at).with_object(sc.name);
        return;
      }
      const detail::missing_ids lacks(need, have);
      report(reason::missing_devices, al.name, al.where, al.at)
          .with_object(sc.name)
          .with_missing_devices(lacks.first,
                                static_cast<std::int64_t>(std::min<std::uint64_t>(
                                    lacks.count - 1, static_cast<std::uint64_t>(INT64_MAX))));
    };
    if constexpr (Adapter::dense_variables) {
      // The slots of each base variable chained from its index: no sort, whose
      // instantiation per element type g++ compiles at -O2 in every TU.
      using vec_u32 = detail::vec<std::uint32_t>;
      vec_u32 first, next;
      if (!found.allocations.empty()) {
        first.assign(a.variable_bound(p), no_index);
        next.assign(slots.size(), no_index);
        for (std::uint32_t k = 0; k < slots.size(); ++k) {
          const std::size_t b = a.variable_index(a.window_buffer_base(slots[k].first));
          if (b >= first.size()) // an index past variable_bound: the table grows
            first.resize(b + 1, no_index);
          next[k] = first[b];
          first[b] = k;
        }
      }
      // One index may stand for several bindings (a name bound twice, in an IR that
      // rebinds): where handles compare, an allocation is held by its own slot only.
      const auto own = [&](const typename Traits::variable& base,
                           const typename Traits::variable& v) {
        if constexpr (std::equality_comparable<typename Traits::variable>)
          return base == v;
        else
          return true;
      };
      for (std::size_t i = 0; i < found.allocations.size(); ++i) {
        const auto& al = found.allocations[i];
        const std::size_t b = a.variable_index(al.base);
        std::uint32_t holder = no_index;
        for (auto k = b < first.size() ? first[b] : no_index; k != no_index && holder == no_index;
             k = next[k])
          if (own(a.window_buffer_base(slots[k].first), al.base) &&
              enclosed_by(slots[k].second, al.at))
            holder = slots[k].second;
        if (holder == no_index)
          report(reason::alloc_not_slot, al.name, al.where, al.at);
        else
          holds_devices(i, holder);
      }
    } else {
      const auto identity = [&](typename Traits::variable v) { return a.variable_key(v); };
      const auto hash = [&](typename Traits::variable v) -> std::size_t {
        return std::hash<std::remove_cvref_t<decltype(identity(v))>>{}(identity(v));
      };
      struct base_entry {
        std::size_t hash;
        decltype(identity(std::declval<typename Traits::variable>())) id;
        std::uint32_t scope;
      };
      detail::vec<base_entry> bases;
      const auto by_hash = [](const base_entry& x, const base_entry& y) { return x.hash < y.hash; };
      if (!found.allocations.empty()) {
        for (const auto& sl : slots) {
          const auto base = a.window_buffer_base(sl.first);
          bases.push_back({hash(base), identity(base), sl.second});
        }
        std::sort(bases.begin(), bases.end(), by_hash);
      }
      for (std::size_t i = 0; i < found.allocations.size(); ++i) {
        const auto& al = found.allocations[i];
        const base_entry key{hash(al.base), identity(al.base), 0};
        auto it = std::lower_bound(bases.begin(), bases.end(), key, by_hash);
        std::uint32_t holder = no_index;
        for (; it != bases.end() && it->hash == key.hash && holder == no_index; ++it)
          if (it->id == key.id && enclosed_by(it->scope, al.at))
            holder = it->scope;
        if (holder == no_index)
          report(reason::alloc_not_slot, al.name, al.where, al.at);
        else
          holds_devices(i, holder);
      }
    }
    detail::sort_diagnostics(out);
    return out;
  }
}

/// `verify(p, ir_traits<Program>{})`.
template <class Program> [[nodiscard]] constexpr auto verify(const Program& p) {
  using Traits = ir_traits<Program>;
  if constexpr (!analyzable_ir<Traits> || !reads_scopes<Traits>) {
    diagnose_readers<Traits>();
    return diagnostics_of<Traits, contract::verification_needs>{};
  } else if constexpr (!default_constructible_traits<Traits>) {
    diagnose_default_traits<Traits>();
    return diagnostics_of<Traits, contract::verification_needs>{};
  } else {
    return verify(p, Traits{});
  }
}

} // namespace commscope
