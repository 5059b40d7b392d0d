// Layer 2, the scope readers: what `verify` needs on top of the core, and what lets
// `analyze` recognize a body that is already materialized (without them no body is, and
// a scope statement is walked as a block). All or none: some without the rest would
// leave the pass's own output unrecognized, and a second run would wrap it again.
//
// A body whose only statement is a scope (or that holds scopes anywhere) is already
// materialized: its plan is read back from the scopes, and the rewrite leaves it alone.
// "None" is std::nullopt when view_window_buffer returns std::optional (then every plain
// handle the adapter hands out is real, index 0 included), else a value-initialized
// handle (nullptr). The library passes the readers only handles the adapter handed out.
#pragma once

#include <commscope/contract/core.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

namespace commscope {

namespace detail {
template <class T>
concept window_buffer_handle = std::semiregular<T> && std::equality_comparable<T>;
template <class T>
concept ordered = requires(const T& a) {
  { a < a } -> std::convertible_to<bool>;
};
} // namespace detail

namespace contract {

/// The handle of a window-buffer object.
COMMSCOPE_HANDLE(readers, required, window_buffer, detail::window_buffer_handle,
                 "a copyable, default-constructible, equality-comparable handle");
COMMSCOPE_RULE(window_buffer_order,
               "window_buffer must be ordered by std::less (give it operator<)",
               detail::ordered<typename names<T>::window_buffer>);

/// The name of a materialized scope.
COMMSCOPE_REQUIRED(readers, scope_name, (statement), std::string_view);
/// A scope's devices, ascending; empty means all devices.
COMMSCOPE_REQUIRED(readers, scope_devices, (statement), range_of<std::int64_t>);
/// A scope's slots: window_buffer, or std::optional<window_buffer> (none: a null slot).
COMMSCOPE_REQUIRED(readers, scope_slots, (statement), range_of<or_none<window_buffer>>);
/// The window buffer of the variable that the assignment binds, or none (not a view): an
/// IR that rebinds variables may give each binding its own.
COMMSCOPE_REQUIRED(readers, view_window_buffer, (statement, variable), or_none<window_buffer>);
COMMSCOPE_REQUIRED(readers, window_buffer_name, (window_buffer), std::string_view);
COMMSCOPE_REQUIRED(readers, window_buffer_base, (window_buffer), variable);
COMMSCOPE_REQUIRED(readers, window_buffer_size, (window_buffer), expression);
/// With symbolic_device_sets: a scope's progressions (empty for a plain list).
COMMSCOPE_OPTIONAL(readers, scope_progressions, (statement), range_of<device_progression>,
                   { return std::span<const device_progression>(); });

/// The readers proper: an adapter that gives one of them means to give all.
using scope_reader_functions = records<scope_name, scope_devices, scope_slots, view_window_buffer,
                                       window_buffer_name, window_buffer_base, window_buffer_size>;
COMMSCOPE_RULE(symbolic_scopes,
               "`symbolic_device_sets` with the scope readers needs "
               "`scope_progressions(statement)`, returning range_of<device_progression>",
               !symbolic_device_sets::of<T>() || scope_progressions::given<T>);
/// The scope readers, in the order of their diagnosis.
using scope_readers = join<records<window_buffer, window_buffer_order>, scope_reader_functions,
                           records<scope_progressions, symbolic_scopes>>;

/// The rule of the layer, part of what `analyze` needs: all readers or none.
struct scope_readers_all_or_none {
  template <class T>
  static constexpr bool holds = all_hold<T, scope_readers> || !any_given<T, scope_reader_functions>;
  template <class T> static constexpr void diagnose() { diagnose_first<T>(scope_readers{}); }
};

} // namespace contract

/// `Traits::window_buffer`, or a placeholder for an adapter without one.
template <class T>
using window_buffer_t =
    detail::member_type_or_t<detail::window_buffer_member, T, detail::absent_window_buffer>;

} // namespace commscope
