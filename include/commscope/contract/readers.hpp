// Layer 2, the scope readers: what `verify` needs on top of the core, and what lets
// `analyze` recognise a body that is already materialized (without them no body is, and
// a scope statement is walked as a block). All or none: some without the rest would
// leave the pass's own output unrecognised, and a second run would wrap it again.
//
// A body whose only statement is a scope (or that holds scopes anywhere) is already
// materialized: its plan is read back from the scopes, and the rewrite leaves it alone
// (that is how a second run recognizes its own output). "None" is std::nullopt when
// view_window_buffer returns std::optional (then every plain handle the adapter hands out
// is real, index 0 included), else a value-initialized handle (nullptr). The library
// passes the readers only handles the adapter handed out, never none.
#pragma once

#include <commscope/contract/core.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

namespace commscope {

namespace detail {
template <class T> using window_buffer_member = typename T::window_buffer;
/// The window-buffer handle of an adapter that has none (an analysis-only adapter):
/// the plan still has a field for it.
struct absent_window_buffer {
  friend constexpr bool operator==(absent_window_buffer, absent_window_buffer) = default;
};
} // namespace detail

namespace contract {

/// `using window_buffer`: the handle of a window-buffer object (copyable,
/// default-constructible, equality-comparable).
struct window_buffer {
  template <class T> static constexpr bool given = requires {
    requires std::semiregular<typename T::window_buffer>;
    requires std::equality_comparable<typename T::window_buffer>;
  };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: add `using window_buffer = ...;` (a copyable, "
                  "default-constructible, equality-comparable handle)");
  }
  /// `Traits::window_buffer`, or a placeholder for an adapter without one.
  template <class T>
  using type = typename detail::member_or<given<T>, detail::window_buffer_member, T,
                                          detail::absent_window_buffer>::type;
};

/// window_buffer handles are ordered by operator< (the verifier sorts them with
/// std::less).
struct window_buffer_order {
  template <class T> static constexpr bool given = requires(const typename T::window_buffer& a) {
    { a < a } -> std::convertible_to<bool>;
  };
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: window_buffer must be ordered by std::less (give it operator<)");
  }
};

/// `std::string_view scope_name(statement)`.
struct scope_name : member_function<scope_name> {
  template <class T>
  using call = decltype(std::declval<const T&>().scope_name(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, std::string_view>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `std::string_view scope_name(statement)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `scope_name(statement)` must return std::string_view");
  }
};

/// `R scope_devices(statement)`, a range of std::int64_t; empty means all devices.
struct scope_devices : member_function<scope_devices> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().scope_devices(std::declval<typename T::statement>()));
  template <class R, class T> static constexpr bool returns = detail::range_of<R, std::int64_t>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(
          detail::always_false<T>,
          "commscope: add `R scope_devices(statement)` returning a range of std::int64_t");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `scope_devices(statement)` must return a range of std::int64_t");
  }
};

/// `R scope_slots(statement)`, a range of window_buffer or of
/// std::optional<window_buffer>.
struct scope_slots : member_function<scope_slots> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().scope_slots(std::declval<typename T::statement>()));
  template <class R, class T>
  static constexpr bool returns = detail::range_of<R, std::optional<typename T::window_buffer>>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `R scope_slots(statement)` returning a range of window_buffer");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `scope_slots(statement)` must return a range of window_buffer");
  }
};

/// `std::optional<window_buffer> view_window_buffer(statement, variable)` (none: not a
/// view), or a window_buffer where a null value means none: the window buffer of the
/// variable that the assignment binds (an IR that rebinds variables may give each binding
/// its own).
struct view_window_buffer : member_function<view_window_buffer> {
  template <class T>
  using call = decltype(std::declval<const T&>().view_window_buffer(
      std::declval<typename T::statement>(), std::declval<typename T::variable>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, std::optional<typename T::window_buffer>>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `std::optional<window_buffer> view_window_buffer(statement, "
                    "variable)`");
    else
      static_assert(returns<call<T>, T>, "commscope: `view_window_buffer(statement, variable)` "
                                         "must return std::optional<window_buffer>");
  }
  /// The adapter says "none" with std::optional: then every plain handle it hands out is a
  /// real window buffer, index 0 included.
  template <class T>
  static constexpr bool optional_none = detail::is_optional<std::remove_cvref_t<call<T>>>::value;
};

/// `std::string_view window_buffer_name(window_buffer)`.
struct window_buffer_name : member_function<window_buffer_name> {
  template <class T>
  using call = decltype(std::declval<const T&>().window_buffer_name(
      std::declval<typename T::window_buffer>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, std::string_view>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `std::string_view window_buffer_name(window_buffer)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `window_buffer_name(window_buffer)` must return std::string_view");
  }
};

/// `variable window_buffer_base(window_buffer)`.
struct window_buffer_base : member_function<window_buffer_base> {
  template <class T>
  using call = decltype(std::declval<const T&>().window_buffer_base(
      std::declval<typename T::window_buffer>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, typename T::variable>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `variable window_buffer_base(window_buffer)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `window_buffer_base(window_buffer)` must return variable");
  }
};

/// `expression window_buffer_size(window_buffer)`.
struct window_buffer_size : member_function<window_buffer_size> {
  template <class T>
  using call = decltype(std::declval<const T&>().window_buffer_size(
      std::declval<typename T::window_buffer>()));
  template <class R, class T>
  static constexpr bool returns = std::convertible_to<R, typename T::expression>;
  template <class T> static constexpr void diagnose() {
    if constexpr (!callable<T>)
      static_assert(detail::always_false<T>,
                    "commscope: add `expression window_buffer_size(window_buffer)`");
    else
      static_assert(returns<call<T>, T>,
                    "commscope: `window_buffer_size(window_buffer)` must return expression");
  }
};

/// The readers proper: an adapter that gives one of them means to give all.
using scope_reader_functions = records<scope_name, scope_devices, scope_slots, view_window_buffer,
                                       window_buffer_name, window_buffer_base, window_buffer_size>;
/// The scope readers, in the order of their diagnosis.
using scope_readers = join<records<window_buffer, window_buffer_order>, scope_reader_functions>;

/// The rule of the layer, part of what `analyze` needs: all readers or none.
struct scope_readers_all_or_none {
  template <class T>
  static constexpr bool holds = all_hold<T, scope_readers> || !any_given<T, scope_reader_functions>;
  template <class T> static constexpr void diagnose() { diagnose_first<T>(scope_readers{}); }
};

} // namespace contract

/// `Traits::window_buffer`, or a placeholder for an adapter without one.
template <class T> using window_buffer_t = contract::window_buffer::type<T>;

} // namespace commscope
