// One concept per requirement of traits.hpp, the detection of the optional members, and
// the `diagnose_*` functions that the entry points call so that an incomplete adapter
// gets one short message naming the member to add, instead of a page of template
// errors or "no matching function".
#pragma once

#include <commscope/storage.hpp>
#include <commscope/traits.hpp>

#include <boost/hana/bool.hpp>
#include <boost/hana/type.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ranges>
#include <string_view>
#include <utility>

namespace commscope {

namespace concepts_ {
template <class R, class T>
concept range_of = std::ranges::range<R> && std::convertible_to<std::ranges::range_reference_t<R>, T>;
template <class...>
inline constexpr bool always_false = false;
} // namespace concepts_

/// `ir_traits<P>` (or the traits passed explicitly) is a complete type.
template <class T>
concept complete_traits = requires { sizeof(T); };

/// The handle types: program, function, statement, expression, variable, location,
/// window_buffer.
template <class T>
concept names_handles = requires {
  typename T::program;
  typename T::function;
  typename T::statement;
  typename T::expression;
  typename T::variable;
  typename T::location;
  typename T::window_buffer;
};

/// Every handle is a regular value: the plan value-initializes and copies them (a
/// value-initialized window_buffer means "none").
template <class T>
concept regular_handles =
    std::semiregular<typename T::function> && std::semiregular<typename T::statement> &&
    std::semiregular<typename T::expression> && std::semiregular<typename T::variable> &&
    std::semiregular<typename T::location> && std::semiregular<typename T::window_buffer>;

/// functions(program) is a range of function.
template <class T>
concept lists_functions = requires(const typename T::program& p) {
  { T::functions(p) } -> concepts_::range_of<typename T::function>;
};

/// describe(function) -> function_info.
template <class T>
concept describes_functions = requires(typename T::function f) {
  { T::describe(f) } -> std::convertible_to<function_info>;
};

/// body(function) is a range of statement.
template <class T>
concept exposes_bodies = requires(typename T::function f) {
  { T::body(f) } -> concepts_::range_of<typename T::statement>;
};

/// statement_kind_of, statement_location, children, targets, value, expressions.
template <class T>
concept classifies_statements = requires(typename T::statement s) {
  { T::statement_kind_of(s) } -> std::convertible_to<statement_kind>;
  { T::statement_location(s) } -> std::convertible_to<typename T::location>;
  { T::children(s) } -> concepts_::range_of<typename T::statement>;
  { T::targets(s) } -> concepts_::range_of<typename T::variable>;
  { T::value(s) } -> std::convertible_to<typename T::expression>;
  { T::expressions(s) } -> concepts_::range_of<typename T::expression>;
};

/// loop_variable(statement) and loop_bounds(statement).
template <class T>
concept describes_loops = requires(typename T::statement s) {
  { T::loop_variable(s) } -> std::convertible_to<typename T::variable>;
  { T::loop_bounds(s) } -> std::convertible_to<loop_bounds<typename T::expression>>;
};

/// expression_kind_of, expression_location, integer_value, variable_of, subexpressions.
template <class T>
concept classifies_expressions = requires(typename T::expression e) {
  { T::expression_kind_of(e) } -> std::convertible_to<expression_kind>;
  { T::expression_location(e) } -> std::convertible_to<typename T::location>;
  { T::integer_value(e) } -> std::convertible_to<std::int64_t>;
  { T::variable_of(e) } -> std::convertible_to<typename T::variable>;
  { T::subexpressions(e) } -> concepts_::range_of<typename T::expression>;
};

/// call_target_of, arguments, device_of, allocation_name.
template <class T>
concept describes_calls = requires(typename T::expression e) {
  { T::call_target_of(e) } -> std::convertible_to<call_target>;
  { T::arguments(e) } -> concepts_::range_of<typename T::expression>;
  { T::device_of(e) } -> std::convertible_to<std::optional<typename T::expression>>;
  { T::allocation_name(e) } -> std::convertible_to<std::string_view>;
};

/// variable_key(variable): hashable identity (unless variable_index is provided).
template <class T>
concept keys_variables = requires(typename T::variable v) {
  { std::hash<std::remove_cvref_t<decltype(T::variable_key(v))>>{}(T::variable_key(v)) }
      -> std::convertible_to<std::size_t>;
  { T::variable_key(v) == T::variable_key(v) } -> std::convertible_to<bool>;
};

/// Optional: variable_index(variable) and variable_bound(program), a dense numbering.
template <class T>
concept numbers_variables = requires(typename T::variable v, const typename T::program& p) {
  { T::variable_index(v) } -> std::convertible_to<std::size_t>;
  { T::variable_bound(p) } -> std::convertible_to<std::size_t>;
};

/// The materialized form can be read back: scopes, slots, views' window buffers.
template <class T>
concept reads_scopes = requires(typename T::statement s, typename T::variable v,
                                typename T::window_buffer w) {
  { T::scope_name(s) } -> std::convertible_to<std::string_view>;
  { T::scope_devices(s) } -> concepts_::range_of<std::int64_t>;
  { T::scope_slots(s) } -> concepts_::range_of<typename T::window_buffer>;
  { T::view_window_buffer(v) } -> std::convertible_to<typename T::window_buffer>;
  { T::window_buffer_name(w) } -> std::convertible_to<std::string_view>;
  { T::window_buffer_base(w) } -> std::convertible_to<typename T::variable>;
  { T::window_buffer_size(w) } -> std::convertible_to<typename T::expression>;
};

/// The rewrite hooks.
template <class T>
concept rewrites = requires(typename T::program& p, typename T::rewriter& rw,
                            typename T::variable v, typename T::window_buffer w,
                            typename T::function f, const window_buffer_spec<T>& spec,
                            std::span<const scope_spec<T>> scopes) {
  { T::begin_rewrite(p) } -> std::same_as<typename T::rewriter>;
  { T::make_window_buffer(rw, spec) } -> std::convertible_to<typename T::window_buffer>;
  T::retype_view(rw, v, w);
  T::wrap_body(rw, f, scopes);
  T::commit(rw, p);
};

/// Everything `analyze` and `verify` need.
template <class T>
concept analysable_ir = complete_traits<T> && names_handles<T> && regular_handles<T> &&
                        lists_functions<T> && describes_functions<T> && exposes_bodies<T> &&
                        classifies_statements<T> && describes_loops<T> &&
                        classifies_expressions<T> && describes_calls<T> &&
                        (numbers_variables<T> || keys_variables<T>) && reads_scopes<T>;

/// Everything `run` (analysis plus rewrite) needs.
template <class T>
concept materializable_ir = analysable_ir<T> && rewrites<T>;

// ---- optional members, detected ------------------------------------------------------

namespace hooks {
inline constexpr auto has_storage =
    boost::hana::is_valid([](auto t) -> boost::hana::type<typename decltype(t)::type::storage> {
      return {};
    });
inline constexpr auto has_device_limit = boost::hana::is_valid(
    [](auto t) -> decltype((void)std::int64_t{decltype(t)::type::device_limit}) {});
inline constexpr auto has_scope_nesting_limit = boost::hana::is_valid(
    [](auto t) -> decltype((void)std::size_t{decltype(t)::type::scope_nesting_limit}) {});
inline constexpr auto has_can_wrap_body = boost::hana::is_valid(
    [](auto t) -> decltype((void)bool{decltype(t)::type::can_wrap_body(
                   std::declval<typename decltype(t)::type::function>())}) {});

template <class T>
struct storage_of {
  using type = boost_storage;
};
template <class T>
  requires(decltype(has_storage(boost::hana::type_c<T>))::value)
struct storage_of<T> {
  using type = typename T::storage;
};
} // namespace hooks

/// The container policy of an adapter: `Traits::storage` if given, else boost_storage.
template <class T>
using storage_t = typename hooks::storage_of<T>::type;

inline constexpr std::int64_t default_device_limit = std::int64_t{1} << 20;

/// `Traits::device_limit` if given, else 1,048,576.
template <class T>
constexpr std::int64_t device_limit_of() {
  if constexpr (decltype(hooks::has_device_limit(boost::hana::type_c<T>))::value)
    return T::device_limit;
  else
    return default_device_limit;
}

/// `Traits::scope_nesting_limit` if given, else no limit.
template <class T>
constexpr std::size_t scope_nesting_limit_of() {
  if constexpr (decltype(hooks::has_scope_nesting_limit(boost::hana::type_c<T>))::value)
    return T::scope_nesting_limit;
  else
    return static_cast<std::size_t>(-1);
}

/// `Traits::can_wrap_body(f)` if given, else true.
template <class T>
constexpr bool can_wrap_body(typename T::function f) {
  if constexpr (decltype(hooks::has_can_wrap_body(boost::hana::type_c<T>))::value)
    return T::can_wrap_body(f);
  else
    return ((void)f, true);
}

// ---- diagnose: one readable error per mistake -----------------------------------------

/// Called first by `analyze` and `verify`: reports the first missing requirement only.
template <class T>
constexpr void diagnose_analysis() {
  using concepts_::always_false;
  if constexpr (!complete_traits<T>)
    static_assert(always_false<T>, "commscope: no ir_traits specialization for this program "
                                   "type; specialize commscope::ir_traits<Program> (traits.hpp)");
  else if constexpr (!names_handles<T>)
    static_assert(always_false<T>,
                  "commscope: the traits must name the handle types program, function, "
                  "statement, expression, variable, location and window_buffer");
  else if constexpr (!regular_handles<T>)
    static_assert(always_false<T>,
                  "commscope: every handle type (function, statement, expression, variable, "
                  "location, window_buffer) must be default-constructible and copyable; "
                  "give a handle without an empty state a nullable form");
  else if constexpr (!lists_functions<T>)
    static_assert(always_false<T>, "commscope: add `static R functions(const program&)` "
                                   "returning a range of function");
  else if constexpr (!describes_functions<T>)
    static_assert(always_false<T>,
                  "commscope: add `static function_info describe(function)`");
  else if constexpr (!exposes_bodies<T>)
    static_assert(always_false<T>,
                  "commscope: add `static R body(function)` returning a range of statement");
  else if constexpr (!classifies_statements<T>)
    static_assert(always_false<T>,
                  "commscope: statements need statement_kind_of, statement_location, "
                  "children, targets, value and expressions (traits.hpp)");
  else if constexpr (!describes_loops<T>)
    static_assert(always_false<T>, "commscope: add `static variable loop_variable(statement)` "
                                   "and `static loop_bounds<expression> loop_bounds(statement)`");
  else if constexpr (!classifies_expressions<T>)
    static_assert(always_false<T>,
                  "commscope: expressions need expression_kind_of, expression_location, "
                  "integer_value, variable_of and subexpressions (traits.hpp)");
  else if constexpr (!describes_calls<T>)
    static_assert(always_false<T>,
                  "commscope: calls need call_target_of, arguments, device_of and "
                  "allocation_name (traits.hpp)");
  else if constexpr (!(numbers_variables<T> || keys_variables<T>))
    static_assert(always_false<T>,
                  "commscope: add `static K variable_key(variable)` with a std::hash-able K, "
                  "or variable_index(variable) and variable_bound(const program&)");
  else if constexpr (!reads_scopes<T>)
    static_assert(always_false<T>,
                  "commscope: add the scope readers scope_name, scope_devices, scope_slots, "
                  "view_window_buffer, window_buffer_name, window_buffer_base and "
                  "window_buffer_size (traits.hpp)");
  else if constexpr (storage_t<T>::constant_evaluable && !numbers_variables<T>)
    static_assert(always_false<T>,
                  "commscope: constant-evaluable storage needs variable_index(variable) "
                  "and variable_bound(const program&): hashing is not available there");
}

/// Called first by `materialize` and `run`.
template <class T>
constexpr void diagnose_rewrite() {
  if constexpr (!analysable_ir<T>)
    diagnose_analysis<T>();
  else if constexpr (!rewrites<T>)
    static_assert(concepts_::always_false<T>,
                  "commscope: the rewrite needs `using rewriter`, begin_rewrite, "
                  "make_window_buffer, retype_view, wrap_body and commit (traits.hpp)");
}

} // namespace commscope
