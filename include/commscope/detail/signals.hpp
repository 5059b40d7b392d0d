// The analysis of the companion pass (docs/semantics.md, "The companion pass: signal
// synthesis"): every signal-less host allreduce, where its bindings go, its fresh suffix
// N, and the errors that keep a program from being rewritten. It runs in constant
// evaluation too.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/collect.hpp>
#include <commscope/detail/operations.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/detail/walk.hpp>
#include <commscope/diagnostics.hpp>
#include <commscope/detail/numbered_name.hpp>
#include <commscope/plan.hpp>
#include <commscope/signal_plan.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace commscope {

namespace detail {

inline constexpr std::string_view signal_prefix = "__allreduce_signal_";
inline constexpr std::array<std::string_view, 3> signal_stems{
    "__allreduce_signal_world_size_", "__allreduce_signal_buf_", "__allreduce_signal_"};

/// The suffix N of a synthesized name (digits only, as the counter prints them), or -1.
constexpr std::int64_t signal_suffix(std::string_view name) {
  for (const auto stem : signal_stems) {
    if (!name.starts_with(stem) || name.size() == stem.size() || name.size() - stem.size() > 18)
      continue;
    const auto digits = name.substr(stem.size());
    if (digits.size() > 1 && digits[0] == '0')
      continue;
    std::int64_t n = 0;
    bool ok = true;
    for (char c : digits) {
      if (c < '0' || c > '9') {
        ok = false;
        break;
      }
      n = n * 10 + (c - '0');
    }
    if (ok)
      return n;
  }
  return -1;
}

/// The three names of suffix N.
struct signal_names {
  constexpr explicit signal_names(std::uint64_t n)
      : names{{{signal_stems[0], n}, {signal_stems[1], n}, {signal_stems[2], n}}} {}
  [[nodiscard]] constexpr std::string_view world_size() const { return names[0].view(); }
  [[nodiscard]] constexpr std::string_view buffer() const { return names[1].view(); }
  [[nodiscard]] constexpr std::string_view signal() const { return names[2].view(); }
  std::array<numbered_name<64>, 3> names;
};

/// Walks one host orchestrator: a visitor of statement_walker.
template <class Traits> class signal_finder {
  using Adapter = adapter<Traits>;
  using statement = typename Traits::statement;
  using expression = typename Traits::expression;
  using location = typename Traits::location;

public:
  constexpr signal_finder(const Adapter& a, signal_plan<Traits>& out, std::uint64_t& order)
      : a_(a), out_(out), order_(order) {}

  constexpr void run(typename Traits::function f) {
    function_ = f;
    loops_.clear();
    walker_.run(a_, a_.body(f), *this);
  }

  constexpr bool enter(statement s) {
    ++order_;
    switch (a_.statement_kind_of(s)) {
    case statement_kind::assignment:
    case statement_kind::evaluation:
      whole(a_.value(s), s);
      return false;
    case statement_kind::return_: { // one returned value; `return a, b` is a tuple
      // One pass: the first value waits until a second one shows it is a tuple.
      std::size_t n = 0;
      expression first{};
      for_each_in<expression>(a_.expressions(s), [&](expression e) {
        if (++n == 1) {
          first = e;
          return;
        }
        if (n == 2)
          nested(first);
        nested(e);
      });
      if (n == 1)
        whole(first, s);
      return false;
    }
    case statement_kind::for_loop: {
      const auto b = a_.loop_bounds(s);
      for (const auto* o : {&b.start, &b.stop, &b.step})
        if (!o->is_integer)
          nested(o->expression);
      loops_.emplace_back(a_.location_of(s));
      return true;
    }
    case statement_kind::while_loop:
      for (auto&& e : a_.expressions(s)) { nested(e); }
      loops_.emplace_back(a_.location_of(s));
      return true;
    case statement_kind::scope:
    case statement_kind::other:
      for (auto&& e : a_.expressions(s)) { nested(e); }
      if (a_.control_of(s) != control_flow::repeat)
        return false;
      loops_.emplace_back(a_.location_of(s)); // a loop of another kind (`for x in items`)
      return true;
    case statement_kind::jump: // a raise's exception
      for (auto&& e : a_.expressions(s)) { nested(e); }
      return false;
    }
    return false;
  }
  constexpr void leave(statement) { loops_.pop_back(); }

private:
  [[nodiscard]] constexpr bool is_allreduce(expression e) const {
    if (a_.expression_kind_of(e) != expression_kind::call)
      return false;
    const call_target t = a_.call_target_of(e);
    return t.what == call_target::kind::operation && t.op == operation::allreduce;
  }

  /// Every finding is about an allreduce, at its call.
  constexpr diagnostic<location>& report(error_code c, reason why, expression e, std::uint64_t at) {
    return detail::report(out_.diagnostics, c, why, row(operation::allreduce).name,
                          a_.location_of(e), at);
  }

  constexpr void wrong_arity(expression e, std::size_t n, std::uint64_t at) {
    report(error_code::malformed_op, reason::wrong_arity, e, at)
        .with_arity(static_cast<std::int64_t>(n), row(operation::allreduce).max_arity);
  }

  /// The whole value of statement s: where a signal-less allreduce belongs.
  constexpr void whole(expression e, statement s) {
    if (!is_allreduce(e)) {
      nested(e);
      return;
    }
    const std::uint64_t at = ++order_;
    const std::size_t n = count_of(a_.arguments(e));
    if (n == 1) {
      const std::int64_t cores = a_.core_num_of(e);
      if (cores <= 0)
        report(error_code::malformed_op, reason::bad_core_num, e, at);
      else if (!loops_.empty())
        report(error_code::collective_in_loop, reason::synthesized_in_loop, e, at)
            .with_note(note_kind::enclosing_loop, {}, loops_.back());
      else
        out_.sites.push_back({function_, s, e, a_.location_of(e), cores, 0});
    } else if (n != 2) {
      wrong_arity(e, n, at);
    }
    operands(e);
  }

  /// Any allreduce inside e (e included) is nested in an expression.
  constexpr void nested(expression e) {
    visit(e);
    operands(e);
  }
  constexpr void visit(expression e) {
    if (!is_allreduce(e))
      return;
    const std::uint64_t at = ++order_;
    const std::size_t n = count_of(a_.arguments(e));
    if (n == 1 || n == 2) // with its signal too, as the DSL's compiler requires
      report(error_code::malformed_op, reason::nested_allreduce, e, at);
    else
      wrong_arity(e, n, at);
  }
  /// e's operand trees in pre-order, on an explicit stack.
  constexpr void operands(expression e) {
    for_each_operand_preorder(
        a_, e, stack_, [](expression) { return true; }, [&](expression sub) { visit(sub); });
  }

  const Adapter& a_;
  signal_plan<Traits>& out_;
  std::uint64_t& order_;
  typename Traits::function function_{};
  statement_walker<Adapter> walker_;
  vec<expression> stack_;
  vec<location> loops_; ///< the loops open here, innermost last
};

} // namespace detail

} // namespace commscope

// `plan_signals`, for code that includes this header for it.
#include <commscope/plan_signals.hpp>
