// One concept per member of traits.hpp, the detection of the optional members, and the
// `diagnose_*` functions that the entry points call first, so that an incomplete adapter
// gets one short message naming the member to add, instead of a page of template errors
// or "no matching function". Members are called through a const traits object.
#pragma once

#include <commscope/storage.hpp>
#include <commscope/traits.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ranges>
#include <string_view>
#include <type_traits>
#include <utility>

namespace commscope {

namespace detail {
template <class R, class T>
concept range_of =
    std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, T>;
template <class...> inline constexpr bool always_false = false;
template <class T>
concept hashable = requires(const T& k) {
  { std::hash<T>{}(k) } -> std::convertible_to<std::size_t>;
  { k == k } -> std::convertible_to<bool>;
};
template <class T, class E>
concept bound_field = std::convertible_to<T, std::int64_t> || std::convertible_to<T, E>;
/// A start or step may also be absent at run time (std::optional<expression>: 0 and 1).
template <class T, class E>
concept optional_bound_field =
    bound_field<T, E> || std::same_as<std::remove_cvref_t<T>, std::optional<E>>;
/// loop_bounds' fields.
template <class R, class E>
concept bounds_of = requires(const R& b) {
  { b.start } -> optional_bound_field<E>;
  { b.stop } -> bound_field<E>;
  { b.step } -> optional_bound_field<E>;
};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
} // namespace detail

// ---- layer 1: the analysis core ---------------------------------------------------------

/// The traits class is a complete type.
template <class T>
concept complete_traits = requires { sizeof(T); };

/// `using program`.
template <class T>
concept names_program = requires { typename T::program; };
/// `using function`, a regular handle.
template <class T>
concept names_function =
    requires { typename T::function; } && std::semiregular<typename T::function>;
/// `using statement`, a regular handle.
template <class T>
concept names_statement =
    requires { typename T::statement; } && std::semiregular<typename T::statement>;
/// `using expression`, a regular handle.
template <class T>
concept names_expression =
    requires { typename T::expression; } && std::semiregular<typename T::expression>;
/// `using variable`, a regular handle.
template <class T>
concept names_variable =
    requires { typename T::variable; } && std::semiregular<typename T::variable>;
/// `using location`, a regular handle.
template <class T>
concept names_location =
    requires { typename T::location; } && std::semiregular<typename T::location>;

/// Every handle type of the analysis core is named and regular.
template <class T>
concept regular_handles = names_function<T> && names_statement<T> && names_expression<T> &&
                          names_variable<T> && names_location<T>;

/// functions(program) is a range of function.
template <class T>
concept lists_functions = requires(const T& t, const typename T::program& p) {
  { t.functions(p) } -> detail::range_of<typename T::function>;
};
/// describe(function) -> function_info.
template <class T>
concept describes_functions = requires(const T& t, typename T::function f) {
  { t.describe(f) } -> std::convertible_to<function_info>;
};
/// body(function) is a range of statement.
template <class T>
concept exposes_bodies = requires(const T& t, typename T::function f) {
  { t.body(f) } -> detail::range_of<typename T::statement>;
};
/// statement_kind_of(statement) -> statement_kind.
template <class T>
concept classifies_statements = requires(const T& t, typename T::statement s) {
  { t.statement_kind_of(s) } -> std::convertible_to<statement_kind>;
};
/// location_of(statement) (or statement_location) -> location.
template <class T>
concept locates_statements = requires(const T& t, typename T::statement s) {
  { t.location_of(s) } -> std::convertible_to<typename T::location>;
} || requires(const T& t, typename T::statement s) {
  { t.statement_location(s) } -> std::convertible_to<typename T::location>;
};
/// location_of(expression) (or expression_location) -> location.
template <class T>
concept locates_expressions = requires(const T& t, typename T::expression e) {
  { t.location_of(e) } -> std::convertible_to<typename T::location>;
} || requires(const T& t, typename T::expression e) {
  { t.expression_location(e) } -> std::convertible_to<typename T::location>;
};
/// children(statement) is a range of statement.
template <class T>
concept nests_statements = requires(const T& t, typename T::statement s) {
  { t.children(s) } -> detail::range_of<typename T::statement>;
};
/// targets(statement) is a range of variable.
template <class T>
concept binds_targets = requires(const T& t, typename T::statement s) {
  { t.targets(s) } -> detail::range_of<typename T::variable>;
};
/// value(statement) -> expression.
template <class T>
concept has_values = requires(const T& t, typename T::statement s) {
  { t.value(s) } -> std::convertible_to<typename T::expression>;
};
/// loop_variable(statement) -> variable.
template <class T>
concept has_loop_variables = requires(const T& t, typename T::statement s) {
  { t.loop_variable(s) } -> std::convertible_to<typename T::variable>;
};
/// loop_bounds(statement) -> {start, stop, step}, each an expression or an integer;
/// start and step may be std::optional<expression> (absent: 0 and 1).
template <class T>
concept has_loop_bounds = requires(const T& t, typename T::statement s) {
  { t.loop_bounds(s) } -> detail::bounds_of<typename T::expression>;
};
/// expression_kind_of(expression) -> expression_kind.
template <class T>
concept classifies_expressions = requires(const T& t, typename T::expression e) {
  { t.expression_kind_of(e) } -> std::convertible_to<expression_kind>;
};
/// integer_value(expression) -> std::int64_t.
template <class T>
concept reads_integers = requires(const T& t, typename T::expression e) {
  { t.integer_value(e) } -> std::convertible_to<std::int64_t>;
};
/// variable_of(expression) -> variable.
template <class T>
concept reads_variables = requires(const T& t, typename T::expression e) {
  { t.variable_of(e) } -> std::convertible_to<typename T::variable>;
};
/// call_target_of(expression) -> call_target.
template <class T>
concept resolves_calls = requires(const T& t, typename T::expression e) {
  { t.call_target_of(e) } -> std::convertible_to<call_target>;
};
/// arguments(expression) is a range of expression.
template <class T>
concept lists_arguments = requires(const T& t, typename T::expression e) {
  { t.arguments(e) } -> detail::range_of<typename T::expression>;
};
/// device_of(expression) -> std::optional<expression>.
template <class T>
concept finds_devices = requires(const T& t, typename T::expression e) {
  { t.device_of(e) } -> std::convertible_to<std::optional<typename T::expression>>;
};
/// allocation_name(expression) -> std::string_view.
template <class T>
concept names_allocations = requires(const T& t, typename T::expression e) {
  { t.allocation_name(e) } -> std::convertible_to<std::string_view>;
};
/// Optional: variable_index(variable) and variable_bound(program), a dense numbering.
template <class T>
concept numbers_variables =
    requires(const T& t, typename T::variable v, const typename T::program& p) {
      { t.variable_index(v) } -> std::convertible_to<std::size_t>;
      { t.variable_bound(p) } -> std::convertible_to<std::size_t>;
    };
/// Optional: variable_key(variable), a hashable identity.
template <class T>
concept keys_variables = requires(const T& t, typename T::variable v) {
  { t.variable_key(v) } -> detail::hashable;
};
/// Variables can be told apart: a numbering, a key, or a hashable handle.
template <class T>
concept identifies_variables =
    numbers_variables<T> || keys_variables<T> || detail::hashable<typename T::variable>;
/// Optional: expressions(statement), a range of expression.
template <class T>
concept lists_statement_expressions = requires(const T& t, typename T::statement s) {
  { t.expressions(s) } -> detail::range_of<typename T::expression>;
};
/// Optional: subexpressions(expression), a range of expression.
template <class T>
concept lists_subexpressions = requires(const T& t, typename T::expression e) {
  { t.subexpressions(e) } -> detail::range_of<typename T::expression>;
};

/// Optional: control_of(statement) -> control_flow.
template <class T>
concept tells_control_flow = requires(const T& t, typename T::statement s) {
  { t.control_of(s) } -> std::convertible_to<control_flow>;
};
namespace detail {
template <class R, class T>
concept range_of_ranges_of =
    std::ranges::input_range<R> && range_of<std::ranges::range_reference_t<R>, T>;
} // namespace detail
/// Optional (with control_of): branches(statement), a range of ranges of statement.
template <class T>
concept lists_branches = requires(const T& t, typename T::statement s) {
  { t.branches(s) } -> detail::range_of_ranges_of<typename T::statement>;
};
/// Optional: values(statement), a range of expression, one per target.
template <class T>
concept lists_values = requires(const T& t, typename T::statement s) {
  { t.values(s) } -> detail::range_of<typename T::expression>;
};
/// The control-flow members come as a pair: one alone is a partial layer.
template <class T>
concept complete_control_flow = (tells_control_flow<T> == lists_branches<T>);

/// The container policy of an adapter: `Traits::storage` if given, else boost_storage.
template <class T> struct storage_of {
  using type = boost_storage;
};
template <class T>
  requires requires { typename T::storage; }
struct storage_of<T> {
  using type = typename T::storage;
};
template <class T> using storage_t = typename storage_of<T>::type;

inline constexpr std::int64_t default_device_limit = std::int64_t{1} << 20;

/// `Traits::device_limit` if given, else 1,048,576.
template <class T> constexpr std::int64_t device_limit_of() {
  if constexpr (requires { std::int64_t{T::device_limit}; })
    return T::device_limit;
  else
    return default_device_limit;
}

/// `Traits::scope_nesting_limit` if given (the most nested scopes a body may hold),
/// else no limit.
template <class T> constexpr std::size_t scope_nesting_limit_of() {
  if constexpr (requires { std::size_t{T::scope_nesting_limit}; })
    return T::scope_nesting_limit;
  else
    return static_cast<std::size_t>(-1);
}

namespace detail {
/// What a member returns, where it can be called at all: a member that exists with
/// the wrong type is diagnosed as such, not as missing (diagnose_analysis).
template <class T>
using lists_functions_result =
    decltype(std::declval<const T&>().functions(std::declval<const typename T::program&>()));
template <class T>
using describes_functions_result =
    decltype(std::declval<const T&>().describe(std::declval<typename T::function>()));
template <class T>
using exposes_bodies_result =
    decltype(std::declval<const T&>().body(std::declval<typename T::function>()));
template <class T>
using classifies_statements_result =
    decltype(std::declval<const T&>().statement_kind_of(std::declval<typename T::statement>()));
template <class T>
using locates_statements_result =
    decltype(std::declval<const T&>().location_of(std::declval<typename T::statement>()));
template <class T>
using locates_expressions_result =
    decltype(std::declval<const T&>().location_of(std::declval<typename T::expression>()));
template <class T>
using nests_statements_result =
    decltype(std::declval<const T&>().children(std::declval<typename T::statement>()));
template <class T>
using binds_targets_result =
    decltype(std::declval<const T&>().targets(std::declval<typename T::statement>()));
template <class T>
using has_values_result =
    decltype(std::declval<const T&>().value(std::declval<typename T::statement>()));
template <class T>
using has_loop_variables_result =
    decltype(std::declval<const T&>().loop_variable(std::declval<typename T::statement>()));
template <class T>
using has_loop_bounds_result =
    decltype(std::declval<const T&>().loop_bounds(std::declval<typename T::statement>()));
template <class T>
using classifies_expressions_result =
    decltype(std::declval<const T&>().expression_kind_of(std::declval<typename T::expression>()));
template <class T>
using reads_integers_result =
    decltype(std::declval<const T&>().integer_value(std::declval<typename T::expression>()));
template <class T>
using reads_variables_result =
    decltype(std::declval<const T&>().variable_of(std::declval<typename T::expression>()));
template <class T>
using resolves_calls_result =
    decltype(std::declval<const T&>().call_target_of(std::declval<typename T::expression>()));
template <class T>
using lists_arguments_result =
    decltype(std::declval<const T&>().arguments(std::declval<typename T::expression>()));
template <class T>
using finds_devices_result =
    decltype(std::declval<const T&>().device_of(std::declval<typename T::expression>()));
template <class T>
using names_allocations_result =
    decltype(std::declval<const T&>().allocation_name(std::declval<typename T::expression>()));
} // namespace detail

// ---- layer 2: the scope readers ---------------------------------------------------------

/// `using window_buffer`, a regular, equality-comparable handle.
template <class T>
concept names_window_buffers =
    requires { typename T::window_buffer; } && std::semiregular<typename T::window_buffer> &&
    std::equality_comparable<typename T::window_buffer>;
/// window_buffer handles are ordered (the verifier sorts them with std::less).
template <class T>
concept orders_window_buffers = requires(const typename T::window_buffer& a) {
  { a < a } -> std::convertible_to<bool>;
};
/// scope_name(statement) -> std::string_view.
template <class T>
concept names_scopes = requires(const T& t, typename T::statement s) {
  { t.scope_name(s) } -> std::convertible_to<std::string_view>;
};
/// scope_devices(statement) is a range of std::int64_t.
template <class T>
concept lists_scope_devices = requires(const T& t, typename T::statement s) {
  { t.scope_devices(s) } -> detail::range_of<std::int64_t>;
};
/// scope_slots(statement) is a range of window_buffer (or of optional window_buffer).
template <class T>
concept lists_scope_slots = requires(const T& t, typename T::statement s) {
  { t.scope_slots(s) } -> detail::range_of<std::optional<typename T::window_buffer>>;
};
/// view_window_buffer([statement,] variable) -> std::optional<window_buffer> or
/// window_buffer.
template <class T>
concept reads_view_window_buffers = requires(const T& t, typename T::variable v) {
  { t.view_window_buffer(v) } -> std::convertible_to<std::optional<typename T::window_buffer>>;
} || requires(const T& t, typename T::statement s, typename T::variable v) {
  { t.view_window_buffer(s, v) } -> std::convertible_to<std::optional<typename T::window_buffer>>;
};
/// window_buffer_name(window_buffer) -> std::string_view.
template <class T>
concept names_window_buffer_objects = requires(const T& t, typename T::window_buffer w) {
  { t.window_buffer_name(w) } -> std::convertible_to<std::string_view>;
};
/// window_buffer_base(window_buffer) -> variable.
template <class T>
concept reads_window_buffer_bases = requires(const T& t, typename T::window_buffer w) {
  { t.window_buffer_base(w) } -> std::convertible_to<typename T::variable>;
};
/// window_buffer_size(window_buffer) -> expression.
template <class T>
concept reads_window_buffer_sizes = requires(const T& t, typename T::window_buffer w) {
  { t.window_buffer_size(w) } -> std::convertible_to<typename T::expression>;
};

/// Some scope reader is given: then all must be (a partial layer would leave bodies the
/// pass made unrecognized, and a second run would wrap them again).
template <class T>
concept has_any_reader = names_scopes<T> || lists_scope_devices<T> || lists_scope_slots<T> ||
                         reads_view_window_buffers<T> || names_window_buffer_objects<T> ||
                         reads_window_buffer_bases<T> || reads_window_buffer_sizes<T>;

/// Everything `verify` needs on top of the analysis core.
template <class T>
concept reads_scopes =
    names_window_buffers<T> && orders_window_buffers<T> && names_scopes<T> &&
    lists_scope_devices<T> && lists_scope_slots<T> && reads_view_window_buffers<T> &&
    names_window_buffer_objects<T> && reads_window_buffer_bases<T> && reads_window_buffer_sizes<T>;

/// Everything `analyze` needs.
template <class T>
concept analysable_ir =
    complete_traits<T> && names_program<T> && names_function<T> && names_statement<T> &&
    names_expression<T> && names_variable<T> && names_location<T> && lists_functions<T> &&
    describes_functions<T> && exposes_bodies<T> && classifies_statements<T> &&
    locates_statements<T> && locates_expressions<T> && nests_statements<T> && binds_targets<T> &&
    has_values<T> && has_loop_variables<T> && has_loop_bounds<T> && classifies_expressions<T> &&
    reads_integers<T> && reads_variables<T> && resolves_calls<T> && lists_arguments<T> &&
    finds_devices<T> && names_allocations<T> && identifies_variables<T> &&
    complete_control_flow<T> && (reads_scopes<T> || !has_any_reader<T>) &&
    (!storage_t<T>::constant_evaluable || numbers_variables<T>);

// ---- layer 3: the rewrite hooks ---------------------------------------------------------

/// Optional: `using rewriter`, begin_rewrite(program&) and commit(rewriter&, program&).
template <class T>
concept has_rewriter = requires(const T& t, typename T::program& p, typename T::rewriter& rw) {
  { t.begin_rewrite(p) } -> std::same_as<typename T::rewriter>;
  t.commit(rw, p);
};

namespace detail {
/// Calls a hook with the rewriter first when the traits have one.
template <class T> struct no_rewriter {};
/// The rewriter type a traits class declares (`Member<T>`) when `Declared` (it has the
/// type and its begin and commit hooks), else no_rewriter<T>. Shared by the rewrite's
/// and the signal synthesis' optional rewriters.
template <class T, bool Declared, template <class> class Member> struct rewriter_or_none {
  using type = no_rewriter<T>;
};
template <class T, template <class> class Member> struct rewriter_or_none<T, true, Member> {
  using type = Member<T>;
};
template <class T> using rewriter_member = typename T::rewriter;
template <class T> using signal_rewriter_member = typename T::signal_rewriter;
} // namespace detail
template <class T>
using rewriter_t =
    typename detail::rewriter_or_none<T, has_rewriter<T>, detail::rewriter_member>::type;

/// make_window_buffer([rewriter&,] const window_buffer_spec&) -> window_buffer.
template <class T>
concept makes_window_buffers =
    requires(const T& t, rewriter_t<T>& rw, const window_buffer_spec<T>& spec) {
      { t.make_window_buffer(rw, spec) } -> std::convertible_to<typename T::window_buffer>;
    } || requires(const T& t, const window_buffer_spec<T>& spec) {
      { t.make_window_buffer(spec) } -> std::convertible_to<typename T::window_buffer>;
    };
/// retype_view([rewriter&,] variable, window_buffer) or
/// retype_view([rewriter&,] const view_spec&).
template <class T>
concept retypes_views =
    requires(const T& t, rewriter_t<T>& rw, typename T::variable v, typename T::window_buffer w) {
      t.retype_view(rw, v, w);
    } || requires(const T& t, typename T::variable v, typename T::window_buffer w) {
      t.retype_view(v, w);
    } || requires(const T& t, rewriter_t<T>& rw, const view_spec<T>& view) {
      t.retype_view(rw, view);
    } || requires(const T& t, const view_spec<T>& view) { t.retype_view(view); };
/// wrap_body([rewriter&,] function, std::span<const scope_spec>).
template <class T>
concept wraps_bodies = requires(const T& t, rewriter_t<T>& rw, typename T::function f,
                                std::span<const scope_spec<T>> scopes) {
  t.wrap_body(rw, f, scopes);
} || requires(const T& t, typename T::function f, std::span<const scope_spec<T>> scopes) {
  t.wrap_body(f, scopes);
};

/// Everything `materialize` needs on top of the analysis core.
template <class T>
concept rewrites =
    names_window_buffers<T> && makes_window_buffers<T> && retypes_views<T> && wraps_bodies<T>;

/// Everything `run` (analysis plus rewrite) needs.
template <class T>
concept materializable_ir = analysable_ir<T> && rewrites<T>;

// ---- layer 4: signal synthesis -------------------------------------------------------

/// names_in_use(program) is a range of std::string_view.
template <class T>
concept lists_names_in_use = requires(const T& t, const typename T::program& p) {
  { t.names_in_use(p) } -> detail::range_of<std::string_view>;
};
/// Optional: core_num_of(expression) -> std::int64_t.
template <class T>
concept reads_core_num = requires(const T& t, typename T::expression e) {
  { t.core_num_of(e) } -> std::convertible_to<std::int64_t>;
};
/// Optional: `using signal_rewriter`, begin_signals(program&), commit_signals(...).
template <class T>
concept has_signal_rewriter =
    requires(const T& t, typename T::program& p, typename T::signal_rewriter& rw) {
      { t.begin_signals(p) } -> std::same_as<typename T::signal_rewriter>;
      t.commit_signals(rw, p);
    };
template <class T>
using signal_rewriter_t = typename detail::rewriter_or_none<T, has_signal_rewriter<T>,
                                                            detail::signal_rewriter_member>::type;

/// insert_signal([signal_rewriter&,] const signal_spec&).
template <class T>
concept inserts_signals =
    requires(const T& t, signal_rewriter_t<T>& rw, const signal_spec<T>& spec) {
      t.insert_signal(rw, spec);
    } || requires(const T& t, const signal_spec<T>& spec) { t.insert_signal(spec); };

/// Everything `plan_signals` needs.
template <class T>
concept signal_analysable_ir = analysable_ir<T> && lists_names_in_use<T>;
/// Everything `synthesize_signals` needs.
template <class T>
concept signal_synthesizable_ir = signal_analysable_ir<T> && inserts_signals<T>;

// ---- diagnose: one readable error per mistake -------------------------------------------

#define COMMSCOPE_REQUIRE(concept_, message)                                                       \
  else if constexpr (!concept_<T>) static_assert(detail::always_false<T>, "commscope: " message)
/// A member that exists but returns the wrong type: the check names both types in its note.
#define COMMSCOPE_REQUIRE_TYPE(concept_, message, ...)                                             \
  else if constexpr (!concept_<T> && requires { typename detail::concept_##_result<T>; })          \
      static_assert(__VA_ARGS__, "commscope: " message)

template <class T> constexpr void diagnose_reader_members();

/// Called first by `analyze`: reports the first missing member of the analysis core only
/// (and the first missing scope reader of an adapter that gives some but not all).
template <class T> constexpr void diagnose_analysis() {
  if constexpr (!complete_traits<T>)
    static_assert(detail::always_false<T>,
                  "commscope: no ir_traits specialization for this program type; specialize "
                  "commscope::ir_traits<Program> or pass a traits object (traits.hpp)");
  COMMSCOPE_REQUIRE(names_program, "add `using program = ...;` (the program handle type)");
  COMMSCOPE_REQUIRE(names_function, "add `using function = ...;` (a copyable, "
                                    "default-constructible handle)");
  COMMSCOPE_REQUIRE(names_statement, "add `using statement = ...;` (a copyable, "
                                     "default-constructible handle)");
  COMMSCOPE_REQUIRE(names_expression, "add `using expression = ...;` (a copyable, "
                                      "default-constructible handle)");
  COMMSCOPE_REQUIRE(names_variable, "add `using variable = ...;` (a copyable, "
                                    "default-constructible handle)");
  COMMSCOPE_REQUIRE(names_location, "add `using location = ...;` (copyable and "
                                    "default-constructible: give mlir::Location its "
                                    "nullable form)");
  COMMSCOPE_REQUIRE_TYPE(lists_functions,
                         "`functions(const program&)` must return a range of function",
                         detail::range_of<detail::lists_functions_result<T>, typename T::function>);
  COMMSCOPE_REQUIRE(lists_functions, "add `R functions(const program&)` returning a range of "
                                     "function");
  COMMSCOPE_REQUIRE_TYPE(
      describes_functions, "`describe(function)` must return function_info",
      std::is_convertible_v<detail::describes_functions_result<T>, function_info>);
  COMMSCOPE_REQUIRE(describes_functions, "add `static function_info describe(function)`");
  COMMSCOPE_REQUIRE_TYPE(exposes_bodies, "`body(function)` must return a range of statement",
                         detail::range_of<detail::exposes_bodies_result<T>, typename T::statement>);
  COMMSCOPE_REQUIRE(exposes_bodies, "add `R body(function)` returning a range of statement");
  COMMSCOPE_REQUIRE_TYPE(
      classifies_statements, "`statement_kind_of(statement)` must return statement_kind",
      std::is_convertible_v<detail::classifies_statements_result<T>, statement_kind>);
  COMMSCOPE_REQUIRE(classifies_statements, "add `statement_kind statement_kind_of(statement)`");
  COMMSCOPE_REQUIRE_TYPE(
      locates_statements, "`location_of(statement)` must return location",
      std::is_convertible_v<detail::locates_statements_result<T>, typename T::location>);
  COMMSCOPE_REQUIRE(locates_statements, "add `location location_of(statement)`");
  COMMSCOPE_REQUIRE_TYPE(
      locates_expressions, "`location_of(expression)` must return location",
      std::is_convertible_v<detail::locates_expressions_result<T>, typename T::location>);
  COMMSCOPE_REQUIRE(locates_expressions, "add `location location_of(expression)`");
  COMMSCOPE_REQUIRE_TYPE(
      nests_statements, "`children(statement)` must return a range of statement",
      detail::range_of<detail::nests_statements_result<T>, typename T::statement>);
  COMMSCOPE_REQUIRE(nests_statements, "add `R children(statement)` returning a range of statement");
  COMMSCOPE_REQUIRE_TYPE(binds_targets, "`targets(statement)` must return a range of variable",
                         detail::range_of<detail::binds_targets_result<T>, typename T::variable>);
  COMMSCOPE_REQUIRE(binds_targets, "add `R targets(statement)` returning a range of variable");
  COMMSCOPE_REQUIRE_TYPE(
      has_values, "`value(statement)` must return expression",
      std::is_convertible_v<detail::has_values_result<T>, typename T::expression>);
  COMMSCOPE_REQUIRE(has_values, "add `expression value(statement)`");
  COMMSCOPE_REQUIRE_TYPE(
      has_loop_variables, "`loop_variable(statement)` must return variable",
      std::is_convertible_v<detail::has_loop_variables_result<T>, typename T::variable>);
  COMMSCOPE_REQUIRE(has_loop_variables, "add `static variable loop_variable(statement)`");
  COMMSCOPE_REQUIRE_TYPE(
      has_loop_bounds,
      "`loop_bounds(statement)` must return loop_bounds<Start, Stop, Step>: each field an "
      "expression or an integer, start and step also std::optional<expression>",
      detail::bounds_of<detail::has_loop_bounds_result<T>, typename T::expression>);
  COMMSCOPE_REQUIRE(has_loop_bounds,
                    "add `loop_bounds<...> loop_bounds(statement)` (start, stop and step, "
                    "each an expression or an integer; start and step may be "
                    "std::optional<expression>)");
  COMMSCOPE_REQUIRE_TYPE(
      classifies_expressions, "`expression_kind_of(expression)` must return expression_kind",
      std::is_convertible_v<detail::classifies_expressions_result<T>, expression_kind>);
  COMMSCOPE_REQUIRE(classifies_expressions, "add `expression_kind expression_kind_of(expression)`");
  COMMSCOPE_REQUIRE_TYPE(reads_integers, "`integer_value(expression)` must return std::int64_t",
                         std::is_convertible_v<detail::reads_integers_result<T>, std::int64_t>);
  COMMSCOPE_REQUIRE(reads_integers, "add `std::int64_t integer_value(expression)`");
  COMMSCOPE_REQUIRE_TYPE(
      reads_variables, "`variable_of(expression)` must return variable",
      std::is_convertible_v<detail::reads_variables_result<T>, typename T::variable>);
  COMMSCOPE_REQUIRE(reads_variables, "add `variable variable_of(expression)`");
  COMMSCOPE_REQUIRE_TYPE(resolves_calls, "`call_target_of(expression)` must return call_target",
                         std::is_convertible_v<detail::resolves_calls_result<T>, call_target>);
  COMMSCOPE_REQUIRE(resolves_calls, "add `call_target call_target_of(expression)`");
  COMMSCOPE_REQUIRE_TYPE(
      lists_arguments, "`arguments(expression)` must return a range of expression",
      detail::range_of<detail::lists_arguments_result<T>, typename T::expression>);
  COMMSCOPE_REQUIRE(lists_arguments,
                    "add `R arguments(expression)` returning a range of expression");
  COMMSCOPE_REQUIRE_TYPE(finds_devices,
                         "`device_of(expression)` must return std::optional<expression>",
                         std::is_convertible_v<detail::finds_devices_result<T>,
                                               std::optional<typename T::expression>>);
  COMMSCOPE_REQUIRE(finds_devices, "add `std::optional<expression> device_of(expression)`");
  COMMSCOPE_REQUIRE_TYPE(
      names_allocations, "`allocation_name(expression)` must return std::string_view",
      std::is_convertible_v<detail::names_allocations_result<T>, std::string_view>);
  COMMSCOPE_REQUIRE(names_allocations, "add `std::string_view allocation_name(expression)`");
  COMMSCOPE_REQUIRE(identifies_variables,
                    "variables need an identity: add `K variable_key(variable)` with a "
                    "std::hash-able K, or variable_index(variable) and "
                    "variable_bound(const program&), or make the variable handle hashable");
  else if constexpr (tells_control_flow<T> && !lists_branches<T>) static_assert(
      detail::always_false<T>,
      "commscope: control_of needs its pair: add `R branches(statement)` returning a range of "
      "ranges of statement (the alternatives of a statement whose control_of is "
      "alternatives)");
  else if constexpr (lists_branches<T> && !tells_control_flow<T>) static_assert(
      detail::always_false<T>,
      "commscope: branches needs its pair: add `control_flow control_of(statement)` (which "
      "statements' children are alternatives, run once, may be skipped or repeat)");
  else if constexpr (has_any_reader<T> && !reads_scopes<T>) diagnose_reader_members<T>();
  else if constexpr (storage_t<T>::constant_evaluable && !numbers_variables<T>) static_assert(
      detail::always_false<T>,
      "commscope: constant-evaluable storage needs variable_index(variable) "
      "and variable_bound(const program&): hashing is not available there");
}

/// The one-argument entry points default-construct `ir_traits<Program>`: only for a
/// traits class without state, or one that says its default state works
/// (`static constexpr bool usable_by_default = true`: an optional cache). One that holds
/// its module (an index IR's traits) would read through a null module.
template <class T>
concept default_constructible_traits =
    std::default_initializable<T> && (std::is_empty_v<T> || requires {
      requires T::usable_by_default;
    });

/// Called by the one-argument entry points, after the layers they need are diagnosed.
template <class T> constexpr void diagnose_default_traits() {
  if constexpr (!default_constructible_traits<T>)
    static_assert(detail::always_false<T>,
                  "commscope: this ir_traits specialization holds state (a module, a table), so "
                  "the library cannot make one (unless it says `static constexpr bool "
                  "usable_by_default = true`): pass the traits object, as in "
                  "analyze(program, traits), materialize(program, plan, traits), "
                  "run(program, traits), verify(program, traits), "
                  "synthesize_signals(program, traits)");
}

/// Called first by `verify`: the analysis core, then the scope readers.
template <class T> constexpr void diagnose_readers() {
  if constexpr (!analysable_ir<T>)
    diagnose_analysis<T>();
  else
    diagnose_reader_members<T>();
}

/// The scope readers' first missing member.
template <class T> constexpr void diagnose_reader_members() {
  if constexpr (reads_scopes<T>) {
  }
  COMMSCOPE_REQUIRE(names_window_buffers,
                    "add `using window_buffer = ...;` (a copyable, default-constructible, "
                    "equality-comparable handle)");
  COMMSCOPE_REQUIRE(orders_window_buffers,
                    "window_buffer must be ordered by std::less (give it operator<)");
  COMMSCOPE_REQUIRE(names_scopes, "add `std::string_view scope_name(statement)`");
  COMMSCOPE_REQUIRE(lists_scope_devices,
                    "add `R scope_devices(statement)` returning a range of std::int64_t");
  COMMSCOPE_REQUIRE(lists_scope_slots,
                    "add `R scope_slots(statement)` returning a range of window_buffer");
  COMMSCOPE_REQUIRE(reads_view_window_buffers,
                    "add `std::optional<window_buffer> view_window_buffer(variable)`");
  COMMSCOPE_REQUIRE(names_window_buffer_objects,
                    "add `std::string_view window_buffer_name(window_buffer)`");
  COMMSCOPE_REQUIRE(reads_window_buffer_bases, "add `variable window_buffer_base(window_buffer)`");
  COMMSCOPE_REQUIRE(reads_window_buffer_sizes,
                    "add `expression window_buffer_size(window_buffer)`");
}

/// Called first by `materialize` and `run`: the analysis core, then the rewrite hooks.
template <class T> constexpr void diagnose_rewrite() {
  if constexpr (!analysable_ir<T>)
    diagnose_analysis<T>();
  COMMSCOPE_REQUIRE(names_window_buffers,
                    "the rewrite needs `using window_buffer = ...;` (a copyable, "
                    "default-constructible, equality-comparable handle)");
  COMMSCOPE_REQUIRE(makes_window_buffers,
                    "the rewrite needs `window_buffer make_window_buffer([rewriter&,] const "
                    "window_buffer_spec<Traits>&)`");
  COMMSCOPE_REQUIRE(retypes_views,
                    "the rewrite needs `void retype_view([rewriter&,] variable, window_buffer)`");
  COMMSCOPE_REQUIRE(wraps_bodies, "the rewrite needs `void wrap_body([rewriter&,] function, "
                                  "std::span<const scope_spec<Traits>>)`");
}

/// Called first by the signal-synthesis entry points: the core, then layer 4 (its rewrite
/// hook only when `Rewrite`).
template <class T, bool Rewrite> constexpr void diagnose_signals() {
  if constexpr (!analysable_ir<T>)
    diagnose_analysis<T>();
  COMMSCOPE_REQUIRE(lists_names_in_use, "signal synthesis needs `R names_in_use(const program&)` "
                                        "returning a range of std::string_view");
  else if constexpr (Rewrite && !inserts_signals<T>) static_assert(
      detail::always_false<T>, "commscope: signal synthesis needs `void insert_signal("
                               "[signal_rewriter&,] const signal_spec<Traits>&)`");
}

#undef COMMSCOPE_REQUIRE

} // namespace commscope
