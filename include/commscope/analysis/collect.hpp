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
#include <ranges>

namespace commscope::analysis {

/// The number of elements of a range an adapter returned (any input range; a sized one
/// answers without being walked).
template <class Range>
constexpr std::size_t count_of(Range&& r) {
  if constexpr (std::ranges::sized_range<Range>)
    return static_cast<std::size_t>(std::ranges::size(r));
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
  std::uint64_t order = 0; ///< the callee's name and location are read again on error
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
  loop_bounds<typename Traits::expression> bounds{}; ///< for loops only
  std::uint64_t begin = 0; ///< walk positions strictly inside the loop: (begin, end)
  std::uint64_t end = 0;
  bool counted = false; ///< a for loop (else bounds is empty)
};

/// What the walk records of an allocation; the plan's (larger) records are built once
/// the count is known, not moved on every growth.
template <class Traits>
struct allocation_site {
  typename Traits::variable base{};
  typename Traits::expression size{};
  std::string_view name;
  typename Traits::location where{};
  std::uint64_t order = 0; ///< the assignment's
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

  vec<allocation_site<Traits>> allocations;
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
    windows.clear();
    dispatches.clear();
    collectives.clear();
    loops.clear();
    diagnostics.clear();
  }
};

/// Positions (`order`) number the walk's events in pre-order: statements, calls and loop
/// ends. Other expressions get none: only the relative order of events is ever compared.
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
    // Facts sized up front from a cheap estimate, so that a long body's facts are not
    // moved on every growth: in a valid program each allocation takes its own statement
    // and its view's, and is dispatched at least once.
    const auto estimate = count_of(Traits::body(f)) / 2;
    out_.allocations.reserve(estimate);
    out_.windows.reserve(estimate);
    out_.dispatches.reserve(estimate);
    // Top-level statements are taken from the body in order; only nested ones are
    // stacked (a body is mostly flat, and stacking it would copy it).
    for (auto&& top_level : Traits::body(f)) {
      statement s = top_level;
      for (;;) {
        enter(s);
        while (!stack_.empty() && stack_.back().closes_loop) {
          out_.loops[stack_.back().loop].end = ++order_;
          --loop_depth_;
          stack_.pop_back();
        }
        if (stack_.empty())
          break;
        s = stack_.back().s;
        stack_.pop_back();
      }
    }
  }

private:
  struct item {
    statement s{};
    bool closes_loop = false;
    std::uint32_t loop = 0;
  };

  constexpr void open_loop(const loop_bounds<expression>& bounds, bool counted) {
    const auto idx = static_cast<std::uint32_t>(out_.loops.size());
    out_.loops.emplace_back(loop_site<Traits>{bounds, order_, 0, counted});
    stack_.emplace_back(item{statement{}, true, idx});
    ++loop_depth_;
  }

  /// One statement's step. Assignments and evaluations are most of a body and stay
  /// here; loops and other statements are out of line, so that this step is small
  /// enough to be inlined into run() rather than paying a call per statement.
  constexpr void enter(statement s) {
    const std::uint64_t at = ++order_;
    switch (Traits::statement_kind_of(s)) {
    case statement_kind::assignment:
      assign(s, at);
      break;
    case statement_kind::evaluation:
      walk(Traits::value(s));
      break;
    default:
      enter_other(s);
      break;
    }
    push_children(s);
  }

  [[gnu::noinline]] constexpr void enter_other(statement s) {
    switch (Traits::statement_kind_of(s)) {
    case statement_kind::for_loop: {
      const auto b = Traits::loop_bounds(s);
      walk(b.start);
      walk(b.stop);
      walk(b.step);
      const auto idx = static_cast<std::uint32_t>(out_.loops.size());
      vars_.bind(vars_.id(Traits::loop_variable(s)), {binding::kind::loop, idx, 0});
      open_loop(b, true);
      break;
    }
    case statement_kind::while_loop:
      for (auto&& e : Traits::expressions(s))
        walk(e);
      open_loop({}, false);
      break;
    case statement_kind::scope:
      out_.saw_scope = true;
      [[fallthrough]];
    default:
      for (auto&& e : Traits::expressions(s))
        walk(e);
      break;
    }
  }

  /// Children go above any loop-closing marker pushed for s, last child first.
  constexpr void push_children(statement s) {
    auto&& children = Traits::children(s);
    auto it = std::ranges::begin(children);
    const auto end = std::ranges::end(children);
    if (it != end) // most statements have none: this check stays inline in enter()
      stack_children(it, end);
  }
  template <class It, class End>
  [[gnu::noinline]] constexpr void stack_children(It it, End end) {
    const auto mark = stack_.size();
    for (; it != end; ++it)
      stack_.emplace_back(item{*it, false, 0});
    if (stack_.size() - mark > 1)
      std::reverse(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
  }

  constexpr void assign(statement s, std::uint64_t at) {
    // One target is the common case; with more, each is bound opaquely (out of line).
    std::uint32_t first = no_index;
    bool single = false;
    auto&& targets = Traits::targets(s);
    auto it = std::ranges::begin(targets);
    const auto end = std::ranges::end(targets);
    if (it != end) {
      first_target_ = *it;
      first = first_id_ = vars_.id(first_target_);
      single = ++it == end;
      if (!single)
        bind_opaque(first, it, end);
    }
    const expression e = Traits::value(s);
    binding b{binding::kind::opaque};
    switch (Traits::expression_kind_of(e)) {
    case expression_kind::variable:
      b = {binding::kind::copy, vars_.id(Traits::variable_of(e)), 0};
      break;
    case expression_kind::integer:
      b = {binding::kind::integer, no_index, Traits::integer_value(e)};
      break;
    case expression_kind::call:
      // One pass over the call serves its binding and its own checks.
      call(e, single ? &b : nullptr, s, at, ++order_);
      if (single)
        vars_.bind(first, b);
      walk_operands(e);
      return;
    case expression_kind::other:
      break;
    }
    if (single)
      vars_.bind(first, b);
    walk(e);
  }

  /// The targets of `a, b = ...`: the first and the rest (from `it`) bound opaquely.
  template <class It, class End>
  [[gnu::noinline]] constexpr void bind_opaque(std::uint32_t first, It it, End end) {
    vars_.bind(first, {binding::kind::opaque});
    for (; it != end; ++it)
      vars_.bind(vars_.id(*it), {binding::kind::opaque});
  }

  /// The binding of `x = op(...)`, op recognised with a valid arity; records
  /// allocations and windows. `at`: the assignment's position.
  constexpr binding bind_operation(statement s, expression e, operation op,
                                   const operation_row& r, std::uint64_t at) {
    switch (op) {
    case operation::alloc_window_buffer: {
      const auto idx = static_cast<std::uint32_t>(out_.allocations.size());
      out_.allocations.emplace_back(allocation_site<Traits>{
          first_target_, nth_argument<Traits>(e, 0), Traits::allocation_name(e),
          Traits::statement_location(s), at});
      return {binding::kind::allocation, idx, 0};
    }
    case operation::window: {
      const expression ptr = nth_argument<Traits>(e, 0);
      if (Traits::expression_kind_of(ptr) != expression_kind::variable)
        return {binding::kind::opaque};
      const auto p = vars_.id(Traits::variable_of(ptr));
      out_.windows.emplace_back(window_site<Traits>{first_id_, p, first_target_});
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

  /// An expression that is no call and has no operands (a constant, a variable, a bare
  /// name) holds no call: it is neither stacked nor numbered.
  static constexpr bool is_leaf(expression e) {
    if (Traits::expression_kind_of(e) == expression_kind::call)
      return false;
    auto&& subs = Traits::subexpressions(e);
    return std::ranges::begin(subs) == std::ranges::end(subs);
  }

  /// Visits an expression tree that is not the direct value of an assignment, finding
  /// every call.
  constexpr void walk(expression root) {
    if (is_leaf(root))
      return;
    visit(root);
    walk_operands(root);
  }

  /// An expression of a walk: only calls have anything to check.
  constexpr void visit(expression e) {
    if (Traits::expression_kind_of(e) == expression_kind::call)
      call(e, nullptr, statement{}, 0, ++order_);
  }

  /// Visits the trees of e's operands, in pre-order. The first operand that is no leaf
  /// is visited next directly; only its siblings wait on the stack (first on top).
  constexpr void walk_operands(expression e) {
    for (;;) {
      const auto mark = exprs_.size();
      bool has_next = false;
      expression next{};
      for (auto&& sub : Traits::subexpressions(e)) {
        if (is_leaf(sub))
          continue;
        if (has_next) {
          exprs_.emplace_back(sub);
        } else {
          next = sub;
          has_next = true;
        }
      }
      if (exprs_.size() - mark > 1)
        std::reverse(exprs_.begin() + static_cast<std::ptrdiff_t>(mark), exprs_.end());
      if (!has_next) {
        if (exprs_.empty())
          return;
        next = exprs_.back();
        exprs_.pop_back();
      }
      e = next;
      visit(e);
    }
  }

  /// A call's own checks and records. `bound`: set when e is the whole value of a
  /// single-target assignment `s` at position `at_assignment` (where an allocation
  /// belongs): receives the target's binding (left opaque unless e is a recognised
  /// operation with a valid arity). `at`: the call's own position.
  constexpr void call(expression e, binding* bound, statement s, std::uint64_t at_assignment,
                      std::uint64_t at) {
    const call_target t = Traits::call_target_of(e);
    switch (t.what) {
    case call_target::kind::unresolved_function:
      report(error_code::malformed_op, detail::unknown_callee, t.callee.name, e, at);
      return;
    case call_target::kind::function:
      if (t.callee.is_chip_orchestrator())
        if (auto d = Traits::device_of(e))
          out_.dispatches.emplace_back(dispatch_site<Traits>{e, *d, at});
      return;
    case call_target::kind::operation:
      break;
    }
    if (t.op == operation::none)
      return;
    const auto& r = row(t.op);
    const std::size_t n = count_of(Traits::arguments(e));
    const bool arity_ok = n >= r.min_arity && n <= r.max_arity;
    if (r.collective) { // arity is judged with the collective's other checks
      out_.collectives.emplace_back(
          collective_site<Traits>{e, t.op, Traits::expression_location(e), at, loop_depth_ > 0});
    } else if (!arity_ok) {
      auto& d = report(error_code::malformed_op, detail::wrong_arity, r.name, e, at);
      d.number = static_cast<std::int64_t>(n);
      d.extra = r.max_arity;
    } else if (!bound && t.op == operation::alloc_window_buffer) {
      report(error_code::malformed_op, detail::alloc_not_assigned, Traits::allocation_name(e),
             e, at);
    }
    if (bound && arity_ok)
      *bound = bind_operation(s, e, t.op, r, at_assignment);
  }

  /// Out of line: an error is rare, and its code would weigh on every call's checks.
  [[gnu::noinline]] constexpr diagnostic<typename Traits::location>& report(error_code c, detail why,
                                                          std::string_view subject,
                                                          expression e, std::uint64_t at) {
    out_.diagnostics.push_back({c, why, subject, 0, 0, Traits::expression_location(e), at});
    return out_.diagnostics.back();
  }

  variable_table<Traits>& vars_;
  function_facts<Traits>& out_;
  std::uint64_t& order_;
  vec<item> stack_;
  variable first_target_{}; ///< of the assignment being bound
  std::uint32_t first_id_ = no_index;
  vec<expression> exprs_;
  std::uint32_t loop_depth_ = 0;
};

} // namespace commscope::analysis
