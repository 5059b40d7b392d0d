// Error codes, diagnostics and their messages (docs/semantics.md, "Errors").
//
// A diagnostic stores what it is about (a code, a subject name, up to two numbers, a
// location) rather than a formatted string, so that the analysis can run in constant
// evaluation, where std::string is not usable with every standard library. The message
// is formatted on demand by `message()`.
#pragma once

#include <commscope/detail/operations.hpp>
#include <commscope/detail/sort.hpp>

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
  view_escapes,        ///< a view or window pointer reaches a use the pass cannot follow
  scope_nesting_limit, ///< more domains than the adapter's scope_nesting_limit (traits.hpp)
  verify,              ///< a finding of the verifier (verify.hpp)
};

/// What a code means, for tools that list the codes (a SARIF log's rules, a linter's
/// `help:` line): its stable spelling, a one-line summary, a full description and how a
/// program author usually fixes it.
struct error_code_info {
  std::string_view name;
  std::string_view summary;
  std::string_view description;
  std::string_view help;
};

/// Every code, in the order of `error_code`: the one table of their names and texts.
inline constexpr std::array<error_code_info, 17> error_codes{{
    {"dead-alloc", "An allocation has no window view.",
     "A window buffer is allocated but never viewed through pld.window: no dispatch can use "
     "it, so it has no place in any comm domain.",
     "take a view of it with pld.window(...) and dispatch the view, or remove the allocation"},
    {"unconsumed-alloc", "An allocation has views but no coverage.",
     "No dispatch or collective passes a view of the allocation, so no device set can be "
     "given to its comm domain.",
     "pass a view of it to a chip orchestrator with device=..., or to a collective whose data "
     "buffer is covered"},
    {"empty-coverage", "An allocation's only coverage comes from empty loops.",
     "Every dispatch that covers the allocation sits in a loop that runs zero times, so its "
     "device set is empty (an empty list would be read as all devices).",
     "check the bounds of the loops around its dispatches: a loop that runs zero times gives no "
     "devices"},
    {"unsupported-device", "A device= form the analysis cannot evaluate.",
     "The device= argument of a dispatch is neither an integer constant, the world size "
     "nor a loop variable over a constant range; bind an open name with -D NAME=INT.",
     "device= accepts an integer constant (a literal, a constant of the file, a -D name), "
     "pld.world_size(), or the variable of a loop over pl.range(...) with constant or world-size "
     "bounds; for r + 1, loop over the shifted range instead"},
    {"negative-device", "A negative device id.",
     "A dispatch names a device id below zero, directly or through its loop's bounds.",
     "device ids start at 0: check the constant or the start of the loop's range"},
    {"device-out-of-range", "A device id at or above the device limit.",
     "A dispatch names a device id at or above the adapter's device limit, directly or "
     "through its loop's bounds.",
     "use a device id below the device limit, or check the stop of the loop's range"},
    {"partial-world-range", "A loop over part of the world range.",
     "A dispatch's loop ranges over the world size with bounds that cover only part of "
     "it, so its device set cannot be stated as a constant.",
     "loop over the whole world, pl.range(pld.world_size()), or over constant bounds"},
    {"duplicate-name", "Two allocations in one domain share a name.",
     "Two allocations that land in the same comm domain have the same name; the later one "
     "is reported, with a note at the earlier.",
     "give one of the two allocations another name="},
    {"malformed-op", "A recognised operation written in a form the pass does not accept.",
     "A recognised operation with the wrong number of positional arguments, an allocation "
     "that is not a direct assignment, a device= call of a name that is not a function of "
     "the program, or a malformed comm_domain.",
     "write the operation in the form the message names"},
    {"collective-arg-not-window", "A collective's argument is not a view.",
     "A host collective's data, target, signal or receive-counts argument does not resolve "
     "to a window view.",
     "pass a view made by pld.window(...) of a window buffer"},
    {"uncovered-collective", "A collective's buffer has no coverage to pass on.",
     "The data or target buffer of a host collective has no coverage of its own to pass "
     "on to the other buffers of the call.",
     "dispatch a view of the collective's data (or target) buffer before the collective"},
    {"barrier-no-coverage", "A barrier's signal has no coverage of its own.",
     "The signal buffer of a barrier is covered by no dispatch.",
     "dispatch a view of the barrier's signal buffer on the devices that wait on it"},
    {"collective-in-loop", "A collective that cannot run inside a loop.",
     "An all_to_all_v, or an allreduce whose signal is synthesized, stands inside a for or "
     "while loop.",
     "allocate the signal before the loop and pass it"},
    {"collective-aliased-windows", "Two windows of one collective view the same allocation.",
     "Two window arguments of one host collective are views of the same allocation: the "
     "ranks would read and write one window concurrently.",
     "give each window argument of the collective a view of its own allocation"},
    {"view-escapes", "A view or window pointer reaches a use the pass cannot follow.",
     "A view of an allocation (or its window pointer) is passed to a function that is not a "
     "chip orchestrator, or is an operand of an operation that may have side effects, so "
     "the devices that use it there are unknown. Dispatch the view directly, or inline the "
     "helper first.",
     "dispatch the view directly or inline the helper"},
    {"scope-nesting-limit", "More comm domains than the IR can nest.",
     "The function needs more nested comm domains than the adapter's scope nesting limit.",
     "split the host orchestrator, or use fewer distinct device sets"},
    {"verify", "A finding of the verifier.",
     "The rewritten program breaks an invariant of the pass's output (scopes, slots, view "
     "types, device lists), or a scope lacks devices the program uses for its allocations.",
     "the rewrite broke an invariant: report it with the input file"},
}};

/// The stable spellings alone, in the order of `error_code`.
inline constexpr auto error_code_names = [] {
  std::array<std::string_view, error_codes.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i)
    names[i] = error_codes[i].name;
  return names;
}();

/// The stable spelling of a code, as printed in brackets after a message.
[[nodiscard]] constexpr std::string_view code_name(error_code c) {
  return error_code_names[static_cast<std::size_t>(c)];
}

/// Why a `malformed-op` or `verify` diagnostic was raised; selects the message.
enum class reason : std::uint8_t {
  none,
  wrong_arity,            ///< number = positional arguments given, extra = expected
  alloc_not_assigned,     ///< an allocation that is not a direct assignment
  unknown_callee,         ///< a call of a function the program does not have
  alloc_outside_scope,    ///< an allocation no scope holds, in a function that has scopes
  unwrappable_body,       ///< allocations in a body the adapter cannot wrap (can_wrap_body)
  empty_scope,            ///< verify: a scope without slots
  null_slot,              ///< verify: a null slot
  slot_in_two_scopes,     ///< verify: a window buffer in more than one scope
  unsorted_devices,       ///< verify: device list not ascending, unique, non-negative
  view_outside_scope,     ///< verify: a view whose window buffer no enclosing scope holds
  alloc_not_slot,         ///< verify: an allocation no enclosing scope holds (host with scopes)
  view_of_other_buffer,   ///< verify: a view typed with another allocation's window buffer
  nested_allreduce,       ///< signal synthesis: a signal-less allreduce inside an expression
  bad_core_num,           ///< signal synthesis: core_num= is no positive integer constant
  synthesized_in_loop,    ///< signal synthesis: collective-in-loop of a signal-less allreduce
  ambiguous_window,       ///< a window whose pointer may name two allocations (subject, object)
  noncanonical_devices,   ///< verify: a symbolic device set not in canonical form
  world_loop_beyond_form, ///< partial-world-range where scopes hold progressions
  view_into_call,         ///< view-escapes: a view passed to a function (object: its name)
  view_into_operation,    ///< view-escapes: a view an operand of an operation (object)
  pointer_into_call,      ///< view-escapes: a window pointer passed to a function
  pointer_into_operation, ///< view-escapes: a window pointer an operand of an operation
  view_by_keyword,        ///< view-escapes: a view a keyword argument of a dispatch
  pointer_by_keyword,     ///< view-escapes: a window pointer a keyword argument of a dispatch
  /// verify: a scope (object) lacks ids the program uses for an allocation (subject):
  /// number = the first, extra = how many more
  missing_devices,
  /// verify: a scope (object) lacks devices the program uses for an allocation (subject)
  /// in some world, where the sets are symbolic or infinite
  uncovered_devices,
};

/// What a note of a diagnostic points at (docs/semantics.md, "Notes"); selects its
/// message.
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

/// The message of a diagnostic as a pattern: `%w` is the subject in quotes, `%o` the
/// object in quotes, `%n` and `%x` the number and the extra number, `%s` an "s" unless
/// the extra number is 1, `%m` " and <extra> more" unless the extra number is 0, `%r` and
/// `%R` the names of the roles at positions number and extra of the operation named by
/// the subject. Patterns and one small formatter, rather
/// than a chain of string concatenations per message, keep the code the compiler
/// generates for messages small.
[[nodiscard]] constexpr std::string_view message_pattern(error_code code, reason why) {
  switch (code) {
  case error_code::dead_alloc:
    return "allocation %w has no window view";
  case error_code::unconsumed_alloc:
    return "allocation %w has views but no dispatch or collective gives it devices";
  case error_code::empty_coverage:
    return "allocation %w is only dispatched from empty loops, so its device set is empty";
  case error_code::unsupported_device:
    return "cannot infer the devices of the dispatch of %w from its device= expression";
  case error_code::negative_device:
    return "the dispatch of %w uses negative device %n";
  case error_code::device_out_of_range:
    return "the dispatch of %w uses device %n, at or above the device limit %x";
  case error_code::partial_world_range:
    if (why == reason::world_loop_beyond_form)
      return "the dispatch of %w iterates over the world with a negative start, a step below 1 "
             "or a stop past world_size(): a scope holds range(START, world_size() - C, STEP) "
             "only for START >= 0, STEP >= 1 and C >= 0";
    return "the dispatch of %w iterates over part of the world: only range(world_size()) with "
           "start 0 and step 1 covers all devices";
  case error_code::duplicate_name:
    return "allocation name %w is used twice in one comm domain";
  case error_code::malformed_op:
    switch (why) {
    case reason::alloc_not_assigned:
      return "allocation %w must be assigned directly to one variable";
    case reason::unknown_callee:
      return "call of unknown function %w";
    case reason::alloc_outside_scope:
      return "allocation %w is outside the comm-domain scopes of a function that already has "
             "them";
    case reason::unwrappable_body:
      return "allocation %w is in a body that cannot be wrapped in comm-domain scopes";
    case reason::nested_allreduce:
      return "an allreduce must be the whole value of an assignment, an expression statement "
             "or a return, never nested in an expression: a signal is bound before its "
             "statement";
    case reason::bad_core_num:
      return "the core_num= of an allreduce without a signal must be a positive integer "
             "constant";
    case reason::ambiguous_window:
      return "the pointer of this window may name allocation %w or %o: a view has one "
             "window buffer";
    default:
      return "operation %w takes %x positional argument%s, got %n";
    }
  case error_code::collective_arg_not_window:
    return "argument %n of collective %w does not resolve to a window view";
  case error_code::uncovered_collective:
    return "the buffer of collective %w has no devices to pass on";
  case error_code::barrier_no_coverage:
    return "the signal of barrier %w has no devices of its own";
  case error_code::collective_in_loop:
    if (why == reason::synthesized_in_loop)
      return "an allreduce without a signal cannot run inside a loop: its synthesized signal "
             "would be a fresh window per iteration";
    return "collective %w cannot run inside a loop: its signal is single-use";
  case error_code::collective_aliased_windows:
    return "the %r and the %R of collective %w are views of the same allocation %o";
  case error_code::view_escapes:
    switch (why) {
    case reason::view_into_call:
      return "a view of allocation %w is passed to %o, a function the pass does not follow: "
             "dispatch the view directly, or inline %o first";
    case reason::pointer_into_call:
      return "the window pointer of allocation %w is passed to %o, a function the pass does "
             "not follow: take the window here and dispatch it, or inline %o first";
    case reason::view_by_keyword:
      return "a view of allocation %w is passed to %o by keyword: a dispatch gives its devices "
             "to its positional arguments only; pass the view positionally";
    case reason::pointer_by_keyword:
      return "the window pointer of allocation %w is passed to %o by keyword: take a window of "
             "it and pass that positionally";
    case reason::pointer_into_operation:
      return "the window pointer of allocation %w is an operand of %o, which may have side "
             "effects the pass cannot follow: take the window from the pointer directly";
    default:
      return "a view of allocation %w is an operand of %o, which may have side effects the "
             "pass cannot follow: dispatch the view directly, or derive it through an "
             "operation without side effects";
    }
  case error_code::scope_nesting_limit:
    return "allocation %w would open nested scope %n, beyond the limit of %x nested "
           "comm-domain scopes";
  case error_code::verify:
    switch (why) {
    case reason::empty_scope:
      return "scope %w has no slots";
    case reason::null_slot:
      return "scope %w has a null slot";
    case reason::slot_in_two_scopes:
      return "window buffer %w is a slot of more than one scope";
    case reason::unsorted_devices:
      return "scope %w has a device list that is not ascending, unique and non-negative";
    case reason::noncanonical_devices:
      return "scope %w has a symbolic device set that is not in canonical form";
    case reason::view_outside_scope:
      return "a view of window buffer %w is outside every scope that holds it";
    case reason::alloc_not_slot:
      return "allocation %w is no slot of a scope that encloses it";
    case reason::view_of_other_buffer:
      return "a view typed with window buffer %w reads another allocation";
    case reason::missing_devices:
      return "scope %o lacks devices the program uses for allocation %w: %n%m";
    case reason::uncovered_devices:
      return "scope %o does not cover the devices the program uses for allocation %w";
    default:
      return "verification failed for %w";
    }
  }
  return "error";
}

/// The pattern of a note's message, as message_pattern's; `%S` is the subject as is.
[[nodiscard]] constexpr std::string_view note_pattern(note_kind what) {
  switch (what) {
  case note_kind::earlier_allocation:
    return "the first allocation named %w is here";
  case note_kind::device_loop:
    return "the devices come from this loop";
  case note_kind::view:
    return "a view of it is taken here";
  case note_kind::enclosing_loop:
    return "inside this loop";
  case note_kind::shared_allocation:
    return "allocation %w is here";
  case note_kind::aliased_view:
    return "the %S is a view of it taken here";
  }
  return "here";
}

/// Fills in a pattern of message_pattern or note_pattern. Not a template: one copy
/// serves every location type.
inline std::string format_message(std::string_view pattern, std::string_view subject,
                                  std::int64_t number, std::int64_t extra,
                                  std::string_view object) {
  std::string r;
  r.reserve(pattern.size() + subject.size() + object.size() + 16);
  for (;;) {
    const std::size_t at = pattern.find('%');
    r.append(pattern.substr(0, at));
    if (at == std::string_view::npos || at + 1 == pattern.size())
      break;
    const char field = pattern[at + 1];
    pattern.remove_prefix(at + 2);
    switch (field) {
    case 'w':
    case 'o':
      r += '\'';
      r.append(field == 'w' ? subject : object);
      r += '\'';
      break;
    case 'S':
      r.append(subject);
      break;
    case 'm':
      if (extra == 0)
        break;
      r.append(" and ");
      [[fallthrough]];
    case 'n':
    case 'x': { // decimal, as std::to_string, whose inlined code is larger than this
      const std::int64_t v = field == 'n' ? number : extra;
      std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      char digits[20];
      std::size_t k = sizeof digits;
      do {
        digits[--k] = static_cast<char>('0' + u % 10);
        u /= 10;
      } while (u != 0);
      if (v < 0)
        r += '-';
      r.append(digits + k, sizeof digits - k);
      if (field == 'm')
        r.append(" more");
      break;
    }
    case 's':
      if (extra != 1)
        r += 's';
      break;
    case 'r':
    case 'R':
      r.append(role_name(subject, field == 'r' ? number : extra));
      break;
    }
  }
  return r;
}
} // namespace detail

template <class Location> std::string diagnostic<Location>::message() const {
  return detail::format_message(detail::message_pattern(code, why), subject, number, extra, object);
}

template <class Location> std::string note<Location>::message() const {
  return detail::format_message(detail::note_pattern(what), subject, 0, 0, {});
}

} // namespace commscope
