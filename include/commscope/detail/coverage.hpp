// Steps 4 to 6 and 9 of docs/semantics.md once the dispatches are judged: the
// collectives' checks and inheritance, the allocations' checks, the clustering of equal
// device sets into domains, and the domains' checks.
// None of it depends on the IR: it reads the plan's records through an accessor (typed,
// or with the separately compiled core erased to strided fields) and names where a
// diagnostic is by record (site_ref), which the accessor locates in the IR's terms (the
// compiled core's keeps the record, for the caller to locate). So the separately
// compiled core compiles these steps once for every adapter.
#pragma once

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/hash_index.hpp>
#include <commscope/detail/may_set.hpp>
#include <commscope/detail/operations.hpp>
#include <commscope/detail/segmented.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/device_set.hpp>
#include <commscope/diagnostics.hpp>
#include <commscope/plan.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace commscope::detail {

/// v.push_back(i), for the domains' slots: with the separately compiled core,
/// std::vector<std::uint32_t>'s growth is compiled there, once.
constexpr void append(std::vector<std::uint32_t>& v, std::uint32_t i) {
  COMMSCOPE_RUN_COMPILED(append(v, i));
  v.push_back(i);
}

/// A host collective as the walk found it; its location is kept apart, by the caller.
struct collective_site {
  operation op = operation::none;
  std::uint32_t order = 0;       ///< its position in the function's walk
  std::uint32_t loop = no_index; ///< the innermost enclosing loop (facts' loops), if any
  std::uint32_t first_argument = 0;
  std::uint32_t argument_count = 0;
};

/// Where a diagnostic of these steps is: a record the caller knows the location of.
struct site_ref {
  enum class kind : std::uint8_t { allocation, collective, loop, view };
  kind what = kind::allocation;
  std::uint32_t index = 0;
};

/// A diagnostic the steps are making: the records its notes are at are located as the
/// plan's accessor locates them.
template <class Diagnostic, class Where> class located_report {
public:
  constexpr located_report(Diagnostic& d, const Where& where) : d_(d), where_(where) {}
  constexpr located_report& with_object(std::string_view name) {
    d_.with_object(name);
    return *this;
  }
  constexpr located_report& with_limit(std::int64_t value) {
    d_.with_limit(value);
    return *this;
  }
  constexpr located_report& with_depth(std::int64_t value) {
    d_.with_depth(value);
    return *this;
  }
  constexpr located_report& with_arity(std::int64_t given, std::int64_t expected) {
    d_.with_arity(given, expected);
    return *this;
  }
  constexpr located_report& with_arguments(std::int64_t position, std::int64_t other = 0) {
    d_.with_arguments(position, other);
    return *this;
  }
  constexpr located_report& with_note(note_kind what, std::string_view about, site_ref at) {
    d_.with_note(what, about, where_(at));
    return *this;
  }

private:
  Diagnostic& d_;
  const Where& where_;
};

/// The plan's records as the steps read them: the adapter's own plan, its diagnostics
/// (`out`) and how a record is located in its terms (`where(site_ref)`).
template <class Traits, class Out, class Where> struct plan_records {
  function_plan<Traits>& fp;
  Out* out;
  const Where& where;
  [[nodiscard]] constexpr std::size_t allocation_count() const { return fp.allocations.size(); }
  [[nodiscard]] constexpr device_set& devices(std::size_t i) const {
    return fp.allocations[i].devices;
  }
  [[nodiscard]] constexpr std::string_view name(std::size_t i) const {
    return fp.allocations[i].name;
  }
  [[nodiscard]] constexpr std::uint32_t& domain(std::size_t i) const {
    return fp.allocations[i].domain;
  }
  [[nodiscard]] constexpr std::uint32_t first_view(std::size_t i) const {
    return fp.allocations[i].first_view;
  }
  [[nodiscard]] constexpr std::uint32_t view_allocation(std::size_t v) const {
    return fp.views[v].allocation;
  }
  [[nodiscard]] constexpr std::uint32_t next_view(std::size_t v) const { return fp.views[v].next; }
  constexpr auto report(error_code c, reason why, std::string_view subject, site_ref at,
                        std::uint64_t order) const {
    auto& d = detail::report(*out, c, why, subject, where(at), order);
    return located_report<std::remove_reference_t<decltype(d)>, Where>(d, where);
  }
};

/// One field of every record of an array whose type the compiled core does not know:
/// its address in the first record and the records' size. Run time only.
template <class T> class strided {
public:
  template <class Record, class Field>
  strided(Record* records, std::size_t count, Field Record::*field)
      : first_(count == 0 ? nullptr : reinterpret_cast<std::byte*>(&(records->*field))),
        stride_(sizeof(Record)) {}
  [[nodiscard]] T& operator[](std::size_t i) const {
    return *reinterpret_cast<T*>(first_ + i * stride_);
  }

private:
  std::byte* first_;
  std::size_t stride_;
};

/// A record's location as the compiled core knows it: the record.
struct same_site {
  constexpr site_ref operator()(site_ref at) const { return at; }
};

/// The plan's records as the compiled core reads them (plan_records' interface), its
/// reports kept by record in `Out`: a parameter, so that the reports are compiled where
/// the core is, not in every translation unit that includes the header.
template <class Out> struct basic_erased_records {
  std::size_t allocations = 0;
  strided<device_set> devices_of;
  strided<const std::string_view> names;
  strided<std::uint32_t> domains;
  strided<const std::uint32_t> first_views, view_allocations, next_views;

  Out* out; ///< located by the caller once the steps are over

  template <class Traits>
  basic_erased_records(function_plan<Traits>& fp, Out* by_record)
      : allocations(fp.allocations.size()),
        devices_of(fp.allocations.data(), allocations, &allocation<Traits>::devices),
        names(fp.allocations.data(), allocations, &allocation<Traits>::name),
        domains(fp.allocations.data(), allocations, &allocation<Traits>::domain),
        first_views(fp.allocations.data(), allocations, &allocation<Traits>::first_view),
        view_allocations(fp.views.data(), fp.views.size(), &view<Traits>::allocation),
        next_views(fp.views.data(), fp.views.size(), &view<Traits>::next), out(by_record) {}

  [[nodiscard]] std::size_t allocation_count() const { return allocations; }
  [[nodiscard]] device_set& devices(std::size_t i) const { return devices_of[i]; }
  [[nodiscard]] std::string_view name(std::size_t i) const { return names[i]; }
  [[nodiscard]] std::uint32_t& domain(std::size_t i) const { return domains[i]; }
  [[nodiscard]] std::uint32_t first_view(std::size_t i) const { return first_views[i]; }
  [[nodiscard]] std::uint32_t view_allocation(std::size_t v) const { return view_allocations[v]; }
  [[nodiscard]] std::uint32_t next_view(std::size_t v) const { return next_views[v]; }
  located_report<typename Out::value_type, same_site> report(error_code c, reason why,
                                                             std::string_view subject, site_ref at,
                                                             std::uint64_t order) const {
    return {detail::report(*out, c, why, subject, at, order), same};
  }

private:
  static constexpr same_site same{};
};

using erased_records = basic_erased_records<std::vector<diagnostic<site_ref>>>;

/// What the steps read besides the plan: the function's collectives, the may-sets of
/// views their arguments hold, what canonical forms are for, and the adapter's limit.
struct coverage_inputs {
  const collective_site* collectives = nullptr;
  std::size_t collective_count = 0;
  const segmented<std::uint32_t>* arguments = nullptr; ///< may-sets, by collective argument
  const may_sets* sets = nullptr;
  device_id min_world = 1;
  bool symbolic = false;         ///< canonicalize the allocations' progressions for min_world
  std::size_t nesting_limit = 0; ///< the most domains (adapter::scope_nesting_limit)
};

/// The per-allocation state the analysis keeps from its first judgment on (escapes,
/// dispatches) to these steps, and the steps themselves. A template only so that the
/// steps' bodies are compiled where the analysis is instantiated (or in the compiled
/// core), not in every translation unit that includes the header.
template <class Unused = void> class basic_coverage {
public:
  /// Per allocation, one byte of these: consumed, some dispatch passed a view of it,
  /// directly or through a collective that passes coverage on (without it,
  /// `unconsumed-alloc`); suppressed, its coverage lost evidence to a reported call;
  /// escaped, a view or pointer of it escaped; viewed, it has a view (set only when a
  /// dispatch may pass a pointer).
  enum flag : std::uint8_t { consumed = 1, suppressed = 2, escaped = 4, viewed = 8 };

  vec<std::uint8_t> flags;
  /// Allocations whose evidence a reported call took, to be suppressed with every
  /// allocation that inherits from them (spread_suppression).
  vec<std::uint32_t> to_suppress;
  vec<std::uint32_t> unsure; ///< the views of windows reported as ambiguous, ascending
  /// Per allocation once its site is freed: what diagnostics and duplicate names read.
  vec<std::uint32_t> positions, name_hashes;
  index_table table; ///< domain leaders, then names within a domain
  /// Per domain, the allocation that opened it (its first): the caller makes the plan's
  /// domains from these and the allocations' `domain`.
  vec<std::uint32_t> leaders;

  struct edge {
    std::uint32_t from, to;
    std::uint32_t collective; ///< the collective that passes coverage along it
  };

  [[nodiscard]] constexpr bool is(std::size_t a, flag f) const { return (flags[a] & f) != 0; }
  constexpr void mark(std::size_t a, flag f) { flags[a] = static_cast<std::uint8_t>(flags[a] | f); }
  /// A view or pointer of allocation a escaped: its diagnostics are that one.
  constexpr void escape(std::uint32_t a) {
    if (!is(a, escaped)) {
      mark(a, escaped);
      to_suppress.emplace_back(a);
    }
  }
  /// The edges along which collectives pass coverage, as the last judge found them.
  [[nodiscard]] constexpr std::span<const edge> edges() const {
    return {edges_.data(), edges_.size()};
  }

  /// Steps 4 to 6 and 9 on the plan's records, whose devices the dispatches gave and
  /// whose view lists are linked: the collectives' checks, inheritance to a fixed point,
  /// the allocations' checks, each allocation's domain (and `leaders`), the domains'
  /// checks.
  /// Reports go to `out`, located by `where(site_ref)`; with the compiled core they go
  /// to `by_record` instead, for the caller to locate.
  template <class Traits, class Out, class Where>
  constexpr void judge(function_plan<Traits>& fp, const coverage_inputs& in, Out& out,
                       const Where& where,
                       [[maybe_unused]] std::vector<diagnostic<site_ref>>* by_record) {
    COMMSCOPE_RUN_COMPILED(judge(*this, erased_records(fp, by_record), in));
    judge_impl(plan_records<Traits, Out, Where>{fp, &out, where}, in);
  }

  template <class Plan> constexpr void judge_impl(const Plan& p, const coverage_inputs& in) {
    in_ = &in;
    collectives_structure(p);
    inherit(p);
    if (in.symbolic) // clustering compares canonical forms
      for (std::size_t i = 0; i < p.allocation_count(); ++i)
        if (auto& d = p.devices(i); d.has_progressions())
          d.canonicalize(in.min_world);
    collectives_coverage(p);
    check_allocations(p);
    cluster(p);
    duplicate_names(p);
    if (leaders.size() > in.nesting_limit) {
      // More nested scopes than the adapter can hold: reported at the first allocation
      // of the first domain beyond the limit.
      const auto i = leaders[in.nesting_limit];
      p.report(error_code::scope_nesting_limit, reason::none, p.name(i), at_allocation(i),
               positions[i])
          .with_depth(static_cast<std::int64_t>(in.nesting_limit) + 1)
          .with_limit(static_cast<std::int64_t>(in.nesting_limit));
    }
    in_ = nullptr;
  }

private:
  /// Per collective: the may-set of views of each positional argument (roles past the
  /// fifth are none the pass reads).
  struct collective_state {
    std::array<std::uint32_t, 5> views{no_index, no_index, no_index, no_index, no_index};
    bool reported = false;
    bool spared = false; ///< reported only for the checks that need no allocation
  };

  [[nodiscard]] static constexpr site_ref at_allocation(std::uint32_t i) {
    return {site_ref::kind::allocation, i};
  }
  [[nodiscard]] static constexpr site_ref at_collective(std::size_t i) {
    return {site_ref::kind::collective, static_cast<std::uint32_t>(i)};
  }

  /// Calls f(allocation) for the allocations of a set's views (an allocation twice when
  /// two of its views are in the set).
  template <class Plan, class F>
  constexpr void for_each_allocation(const Plan& p, std::uint32_t set, F&& f) const {
    in_->sets->for_each(set, [&](std::uint32_t v) { f(p.view_allocation(v)); });
  }
  /// The allocation every view of the set is of, or no_index (none, or several).
  template <class Plan>
  [[nodiscard]] constexpr std::uint32_t must_allocation(const Plan& p, std::uint32_t set) const {
    std::uint32_t only = no_index;
    bool several = false;
    for_each_allocation(p, set, [&](std::uint32_t a) {
      if (only == no_index)
        only = a;
      else if (a != only)
        several = true;
    });
    return several ? no_index : only;
  }

  /// Whether an argument may be a window reported as ambiguous.
  [[nodiscard]] constexpr bool holds_unsure(const collective_state& st) const {
    if (unsure.empty())
      return false;
    for (auto set : st.views)
      for (const auto v : in_->sets->of(set)) {
        // A binary search of its own: std::binary_search is eight functions to compile.
        std::size_t lo = 0, hi = unsure.size();
        while (lo < hi) {
          const std::size_t mid = lo + (hi - lo) / 2;
          if (unsure[mid] < v)
            lo = mid + 1;
          else
            hi = mid;
        }
        if (lo < unsure.size() && unsure[lo] == v)
          return true;
      }
    return false;
  }

  /// Step 4, the checks that need no coverage: arity, then arguments that must be views.
  template <class Plan> constexpr void collectives_structure(const Plan& p) {
    const auto* const collectives = in_->collectives;
    states_.assign(in_->collective_count, {});
    edges_.clear();
    for (std::size_t i = 0; i < in_->collective_count; ++i) {
      const auto& c = collectives[i];
      const auto& r = row(c.op);
      auto& st = states_[i];
      const std::size_t n = c.argument_count;
      for (std::size_t k = 0; k < n && k < st.views.size(); ++k)
        st.views[k] = (*in_->arguments)[c.first_argument + k];
      if (n < r.min_arity || n > r.max_arity) {
        p.report(error_code::malformed_op, reason::wrong_arity, r.name, at_collective(i), c.order)
            .with_arity(static_cast<std::int64_t>(n), r.max_arity);
        st.reported = true;
      } else if (holds_unsure(st)) { // its arguments' allocations are unknown: no more to say
        st.reported = st.spared = true;
      } else {
        for (auto m : r.must_be_views)
          if (m != none_arg && st.views[m] == no_index) {
            p.report(error_code::collective_arg_not_window, reason::none, r.name, at_collective(i),
                     c.order)
                .with_arguments(m);
            st.reported = true;
            break;
          }
      }
      if (st.reported) {
        queue_suppression(p, st);
        continue;
      }
      // Coverage passes from every allocation the source may view to every allocation
      // an inheriting argument may view.
      for (auto to : r.inheritors)
        if (to != none_arg)
          for_each_allocation(p, st.views[r.source], [&](std::uint32_t from) {
            for_each_allocation(p, st.views[to], [&](std::uint32_t into) {
              edges_.emplace_back(edge{from, into, static_cast<std::uint32_t>(i)});
            });
          });
    }
  }

  /// A reported collective: its arguments' allocations lost evidence to it.
  template <class Plan>
  constexpr void queue_suppression(const Plan& p, const collective_state& st) {
    for (auto set : st.views)
      for_each_allocation(p, set, [&](std::uint32_t a) { to_suppress.push_back(a); });
  }

  /// Whether no allocation the set may view has coverage (nor lost it to a reported call).
  template <class Plan>
  [[nodiscard]] constexpr bool lacks_coverage(const Plan& p, std::uint32_t set) const {
    bool covered = false;
    for_each_allocation(p, set, [&](std::uint32_t a) {
      covered = covered || is(a, suppressed) || !p.devices(a).is_bottom();
    });
    return !covered;
  }
  /// Whether some allocation the set may view inherits coverage from a collective.
  template <class Plan>
  [[nodiscard]] constexpr bool inherits(const Plan& p, std::uint32_t set) const {
    bool any = false;
    for_each_allocation(p, set, [&](std::uint32_t a) { any = any || inherits_[a]; });
    return any;
  }

  /// Step 4's inheritance and step 5's merge, to a fixed point over the edges; then the
  /// allocations whose diagnostics would be cascades of a reported call.
  template <class Plan> constexpr void inherit(const Plan& p) {
    const auto n = p.allocation_count();
    for (std::size_t i = 0; i < n; ++i)
      p.devices(i).normalize();
    // Adjacency in compressed rows.
    first_.assign(n + 1, 0);
    for (const auto& e : edges_)
      ++first_[e.from + 1];
    for (std::size_t i = 0; i < n; ++i)
      first_[i + 1] += first_[i];
    next_.assign(edges_.size(), 0);
    {
      vec<std::uint32_t> fill(first_.begin(), first_.end() - 1);
      for (const auto& e : edges_)
        next_[fill[e.from]++] = e.to;
    }
    work_.clear();
    queued_.assign(n, 0);
    for (const auto& e : edges_)
      if (!queued_[e.from]) {
        queued_[e.from] = 1;
        work_.emplace_back(e.from);
      }
    while (!work_.empty()) {
      const auto u = work_.back();
      work_.pop_back();
      queued_[u] = 0;
      for (auto k = first_[u]; k < first_[u + 1]; ++k) {
        const auto v = next_[k];
        bool changed = p.devices(v).join(p.devices(u));
        if (is(u, consumed) && !is(v, consumed)) {
          mark(v, consumed);
          changed = true;
        }
        if (changed && !queued_[v]) {
          queued_[v] = 1;
          work_.emplace_back(v);
        }
      }
    }
    spread_suppression();
  }

  /// Suppression flows along inheritance: coverage lost upstream is not re-reported.
  constexpr void spread_suppression() {
    while (!to_suppress.empty()) {
      const auto u = to_suppress.back();
      to_suppress.pop_back();
      if (is(u, suppressed))
        continue;
      mark(u, suppressed);
      for (auto k = first_[u]; k < first_[u + 1]; ++k)
        to_suppress.emplace_back(next_[k]);
    }
  }

  /// Step 4, the checks that need coverage. A buffer with no coverage is reported where
  /// the lack starts: first the collectives whose buffer inherits from no other (their
  /// lack is their own), then the rest in source order, skipping what those lost to a
  /// reported call. So `allreduce(b, c)` before `allreduce(a, b)` with `a` uncovered
  /// reports only the latter, as the reverse order does; a cycle of uncovered buffers is
  /// reported once, at its first collective. Diagnostics are sorted into source order
  /// at the end.
  template <class Plan> constexpr void collectives_coverage(const Plan& p) {
    const auto* const collectives = in_->collectives;
    inherits_.assign(p.allocation_count(), 0);
    for (const auto& e : edges_)
      inherits_[e.to] = 1;
    // all_to_all_v in a loop, reported with the loop.
    const auto in_loop_report = [&](const collective_site& c, std::size_t i) {
      p.report(error_code::collective_in_loop, reason::none, row(c.op).name, at_collective(i),
               c.order)
          .with_note(note_kind::enclosing_loop, {}, site_ref{site_ref::kind::loop, c.loop});
    };
    const auto uncovered = [&](std::size_t i, bool roots_only) {
      const auto& c = collectives[i];
      const auto& r = row(c.op);
      auto& st = states_[i];
      if (st.reported || r.source == none_arg)
        return;
      const auto src = st.views[r.source];
      if ((roots_only && inherits(p, src)) || !lacks_coverage(p, src))
        return;
      p.report(error_code::uncovered_collective, reason::none, r.name, at_collective(i), c.order);
      st.reported = true;
      queue_suppression(p, st);
      if (!roots_only) // roots are independent of each other: spread once after them
        spread_suppression();
    };
    for (std::size_t i = 0; i < in_->collective_count; ++i)
      uncovered(i, true);
    spread_suppression();
    for (std::size_t i = 0; i < in_->collective_count; ++i) {
      uncovered(i, false);
      auto& st = states_[i];
      const auto& c = collectives[i];
      const auto& r = row(c.op);
      const bool in_loop = c.op == operation::all_to_all_v && c.loop != no_index;
      if (st.spared && in_loop) { // a check that needs no allocation
        in_loop_report(c, i);
        continue;
      }
      if (st.reported)
        continue;
      if (c.op == operation::barrier && lacks_coverage(p, st.views[0]))
        p.report(error_code::barrier_no_coverage, reason::none, r.name, at_collective(i), c.order);
      else if (in_loop) // whatever coverage
        in_loop_report(c, i);
      else if (!aliased_windows(p, c, i, st))
        continue;
      st.reported = true;
      queue_suppression(p, st);
      spread_suppression();
    }
  }

  /// Two window arguments of one collective that must be views of one allocation
  /// (docs/semantics.md, `collective-aliased-windows`: each may-set is that one
  /// allocation; a may-alias is no error): reported for the first such pair, with notes
  /// at the allocation and at both views.
  template <class Plan>
  constexpr bool aliased_windows(const Plan& p, const collective_site& c, std::size_t i,
                                 const collective_state& st) {
    const std::size_t n = c.argument_count < st.views.size() ? c.argument_count : st.views.size();
    std::array<std::uint32_t, 5> must{no_index, no_index, no_index, no_index, no_index};
    for (std::size_t k = 0; k < n; ++k)
      must[k] = must_allocation(p, st.views[k]);
    for (std::size_t k = 1; k < n; ++k) {
      if (must[k] == no_index)
        continue;
      for (std::size_t j = 0; j < k; ++j) {
        if (must[j] != must[k])
          continue;
        const auto& r = row(c.op);
        const auto name = p.name(must[k]);
        auto d = p.report(error_code::collective_aliased_windows, reason::none, r.name,
                          at_collective(i), c.order)
                     .with_arguments(static_cast<std::int64_t>(j), static_cast<std::int64_t>(k))
                     .with_object(name)
                     .with_note(note_kind::shared_allocation, name, at_allocation(must[k]));
        for (const auto at : {j, k}) {
          std::uint32_t first = no_index; // the first view the argument may hold
          in_->sets->for_each(st.views[at],
                              [&](std::uint32_t v) { first = v < first ? v : first; });
          d.with_note(note_kind::aliased_view, r.roles[at], site_ref{site_ref::kind::view, first});
        }
        return true;
      }
    }
    return false;
  }

  /// Step 6 for allocations: dead, unconsumed, empty. One whose evidence a reported
  /// window took (the pointer may name it or another: several_allocations) is spared
  /// all three, since that window may be its view.
  template <class Plan> constexpr void check_allocations(const Plan& p) {
    for (std::uint32_t i = 0; i < p.allocation_count(); ++i) {
      const auto at = positions[i];
      const auto first = p.first_view(i);
      if (first == no_index && !is(i, escaped) && !is(i, suppressed))
        p.report(error_code::dead_alloc, reason::none, p.name(i), at_allocation(i), at);
      else if (is(i, suppressed))
        continue;
      else if (!is(i, consumed)) {
        auto d =
            p.report(error_code::unconsumed_alloc, reason::none, p.name(i), at_allocation(i), at);
        for (auto v = first; v != no_index; v = p.next_view(v))
          d.with_note(note_kind::view, {}, site_ref{site_ref::kind::view, v});
      } else if (p.devices(i).is_bottom())
        p.report(error_code::empty_coverage, reason::none, p.name(i), at_allocation(i), at);
    }
  }

  /// Step 9: allocations with equal merged descriptors share a domain; domains are
  /// numbered by their first allocation. One pass in allocation order with a hash table
  /// of leaders: the first allocation of a descriptor opens its domain, the others find
  /// it in O(1) expected (sorting by descriptor would cost A log A comparisons of
  /// interval lists). Allocations whose devices are bottom belong to no domain.
  template <class Plan> constexpr void cluster(const Plan& p) {
    leaders.clear();
    table.reset(16);                   // a program has few domains; the table grows if it has more
    std::uint32_t previous = no_index; // the last allocation given a domain
    for (std::uint32_t i = 0; i < p.allocation_count(); ++i) {
      const auto& devices = p.devices(i);
      if (devices.is_bottom())
        continue;
      // Neighbouring allocations are often dispatched together: equal to the previous
      // one, the allocation joins its domain without hashing (its leader is in the table).
      if (previous != no_index && p.devices(previous) == devices) {
        p.domain(i) = p.domain(previous);
        previous = i;
        continue;
      }
      previous = i;
      const auto leader = table.find_or_insert(
          hash_of(devices), i, [&](std::uint32_t j) { return p.devices(j) == devices; });
      if (leader == i) {
        p.domain(i) = static_cast<std::uint32_t>(leaders.size());
        leaders.emplace_back(i);
      } else {
        p.domain(i) = p.domain(leader);
      }
    }
  }

  /// Step 6 for domains: a name twice in one domain is reported at the later allocation
  /// (every later one). One table of first occurrences, keyed by domain and name, finds
  /// them in allocation order in linear expected time, without sorting names.
  template <class Plan> constexpr void duplicate_names(const Plan& p) {
    table.reset(p.allocation_count());
    for (std::uint32_t i = 0; i < p.allocation_count(); ++i) {
      const auto domain = p.domain(i);
      if (domain == no_index)
        continue;
      const auto name = p.name(i);
      const auto first = table.find_or_insert(
          name_hashes[i] ^ (domain * 0x9e3779b97f4a7c15u), i,
          [&](std::uint32_t j) { return p.domain(j) == domain && p.name(j) == name; });
      if (first != i && !is(i, suppressed))
        p.report(error_code::duplicate_name, reason::none, name, at_allocation(i), positions[i])
            .with_note(note_kind::earlier_allocation, name, at_allocation(first));
    }
  }

  const coverage_inputs* in_ = nullptr; ///< during judge_impl
  vec<collective_state> states_;
  vec<edge> edges_;
  vec<std::uint32_t> first_, next_, work_;
  vec<std::uint8_t> queued_;
  vec<std::uint8_t> inherits_; ///< per allocation: some collective passes coverage to it
};

using coverage = basic_coverage<>;

/// `d` with its locations in the IR's terms: `where(site_ref)` gives each.
template <class Location, class Where>
constexpr diagnostic<Location> located(const diagnostic<site_ref>& d, Where&& where) {
  auto out = diagnostic<Location>::make(d.code, d.why, d.subject, where(d.where), d.order);
  out.object = d.object;
  out.device = d.device;
  out.limit = d.limit;
  out.depth = d.depth;
  out.arity = d.arity;
  out.expected_arity = d.expected_arity;
  out.argument = d.argument;
  out.other_argument = d.other_argument;
  out.more = d.more;
  for (const auto& n : d.notes)
    out.with_note(n.what, n.subject, where(n.where));
  return out;
}

} // namespace commscope::detail
