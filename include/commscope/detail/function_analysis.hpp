// The analysis of one program: steps 1-6 and 9 of docs/semantics.md for every host
// orchestrator, all errors in source order, nothing in the IR touched. The entry points
// are in analyze.hpp.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/cluster.hpp>
#include <commscope/detail/collect.hpp>
#include <commscope/detail/device_pool.hpp>
#include <commscope/detail/devices.hpp>
#include <commscope/detail/hash_index.hpp>
#include <commscope/detail/link_views.hpp>
#include <commscope/detail/operations.hpp>
#include <commscope/detail/read_back.hpp>
#include <commscope/detail/variables.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/plan.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

namespace commscope {
namespace detail {

/// Appends to `bad` the index of each of `views` (a materialized function's, in walk order,
/// read back) whose window buffer's base is not the base of the allocation its window
/// reads, from the function's walk (`facts`, `vars`). Views whose assignment is no window
/// of an allocation (a copy the IR types too) are not judged; nor are any where
/// statements cannot be compared.
template <class Adapter>
constexpr void check_window_pointers(const Adapter& a, variable_table<Adapter>& vars,
                                     function_facts<Adapter>& facts,
                                     std::span<typename scope_records<Adapter>::view> views,
                                     vec<std::uint32_t>& bad) {
  if constexpr (std::equality_comparable<typename Adapter::statement>) {
    std::size_t k = 0;
    for (const auto& w : facts.windows) {
      while (k < views.size() && !(views[k].statement == w.statement))
        ++k; // a typed assignment that is no window
      if (k == views.size())
        return;
      const auto& v = views[k];
      const auto alloc = vars.allocation_of(w.allocation); // the pointer's definition
      if (alloc != no_index &&
          !(vars.id(a.window_buffer_base(v.buffer)) == vars.id(facts.allocations[alloc].base)))
        bad.emplace_back(static_cast<std::uint32_t>(k));
      // One statement may type several targets: only its first is the window's.
      while (k < views.size() && views[k].statement == w.statement)
        ++k;
    }
  } else {
    (void)a, (void)vars, (void)facts, (void)views, (void)bad;
  }
}

/// `Record`: whether evidence is recorded (plan.hpp); off, its code is not instantiated.
template <class Traits, bool Record = false> class function_analysis {
  using Adapter = adapter<Traits>;
  using expression = typename Traits::expression;
  using location = typename Traits::location;

public:
  constexpr function_analysis(const Adapter& a, const typename Traits::program& p,
                              std::uint64_t& order)
      : a_(a), vars_(a, p), order_(order) {}

  constexpr void run(typename Traits::function f, function_plan<Traits>& fp,
                     vec<diagnostic<location>>& diagnostics) {
    vars_.reset();
    facts_.clear();
    min_world_ = {};
    // A materialized body is walked too: an allocation inside its scopes that no scope
    // lists (one added since, such as a synthesized signal) is an error, never skipped.
    // The walk numbers its positions from 0 (position): the program's count goes on
    // from base_, which diagnostics and evidence add to them.
    std::uint64_t walked = 0;
    collector<Adapter>(a_, vars_, facts_, walked).run(f);
    if constexpr (Adapter::has_readers) {
      if (bad_views_) { // the verifier's question, on this walk
        check_window_pointers(a_, vars_, facts_, judged_views_, *bad_views_);
        bad_views_ = nullptr;
      }
    }
    base_ = order_;
    order_ += walked;
    if constexpr (Adapter::has_readers) {
      if (facts_.saw_scope && !as_if_unmaterialized_) { // materialized before
        read_back<Traits>(a_, f, fp);
        fp.status = function_plan<Traits>::state::already_materialized;
        unscoped_allocations(fp, diagnostics);
        return;
      }
    }
    vars_.end_walk();
    facts_.trim();
    // Everything that needs the variable table runs first (views, the arguments' views,
    // the dispatches' devices), so that its definitions are gone before the plan's
    // allocation records are made: the two never coexist at the analysis' peak.
    const auto n = facts_.allocations.size();
    fp.status = n == 0 ? function_plan<Traits>::state::no_allocations
                       : function_plan<Traits>::state::analyzed;
    flags_.assign(n, 0);
    bind_views();
    pointer_arguments();
    // A definition becomes the view it resolves to.
    for (std::size_t k = 0; k < facts_.arguments.size(); ++k)
      facts_.arguments[k] = vars_.view_of(facts_.arguments[k]);
    for (std::size_t k = 0; k < facts_.dispatch_arguments.size(); ++k)
      facts_.dispatch_arguments[k] = vars_.view_of(facts_.dispatch_arguments[k]);
    escapes();
    release(facts_.escapes); // nothing reads them again: off the dispatches' peak
    // From here on only diagnostics read an allocation's position: kept apart, its site's
    // field holds the index of its devices in pool_ instead (devices_of).
    positions_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      positions_[i] = facts_.allocations[i].order;
      devices_of(i) = device_pool::bottom;
    }
    dispatches(fp);
    release(facts_.dispatch_arguments);
    facts_.dispatches.clear();
    // Past the dispatches a loop is read for its location only (a collective's note).
    loop_wheres_.clear();
    loop_wheres_.reserve(facts_.loops.size());
    for (const auto& l : facts_.loops)
      loop_wheres_.emplace_back(l.where);
    facts_.loops = {};
    vars_.release_definitions();
    // The plan's records, then its views: at the records' peak the windows are smaller,
    // and hold no more room than they need (the walk reserved an estimate).
    facts_.windows.shrink_to_fit();
    fp.allocations.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& site = facts_.allocations[i];
      fp.allocations.emplace_back();
      auto& a = fp.allocations.back();
      a.statement = site.statement;
      a.base = site.base;
      a.size = site.size;
      a.name = site.name;
      a.where = site.where;
      a.devices = pool_[site.order];
    }
    pool_.release();
    // Past the records only an allocation's name's hash is read of its site (duplicate
    // names): the sites are freed as it is copied out, before the views are made and the
    // steps that follow add their tables.
    name_hashes_.resize(n);
    std::size_t next = 0;
    facts_.allocations.consume([&](const auto& site) { name_hashes_[next++] = site.name_hash; });
    make_views(fp);
    link_views(fp);
    collectives_structure(fp);
    inherit(fp);
    if constexpr (Adapter::symbolic) // clustering compares canonical forms
      for (auto& a : fp.allocations)
        if (a.devices.has_progressions())
          a.devices.canonicalize(min_world_.value);
    collectives_coverage(fp);
    check_allocations(fp);
    cluster(fp, table_);
    duplicate_names(fp);
    if (n > 0 && !a_.can_wrap_body(f))
      report(facts_.diagnostics, error_code::malformed_op, reason::unwrappable_body,
             fp.allocations[0].name, fp.allocations[0].where, positions_[0]);
    nesting_limit(fp);
    if constexpr (Record)
      std::sort(fp.evidence.begin(), fp.evidence.end(), [](const auto& x, const auto& y) {
        if (x.receiver != y.receiver)
          return x.receiver < y.receiver;
        if (x.order != y.order)
          return x.order < y.order;
        return x.passed_view < y.passed_view; // one dispatch passing two views of one allocation
      });
    for (auto& d : facts_.diagnostics) {
      d.order += base_;
      diagnostics.push_back(std::move(d));
    }
  }

  /// For the verifier (verify.hpp): scopes are walked as the blocks they are, never read
  /// back, so that the plan says what the program uses; and which allocations' coverage
  /// lost evidence to a reported call (what such a call's diagnostics stand for).
  constexpr void analyze_as_if_unmaterialized() { as_if_unmaterialized_ = true; }
  [[nodiscard]] constexpr bool suppressed(std::uint32_t a) const { return is(a, suppressed_flag); }
  /// For the verifier: the next run judges these views' window buffers on its walk
  /// (check_window_pointers), so that the function is walked once, and appends to `bad`
  /// the indices of those whose pointer names another allocation.
  constexpr void judge_pointers(std::span<typename scope_records<Adapter>::view> views,
                                vec<std::uint32_t>& bad) {
    judged_views_ = views;
    bad_views_ = &bad;
  }
  /// The smallest world the last run's dispatches need (devices.hpp, smallest_world):
  /// with symbolic sets, what its canonical forms are for.
  [[nodiscard]] constexpr device_id min_world() const { return min_world_.value; }

private:
  /// Step 2: a window whose pointer names an allocation (through copies) is a view. The
  /// windows (collect.hpp, window_site) become the views in place, the plan's once the
  /// dispatches are judged (make_views). A pointer that
  /// several bindings reach names the allocations they name: one is a view of it (the
  /// others are values the pass does not follow), two are an error, since a view has one
  /// window buffer; a view among them is view-escapes (window_of_view).
  constexpr void bind_views() {
    auto& windows = facts_.windows;
    std::uint32_t views = 0;
    unsure_.clear();
    for (auto& w : windows) {
      auto a = vars_.allocation_of(w.allocation); // the pointer's definition
      bool reported = false;
      if (a == no_index) {
        a = several_allocations(w, reported);
        // A pointer that may be a view as well as an allocation's pointer would use that
        // view's allocation uncounted too: the window stays a view of its allocation.
        window_of_view(w);
        if (a == no_index)
          continue;
      }
      if (reported) // a view still, so that nothing downstream reports its rejection again
        unsure_.emplace_back(views);
      vars_.set_view(w.next, views); // the window's definition
      windows[views++] = {w.statement, a, no_index};
    }
    windows.resize(views);
  }

  /// The plan's views, in the views' order: each window's assignment and its (single)
  /// target. Made after the plan's records, once the sites are freed, at their exact count.
  constexpr void make_views(function_plan<Traits>& fp) {
    fp.views.resize(facts_.windows.size());
    for (std::size_t v = 0; v < fp.views.size(); ++v) {
      // The statements were last read by the walk: a few views ahead, a statement that is
      // a pointer is asked for early, so that reading its target does not wait for it.
      if constexpr (std::is_pointer_v<typename Traits::statement>)
        if (!std::is_constant_evaluated() && v + 16 < fp.views.size()) {
          const auto* ahead = reinterpret_cast<const char*>(facts_.windows[v + 16].statement);
          __builtin_prefetch(ahead);
          __builtin_prefetch(ahead + 64);
        }
      const auto& w = facts_.windows[v];
      auto&& targets = a_.targets(w.statement);
      fp.views[v] = {w.statement, *std::ranges::begin(targets), w.allocation, no_index};
    }
    release(facts_.windows);
  }

  /// The one allocation a window's pointer may name, or no_index (none). Several are
  /// reported (`reported`): the window is then taken as a view of the first, and every
  /// allocation it may name is spared the diagnostics that would follow from it, as for
  /// a reported call.
  constexpr std::uint32_t several_allocations(const window_site<Adapter>& w, bool& reported) {
    std::uint32_t first = no_index, second = no_index;
    const auto mark = to_suppress_.size();
    vars_.sources(
        w.allocation,
        [&](std::uint32_t d) {
          const auto& b = vars_.at(d);
          if (b.what != binding::kind::allocation)
            return;
          to_suppress_.emplace_back(b.ref);
          if (first == no_index)
            first = b.ref;
          else if (b.ref != first && (second == no_index || b.ref < second))
            second = b.ref;
        },
        true); // a pure cast or select of a pointer is a copy of it
    if (second == no_index) {
      to_suppress_.resize(mark);
      return first;
    }
    reported = true;
    const auto view_of = first;
    if (second < first)
      std::swap(first, second);
    const auto order = static_cast<std::uint64_t>(-1 - vars_.at(w.next).value);
    report(facts_.diagnostics, error_code::malformed_op, reason::ambiguous_window,
           facts_.allocations[first].name, a_.location_of(w.statement), order)
        .with_object(facts_.allocations[second].name);
    return view_of;
  }

  /// A window whose pointer may be a view (a window of a window, through copies and
  /// derived values, whether or not it may also name an allocation) would use that view's
  /// allocation where no dispatch of it is counted: view-escapes at the window, naming
  /// the allocation of the first such view (whose windows come before: they are views by
  /// now).
  constexpr void window_of_view(const window_site<Adapter>& w) {
    std::uint32_t alloc = no_index, view = no_index;
    vars_.sources(
        w.allocation,
        [&](std::uint32_t d) {
          if (d == no_index)
            return;
          const auto& b = vars_.at(d);
          if (b.what != binding::kind::window || b.value < 0)
            return;
          const auto v = static_cast<std::uint32_t>(b.value);
          const auto a = facts_.windows[v].allocation;
          escaped(a);
          if (alloc == no_index || a < alloc) {
            alloc = a;
            view = v;
          }
        },
        true);
    if (alloc == no_index)
      return;
    const auto order = static_cast<std::uint64_t>(-1 - vars_.at(w.next).value);
    report(facts_.diagnostics, error_code::view_escapes, reason::view_into_operation,
           facts_.allocations[alloc].name, a_.location_of(w.statement), order)
        .with_object("window")
        .with_note(note_kind::view, {}, a_.location_of(facts_.windows[view].statement));
  }

  /// A dispatch argument that may be a window pointer (an allocation's result, through
  /// copies, merges and derived values) hands the chip the whole allocation on devices no
  /// view of it counts: view-escapes at the dispatch, once per dispatch, naming the first
  /// such allocation. An allocation without views is dead-alloc, always reported, and
  /// rejected by it already.
  constexpr void pointer_arguments() {
    bool viewed = false;    // the allocations' viewed_flag is set
    std::uint32_t next = 0; // the dispatches' arguments, in their order
    for (const auto& d : facts_.dispatches) {
      const auto first = next;
      next += d.argument_count;
      if (d.form == device_form::reported) // no dispatch: its arguments are spared
        continue;
      std::uint32_t alloc = no_index;
      for (std::uint32_t k = 0; k < d.argument_count; ++k)
        alloc = std::min(alloc, vars_.pointer_allocation(facts_.dispatch_arguments[first + k]));
      if (alloc == no_index)
        continue;
      if (!viewed) {
        viewed = true;
        for (const auto& w : facts_.windows)
          mark(w.allocation, viewed_flag);
      }
      if (!is(alloc, viewed_flag)) { // rare: look for another that has views
        alloc = no_index;
        for (std::uint32_t k = 0; k < d.argument_count; ++k)
          vars_.sources(
              facts_.dispatch_arguments[first + k],
              [&](std::uint32_t x) {
                const auto& b = vars_.at(x);
                if (x != no_index && b.what == binding::kind::allocation && is(b.ref, viewed_flag))
                  alloc = std::min(alloc, b.ref);
              },
              true);
        if (alloc == no_index)
          continue;
      }
      escaped(alloc);
      const auto& site = facts_.allocations[alloc];
      report(facts_.diagnostics, error_code::view_escapes, reason::pointer_into_dispatch, site.name,
             a_.location_of(d.call), d.order)
          .with_object(a_.call_target_of(d.call).callee.name)
          .with_note(note_kind::shared_allocation, site.name, site.where);
    }
    vars_.release_pointer_searches();
  }

  /// Frees a table this function no longer needs (clear() would keep its capacity).
  template <class V> static constexpr void release(V& v) { v = V(); }

  /// Calls f(view) for every view an argument's may-set holds (facts' arguments hold
  /// may-sets once resolved).
  template <class F> constexpr void for_each_view(std::uint32_t set, F&& f) const {
    vars_.sets().for_each(set, f);
  }
  /// Calls f(allocation) for the allocations of an argument's views (an allocation
  /// twice when two of its views are in the set).
  template <class F>
  constexpr void for_each_allocation(const function_plan<Traits>& fp, std::uint32_t set,
                                     F&& f) const {
    vars_.sets().for_each(set, [&](std::uint32_t v) { f(fp.views[v].allocation); });
  }
  /// The allocation every view of the set is of, or no_index (none, or several).
  [[nodiscard]] constexpr std::uint32_t must_allocation(const function_plan<Traits>& fp,
                                                        std::uint32_t set) const {
    std::uint32_t only = no_index;
    bool several = false;
    for_each_allocation(fp, set, [&](std::uint32_t a) {
      if (only == no_index)
        only = a;
      else if (a != only)
        several = true;
    });
    return several ? no_index : only;
  }

  /// Every use the walk could not follow (collect.hpp, escape_site) whose operands may
  /// hold a view or a window pointer is `view-escapes`, once per use, naming the first
  /// allocation concerned; those allocations are not reported again (no unconsumed-alloc
  /// nor dead-alloc: one cause, one diagnostic).
  constexpr void escapes() {
    for (const auto& e : facts_.escapes) {
      std::uint32_t alloc = no_index, view = no_index;
      for (const auto v : vars_.sets().of(vars_.view_of(e.def))) {
        const auto a = facts_.windows[v].allocation;
        escaped(a);
        if (alloc == no_index || a < alloc) {
          alloc = a;
          view = v;
        }
      }
      std::uint32_t pointer = no_index;
      vars_.sources(
          e.def,
          [&](std::uint32_t d) {
            const auto& b = vars_.at(d);
            if (d == no_index || b.what != binding::kind::allocation)
              return;
            escaped(b.ref);
            if (pointer == no_index || b.ref < pointer)
              pointer = b.ref;
          },
          true);
      if (alloc == no_index && pointer == no_index)
        continue;
      const bool is_view = alloc != no_index;
      const auto a = is_view ? alloc : pointer;
      const auto& site = facts_.allocations[a];
      if (e.window) {
        report(facts_.diagnostics, error_code::malformed_op, reason::window_not_assigned, site.name,
               a_.location_of(e.use), e.order)
            .with_note(note_kind::shared_allocation, site.name, site.where);
        continue;
      }
      reason why = is_view ? reason::view_into_operation : reason::pointer_into_operation;
      if (e.keyword)
        why = is_view ? reason::view_by_keyword : reason::pointer_by_keyword;
      else if (e.external)
        why = is_view ? reason::view_into_external_call : reason::pointer_into_external_call;
      else if (e.call)
        why = is_view ? reason::view_into_call : reason::pointer_into_call;
      else if (e.returned)
        why = is_view ? reason::view_returned_to_callers : reason::pointer_returned_to_callers;
      auto& d = report(facts_.diagnostics, error_code::view_escapes, why, site.name,
                       e.returned ? a_.location_of(e.statement) : a_.location_of(e.use), e.order)
                    .with_object(e.name.empty() ? std::string_view("?") : e.name);
      if (is_view)
        d.with_note(note_kind::view, {}, a_.location_of(facts_.windows[view].statement));
      else
        d.with_note(note_kind::shared_allocation, d.subject, site.where);
    }
  }

  constexpr void escaped(std::uint32_t a) {
    if (!is(a, escaped_flag)) {
      mark(a, escaped_flag);
      to_suppress_.emplace_back(a);
    }
  }

  /// Step 3: every dispatch's descriptor goes to the allocations of its view arguments
  /// (accumulated per allocation as an index into pool_, copied into the plan's records
  /// once they are made, normalized by inherit()).
  constexpr void dispatches(function_plan<Traits>& fp) {
    device_inference<Adapter> infer(a_, vars_, facts_);
    pool_.reset();
    std::uint32_t next = 0; // the dispatches' arguments, in their order
    for (const auto& d : facts_.dispatches) {
      const auto first = next;
      next += d.argument_count;
      if (d.form == device_form::reported) { // reported by the walk: no dispatch
        for (std::uint32_t k = 0; k < d.argument_count; ++k)
          for (const auto v : vars_.sets().of(facts_.dispatch_arguments[first + k]))
            to_suppress_.emplace_back(facts_.windows[v].allocation);
        continue;
      }
      const auto& desc = infer.infer(d);
      const bool failed = desc.what == descriptor::status::error;
      if constexpr (Adapter::symbolic)
        min_world_.widen(d, desc);
      if (failed) {
        // With symbolic sets, what is left of partial-world-range is a bound out of form.
        const reason why = Adapter::symbolic && desc.code == error_code::partial_world_range
                               ? reason::world_loop_beyond_form
                               : desc.why;
        auto& diag = report(facts_.diagnostics, desc.code, why,
                            a_.call_target_of(d.call).callee.name, a_.location_of(d.call), d.order)
                         .with_device(desc.number)
                         .with_limit(adapter<Traits>::device_limit);
        // A loop that gave no devices is where the device variable comes from.
        if (desc.loop != no_index)
          diag.with_note(desc.code == error_code::unsupported_device ? note_kind::variable_loop
                                                                     : note_kind::device_loop,
                         {}, facts_.loops[desc.loop].where);
      }
      const std::uint32_t given = desc.what == descriptor::status::devices && !failed
                                      ? pool_.id_of(desc.devices)
                                      : device_pool::bottom;
      for (std::uint32_t k = 0; k < d.argument_count; ++k)
        for (const auto v : vars_.sets().of(facts_.dispatch_arguments[first + k]))
          dispatched(fp, d, desc, failed, v, given);
    }
  }

  /// One view that a dispatch may pass: its allocation gets the dispatch's devices.
  constexpr void dispatched(function_plan<Traits>& fp, const dispatch_site<Adapter>& d,
                            const descriptor& desc, bool failed, std::uint32_t v,
                            std::uint32_t given) {
    const auto a = facts_.windows[v].allocation;
    if (failed) {
      to_suppress_.emplace_back(a);
      return;
    }
    mark(a, consumed_flag);
    if (auto& at = devices_of(a); at != given && given != device_pool::bottom)
      at = at == device_pool::bottom ? given : pool_.join(at, given);
    if constexpr (Record) {
      fp.evidence.emplace_back();
      auto& ev = fp.evidence.back();
      ev.what = contribution<Traits>::kind::dispatch;
      ev.receiver = a;
      ev.order = base_ + d.order;
      ev.callee = a_.call_target_of(d.call).callee.name;
      ev.where = a_.location_of(d.call);
      if (desc.what == descriptor::status::devices)
        ev.devices = desc.devices;
      ev.passed_view = v;
      if (desc.loop != no_index) {
        ev.from_loop = true;
        ev.loop = facts_.loops[desc.loop].where;
      }
    }
  }

  /// Per collective: the may-set of views of each positional argument (roles past the
  /// fifth are none the pass reads).
  struct collective_state {
    std::array<std::uint32_t, 5> views{no_index, no_index, no_index, no_index, no_index};
    bool reported = false;
    bool spared = false; ///< reported only for the checks that need no allocation
  };

  /// Whether an argument may be a window reported as ambiguous (bind_views).
  [[nodiscard]] constexpr bool holds_unsure(const collective_state& st) const {
    if (unsure_.empty())
      return false;
    for (auto set : st.views)
      for (const auto v : vars_.sets().of(set)) {
        // A binary search of its own: std::binary_search is eight functions to compile.
        std::size_t lo = 0, hi = unsure_.size();
        while (lo < hi) {
          const std::size_t mid = lo + (hi - lo) / 2;
          if (unsure_[mid] < v)
            lo = mid + 1;
          else
            hi = mid;
        }
        if (lo < unsure_.size() && unsure_[lo] == v)
          return true;
      }
    return false;
  }

  /// Step 4, the checks that need no coverage: arity, then arguments that must be views.
  constexpr void collectives_structure(const function_plan<Traits>& fp) {
    states_.assign(facts_.collectives.size(), {});
    edges_.clear();
    for (std::size_t i = 0; i < facts_.collectives.size(); ++i) {
      const auto& c = facts_.collectives[i];
      const auto& r = row(c.op);
      auto& st = states_[i];
      const std::size_t n = c.argument_count;
      for (std::size_t k = 0; k < n && k < st.views.size(); ++k)
        st.views[k] = facts_.arguments[c.first_argument + k];
      if (n < r.min_arity || n > r.max_arity) {
        report(facts_.diagnostics, error_code::malformed_op, reason::wrong_arity, r.name, c.where,
               c.order)
            .with_arity(static_cast<std::int64_t>(n), r.max_arity);
        st.reported = true;
      } else if (holds_unsure(st)) { // its arguments' allocations are unknown: no more to say
        st.reported = st.spared = true;
      } else {
        for (auto m : r.must_be_views)
          if (m != none_arg && st.views[m] == no_index) {
            report(facts_.diagnostics, error_code::collective_arg_not_window, reason::none, r.name,
                   c.where, c.order)
                .with_arguments(m);
            st.reported = true;
            break;
          }
      }
      if (st.reported) {
        queue_suppression(fp, st);
        continue;
      }
      // Coverage passes from every allocation the source may view to every allocation
      // an inheriting argument may view.
      for (auto to : r.inheritors)
        if (to != none_arg)
          for_each_allocation(fp, st.views[r.source], [&](std::uint32_t from) {
            for_each_allocation(fp, st.views[to], [&](std::uint32_t into) {
              edges_.emplace_back(edge{from, into, static_cast<std::uint32_t>(i)});
            });
          });
    }
  }

  /// A reported collective: its arguments' allocations lost evidence to it.
  constexpr void queue_suppression(const function_plan<Traits>& fp, const collective_state& st) {
    for (auto set : st.views)
      for_each_allocation(fp, set, [&](std::uint32_t a) { to_suppress_.push_back(a); });
  }

  /// Whether no allocation the set may view has coverage (nor lost it to a reported call).
  [[nodiscard]] constexpr bool lacks_coverage(const function_plan<Traits>& fp,
                                              std::uint32_t set) const {
    bool covered = false;
    for_each_allocation(fp, set, [&](std::uint32_t a) {
      covered = covered || is(a, suppressed_flag) || !fp.allocations[a].devices.is_bottom();
    });
    return !covered;
  }
  /// Whether some allocation the set may view inherits coverage from a collective.
  [[nodiscard]] constexpr bool inherits(const function_plan<Traits>& fp, std::uint32_t set) const {
    bool any = false;
    for_each_allocation(fp, set, [&](std::uint32_t a) { any = any || inherits_[a]; });
    return any;
  }

  /// Step 4's inheritance and step 5's merge, to a fixed point over the edges; then the
  /// allocations whose diagnostics would be cascades of a reported call.
  constexpr void inherit(function_plan<Traits>& fp) {
    const auto n = fp.allocations.size();
    for (std::size_t i = 0; i < n; ++i)
      fp.allocations[i].devices.normalize();
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
        bool changed = fp.allocations[v].devices.join(fp.allocations[u].devices);
        if (is(u, consumed_flag) && !is(v, consumed_flag)) {
          mark(v, consumed_flag);
          changed = true;
        }
        if (changed && !queued_[v]) {
          queued_[v] = 1;
          work_.emplace_back(v);
        }
      }
    }
    spread_suppression();
    if constexpr (Record)
      for (const auto& e : edges_) // coverage that reached the source was passed on
        if (is(e.from, consumed_flag) && e.from != e.to) {
          const auto& c = facts_.collectives[e.collective];
          fp.evidence.emplace_back();
          auto& ev = fp.evidence.back();
          ev.what = contribution<Traits>::kind::inherited;
          ev.receiver = e.to;
          ev.order = base_ + c.order;
          ev.callee = row(c.op).name;
          ev.where = c.where;
          ev.from = e.from;
        }
  }

  /// Suppression flows along inheritance: coverage lost upstream is not re-reported.
  constexpr void spread_suppression() {
    while (!to_suppress_.empty()) {
      const auto u = to_suppress_.back();
      to_suppress_.pop_back();
      if (is(u, suppressed_flag))
        continue;
      mark(u, suppressed_flag);
      for (auto k = first_[u]; k < first_[u + 1]; ++k)
        to_suppress_.emplace_back(next_[k]);
    }
  }

  /// Step 4, the checks that need coverage. A buffer with no coverage is reported where
  /// the lack starts: first the collectives whose buffer inherits from no other (their
  /// lack is their own), then the rest in source order, skipping what those lost to a
  /// reported call. So `allreduce(b, c)` before `allreduce(a, b)` with `a` uncovered
  /// reports only the latter, as the reverse order does; a cycle of uncovered buffers is
  /// reported once, at its first collective. Diagnostics are sorted into source order
  /// at the end.
  constexpr void collectives_coverage(const function_plan<Traits>& fp) {
    inherits_.assign(fp.allocations.size(), 0);
    for (const auto& e : edges_)
      inherits_[e.to] = 1;
    const auto uncovered = [&](std::size_t i, bool roots_only) {
      const auto& c = facts_.collectives[i];
      const auto& r = row(c.op);
      auto& st = states_[i];
      if (st.reported || r.source == none_arg)
        return;
      const auto src = st.views[r.source];
      if ((roots_only && inherits(fp, src)) || !lacks_coverage(fp, src))
        return;
      report(facts_.diagnostics, error_code::uncovered_collective, reason::none, r.name, c.where,
             c.order);
      st.reported = true;
      queue_suppression(fp, st);
      if (!roots_only) // roots are independent of each other: spread once after them
        spread_suppression();
    };
    for (std::size_t i = 0; i < facts_.collectives.size(); ++i)
      uncovered(i, true);
    spread_suppression();
    for (std::size_t i = 0; i < facts_.collectives.size(); ++i) {
      uncovered(i, false);
      auto& st = states_[i];
      if (st.spared && facts_.collectives[i].op == operation::all_to_all_v &&
          facts_.collectives[i].loop != no_index) { // a check that needs no allocation
        const auto& c = facts_.collectives[i];
        report(facts_.diagnostics, error_code::collective_in_loop, reason::none, row(c.op).name,
               c.where, c.order)
            .with_note(note_kind::enclosing_loop, {}, loop_wheres_[c.loop]);
        continue;
      }
      if (st.reported)
        continue;
      const auto& c = facts_.collectives[i];
      const auto& r = row(c.op);
      if (c.op == operation::barrier && lacks_coverage(fp, st.views[0])) {
        report(facts_.diagnostics, error_code::barrier_no_coverage, reason::none, r.name, c.where,
               c.order);
      } else if (c.op == operation::all_to_all_v && c.loop != no_index) { // whatever coverage
        report(facts_.diagnostics, error_code::collective_in_loop, reason::none, r.name, c.where,
               c.order)
            .with_note(note_kind::enclosing_loop, {}, loop_wheres_[c.loop]);
      } else if (!aliased_windows(fp, c, st)) {
        continue;
      }
      st.reported = true;
      queue_suppression(fp, st);
      spread_suppression();
    }
  }

  /// Two window arguments of one collective that must be views of one allocation
  /// (docs/semantics.md, `collective-aliased-windows`: each may-set is that one
  /// allocation; a may-alias is no error): reported for the first such pair, with notes
  /// at the allocation and at both views.
  constexpr bool aliased_windows(const function_plan<Traits>& fp, const collective_site<Adapter>& c,
                                 const collective_state& st) {
    const std::size_t n = std::min<std::size_t>(c.argument_count, st.views.size());
    std::array<std::uint32_t, 5> must{no_index, no_index, no_index, no_index, no_index};
    for (std::size_t k = 0; k < n; ++k)
      must[k] = must_allocation(fp, st.views[k]);
    for (std::size_t k = 1; k < n; ++k) {
      if (must[k] == no_index)
        continue;
      for (std::size_t j = 0; j < k; ++j) {
        if (must[j] != must[k])
          continue;
        const auto& r = row(c.op);
        const auto& al = fp.allocations[must[k]];
        auto& d = report(facts_.diagnostics, error_code::collective_aliased_windows, reason::none,
                         r.name, c.where, c.order)
                      .with_arguments(static_cast<std::int64_t>(j), static_cast<std::int64_t>(k))
                      .with_object(al.name)
                      .with_note(note_kind::shared_allocation, al.name, al.where);
        for (const auto at : {j, k}) {
          std::uint32_t first = no_index; // the first view the argument may hold
          for_each_view(st.views[at], [&](std::uint32_t v) { first = std::min(first, v); });
          d.with_note(note_kind::aliased_view, r.roles[at],
                      a_.location_of(fp.views[first].statement));
        }
        return true;
      }
    }
    return false;
  }

  /// Step 6 for allocations: dead, unconsumed, empty. One whose evidence a reported
  /// window took (the pointer may name it or another: several_allocations) is spared
  /// all three, since that window may be its view.
  constexpr void check_allocations(const function_plan<Traits>& fp) {
    for (std::size_t i = 0; i < fp.allocations.size(); ++i) {
      const auto& a = fp.allocations[i];
      const auto at = positions_[i];
      if (a.view_count == 0 && !is(i, escaped_flag) && !is(i, suppressed_flag))
        report(facts_.diagnostics, error_code::dead_alloc, reason::none, a.name, a.where, at);
      else if (is(i, suppressed_flag))
        continue;
      else if (!is(i, consumed_flag)) {
        auto& d = report(facts_.diagnostics, error_code::unconsumed_alloc, reason::none, a.name,
                         a.where, at);
        for (const auto v : fp.views_of(static_cast<std::uint32_t>(i)))
          d.with_note(note_kind::view, {}, a_.location_of(fp.views[v].statement));
      } else if (a.devices.is_bottom())
        report(facts_.diagnostics, error_code::empty_coverage, reason::none, a.name, a.where, at);
    }
  }

  /// Step 6 for domains: a name twice in one domain is reported at the later allocation
  /// (every later one). Slots are in allocation order, so a table of first occurrences
  /// finds them in linear expected time, without sorting names.
  constexpr void duplicate_names(const function_plan<Traits>& fp) {
    for (const auto& d : fp.domains) {
      table_.reset(d.slots.size());
      for (const auto i : d.slots) {
        const auto& name = fp.allocations[i].name;
        const auto first = table_.find_or_insert(
            name_hashes_[i], i, [&](std::uint32_t j) { return fp.allocations[j].name == name; });
        if (first != i && !is(i, suppressed_flag))
          report(facts_.diagnostics, error_code::duplicate_name, reason::none, name,
                 fp.allocations[i].where, positions_[i])
              .with_note(note_kind::earlier_allocation, name, fp.allocations[first].where);
      }
    }
  }

  /// A body that holds scopes and also allocations no scope lists (a partly
  /// materialized body): each such allocation is an error, never silently skipped.
  constexpr void unscoped_allocations(const function_plan<Traits>& fp,
                                      vec<diagnostic<location>>& out) {
    slotted_.clear();
    for (const auto& a : fp.allocations) {
      const auto id = vars_.id(a.base);
      if (id >= slotted_.size())
        slotted_.resize(id + 1, 0);
      slotted_[id] = 1;
    }
    for (const auto& site : facts_.allocations) {
      const auto id = vars_.id(site.base);
      if (id >= slotted_.size() || !slotted_[id])
        report(out, error_code::malformed_op, reason::alloc_outside_scope, site.name, site.where,
               base_ + site.order);
    }
  }

  /// One nested scope per domain: more than the adapter can hold is reported at the
  /// first allocation of the first domain beyond the limit.
  constexpr void nesting_limit(const function_plan<Traits>& fp) {
    constexpr std::size_t limit = adapter<Traits>::scope_nesting_limit;
    if (fp.domains.size() <= limit)
      return;
    const auto i = fp.domains[limit].slots.front();
    report(facts_.diagnostics, error_code::scope_nesting_limit, reason::none,
           fp.allocations[i].name, fp.allocations[i].where, positions_[i])
        .with_depth(static_cast<std::int64_t>(limit) + 1)
        .with_limit(static_cast<std::int64_t>(limit));
  }

  struct edge {
    std::uint32_t from, to;
    std::uint32_t collective; ///< the collective that passes coverage along it
  };

  Adapter a_;
  variable_table<Adapter> vars_;
  std::uint64_t& order_;
  std::uint64_t base_ = 0; ///< the program's position before this function's walk
  function_facts<Adapter> facts_;
  /// Per allocation, one byte of these: consumed, some dispatch passed a view of it,
  /// directly or through a collective that passes coverage on (without it,
  /// `unconsumed-alloc`); suppressed, its coverage lost evidence to a reported call;
  /// escaped, a view or pointer of it escaped.
  /// viewed, it has a view (set by pointer_arguments only, when a dispatch may pass a
  /// pointer).
  enum allocation_flag : std::uint8_t {
    consumed_flag = 1,
    suppressed_flag = 2,
    escaped_flag = 4,
    viewed_flag = 8
  };
  vec<std::uint8_t> flags_;
  [[nodiscard]] constexpr bool is(std::size_t a, allocation_flag f) const {
    return (flags_[a] & f) != 0;
  }
  constexpr void mark(std::size_t a, allocation_flag f) {
    flags_[a] = static_cast<std::uint8_t>(flags_[a] | f);
  }
  vec<std::uint8_t> queued_;
  vec<std::uint32_t> unsure_; ///< the views of windows reported as ambiguous, ascending
  /// Allocation a's devices until its plan record is made, an index into pool_: in its
  /// site, whose position is then kept in positions_.
  [[nodiscard]] constexpr std::uint32_t& devices_of(std::size_t a) {
    return facts_.allocations[a].order;
  }
  device_pool pool_;
  /// Per allocation once its site is freed: what diagnostics and duplicate names read.
  vec<std::uint32_t> positions_, name_hashes_;
  vec<location> loop_wheres_; ///< per loop, once the dispatches are judged
  smallest_world min_world_;  ///< symbolic sets are compared for such worlds
  std::span<typename scope_records<Adapter>::view> judged_views_; ///< judge_pointers
  vec<std::uint32_t>* bad_views_ = nullptr;
  /// Allocations whose evidence a reported call took, to be suppressed with every
  /// allocation that inherits from them (spread_suppression).
  vec<std::uint32_t> to_suppress_;
  vec<std::uint32_t> first_, next_, work_;
  vec<std::uint8_t> inherits_; ///< per allocation: some collective passes coverage to it
  vec<std::uint8_t> slotted_;  ///< per variable id: the base of a scope's slot
  index_table table_;          ///< domain leaders, then names within a domain
  vec<collective_state> states_;
  vec<edge> edges_;
  bool as_if_unmaterialized_ = false;
};

} // namespace detail

namespace detail {
template <bool Record, class Program, class Traits>
[[nodiscard]] constexpr auto analyze_program(const Program& p, const Traits& traits) {
  if constexpr (!analyzable_ir<Traits>) {
    diagnose_analysis<Traits>();
    return plan<plan_traits<Traits>>{};
  } else {
    const detail::adapter<Traits> a(traits);
    plan<Traits> result;
    std::uint64_t order = 0;
    detail::function_analysis<Traits, Record> fa(a, p, order);
    for (auto&& f : a.functions(p)) {
      const function_info info = a.describe(f);
      if (!info.is_host_orchestrator())
        continue;
      result.functions.emplace_back();
      auto& fp = result.functions.back();
      fp.function = f;
      fp.name = info.name;
      fa.run(f, fp, result.diagnostics);
    }
    // A call reports at most once; an allocation at most once per code.
    sort_diagnostics(result.diagnostics);
    return result;
  }
}
} // namespace detail

} // namespace commscope
