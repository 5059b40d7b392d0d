// The facade between the algorithms and an adapter, in the manner of
// std::allocator_traits: it holds the traits object and offers every member of the
// contract under the member's own name, derived from its declaration (contract/): the
// adapter's member, or an optional member's default. The algorithms call nothing else.
#pragma once

#include <commscope/traits.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <ranges>
#include <type_traits>

namespace commscope {

namespace detail {

/// A loop bound as the analysis sees it: an expression, or an integer the IR left
/// implicit.
template <class Expression> struct bound_operand {
  bool is_integer = false;
  std::int64_t value = 0;
  Expression expression{};
};

/// A handle or none, as the facade reads it from what an adapter handed out: plain data,
/// where std::optional would bring code of its own that every translation unit compiles.
template <class Handle> struct handle_or_none {
  Handle value{};
  bool some = false;
  constexpr explicit operator bool() const { return some; }
  constexpr const Handle& operator*() const { return value; }
};

/// f(Element(x)) for each x of the range r (a range the facade returned).
template <class Element, class Range, class F> constexpr void for_each_in(Range&& r, F&& f) {
  for (auto&& x : r)
    f(Element(x));
}
/// Whether the range r is empty (an input range: begin meets end).
template <class Range> constexpr bool no_elements(Range&& r) {
  return std::ranges::begin(r) == std::ranges::end(r);
}

/// The facade's calls of every member of the list.
template <class T, class Facade, class List> struct facade_calls;
template <class T, class Facade, class... R>
struct facade_calls<T, Facade, contract::records<R...>> : R::template facade_call<T, Facade>... {};

template <class Traits>
class adapter : public facade_calls<Traits, adapter<Traits>, contract::every_record> {
  using calls = facade_calls<Traits, adapter<Traits>, contract::every_record>;

public:
  using traits_type = Traits;
  using program = typename Traits::program;
  using function = typename Traits::function;
  using statement = typename Traits::statement;
  using expression = typename Traits::expression;
  using variable = typename Traits::variable;
  using location = typename Traits::location;
  using window_buffer = window_buffer_t<Traits>;
  using operand = bound_operand<expression>;
  using rewriter = rewriter_t<Traits>;
  using signal_rewriter = signal_rewriter_t<Traits>;

  static constexpr bool dense_variables = provides<Traits, contract::variable_index>;
  static constexpr bool has_readers = reads_scopes<Traits>;
  static constexpr bool has_control_flow = provides<Traits, contract::control_of>;
  /// Whether some statements other than jumps may end a run (may_end_run).
  static constexpr bool has_run_ends = provides<Traits, contract::may_end_run>;
  /// Whether the adapter gives per-target values (values(s)).
  static constexpr bool has_parallel_values = provides<Traits, contract::values>;
  /// Whether scopes can hold world-relative progressions.
  static constexpr bool symbolic = contract::symbolic_device_sets::of<Traits>();
  static constexpr std::int64_t device_limit = contract::device_limit::of<Traits>();
  static constexpr std::size_t scope_nesting_limit = contract::scope_nesting_limit::of<Traits>();

  constexpr explicit adapter(const Traits& t) : t_(t) {}
  [[nodiscard]] constexpr const Traits& traits() const { return t_; }

  /// {start, stop, step} as operands: an expression, or an integer the IR left implicit
  /// (an absent start is 0, an absent step 1).
  constexpr commscope::loop_bounds<operand> loop_bounds(statement s) const {
    const auto b = calls::loop_bounds(s);
    return {operand_of(b.start, 0), operand_of(b.stop, 0), operand_of(b.step, 1)};
  }

  using calls::flow_of;
  /// flow_of(e) for an expression whose call target `known` the caller already has: the
  /// default then need not ask the adapter for it again.
  constexpr expression_flow flow_of(expression e, const call_target& known) const {
    if constexpr (provides<Traits, contract::flow_of>)
      return calls::flow_of(e);
    else
      return default_flow(calls::expression_kind_of(e), known);
  }

  /// A window-buffer handle from the adapter, or none: std::nullopt or, for an adapter
  /// that does not use std::optional, a value-initialized handle.
  template <class W> static constexpr handle_or_none<window_buffer> handed_out(const W& w) {
    if constexpr (is_optional<std::remove_cvref_t<W>>::value) {
      if (!w)
        return {};
      return {window_buffer(*w), true};
    } else {
      const window_buffer h = w;
      if constexpr (says_none_with_optional)
        return {h, true};
      else
        return {h, !(h == window_buffer{})};
    }
  }

private:
  /// The adapter says "none" with std::optional: then every plain handle it hands out is a
  /// real window buffer, index 0 included.
  static constexpr bool says_none_with_optional = [] {
    if constexpr (has_readers)
      return is_optional<
          std::remove_cvref_t<typename contract::view_window_buffer::template call<Traits>>>::value;
    else
      return false;
  }();

  template <class X> static constexpr operand operand_of(const X& x, std::int64_t absent) {
    using B = std::remove_cvref_t<X>;
    if constexpr (std::same_as<B, expression>)
      return {false, 0, x};
    else if constexpr (std::same_as<B, std::optional<expression>>)
      return x ? operand{false, 0, *x} : operand{true, absent, expression{}};
    else
      return {true, static_cast<std::int64_t>(x), expression{}};
  }

  Traits t_;
};

} // namespace detail
} // namespace commscope
