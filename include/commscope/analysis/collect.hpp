// Steps 1-3 of pass.md, as one walk of a host orchestrator's body: bindings,
// allocations, windows, dispatches, collectives and loops, each stamped with its position
// in the walk (pre-order: a statement before its expressions, before its children), which
// is source order whatever the IR's locations look like.
//
// The walk keeps its own stacks: its depth in the call stack does not grow with the
// nesting of the program.
#pragma once

#include <commscope/analysis/operations.hpp>
#include <commscope/analysis/variables.hpp>
#include <commscope/concepts.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ranges>

namespace commscope::analysis {

/// The number of elements of a range an adapter returned (any input range).
template <class Range>
constexpr std::size_t count_of(Range&& r) {
  std::size_t n = 0;
  for (auto it = std::ranges::begin(r); it != std::ranges::end(r); ++it)
    ++n;
  return n;
}

/// A call's i-th positional argument; the caller has checked the arity.
template <class Traits>
constexpr typename Traits::expression nth_argument(typename Traits::expression call,
                                                   std::size_t i) {
  auto&& args = Traits::arguments(call);
  auto it = std::ranges::begin(args);
  for (; i > 0; --i)
    ++it;
  return *it;
}

template <class Traits>
struct dispatch_site {
  typename Traits::expression call{};
  typename Traits::expression device{};
  std::string_view callee;
  typename Traits::location where{};
  std::uint64_t order = 0;
};

template <class Traits>
struct collective_site {
  typename Traits::expression call{};
  operation op = operation::none;
  typename Traits::location where{};
  std::uint64_t order = 0;
  bool in_loop = false;
};

template <class Traits>
struct loop_site {
  std::optional<loop_bounds<typename Traits::expression>> bounds; ///< for loops only
  std::uint64_t begin = 0; ///< walk positions strictly inside the loop: (begin, end)
  std::uint64_t end = 0;
};

template <class Traits>
struct window_site {
  std::uint32_t variable; ///< the window's result
  std::uint32_t pointer;  ///< its first argument's variable
  typename Traits::variable handle{};
};

template <class Traits>
struct function_facts {
  using storage = storage_t<Traits>;
  template <class T>
  using vec = typename storage::template vector<T>;

  vec<allocation<Traits>> allocations;
  vec<std::uint64_t> allocation_order;
  vec<window_site<Traits>> windows;
  vec<dispatch_site<Traits>> dispatches;
  vec<collective_site<Traits>> collectives;
  vec<loop_site<Traits>> loops;
  vec<diagnostic<typename Traits::location>> diagnostics;
  /// A scope statement was met: the function was materialized before (pass.md: the
  /// pass does not wrap a body twice), so its plan is read back instead.
  bool saw_scope = false;

  constexpr void clear() {
    saw_scope = false;
    allocations.clear();
    allocation_order.clear();
    windows.clear();
    dispatches.clear();
    collectives.clear();
    loops.clear();
    diagnostics.clear();
  }
};

template <class Traits>
class collector {
  using storage = storage_t<Traits>;
  template <class T>
  using vec = typename storage::template vector<T>;
  using statement = typename Traits::statement;
  using expression = typename Traits::expression;
  using variable = typename Traits::variable;

public:
  constexpr collector(variable_table<Traits>& vars, function_facts<Traits>& out,
                      std::uint64_t& order)
      : vars_(vars), out_(out), order_(order) {}

  constexpr void run(typename Traits::function f) {
    push_reversed(Traits::body(f));
    while (!stack_.empty()) {
      auto item = stack_.back();
      stack_.pop_back();
      if (item.closes_loop) {
        out_.loops[item.loop].end = ++order_;
        --loop_depth_;
        continue;
      }
      enter(item.s);
    }
  }

private:
  struct item {
    statement s{};
    bool closes_loop = false;
    std::uint32_t loop = 0;
  };

  /// Pushes in order, then reverses in place: no intermediate copy of the range.
  template <class Range>
  constexpr void push_reversed(Range&& r) {
    const auto mark = stack_.size();
    for (auto&& s : r)
      stack_.push_back({s, false, 0});
    std::reverse(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
  }

  constexpr void open_loop(std::optional<loop_bounds<expression>> bounds) {
    const auto idx = static_cast<std::uint32_t>(out_.loops.size());
    out_.loops.push_back({bounds, order_, 0});
    stack_.push_back({statement{}, true, idx});
    ++loop_depth_;
  }

  constexpr void enter(statement s) {
    const std::uint64_t at = ++order_;
    switch (Traits::statement_kind_of(s)) {
    case statement_kind::assignment:
      assign(s, at);
      break;
    case statement_kind::evaluation:
      walk(Traits::value(s), false);
      break;
    case statement_kind::for_loop: {
      const auto b = Traits::loop_bounds(s);
      walk(b.start, false);
      walk(b.stop, false);
      walk(b.step, false);
      const auto idx = static_cast<std::uint32_t>(out_.loops.size());
      vars_.bind(vars_.id(Traits::loop_variable(s)), {binding::kind::loop, idx, 0});
      open_loop(b);
      push_children(s);
      return;
    }
    case statement_kind::while_loop:
      for (auto&& e : Traits::expressions(s))
        walk(e, false);
      open_loop(std::nullopt);
      push_children(s);
      return;
    case statement_kind::scope:
      out_.saw_scope = true;
      [[fallthrough]];
    case statement_kind::other:
      for (auto&& e : Traits::expressions(s))
        walk(e, false);
      break;
    }
    push_children(s);
  }

  constexpr void push_children(statement s) {
    // Children go above any loop-closing marker pushed for s.
    push_reversed(Traits::children(s));
  }

  constexpr void assign(statement s, std::uint64_t at) {
    targets_.clear();
    for (auto&& v : Traits::targets(s)) {
      if (targets_.empty())
        first_target_ = v;
      targets_.push_back(vars_.id(v));
    }
    const expression e = Traits::value(s);
    const bool single = targets_.size() == 1;
    binding b{binding::kind::opaque};
    switch (Traits::expression_kind_of(e)) {
    case expression_kind::variable:
      b = {binding::kind::copy, vars_.id(Traits::variable_of(e)), 0};
      break;
    case expression_kind::integer:
      b = {binding::kind::integer, no_index, Traits::integer_value(e)};
      break;
    case expression_kind::call:
      if (single)
        b = bind_call(s, e, at);
      break;
    case expression_kind::other:
      break;
    }
    if (single)
      vars_.bind(targets_[0], b);
    else
      for (auto t : targets_)
        vars_.bind(t, {binding::kind::opaque});
    walk(e, single);
  }

  /// The binding of `x = call(...)`; records allocations and windows.
  constexpr binding bind_call(statement s, expression e, std::uint64_t at) {
    const call_target t = Traits::call_target_of(e);
    if (t.what != call_target::kind::operation)
      return {binding::kind::opaque};
    const auto n = count_of(Traits::arguments(e));
    const auto& r = row(t.op);
    if (n < r.min_arity || n > r.max_arity)
      return {binding::kind::opaque}; // reported by walk()
    switch (t.op) {
    case operation::alloc_window_buffer: {
      allocation<Traits> a;
      a.base = first_target_;
      a.size = nth_argument<Traits>(e, 0);
      a.name = Traits::allocation_name(e);
      a.where = Traits::statement_location(s);
      const auto idx = static_cast<std::uint32_t>(out_.allocations.size());
      out_.allocations.push_back(std::move(a));
      out_.allocation_order.push_back(at);
      return {binding::kind::allocation, idx, 0};
    }
    case operation::window: {
      const expression ptr = nth_argument<Traits>(e, 0);
      if (Traits::expression_kind_of(ptr) != expression_kind::variable)
        return {binding::kind::opaque};
      const auto p = vars_.id(Traits::variable_of(ptr));
      out_.windows.push_back({targets_[0], p, first_target_});
      return {binding::kind::window, p, -1};
    }
    case operation::world_size:
      return {binding::kind::world_size};
    default:
      if (r.result_through != none_arg) {
        const expression through = nth_argument<Traits>(e, r.result_through);
        if (Traits::expression_kind_of(through) == expression_kind::variable)
          return {binding::kind::collective_result, vars_.id(Traits::variable_of(through)), 0};
      }
      return {binding::kind::opaque};
    }
  }

  /// Visits an expression tree, finding every call. `direct`: e is the whole value of a
  /// single-target assignment (where an allocation belongs).
  constexpr void walk(expression root, bool direct) {
    exprs_.push_back({root, direct});
    while (!exprs_.empty()) {
      auto [e, is_direct] = exprs_.back();
      exprs_.pop_back();
      const std::uint64_t at = ++order_;
      if (Traits::expression_kind_of(e) == expression_kind::call)
        call(e, is_direct, at);
      const auto mark = exprs_.size();
      for (auto&& sub : Traits::subexpressions(e))
        exprs_.push_back({sub, false});
      std::reverse(exprs_.begin() + static_cast<std::ptrdiff_t>(mark), exprs_.end());
    }
  }

  constexpr void call(expression e, bool direct, std::uint64_t at) {
    const call_target t = Traits::call_target_of(e);
    switch (t.what) {
    case call_target::kind::unresolved_function:
      report(error_code::malformed_op, detail::unknown_callee, t.callee.name, e, at);
      return;
    case call_target::kind::function:
      if (t.callee.is_chip_orchestrator())
        if (auto d = Traits::device_of(e))
          out_.dispatches.push_back({e, *d, t.callee.name, Traits::expression_location(e), at});
      return;
    case call_target::kind::operation:
      break;
    }
    if (t.op == operation::none)
      return;
    const auto& r = row(t.op);
    if (r.collective) { // arity is judged with the collective's other checks
      out_.collectives.push_back({e, t.op, Traits::expression_location(e), at, loop_depth_ > 0});
      return;
    }
    const auto n = count_of(Traits::arguments(e));
    if (n < r.min_arity || n > r.max_arity) {
      auto& d = report(error_code::malformed_op, detail::wrong_arity, r.name, e, at);
      d.number = static_cast<std::int64_t>(n);
      d.extra = r.max_arity;
    } else if (t.op == operation::alloc_window_buffer && !direct) {
      report(error_code::malformed_op, detail::alloc_not_assigned, Traits::allocation_name(e),
             e, at);
    }
  }

  constexpr diagnostic<typename Traits::location>& report(error_code c, detail why,
                                                          std::string_view subject,
                                                          expression e, std::uint64_t at) {
    out_.diagnostics.push_back({c, why, subject, 0, 0, Traits::expression_location(e), at});
    return out_.diagnostics.back();
  }

  variable_table<Traits>& vars_;
  function_facts<Traits>& out_;
  std::uint64_t& order_;
  vec<item> stack_;
  vec<std::uint32_t> targets_;
  variable first_target_{};
  struct pending_expression {
    expression e;
    bool direct;
  };
  vec<pending_expression> exprs_;
  std::uint32_t loop_depth_ = 0;
};

} // namespace commscope::analysis
