// The facade between the algorithms and an adapter, in the manner of
// std::allocator_traits: it holds the traits object, calls every member through it, and
// derives what the contract leaves optional (traits.hpp), in this one place. The
// algorithms call nothing else.
#pragma once

#include <commscope/concepts.hpp>
#include <commscope/traits.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>

namespace commscope {

namespace detail {
/// The window-buffer handle of an adapter that has none (an analysis-only adapter):
/// the plan still has a field for it.
struct absent_window_buffer {
  friend constexpr bool operator==(absent_window_buffer, absent_window_buffer) = default;
};
template <class T> struct window_buffer_of {
  using type = absent_window_buffer;
};
template <class T>
  requires requires { typename T::window_buffer; }
struct window_buffer_of<T> {
  using type = typename T::window_buffer;
};
} // namespace detail

/// `Traits::window_buffer`, or a placeholder for an adapter without one.
template <class T> using window_buffer_t = typename detail::window_buffer_of<T>::type;

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

  static constexpr bool dense_variables = numbers_variables<Traits>;
  static constexpr bool has_readers = reads_scopes<Traits>;
  static constexpr bool has_control_flow = tells_control_flow<Traits> && lists_branches<Traits>;

  constexpr explicit adapter(const Traits& t) : t_(t) {}

  // ---- the analysis core
  constexpr decltype(auto) functions(const program& p) const { return t_.functions(p); }
  constexpr function_info describe(function f) const { return t_.describe(f); }
  constexpr decltype(auto) body(function f) const { return t_.body(f); }
  constexpr statement_kind statement_kind_of(statement s) const { return t_.statement_kind_of(s); }
  constexpr location where(statement s) const {
    if constexpr (requires { t_.location_of(s); })
      return t_.location_of(s);
    else
      return t_.statement_location(s);
  }
  constexpr location where_expression(expression e) const {
    if constexpr (requires { t_.location_of(e); })
      return t_.location_of(e);
    else
      return t_.expression_location(e);
  }
  constexpr decltype(auto) children(statement s) const { return t_.children(s); }
  /// How the children of s run: loops repeat; otherwise control_of(s), or by default a
  /// scope's body runs once and any other statement's children may be skipped.
  constexpr control_flow control(statement s, statement_kind k) const {
    if (k == statement_kind::for_loop || k == statement_kind::while_loop)
      return control_flow::repeat;
    if constexpr (tells_control_flow<Traits>)
      return t_.control_of(s);
    else
      return k == statement_kind::scope ? control_flow::block : control_flow::may_skip;
  }
  /// branches(s); asked only when control() is alternatives, which needs it.
  constexpr decltype(auto) branches(statement s) const
    requires has_control_flow
  {
    return t_.branches(s);
  }
  /// Whether the adapter gives per-target values (values(s)).
  static constexpr bool has_parallel_values = lists_values<Traits>;
  constexpr decltype(auto) values(statement s) const
    requires lists_values<Traits>
  {
    return t_.values(s);
  }
  constexpr decltype(auto) targets(statement s) const { return t_.targets(s); }
  constexpr expression value(statement s) const { return t_.value(s); }
  constexpr variable loop_variable(statement s) const { return t_.loop_variable(s); }
  constexpr loop_bounds<operand> bounds(statement s) const {
    const auto b = t_.loop_bounds(s);
    return {operand_of(b.start, 0), operand_of(b.stop, 0), operand_of(b.step, 1)};
  }
  /// expressions(s), or none.
  template <class F> constexpr void for_each_expression(statement s, F&& f) const {
    if constexpr (lists_statement_expressions<Traits>)
      for (auto&& e : t_.expressions(s))
        f(expression(e));
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
  /// subexpressions(e), or the arguments followed by `device=` of a call (arguments and
  /// device_of are asked only of calls: a non-call has no operands then).
  template <class F> constexpr void for_each_operand(expression e, F&& f) const {
    if constexpr (lists_subexpressions<Traits>) {
      for (auto&& sub : t_.subexpressions(e))
        f(expression(sub));
    } else {
      if (t_.expression_kind_of(e) != expression_kind::call)
        return;
      for (auto&& arg : t_.arguments(e))
        f(expression(arg));
      if (auto d = t_.device_of(e))
        f(*d);
    }
  }
  /// Whether e has any operand (cheaper than visiting them).
  constexpr bool has_operands(expression e) const {
    if constexpr (lists_subexpressions<Traits>) {
      auto&& subs = t_.subexpressions(e);
      return std::ranges::begin(subs) != std::ranges::end(subs);
    } else {
      if (t_.expression_kind_of(e) != expression_kind::call)
        return false;
      auto&& args = t_.arguments(e);
      return std::ranges::begin(args) != std::ranges::end(args) || t_.device_of(e).has_value();
    }
  }

  /// can_wrap_body(f), or true: whether wrap_body can wrap f's body.
  constexpr bool can_wrap_body(function f) const {
    if constexpr (requires { t_.can_wrap_body(f); })
      return t_.can_wrap_body(f);
    else
      return true;
  }

  // ---- variable identity
  constexpr std::size_t variable_index(variable v) const
    requires dense_variables
  {
    return static_cast<std::size_t>(t_.variable_index(v));
  }
  constexpr std::size_t variable_bound(const program& p) const
    requires dense_variables
  {
    return static_cast<std::size_t>(t_.variable_bound(p));
  }
  /// variable_key(v), or the handle itself.
  constexpr auto variable_key(variable v) const {
    if constexpr (keys_variables<Traits>)
      return t_.variable_key(v);
    else
      return v;
  }

  // ---- the scope readers (has_readers)
  constexpr std::string_view scope_name(statement s) const { return t_.scope_name(s); }
  constexpr decltype(auto) scope_devices(statement s) const { return t_.scope_devices(s); }
  /// Calls f(std::optional<window_buffer>) per slot; a null slot is std::nullopt.
  template <class F> constexpr void for_each_slot(statement s, F&& f) const {
    for (auto&& w : t_.scope_slots(s))
      f(handed_out(w));
  }
  /// The window buffer of variable v, bound by statement s.
  constexpr std::optional<window_buffer> view_window_buffer(statement s, variable v) const {
    if constexpr (requires { t_.view_window_buffer(s, v); })
      return handed_out(t_.view_window_buffer(s, v));
    else
      return handed_out(t_.view_window_buffer(v));
  }
  constexpr std::string_view window_buffer_name(window_buffer w) const {
    return t_.window_buffer_name(w);
  }
  constexpr variable window_buffer_base(window_buffer w) const { return t_.window_buffer_base(w); }
  constexpr expression window_buffer_size(window_buffer w) const {
    return t_.window_buffer_size(w);
  }

  // ---- the rewrite hooks; the rewriter is optional
  constexpr rewriter begin_rewrite(program& p) const {
    if constexpr (has_rewriter<Traits>)
      return t_.begin_rewrite(p);
    else
      return {};
  }
  constexpr window_buffer make_window_buffer(rewriter& rw,
                                             const window_buffer_spec<Traits>& spec) const {
    if constexpr (requires { t_.make_window_buffer(rw, spec); })
      return t_.make_window_buffer(rw, spec);
    else
      return t_.make_window_buffer(spec);
  }
  constexpr void retype_view(rewriter& rw, const view_spec<Traits>& view) const {
    if constexpr (requires { t_.retype_view(rw, view); })
      t_.retype_view(rw, view);
    else if constexpr (requires { t_.retype_view(view); })
      t_.retype_view(view);
    else if constexpr (requires { t_.retype_view(rw, view.variable, view.window_buffer); })
      t_.retype_view(rw, view.variable, view.window_buffer);
    else
      t_.retype_view(view.variable, view.window_buffer);
  }
  constexpr void wrap_body(rewriter& rw, function f,
                           std::span<const scope_spec<Traits>> scopes) const {
    if constexpr (requires { t_.wrap_body(rw, f, scopes); })
      t_.wrap_body(rw, f, scopes);
    else
      t_.wrap_body(f, scopes);
  }
  constexpr void commit(rewriter& rw, program& p) const {
    if constexpr (has_rewriter<Traits>)
      t_.commit(rw, p);
    else
      (void)rw, (void)p;
  }

  // ---- signal synthesis (layer 4); its rewriter is optional
  using signal_rewriter = signal_rewriter_t<Traits>;
  constexpr decltype(auto) names_in_use(const program& p) const { return t_.names_in_use(p); }
  /// core_num_of(e), or 1.
  constexpr std::int64_t core_num_of(expression e) const {
    if constexpr (reads_core_num<Traits>)
      return static_cast<std::int64_t>(t_.core_num_of(e));
    else
      return 1;
  }
  constexpr signal_rewriter begin_signals(program& p) const {
    if constexpr (has_signal_rewriter<Traits>)
      return t_.begin_signals(p);
    else
      return {};
  }
  constexpr void insert_signal(signal_rewriter& rw, const signal_spec<Traits>& spec) const {
    if constexpr (requires { t_.insert_signal(rw, spec); })
      t_.insert_signal(rw, spec);
    else
      t_.insert_signal(spec);
  }
  constexpr void commit_signals(signal_rewriter& rw, program& p) const {
    if constexpr (has_signal_rewriter<Traits>)
      t_.commit_signals(rw, p);
    else
      (void)rw, (void)p;
  }

private:
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

  /// Whether the adapter says "none" with std::optional (view_window_buffer returns one):
  /// then every plain handle it hands out is a real window buffer, index 0 included.
  static constexpr bool optional_none = [] {
    if constexpr (requires(const Traits& t, variable v) { t.view_window_buffer(v); })
      return is_optional<
          std::remove_cvref_t<decltype(std::declval<const Traits&>().view_window_buffer(
              std::declval<variable>()))>>::value;
    else if constexpr (requires(const Traits& t, statement s, variable v) {
                         t.view_window_buffer(s, v);
                       })
      return is_optional<
          std::remove_cvref_t<decltype(std::declval<const Traits&>().view_window_buffer(
              std::declval<statement>(), std::declval<variable>()))>>::value;
    else
      return false;
  }();

  /// A handle from the adapter, or none: std::nullopt or, for an adapter that does not
  /// use std::optional, a value-initialized handle.
  template <class W> static constexpr std::optional<window_buffer> handed_out(const W& w) {
    if constexpr (is_optional<std::remove_cvref_t<W>>::value) {
      return w;
    } else {
      const window_buffer h = w;
      if constexpr (optional_none)
        return h;
      else
        return h == window_buffer{} ? std::nullopt : std::optional<window_buffer>(h);
    }
  }

  Traits t_;
};

} // namespace detail
} // namespace commscope
