// The analysis of one program: steps 1-6 and 9 of docs/semantics.md for every host
// orchestrator, all errors in source order, nothing in the IR touched. The entry points
// are in analyze.hpp.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/collect.hpp>
#include <commscope/detail/coverage.hpp>
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
    core_.flags.assign(n, 0);
    bind_views();
    pointer_arguments();
    // A definition becomes the view it resolves to.
    const auto to_views = [&](std::uint32_t* defs, std::size_t count) {
      vars_.views_of(defs, count);
    };
    facts_.arguments.for_each_block(to_views);
    facts_.dispatch_arguments.for_each_block(to_views);
    escapes();
    release(facts_.escapes); // nothing reads them again: off the dispatches' peak
    // From here on only diagnostics read an allocation's position: kept apart, its site's
    // field holds the index of its devices in pool_ instead (devices_of).
    core_.positions.resize(n);
    std::uint32_t* position = core_.positions.data();
    facts_.allocations.for_each_block([&](allocation_site<Adapter>* sites, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i, ++position) {
        *position = sites[i].order;
        sites[i].order = device_pool::bottom; // devices_of
      }
    });
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
    core_.name_hashes.resize(n);
    std::size_t next = 0;
    facts_.allocations.consume(
        [&](const auto& site) { core_.name_hashes[next++] = site.name_hash; });
    make_views(fp);
    link_views(fp);
    // Where a record the coverage steps report at is, in the IR's terms.
    const auto where = [&](site_ref at) {
      switch (at.what) {
      case site_ref::kind::allocation:
        return fp.allocations[at.index].where;
      case site_ref::kind::collective:
        return facts_.collective_wheres[at.index];
      case site_ref::kind::loop:
        return loop_wheres_[at.index];
      case site_ref::kind::view:
        break;
      }
      return a_.location_of(fp.views[at.index].statement);
    };
    core_.judge(fp,
                {.collectives = facts_.collectives.data(),
                 .collective_count = facts_.collectives.size(),
                 .arguments = &facts_.arguments,
                 .sets = &vars_.sets(),
                 .min_world = min_world_.value,
                 .symbolic = Adapter::symbolic,
                 .nesting_limit = adapter<Traits>::scope_nesting_limit},
                facts_.diagnostics, where, by_record());
    if constexpr (Record)
      inherited_evidence(fp);
    // The domains, each with its leader's devices and its allocations in their order.
    fp.domains.clear();
    for (const auto leader : core_.leaders)
      fp.domains.emplace_back().devices = fp.allocations[leader].devices;
    for (std::uint32_t i = 0; i < n; ++i)
      if (const auto d = fp.allocations[i].domain; d != no_index)
        append(fp.domains[d].slots, i);
    if (n > 0 && !a_.can_wrap_body(f))
      report(facts_.diagnostics, error_code::malformed_op, reason::unwrappable_body,
             fp.allocations[0].name, fp.allocations[0].where, core_.positions[0]);
#if defined(COMMSCOPE_SEPARATE_COMPILATION)
    for (const auto& d : by_record_) // the compiled core's reports
      facts_.diagnostics.push_back(located<location>(d, where));
#endif
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
  [[nodiscard]] constexpr bool suppressed(std::uint32_t a) const {
    return is(a, coverage::suppressed);
  }
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
  // The steps after the walk run once per function: each is out of line, so that run()
  // stays small to compile (g++ optimizes a step again inside every caller it inlines
  // it into) at no measurable cost.

  /// Step 2: a window whose pointer names an allocation (through copies) is a view. The
  /// windows (collect.hpp, window_site) become the views in place, the plan's once the
  /// dispatches are judged (make_views). A pointer that
  /// several bindings reach names the allocations they name: one is a view of it (the
  /// others are values the pass does not follow), two are an error, since a view has one
  /// window buffer; a view among them is view-escapes (window_of_view).
  [[gnu::noinline]] constexpr void bind_views() {
    auto& windows = facts_.windows;
    std::uint32_t views = 0;
    core_.unsure.clear();
    for (auto& w : windows) {
      auto a = vars_.allocation_of(w.allocation); // the pointer's definition
      bool reported = false;
      if (a == no_index) {
        a = several_allocations(w, reported);
        // A pointer that may be a view as well as an allocation's pointer would use that
        // view's allocation uncounted too: the window stays a view of its allocation.
        const bool of_view = window_of_view(w);
        if (a == no_index) {
          // Of what the function does not allocate (a parameter, a helper's result): a
          // window no scope would hold, used on devices the pass cannot know.
          if (!of_view)
            report(facts_.diagnostics, error_code::malformed_op, reason::window_of_unknown_pointer,
                   {}, a_.location_of(w.statement),
                   static_cast<std::uint64_t>(-1 - vars_.at(w.next).value));
          continue;
        }
      }
      if (reported) // a view still, so that nothing downstream reports its rejection again
        core_.unsure.emplace_back(views);
      vars_.set_view(w.next, views); // the window's definition
      windows[views++] = {w.statement, a, no_index};
    }
    windows.resize(views);
  }

  /// The plan's views, in the views' order: each window's assignment and its (single)
  /// target. Made after the plan's records, once the sites are freed, at their exact count.
  [[gnu::noinline]] constexpr void make_views(function_plan<Traits>& fp) {
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
  [[gnu::noinline]] constexpr std::uint32_t several_allocations(const window_site<Adapter>& w,
                                                                bool& reported) {
    std::uint32_t first = no_index, second = no_index;
    const auto mark = core_.to_suppress.size();
    vars_.sources(
        w.allocation,
        [&](std::uint32_t d) {
          const auto& b = vars_.at(d);
          if (b.what != binding::kind::allocation)
            return;
          core_.to_suppress.emplace_back(b.ref);
          if (first == no_index)
            first = b.ref;
          else if (b.ref != first && (second == no_index || b.ref < second))
            second = b.ref;
        },
        true); // a pure cast or select of a pointer is a copy of it
    if (second == no_index) {
      core_.to_suppress.resize(mark);
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
  /// now). Returns whether it reported.
  [[gnu::noinline]] constexpr bool window_of_view(const window_site<Adapter>& w) {
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
      return false;
    const auto order = static_cast<std::uint64_t>(-1 - vars_.at(w.next).value);
    report(facts_.diagnostics, error_code::view_escapes, reason::view_into_operation,
           facts_.allocations[alloc].name, a_.location_of(w.statement), order)
        .with_object("window")
        .with_note(note_kind::view, {}, a_.location_of(facts_.windows[view].statement));
    return true;
  }

  /// A dispatch argument that may be a window pointer (an allocation's result, through
  /// copies, merges and derived values) hands the chip the whole allocation on devices no
  /// view of it counts: view-escapes at the dispatch, once per dispatch, naming the first
  /// such allocation. An allocation without views is dead-alloc, always reported, and
  /// rejected by it already.
  [[gnu::noinline]] constexpr void pointer_arguments() {
    bool viewed = false;    // the allocations' coverage::viewed is set
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
          mark(w.allocation, coverage::viewed);
      }
      if (!is(alloc, coverage::viewed)) { // rare: look for another that has views
        alloc = no_index;
        for (std::uint32_t k = 0; k < d.argument_count; ++k)
          vars_.sources(
              facts_.dispatch_arguments[first + k],
              [&](std::uint32_t x) {
                const auto& b = vars_.at(x);
                if (x != no_index && b.what == binding::kind::allocation &&
                    is(b.ref, coverage::viewed))
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

  /// Every use the walk could not follow (collect.hpp, escape_site) whose operands may
  /// hold a view or a window pointer is `view-escapes`, once per use, naming the first
  /// allocation concerned; those allocations are not reported again (no unconsumed-alloc
  /// nor dead-alloc: one cause, one diagnostic).
  [[gnu::noinline]] constexpr void escapes() {
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

  /// Step 3: every dispatch's descriptor goes to the allocations of its view arguments
  /// (accumulated per allocation as an index into pool_, copied into the plan's records
  /// once they are made, normalized by the coverage steps: coverage.hpp).
  [[gnu::noinline]] constexpr void dispatches(function_plan<Traits>& fp) {
    device_inference<Adapter> infer(a_, vars_, facts_);
    pool_.reset();
    std::uint32_t next = 0; // the dispatches' arguments, in their order
    for (const auto& d : facts_.dispatches) {
      const auto first = next;
      next += d.argument_count;
      if (d.form == device_form::reported) { // reported by the walk: no dispatch
        for (std::uint32_t k = 0; k < d.argument_count; ++k)
          for (const auto v : vars_.sets().of(facts_.dispatch_arguments[first + k]))
            core_.to_suppress.emplace_back(facts_.windows[v].allocation);
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
      core_.to_suppress.emplace_back(a);
      return;
    }
    mark(a, coverage::consumed);
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

  /// Evidence of coverage passed on by a collective, once inheritance reached its fixed
  /// point: along every edge whose source was consumed.
  constexpr void inherited_evidence(function_plan<Traits>& fp) {
    for (const auto& e : core_.edges())
      if (is(e.from, coverage::consumed) && e.from != e.to) {
        const auto& c = facts_.collectives[e.collective];
        fp.evidence.emplace_back();
        auto& ev = fp.evidence.back();
        ev.what = contribution<Traits>::kind::inherited;
        ev.receiver = e.to;
        ev.order = base_ + c.order;
        ev.callee = row(c.op).name;
        ev.where = facts_.collective_wheres[e.collective];
        ev.from = e.from;
      }
  }

  /// A body that holds scopes and also allocations no scope lists (a partly
  /// materialized body): each such allocation is an error, never silently skipped.
  [[gnu::noinline]] constexpr void unscoped_allocations(const function_plan<Traits>& fp,
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

  Adapter a_;
  variable_table<Adapter> vars_;
  std::uint64_t& order_;
  std::uint64_t base_ = 0; ///< the program's position before this function's walk
  function_facts<Adapter> facts_;
  /// The allocations' flags and the steps past the dispatches (coverage.hpp).
  coverage core_;
#if defined(COMMSCOPE_SEPARATE_COMPILATION)
  /// What the compiled core's coverage steps report, by record (the header-only build
  /// reports in the IR's terms as it goes, and has no such vector to compile).
  std::vector<diagnostic<site_ref>> by_record_;
  constexpr std::vector<diagnostic<site_ref>>* by_record() {
    by_record_.clear();
    return &by_record_;
  }
#else
  static constexpr std::vector<diagnostic<site_ref>>* by_record() { return nullptr; }
#endif
  [[nodiscard]] constexpr bool is(std::size_t a, coverage::flag f) const { return core_.is(a, f); }
  constexpr void mark(std::size_t a, coverage::flag f) { core_.mark(a, f); }
  constexpr void escaped(std::uint32_t a) { core_.escape(a); }
  /// Allocation a's devices until its plan record is made, an index into pool_: in its
  /// site, whose position is then kept in the core's positions.
  [[nodiscard]] constexpr std::uint32_t& devices_of(std::size_t a) {
    return facts_.allocations[a].order;
  }
  device_pool pool_;
  vec<location> loop_wheres_; ///< per loop, once the dispatches are judged
  smallest_world min_world_;  ///< symbolic sets are compared for such worlds
  std::span<typename scope_records<Adapter>::view> judged_views_; ///< judge_pointers
  vec<std::uint32_t>* bad_views_ = nullptr;
  vec<std::uint8_t> slotted_; ///< per variable id: the base of a scope's slot
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
