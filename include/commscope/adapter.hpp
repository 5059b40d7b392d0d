// The facade between the algorithms and an adapter, in the manner of
// std::allocator_traits: it holds the traits object and calls every member through it,
// an optional one through its record's default (contract/). The algorithms call nothing
// else.
#pragma once

#include <commscope/traits.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>

namespace commscope {

namespace detail {

/// A loop bound as the analysis sees it: an expression, or an integer the IR left
/// implicit.
template <class Expression> struct bound_operand {
  bool is_integer = false;
  std::int64_t value = 0;
  Expression expression{};
};

template <class Traits> class adapter {
public:
  using traits_type = Traits;
  using program = typename Traits::program;
  using function = typename Traits::function;
  using statement = typename Traits::statement;
  using expression = typename Traits::expression;
  using variable = typename Traits::variable;
  using location = typename Traits::location;
  using window_buffer = window_buffer_t<Traits>;
  using storage = storage_t<Traits>;
  using operand = bound_operand<expression>;
  using rewriter = rewriter_t<Traits>;
  using signal_rewriter = signal_rewriter_t<Traits>;

  static constexpr bool dense_variables = provides<Traits, contract::variable_index>;
  static constexpr bool has_readers = reads_scopes<Traits>;
  static constexpr bool has_control_flow =
      provides<Traits, contract::control_of> && provides<Traits, contract::branches>;
  /// Whether the adapter gives per-target values (values(s)).
  static constexpr bool has_parallel_values = provides<Traits, contract::values>;
  /// Whether scopes can hold world-relative progressions (symbolic_device_sets).
  static constexpr bool symbolic = contract::symbolic_device_sets::of<Traits>();

  constexpr explicit adapter(const Traits& t) : t_(t) {}

  // ---- the analysis core
  constexpr decltype(auto) functions(const program& p) const { return t_.functions(p); }
  constexpr function_info describe(function f) const { return t_.describe(f); }
  constexpr decltype(auto) body(function f) const { return t_.body(f); }
  constexpr statement_kind statement_kind_of(statement s) const { return t_.statement_kind_of(s); }
  constexpr location where(statement s) const { return t_.location_of(s); }
  constexpr location where_expression(expression e) const { return t_.location_of(e); }
  constexpr decltype(auto) children(statement s) const { return t_.children(s); }
  /// How the children of s run.
  constexpr control_flow control(statement s, statement_kind k) const {
    return contract::control_of::of(t_, s, k);
  }
  /// branches(s); asked only when control() is alternatives, which needs it.
  constexpr decltype(auto) branches(statement s) const requires has_control_flow {
    return t_.branches(s);
  }
  constexpr decltype(auto) values(statement s) const requires has_parallel_values {
    return t_.values(s);
  }
  constexpr decltype(auto) targets(statement s) const { return t_.targets(s); }
  constexpr expression value(statement s) const { return t_.value(s); }
  constexpr variable loop_variable(statement s) const { return t_.loop_variable(s); }
  constexpr loop_bounds<operand> bounds(statement s) const {
    const auto b = t_.loop_bounds(s);
    return {operand_of(b.start, 0), operand_of(b.stop, 0), operand_of(b.step, 1)};
  }
  template <class F> constexpr void for_each_expression(statement s, F&& f) const {
    contract::expressions::for_each(t_, s, f);
  }

  constexpr expression_kind expression_kind_of(expression e) const {
    return t_.expression_kind_of(e);
  }
  constexpr std::int64_t integer_value(expression e) const { return t_.integer_value(e); }
  constexpr variable variable_of(expression e) const { return t_.variable_of(e); }
  constexpr call_target target(expression e) const { return t_.call_target_of(e); }
  constexpr decltype(auto) arguments(expression e) const { return t_.arguments(e); }
  constexpr std::optional<expression> device_of(expression e) const { return t_.device_of(e); }
  constexpr std::string_view allocation_name(expression e) const { return t_.allocation_name(e); }
  template <class F> constexpr void for_each_operand(expression e, F&& f) const {
    contract::subexpressions::for_each(t_, e, f);
  }
  constexpr bool has_operands(expression e) const { return contract::subexpressions::any(t_, e); }
  /// What e (no recognised operation or dispatch; `t` its call target when it is a call)
  /// does with the views among its operands.
  constexpr expression_flow flow(expression e, const call_target& t) const {
    return contract::flow_of::of(t_, e, t);
  }
  constexpr bool can_wrap_body(function f) const { return contract::can_wrap_body::of(t_, f); }
  /// x and C where e is `x - C` (symbolic only).
  constexpr std::optional<std::pair<expression, std::int64_t>> minus_constant(expression e) const {
    return contract::symbolic_device_sets::minus_constant(t_, e);
  }

  // ---- variable identity
  constexpr std::size_t variable_index(variable v) const requires dense_variables {
    return static_cast<std::size_t>(t_.variable_index(v));
  }
  constexpr std::size_t variable_bound(const program& p) const requires dense_variables {
    return static_cast<std::size_t>(t_.variable_bound(p));
  }
  constexpr auto variable_key(variable v) const { return contract::variable_key::of(t_, v); }

  // ---- the scope readers (has_readers)
  constexpr std::string_view scope_name(statement s) const { return t_.scope_name(s); }
  constexpr decltype(auto) scope_devices(statement s) const { return t_.scope_devices(s); }
  /// Calls f(device_progression) per progression of scope s (symbolic only).
  template <class F> constexpr void for_each_progression(statement s, F&& f) const {
    contract::symbolic_device_sets::for_each_progression(t_, s, f);
  }
  /// Calls f(std::optional<window_buffer>) per slot; a null slot is std::nullopt.
  template <class F> constexpr void for_each_slot(statement s, F&& f) const {
    for (auto&& w : t_.scope_slots(s))
      f(handed_out(w));
  }
  /// The window buffer of variable v, bound by statement s.
  constexpr std::optional<window_buffer> view_window_buffer(statement s, variable v) const {
    return handed_out(t_.view_window_buffer(s, v));
  }
  constexpr std::string_view window_buffer_name(window_buffer w) const {
    return t_.window_buffer_name(w);
  }
  constexpr variable window_buffer_base(window_buffer w) const { return t_.window_buffer_base(w); }
  constexpr expression window_buffer_size(window_buffer w) const {
    return t_.window_buffer_size(w);
  }

  // ---- the rewrite hooks, with the rewriter first when the adapter declares one
  constexpr rewriter begin_rewrite(program& p) const { return contract::rewriter::begin(t_, p); }
  constexpr window_buffer make_window_buffer(rewriter& rw,
                                             const window_buffer_spec<Traits>& spec) const {
    return hook<contract::rewriter>(
        rw, [&](auto&... r) -> window_buffer { return t_.make_window_buffer(r..., spec); });
  }
  constexpr void retype_view(rewriter& rw, const view_spec<Traits>& view) const {
    hook<contract::rewriter>(rw, [&](auto&... r) { t_.retype_view(r..., view); });
  }
  constexpr void wrap_body(rewriter& rw, function f,
                           std::span<const scope_spec<Traits>> scopes) const {
    hook<contract::rewriter>(rw, [&](auto&... r) { t_.wrap_body(r..., f, scopes); });
  }
  constexpr void commit(rewriter& rw, program& p) const { contract::rewriter::commit(t_, rw, p); }

  // ---- signal synthesis, with its own optional rewriter
  constexpr decltype(auto) names_in_use(const program& p) const { return t_.names_in_use(p); }
  constexpr std::int64_t core_num_of(expression e) const {
    return contract::core_num_of::of(t_, e);
  }
  constexpr signal_rewriter begin_signals(program& p) const {
    return contract::signal_rewriter::begin(t_, p);
  }
  constexpr void insert_signal(signal_rewriter& rw, const signal_spec<Traits>& spec) const {
    hook<contract::signal_rewriter>(rw, [&](auto&... r) { t_.insert_signal(r..., spec); });
  }
  constexpr void commit_signals(signal_rewriter& rw, program& p) const {
    contract::signal_rewriter::commit(t_, rw, p);
  }

private:
  /// f(rw) when the adapter declares the rewriter of record R, else f().
  template <class R, class Rewriter, class F>
  static constexpr decltype(auto) hook([[maybe_unused]] Rewriter& rw, F&& f) {
    if constexpr (R::template given<Traits>)
      return f(rw);
    else
      return f();
  }

  /// A bound as given: an expression, an integer, or an optional expression whose
  /// absence means `absent` (a range's implicit start 0 and step 1).
  template <class X> static constexpr operand operand_of(const X& x, std::int64_t absent) {
    using B = std::remove_cvref_t<X>;
    if constexpr (std::same_as<B, expression>)
      return {false, 0, x};
    else if constexpr (std::same_as<B, std::optional<expression>>)
      return x ? operand{false, 0, *x} : operand{true, absent, expression{}};
    else
      return {true, static_cast<std::int64_t>(x), expression{}};
  }

  /// A handle from the adapter, or none: std::nullopt or, for an adapter that does not
  /// use std::optional, a value-initialized handle.
  template <class W> static constexpr std::optional<window_buffer> handed_out(const W& w) {
    if constexpr (is_optional<std::remove_cvref_t<W>>::value) {
      return w;
    } else {
      const window_buffer h = w;
      if constexpr (contract::view_window_buffer::optional_none<Traits>)
        return h;
      else
        return h == window_buffer{} ? std::nullopt : std::optional<window_buffer>(h);
    }
  }

  Traits t_;
};

} // namespace detail
} // namespace commscope
