// Error codes, diagnostics and their messages (pass.md, "Errors").
//
// A diagnostic stores what it is about (a code, a subject name, up to two numbers, a
// location) rather than a formatted string, so that the analysis can run in constant
// evaluation, where std::string is not usable with every standard library. The message
// is formatted on demand by `message()`.
#pragma once

#include <commscope/analysis/operations.hpp>
#include <commscope/analysis/sort.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace commscope {

enum class error_code : std::uint8_t {
  dead_alloc,
  unconsumed_alloc,
  empty_coverage,
  unsupported_device,
  negative_device,
  device_out_of_range,
  partial_world_range,
  duplicate_name,
  malformed_op,
  collective_arg_not_window,
  uncovered_collective,
  barrier_no_coverage,
  collective_in_loop,
  collective_aliased_windows,
  scope_nesting_limit, ///< more domains than the adapter's scope_nesting_limit (traits.hpp)
  verify,              ///< a finding of the verifier (verify.hpp)
};

inline constexpr std::array<std::string_view, 16> error_code_names{
    "dead-alloc",           "unconsumed-alloc",
    "empty-coverage",       "unsupported-device",
    "negative-device",      "device-out-of-range",
    "partial-world-range",  "duplicate-name",
    "malformed-op",         "collective-arg-not-window",
    "uncovered-collective", "barrier-no-coverage",
    "collective-in-loop",   "collective-aliased-windows",
    "scope-nesting-limit",  "verify"};

/// The stable spelling of a code, as printed in brackets after a message.
[[nodiscard]] constexpr std::string_view code_name(error_code c) {
  return error_code_names[static_cast<std::size_t>(c)];
}

/// Why a `malformed-op` or `verify` diagnostic was raised; selects the message.
enum class reason : std::uint8_t {
  none,
  wrong_arity,         ///< number = positional arguments given, extra = expected
  alloc_not_assigned,  ///< an allocation that is not a direct assignment
  unknown_callee,      ///< a call of a function the program does not have
  alloc_outside_scope, ///< an allocation no scope holds, in a function that has scopes
  unwrappable_body,    ///< allocations in a body the adapter cannot wrap (can_wrap_body)
  empty_scope,         ///< verify: a scope without slots
  null_slot,           ///< verify: a null slot
  slot_in_two_scopes,  ///< verify: a window buffer in more than one scope
  unsorted_devices,    ///< verify: device list not ascending, unique, non-negative
  view_outside_scope,  ///< verify: a view whose window buffer no enclosing scope holds
  alloc_not_slot,      ///< verify: an allocation no enclosing scope holds (host with scopes)
  nested_allreduce,    ///< signal synthesis: a signal-less allreduce inside an expression
  bad_core_num,        ///< signal synthesis: core_num= is no positive integer constant
  synthesized_in_loop, ///< signal synthesis: collective-in-loop of a signal-less allreduce
};

/// What a note of a diagnostic points at (cli.md lists them); selects its message.
enum class note_kind : std::uint8_t {
  earlier_allocation, ///< duplicate-name: the first allocation of the name
  device_loop,        ///< the loop whose bounds made the dispatch's device set
  view,               ///< unconsumed-alloc: one view of the allocation (no subject)
  enclosing_loop,     ///< collective-in-loop: the innermost loop around the call
  shared_allocation,  ///< collective-aliased-windows: the allocation both views are of
  aliased_view,       ///< collective-aliased-windows: one of the two views; subject = role
};

/// A related location that explains a diagnostic, as compilers attach notes.
template <class Location> struct note {
  note_kind what{};
  std::string_view subject;
  Location where{};

  [[nodiscard]] std::string message() const;
};

/// One finding. `subject` names the allocation, callee, operation or scope concerned;
/// `order` is the position in the program's walk, which sorts diagnostics into source
/// order independently of how the IR spells locations.
template <class Location> struct diagnostic {
  error_code code{};
  commscope::reason why = reason::none;
  std::string_view subject;
  std::int64_t number = 0;
  std::int64_t extra = 0;
  Location where{};
  std::uint64_t order = 0;
  /// A second name: the allocation of a collective-aliased-windows.
  std::string_view object;
  /// Related locations, in the order a reader needs them. Empty for most diagnostics:
  /// a std::vector holds no memory then.
  std::vector<note<Location>> notes;

  [[nodiscard]] std::string message() const;
};

namespace detail {
/// Sorts diagnostics into source order: by position in the walk, then by code and
/// subject (the analysis reports a position at most once per code; the verifier, whose
/// findings share a code, at most once per subject, short of identical findings). One
/// order for every caller, so that one sort serves them all.
template <class Vec> constexpr void sort_diagnostics(Vec& diagnostics) {
  sort_by(diagnostics, [](const auto& x, const auto& y) {
    if (x.order != y.order)
      return x.order < y.order;
    if (x.code != y.code)
      return x.code < y.code;
    return x.subject < y.subject;
  });
}

inline std::string quoted(std::string_view s) {
  std::string r;
  r.reserve(s.size() + 2);
  r += '\'';
  r += s;
  r += '\'';
  return r;
}
} // namespace detail

template <class Location> std::string diagnostic<Location>::message() const {
  using std::to_string;
  const std::string who = detail::quoted(subject);
  switch (code) {
  case error_code::dead_alloc:
    return "allocation " + who + " has no window view";
  case error_code::unconsumed_alloc:
    return "allocation " + who + " has views but no dispatch or collective gives it devices";
  case error_code::empty_coverage:
    return "allocation " + who + " is only dispatched from empty loops, so its device set is empty";
  case error_code::unsupported_device:
    return "cannot infer the devices of the dispatch of " + who + " from its device= expression";
  case error_code::negative_device:
    return "the dispatch of " + who + " uses negative device " + to_string(number);
  case error_code::device_out_of_range:
    return "the dispatch of " + who + " uses device " + to_string(number) +
           ", at or above the device limit " + to_string(extra);
  case error_code::partial_world_range:
    return "the dispatch of " + who +
           " iterates over part of the world: only range(world_size()) with start 0 and "
           "step 1 covers all devices";
  case error_code::duplicate_name:
    return "allocation name " + who + " is used twice in one comm domain";
  case error_code::malformed_op:
    switch (why) {
    case reason::alloc_not_assigned:
      return "allocation " + who + " must be assigned directly to one variable";
    case reason::unknown_callee:
      return "call of unknown function " + who;
    case reason::alloc_outside_scope:
      return "allocation " + who +
             " is outside the comm-domain scopes of a function that already has them";
    case reason::unwrappable_body:
      return "allocation " + who + " is in a body that cannot be wrapped in comm-domain scopes";
    case reason::nested_allreduce:
      return "an allreduce without a signal must be the whole value of an assignment, an "
             "expression statement or a return: its signal is bound before the statement";
    case reason::bad_core_num:
      return "the core_num= of an allreduce without a signal must be a positive integer "
             "constant";
    default:
      return "operation " + who + " takes " + to_string(extra) + " positional argument" +
             (extra == 1 ? "" : "s") + ", got " + to_string(number);
    }
  case error_code::collective_arg_not_window:
    return "argument " + to_string(number) + " of collective " + who +
           " does not resolve to a window view";
  case error_code::uncovered_collective:
    return "the buffer of collective " + who + " has no devices to pass on";
  case error_code::barrier_no_coverage:
    return "the signal of barrier " + who + " has no devices of its own";
  case error_code::collective_in_loop:
    if (why == reason::synthesized_in_loop)
      return "an allreduce without a signal cannot run inside a loop: its synthesized signal "
             "would be a fresh window per iteration";
    return "collective " + who + " cannot run inside a loop: its signal is single-use";
  case error_code::collective_aliased_windows:
    return "the " + std::string(detail::role_name(subject, number)) + " and the " +
           std::string(detail::role_name(subject, extra)) + " of collective " + who +
           " are views of the same allocation " + detail::quoted(object);
  case error_code::scope_nesting_limit:
    return "allocation " + who + " would open nested scope " + to_string(number) +
           ", beyond the limit of " + to_string(extra) + " nested comm-domain scopes";
  case error_code::verify:
    switch (why) {
    case reason::empty_scope:
      return "scope " + who + " has no slots";
    case reason::null_slot:
      return "scope " + who + " has a null slot";
    case reason::slot_in_two_scopes:
      return "window buffer " + who + " is a slot of more than one scope";
    case reason::unsorted_devices:
      return "scope " + who + " has a device list that is not ascending, unique and non-negative";
    case reason::view_outside_scope:
      return "a view of window buffer " + who + " is outside every scope that holds it";
    case reason::alloc_not_slot:
      return "allocation " + who + " is no slot of a scope that encloses it";
    default:
      return "verification failed for " + who;
    }
  }
  return "error";
}

template <class Location> std::string note<Location>::message() const {
  const std::string who = detail::quoted(subject);
  switch (what) {
  case note_kind::earlier_allocation:
    return "the first allocation named " + who + " is here";
  case note_kind::device_loop:
    return "the devices come from this loop";
  case note_kind::view:
    return "a view of it is taken here";
  case note_kind::enclosing_loop:
    return "inside this loop";
  case note_kind::shared_allocation:
    return "allocation " + who + " is here";
  case note_kind::aliased_view:
    return "the " + std::string(subject) + " is a view of it taken here";
  }
  return "here";
}

} // namespace commscope
