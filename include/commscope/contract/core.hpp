// Layer 1, the analysis core: what `analyze` and `run` need (record.hpp says what a
// record is). Required, in the order the diagnosis asks for them, then the optional
// members, each with its default: an optional member that is given must be well-typed,
// never silently taken for absent.
#pragma once

#include <commscope/contract/record.hpp>
#include <commscope/contract/vocabulary.hpp>
#include <commscope/device_set.hpp>
#include <commscope/storage.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <string_view>
#include <type_traits>
#include <utility>

namespace commscope {

namespace detail {
template <class T, class E>
concept bound_field = std::convertible_to<T, std::int64_t> || std::convertible_to<T, E>;
/// A start or step may also be absent at run time (std::optional<expression>: 0 and 1).
template <class T, class E>
concept optional_bound_field =
    bound_field<T, E> || std::same_as<std::remove_cvref_t<T>, std::optional<E>>;
template <class R, class E>
concept bounds_of = requires(const R& b) {
  { b.start } -> optional_bound_field<E>;
  { b.stop } -> bound_field<E>;
  { b.step } -> optional_bound_field<E>;
};
template <class T> using storage_member = typename T::storage;
} // namespace detail

namespace contract {

/// The traits class itself: `commscope::ir_traits<Program>` specialized, or the class of
/// the traits object passed to an entry point.
struct specialization {
  template <class T> static constexpr bool given = requires { sizeof(T); };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: no ir_traits specialization for this program type; specialize "
                  "commscope::ir_traits<Program> or pass a traits object (traits.hpp)");
  }
};

// ---- the handle types
// Cheap std::semiregular values (pointers, indices, small structs) that the library copies
// freely and value-initializes in its own records (a handle type without an empty state,
// such as mlir::Location, needs a nullable form: mlir::LocationAttr).

/// `using program`: what the entry points take (any type: a module, a pointer to one).
struct program {
  template <class T> static constexpr bool given = requires { typename T::program; };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: add `using program = ...;` (the program handle type)");
  }
};
/// `using function`.
struct function {
  template <class T> static constexpr bool given = requires {
    requires std::semiregular<typename T::function>;
  };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>, "commscope: add `using function = ...;` (a copyable, "
                                           "default-constructible handle)");
  }
};
/// `using statement`.
struct statement {
  template <class T> static constexpr bool given = requires {
    requires std::semiregular<typename T::statement>;
  };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>, "commscope: add `using statement = ...;` (a copyable, "
                                           "default-constructible handle)");
  }
};
/// `using expression`.
struct expression {
  template <class T> static constexpr bool given = requires {
    requires std::semiregular<typename T::expression>;
  };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>, "commscope: add `using expression = ...;` (a "
                                           "copyable, default-constructible handle)");
  }
};
/// `using variable`.
struct variable {
  template <class T> static constexpr bool given = requires {
    requires std::semiregular<typename T::variable>;
  };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>, "commscope: add `using variable = ...;` (a copyable, "
                                           "default-constructible handle)");
  }
};
/// `using location`: where a node is, as diagnostics report it.
struct location {
  template <class T> static constexpr bool given = requires {
    requires std::semiregular<typename T::location>;
  };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: add `using location = ...;` (copyable and default-constructible: "
                  "give mlir::Location its nullable form)");
  }
};

// ---- program and functions

/// `R functions(const program&)`, a range of function. The order is the program's order
/// of functions (a map sorted by name is fine): it decides the order of the plan's
/// functions and the order in which diagnostics of different functions are reported.
/// Nothing else depends on it: each host orchestrator is analysed on its own and numbers
/// its scopes comm_d0, comm_d1, ... itself.
struct functions : member_function<functions> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().functions(std::declval<const typename T::program&>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, typename T::function>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `R functions(const program&)` returning a range of function");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `functions(const program&)` must return a range of function");
  }
};

/// `function_info describe(function)`: name, level, orchestrator?, graph? (vocabulary.hpp).
struct describe : member_function<describe> {
  template <class T>
  using call = decltype(std::declval<const T&>().describe(std::declval<typename T::function>()));
  template <class R, class T> static constexpr bool returns = std::convertible_to<R, function_info>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `static function_info describe(function)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `describe(function)` must return function_info");
  }
};

/// `R body(function)`, a range of statement: the top-level statements. A block terminator
/// that only forwards values (func.return, scf.yield) need not be a statement.
struct body : member_function<body> {
  template <class T>
  using call = decltype(std::declval<const T&>().body(std::declval<typename T::function>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, typename T::statement>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `R body(function)` returning a range of statement");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `body(function)` must return a range of statement");
  }
};

// ---- statements

/// `statement_kind statement_kind_of(statement)`.
struct statement_kind_of : member_function<statement_kind_of> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().statement_kind_of(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, statement_kind>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `statement_kind statement_kind_of(statement)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `statement_kind_of(statement)` must return statement_kind");
  }
};

/// `location location_of(statement)` and `location location_of(expression)`: one
/// overloaded name.
struct location_of {
  struct of_statement : member_function<of_statement> {
    template <class T>
    using call =
        decltype(std::declval<const T&>().location_of(std::declval<typename T::statement>()));
    template <class R, class T>
    static constexpr bool returns = std::convertible_to<R, typename T::location>;
  };
  struct of_expression : member_function<of_expression> {
    template <class T>
    using call =
        decltype(std::declval<const T&>().location_of(std::declval<typename T::expression>()));
    template <class R, class T>
    static constexpr bool returns = std::convertible_to<R, typename T::location>;
  };
  template <class T> static constexpr bool given = of_statement::given<T>&& of_expression::given<T>;
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    using s = of_statement;
    using e = of_expression;
    if constexpr (!s::callable<T>)
      static_assert(detail::always_false<T>, "commscope: add `location location_of(statement)`");
    else if constexpr (!s::given<T>)
      static_assert(s::returns<typename s::template call<T>, T>,
                    "commscope: `location_of(statement)` must return location");
    else if constexpr (!e::callable<T>)
      static_assert(detail::always_false<T>, "commscope: add `location location_of(expression)`");
    else
      static_assert(e::returns<typename e::template call<T>, T>,
                    "commscope: `location_of(expression)` must return location");
  }
};

/// `R children(statement)`, a range of statement nested in it (loop bodies, branches, a
/// scope's body; all regions of an op, in order); empty for leaves.
struct children : member_function<children> {
  template <class T>
  using call = decltype(std::declval<const T&>().children(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, typename T::statement>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `R children(statement)` returning a range of statement");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `children(statement)` must return a range of statement");
  }
};

/// `R targets(statement)`, a range of variable: what an assignment binds (an op's
/// results); of another statement that is no loop, what it binds before its children run
/// (`with ... as x`; empty for most).
struct targets : member_function<targets> {
  template <class T>
  using call = decltype(std::declval<const T&>().targets(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, typename T::variable>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `R targets(statement)` returning a range of variable");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `targets(statement)` must return a range of variable");
  }
};

/// `expression value(statement)`: the expression of an assignment or an evaluation (for
/// an op: the op itself, as an expression).
///
/// A variable may be bound several times (Python's `x = f(x)`); a use sees every binding
/// that may reach it, a may-set (pass.md, "Rebinding and control flow"). Loop bodies may
/// run zero or more times; a statement's other children are taken as a block that may
/// not run (a binding inside reaches past it merged with the value before), unless
/// control_of says more. SSA IRs bind each variable once and carry region results through
/// yields (`values`).
struct value : member_function<value> {
  template <class T>
  using call = decltype(std::declval<const T&>().value(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, typename T::expression>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>, "commscope: add `expression value(statement)`");
    else
      static_assert(returns<call<T>, T>, "commscope: `value(statement)` must return expression");
  }
};

/// `variable loop_variable(statement)`: the variable of a for loop.
struct loop_variable : member_function<loop_variable> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().loop_variable(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, typename T::variable>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `static variable loop_variable(statement)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `loop_variable(statement)` must return variable");
  }
};

/// `loop_bounds<A, B, C> loop_bounds(statement)`: {start, stop, step}, each field an
/// expression or an integer (implicit bounds: range(n) is
/// `loop_bounds<std::int64_t, expression, std::int64_t>{0, n, 1}`); start and step may be
/// std::optional<expression>, absent meaning 0 and 1.
struct loop_bounds : member_function<loop_bounds> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().loop_bounds(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = detail::bounds_of<R, typename T::expression>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `loop_bounds<...> loop_bounds(statement)` (start, stop and "
                    "step, each an expression or an integer; start and step may be "
                    "std::optional<expression>)");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `loop_bounds(statement)` must return loop_bounds<Start, Stop, "
                    "Step>: each field an expression or an integer, start and step also "
                    "std::optional<expression>");
  }
};

// ---- expressions

/// `expression_kind expression_kind_of(expression)`.
struct expression_kind_of : member_function<expression_kind_of> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().expression_kind_of(std::declval<typename T::expression>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, expression_kind>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `expression_kind expression_kind_of(expression)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `expression_kind_of(expression)` must return expression_kind");
  }
};

/// `std::int64_t integer_value(expression)`: the value of an integer constant.
struct integer_value : member_function<integer_value> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().integer_value(std::declval<typename T::expression>()));
  template <class R, class T> static constexpr bool returns = std::convertible_to<R, std::int64_t>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `std::int64_t integer_value(expression)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `integer_value(expression)` must return std::int64_t");
  }
};

/// `variable variable_of(expression)`: the variable a variable expression refers to. The
/// pass follows it to the binding that reaches the use (copies, integer constants,
/// world_size(), loop variables), so an IR whose constants are ops
/// (`%c = arith.constant 4`) makes such an op an assignment whose value has kind integer.
struct variable_of : member_function<variable_of> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().variable_of(std::declval<typename T::expression>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, typename T::variable>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>, "commscope: add `variable variable_of(expression)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `variable_of(expression)` must return variable");
  }
};

/// `call_target call_target_of(expression)`: a recognised operation, a function of the
/// program (a captured/submitted dispatch is reported exactly like the call), or an
/// unresolved callee.
struct call_target_of : member_function<call_target_of> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().call_target_of(std::declval<typename T::expression>()));
  template <class R, class T> static constexpr bool returns = std::convertible_to<R, call_target>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `call_target call_target_of(expression)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `call_target_of(expression)` must return call_target");
  }
};

/// `R arguments(expression)`, a range of expression: a call's positional arguments.
struct arguments : member_function<arguments> {
  template <class T>
  using call = decltype(std::declval<const T&>().arguments(std::declval<typename T::expression>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, typename T::expression>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `R arguments(expression)` returning a range of expression");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `arguments(expression)` must return a range of expression");
  }
};

/// `std::optional<expression> device_of(expression)`: a call's `device=`.
struct device_of : member_function<device_of> {
  template <class T>
  using call = decltype(std::declval<const T&>().device_of(std::declval<typename T::expression>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, std::optional<typename T::expression>>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `std::optional<expression> device_of(expression)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `device_of(expression)` must return std::optional<expression>");
  }
};

/// `std::string_view allocation_name(expression)`: the name of an allocation call.
struct allocation_name : member_function<allocation_name> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().allocation_name(std::declval<typename T::expression>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, std::string_view>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `std::string_view allocation_name(expression)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `allocation_name(expression)` must return std::string_view");
  }
};

// ---- variable identity: a numbering, a key, or the handle itself

/// Optional: `variable_index(variable)` and `variable_bound(const program&)`, a dense
/// numbering in [0, bound): the analysis' tables become arrays (needed in constant
/// evaluation).
struct variable_index {
  template <class T>
  static constexpr bool given = requires(const T& t, typename T::variable v,
                                         const typename T::program& p) {
    { t.variable_index(v) } -> std::convertible_to<std::size_t>;
    { t.variable_bound(p) } -> std::convertible_to<std::size_t>;
  };
};

/// Optional: `K variable_key(variable)`, a key that std::hash and == accept. Without it
/// (and without variable_index), the handle is the key.
struct variable_key {
  template <class T> static constexpr bool given = requires(const T& t, typename T::variable v) {
    { t.variable_key(v) } -> detail::hashable;
  };
  /// variable_key(v), or the handle itself.
  template <class T> static constexpr auto of(const T& t, typename T::variable v) {
    if constexpr (given<T>)
      return t.variable_key(v);
    else
      return v;
  }
};

/// Variables can be told apart: by variable_index, by variable_key, or by the handle
/// itself when std::hash accepts it (an index, a pointer).
struct variable_identity {
  template <class T>
  static constexpr bool holds = variable_index::given<T> || variable_key::given<T> || requires {
    requires detail::hashable<typename T::variable>;
  };
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: variables need an identity: add `K variable_key(variable)` with a "
                  "std::hash-able K, or variable_index(variable) and "
                  "variable_bound(const program&), or make the variable handle hashable");
  }
};

// ---- optional: control flow (both or neither; without them the reading described at
// `value` stays, which is sound but merges more)

/// Optional, with branches: `control_flow control_of(statement)`, asked of every
/// statement that is no loop, assignment, evaluation or jump (a return, a scope, any
/// other; it may have children): block (runs once, in order: `with`, a region that always
/// runs), may_skip (at most once), repeat (zero or more times: `for x in items`),
/// alternatives (exactly one of branches(s) runs: if/elif/else, scf.if,
/// scf.index_switch). Loops always repeat; `statement_kind::jump` (break, continue) carries
/// the values bound before it to the enclosing loop's next iteration and its exit.
struct control_of : member_function<control_of> {
  template <class T>
  using call = decltype(std::declval<const T&>().control_of(std::declval<typename T::statement>()));
  template <class R, class T> static constexpr bool returns = std::convertible_to<R, control_flow>;
  template <class T> static constexpr bool holds = absent_or_given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(returns<call<T>, T>,
                  "commscope: `control_of(statement)` must return control_flow");
  }
  /// How the children of s (of kind k) run: loops repeat; otherwise control_of(s), or by
  /// default a scope's body runs once and any other statement's children may be skipped.
  template <class T>
  static constexpr control_flow of(const T& t, typename T::statement s, statement_kind k) {
    if (k == statement_kind::for_loop || k == statement_kind::while_loop)
      return control_flow::repeat;
    if constexpr (given<T>)
      return t.control_of(s);
    else
      return k == statement_kind::scope ? control_flow::block : control_flow::may_skip;
  }
};

/// Optional, with control_of: `R branches(statement)`, a range of ranges of statement:
/// the alternatives, in order; a missing `else` is an empty range. Asked only of a
/// statement whose control_of is alternatives, instead of children.
struct branches : member_function<branches> {
  template <class T>
  using call = decltype(std::declval<const T&>().branches(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of_ranges_of<R, typename T::statement>;
  /// Well-typed, and the pair is both or neither.
  template <class T>
  static constexpr bool holds = absent_or_given<T> && (given<T> == control_of::given<T>);
  template <class T> static constexpr void diagnose() {
    if constexpr (!absent_or_given<T>)
      static_assert(returns<call<T>, T>,
                    "commscope: `branches(statement)` must return a range of ranges of statement");
    else if constexpr (control_of::given<T>)
      static_assert(detail::always_false<T>,
                    "commscope: control_of needs its pair: add `R branches(statement)` "
                    "returning a range of ranges of statement (the alternatives of a statement "
                    "whose control_of is alternatives)");
    else
      static_assert(detail::always_false<T>,
                    "commscope: branches needs its pair: add `control_flow "
                    "control_of(statement)` (which statements' children are alternatives, run "
                    "once, may be skipped or repeat)");
  }
};

// ---- optional: parallel and loop-carried bindings

/// Optional: `R values(statement)`, a range of expression, one per target: an assignment
/// that binds each target to its own value, all read before any is bound (`a, b = b, a`;
/// an scf.yield presented as the assignment of the region's results or loop-carried
/// values); empty for any other assignment. Asked only of an assignment of several
/// targets: for one, value(s) is its value (a yield of one value gives it there). On a for
/// or while loop: the loop-carried variables (its targets) and their values on entry,
/// bound before the first iteration (scf.for iter_args, the DSL's init_values); the body
/// rebinds them for the next one.
struct values : member_function<values> {
  template <class T>
  using call = decltype(std::declval<const T&>().values(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, typename T::expression>;
  template <class T> static constexpr bool holds = absent_or_given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(returns<call<T>, T>,
                  "commscope: `values(statement)` must return a range of expression");
  }
};

// ---- optional, derived when absent

/// Optional: `R expressions(statement)`, a range of expression: the other direct
/// expressions of a statement that is neither assignment, evaluation nor for loop
/// (conditions, returned values). Default: none.
struct expressions : member_function<expressions> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().expressions(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, typename T::expression>;
  template <class T> static constexpr bool holds = absent_or_given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(returns<call<T>, T>,
                  "commscope: `expressions(statement)` must return a range of expression");
  }
  /// f(e) for each of s's expressions.
  template <class T, class F>
  static constexpr void for_each(const T& t, typename T::statement s, F&& f) {
    if constexpr (given<T>)
      for (auto&& e : t.expressions(s))
        f(typename T::expression(e));
  }
};

/// Optional: `R subexpressions(expression)`, a range of expression: every direct operand,
/// so that calls nested anywhere are found. A dispatch with more operands than its
/// arguments and device= has keyword arguments: its positional arguments come first
/// then, and what follows them is judged apart. Default: a
/// call's arguments, then its device_of (asked only of calls). Give it when other operands (keyword
/// values, operands of arithmetic) may hold calls.
struct subexpressions : member_function<subexpressions> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().subexpressions(std::declval<typename T::expression>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, typename T::expression>;
  template <class T> static constexpr bool holds = absent_or_given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(returns<call<T>, T>,
                  "commscope: `subexpressions(expression)` must return a range of expression");
  }
  /// f(o) for each operand o of e.
  template <class T, class F>
  static constexpr void for_each(const T& t, typename T::expression e, F&& f) {
    if constexpr (given<T>) {
      for (auto&& sub : t.subexpressions(e))
        f(typename T::expression(sub));
    } else {
      if (t.expression_kind_of(e) != expression_kind::call)
        return;
      for (auto&& arg : t.arguments(e))
        f(typename T::expression(arg));
      if (auto d = t.device_of(e))
        f(typename T::expression(*d));
    }
  }
  /// Whether e has any operand (cheaper than visiting them).
  template <class T> static constexpr bool any(const T& t, typename T::expression e) {
    if constexpr (given<T>) {
      auto&& subs = t.subexpressions(e);
      return std::ranges::begin(subs) != std::ranges::end(subs);
    } else {
      if (t.expression_kind_of(e) != expression_kind::call)
        return false;
      auto&& args = t.arguments(e);
      return std::ranges::begin(args) != std::ranges::end(args) || t.device_of(e).has_value();
    }
  }
};

/// Optional: `expression_flow flow_of(expression)`: what an expression that is neither a
/// recognised operation, a dispatch nor a call of an unknown name does with the views
/// among its operands (vocabulary.hpp, operand_flow). Asked of every such expression the
/// walk meets. Default, the sound one: a call (expression_kind::call) may do anything with
/// its operands, so a view among them escapes (named by its callee when it calls a
/// function); any other expression is derived from its operands.
struct flow_of : member_function<flow_of> {
  template <class T>
  using call = decltype(std::declval<const T&>().flow_of(std::declval<typename T::expression>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, expression_flow>;
  template <class T> static constexpr bool holds = absent_or_given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(returns<call<T>, T>,
                  "commscope: `flow_of(expression)` must return expression_flow");
  }
  template <class T>
  static constexpr expression_flow of(const T& t, typename T::expression e, const call_target& c) {
    if constexpr (given<T>)
      return t.flow_of(e);
    else if (t.expression_kind_of(e) != expression_kind::call)
      return {operand_flow::derived, {}, false};
    else if (c.what == call_target::kind::operation)
      return {operand_flow::escapes, {}, false};
    else
      return {operand_flow::escapes, c.callee.name, true};
  }
};

/// Optional: `static constexpr std::int64_t device_limit`: device ids at or above it are
/// `device-out-of-range`. Default 1,048,576.
struct device_limit {
  template <class T> static constexpr bool given = requires { std::int64_t{T::device_limit}; };
  template <class T> static constexpr std::int64_t of() {
    if constexpr (given<T>)
      return T::device_limit;
    else
      return std::int64_t{1} << 20;
  }
};

/// Optional: `static constexpr bool symbolic_device_sets = true`: the adapter's scopes can
/// hold world-relative progressions (pass.md, "Symbolic device sets"), so the loop
/// variable of `range(START, world_size() - C, STEP)` gives one instead of
/// `partial-world-range`. wrap_body then receives them in scope_spec::progressions. With
/// it the adapter gives
///   - `std::optional<std::pair<expression, std::int64_t>> minus_constant(expression)`:
///     for `x - C` with a constant C, x and C (none for any other expression), so that
///     `world_size() - C` is seen, directly or through a temporary;
///   - with the scope readers, `R scope_progressions(statement)`, a range of
///     device_progression: the progressions of a scope (empty for a plain list).
/// Default: no symbolic sets.
struct symbolic_device_sets {
  template <class T> static constexpr bool given = requires {
    requires bool{T::symbolic_device_sets};
  };
  template <class T>
  static constexpr bool subtraction = requires(const T& t, typename T::expression e) {
    {
      t.minus_constant(e)
      } -> std::convertible_to<std::optional<std::pair<typename T::expression, std::int64_t>>>;
  };
  template <class T>
  static constexpr bool readable = requires(const T& t, typename T::statement s) {
    requires detail::range_of<decltype(t.scope_progressions(s)), device_progression>;
  };
  template <class T>
  static constexpr bool holds =
      !given<T> ||
      (subtraction<T> &&
       (readable<T> || !requires(const T& t, typename T::statement s) { t.scope_devices(s); }));
  template <class T> static constexpr void diagnose() {
    if constexpr (!subtraction<T>)
      static_assert(detail::always_false<T>,
                    "commscope: `symbolic_device_sets` needs `std::optional<std::pair<expression, "
                    "std::int64_t>> minus_constant(expression)`");
    else
      static_assert(detail::always_false<T>,
                    "commscope: `symbolic_device_sets` with the scope readers needs `R "
                    "scope_progressions(statement)` returning a range of device_progression");
  }
  template <class T> static constexpr bool of() { return given<T>; }
  /// x and C where e is `x - C`; none without the capability.
  template <class T>
  static constexpr std::optional<std::pair<typename T::expression, std::int64_t>>
  minus_constant([[maybe_unused]] const T& t, [[maybe_unused]] typename T::expression e) {
    if constexpr (given<T>)
      return t.minus_constant(e);
    else
      return std::nullopt;
  }
  /// f(p) for each progression of scope s.
  template <class T, class F>
  static constexpr void for_each_progression([[maybe_unused]] const T& t,
                                             [[maybe_unused]] typename T::statement s,
                                             [[maybe_unused]] F&& f) {
    if constexpr (given<T>)
      for (auto&& p : t.scope_progressions(s))
        f(device_progression(p));
  }
};

/// Optional: `static constexpr std::size_t scope_nesting_limit`: a function that needs
/// more domains (nested scopes) than this is `scope-nesting-limit`, reported at the first
/// allocation beyond it. Default: no limit. For hosts whose nested regions are handled
/// recursively (MLIR's printer).
struct scope_nesting_limit {
  template <class T> static constexpr bool given = requires {
    std::size_t{T::scope_nesting_limit};
  };
  template <class T> static constexpr std::size_t of() {
    if constexpr (given<T>)
      return T::scope_nesting_limit;
    else
      return static_cast<std::size_t>(-1);
  }
};

/// Optional: `bool can_wrap_body(function)`: false for a body wrap_body cannot wrap (an
/// MLIR function with several blocks): a host orchestrator with allocations there is
/// `malformed-op`. Default: true.
struct can_wrap_body : member_function<can_wrap_body> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().can_wrap_body(std::declval<typename T::function>()));
  template <class R, class T> static constexpr bool returns = std::convertible_to<R, bool>;
  template <class T> static constexpr bool holds = absent_or_given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(returns<call<T>, T>, "commscope: `can_wrap_body(function)` must return bool");
  }
  template <class T> static constexpr bool of(const T& t, typename T::function f) {
    if constexpr (given<T>)
      return t.can_wrap_body(f);
    else
      return true;
  }
};

/// Optional: `using storage`, the container policy (storage.hpp): boost_storage by
/// default, std_storage for constant evaluation, which needs variable_index (hashing is
/// not available there).
struct storage {
  template <class T> static constexpr bool given = requires { typename T::storage; };
  template <class T>
  using type = typename detail::member_or<given<T>, detail::storage_member, T, boost_storage>::type;
  template <class T>
  static constexpr bool holds = !type<T>::constant_evaluable || variable_index::given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: constant-evaluable storage needs variable_index(variable) "
                  "and variable_bound(const program&): hashing is not available there");
  }
};

/// The analysis core, in the order of its diagnosis.
using analysis_core =
    records<specialization, program, function, statement, expression, variable, location, functions,
            describe, body, statement_kind_of, location_of, children, targets, value, loop_variable,
            loop_bounds, expression_kind_of, integer_value, variable_of, call_target_of, arguments,
            device_of, allocation_name, variable_identity, control_of, branches, values,
            expressions, subexpressions, flow_of, can_wrap_body, symbolic_device_sets, storage>;

} // namespace contract

/// The container policy of an adapter.
template <class T> using storage_t = contract::storage::type<T>;

} // namespace commscope
