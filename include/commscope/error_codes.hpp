// The codes, reasons and note kinds of the diagnostics, and the one table of their texts
// (docs/semantics.md, "Errors"). Adding a code, a reason or a note kind is one row here.
//
// Messages are patterns in which a field of the diagnostic stands in braces:
//   {subject} {object}   the names, quoted; {subject:as_is} the subject unquoted
//   {device} {limit} {depth} {arity} {expected_arity} {argument} {other_argument} {more}
//                        the numbers, in decimal
//   {expected_arity:s}   "s" unless the expected arity is 1
//   {more:and}           " and <more> more" unless more is 0
//   {argument:role} {other_argument:role}
//                        the role of that argument of the operation named by the subject
// Patterns and one small formatter (diagnostics.hpp), rather than code per message,
// keep the code the compiler generates for messages small. The texts are generic: a
// tool adds its own context (its flags, its IR's spelling) around them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

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
/// `help:` line): its stable spelling, a one-line summary, a full description, how a
/// program author usually fixes it, and the pattern of its message where the diagnostic
/// gives no reason of its own.
struct error_code_info {
  std::string_view name;
  std::string_view summary;
  std::string_view description;
  std::string_view help;
  std::string_view message;
};

/// Every code, in the order of `error_code`: the one table of their names and texts.
inline constexpr std::array<error_code_info, 17> error_codes{{
    {"dead-alloc", "An allocation has no window view.",
     "A window buffer is allocated but never viewed through pld.window: no dispatch can use "
     "it, so it has no place in any comm domain.",
     "take a view of it with pld.window(...) and dispatch the view, or remove the allocation",
     "allocation {subject} has no window view"},
    {"unconsumed-alloc", "An allocation has views but no coverage.",
     "No dispatch or collective passes a view of the allocation, so no device set can be "
     "given to its comm domain.",
     "pass a view of it to a chip orchestrator with device=..., or to a collective whose data "
     "buffer is covered",
     "allocation {subject} has views but no dispatch or collective gives it devices"},
    {"empty-coverage", "An allocation's only coverage comes from empty loops.",
     "Every dispatch that covers the allocation sits in a loop that runs zero times, so its "
     "device set is empty (an empty list would be read as all devices).",
     "check the bounds of the loops around its dispatches: a loop that runs zero times gives no "
     "devices",
     "allocation {subject} is only dispatched from empty loops, so its device set is empty"},
    {"unsupported-device", "A device= form the analysis cannot evaluate.",
     "The device= argument of a dispatch is neither an integer constant nor the variable of "
     "a loop over a range whose bounds are constants or the world size.",
     "device= accepts an integer constant or the variable of a loop over pl.range(...) whose "
     "bounds are constants or pld.world_size(); for r + 1, loop over the shifted range "
     "instead",
     "cannot infer the devices of the dispatch of {subject} from its device= expression"},
    {"negative-device", "A negative device id.",
     "A dispatch names a device id below zero, directly or through its loop's bounds.",
     "device ids start at 0: check the constant or the start of the loop's range",
     "the dispatch of {subject} uses negative device {device}"},
    {"device-out-of-range", "A device id at or above the device limit.",
     "A dispatch names a device id at or above the adapter's device limit, directly or "
     "through its loop's bounds.",
     "use a device id below the device limit, or check the stop of the loop's range",
     "the dispatch of {subject} uses device {device}, at or above the device limit {limit}"},
    {"partial-world-range", "A loop over part of the world range.",
     "A dispatch's loop ranges over the world size with bounds that cover only part of "
     "it, so its device set cannot be stated as a constant.",
     "loop over the whole world, pl.range(pld.world_size()), or over constant bounds",
     "the dispatch of {subject} iterates over part of the world: only range(world_size()) with "
     "start 0 and step 1 covers all devices"},
    {"duplicate-name", "Two allocations in one domain share a name.",
     "Two allocations that land in the same comm domain have the same name; the later one "
     "is reported, with a note at the earlier.",
     "give one of the two allocations another name=",
     "allocation name {subject} is used twice in one comm domain"},
    {"malformed-op", "A recognized operation written in a form the pass does not accept.",
     "A recognized operation with the wrong number of positional arguments, an allocation "
     "or a window that is not a direct assignment, a device= call of a name that is not a "
     "function of the program, or a malformed comm_domain.",
     "write the operation in the form the message names",
     "operation {subject} is not in a form the pass accepts"},
    {"collective-arg-not-window", "A collective's argument is not a view.",
     "A host collective's data, target, signal or receive-counts argument does not resolve "
     "to a window view.",
     "pass a view made by pld.window(...) of a window buffer",
     "argument {argument} of collective {subject} does not resolve to a window view"},
    {"uncovered-collective", "A collective's buffer has no coverage to pass on.",
     "The data or target buffer of a host collective has no coverage of its own to pass "
     "on to the other buffers of the call.",
     "dispatch a view of the collective's data (or target) buffer before the collective",
     "the buffer of collective {subject} has no devices to pass on"},
    {"barrier-no-coverage", "A barrier's signal has no coverage of its own.",
     "The signal buffer of a barrier is covered by no dispatch.",
     "dispatch a view of the barrier's signal buffer on the devices that wait on it",
     "the signal of barrier {subject} has no devices of its own"},
    {"collective-in-loop", "A collective that cannot run inside a loop.",
     "An all_to_all_v, or an allreduce whose signal is synthesized, stands inside a for or "
     "while loop.",
     "allocate the signal before the loop and pass it",
     "collective {subject} cannot run inside a loop: its signal is single-use"},
    {"collective-aliased-windows", "Two windows of one collective view the same allocation.",
     "Two window arguments of one host collective are views of the same allocation: the "
     "ranks would read and write one window concurrently.",
     "give each window argument of the collective a view of its own allocation",
     "the {argument:role} and the {other_argument:role} of collective {subject} are views of "
     "the same allocation {object}"},
    {"view-escapes", "A view or window pointer reaches a use the pass cannot follow.",
     "A view of an allocation (or its window pointer) is passed to a function that is not a "
     "chip orchestrator, or is an operand of an operation that may have side effects, so "
     "the devices that use it there are unknown. Dispatch the view directly, or inline the "
     "helper first.",
     "dispatch the view directly or inline the helper",
     "a view of allocation {subject} reaches {object}, a use the pass cannot follow"},
    {"scope-nesting-limit", "More comm domains than the IR can nest.",
     "The function needs more nested comm domains than the adapter's scope nesting limit.",
     "split the host orchestrator, or use fewer distinct device sets",
     "allocation {subject} would open nested scope {depth}, beyond the limit of {limit} nested "
     "comm-domain scopes"},
    {"verify", "A finding of the verifier.",
     "The rewritten program breaks an invariant of the pass's output (scopes, slots, view "
     "types, device lists), or a scope lacks devices the program uses for its allocations.",
     "the rewrite broke an invariant: report it with the input file",
     "verification failed for {subject}"},
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

/// Why a diagnostic of a code was raised, where a code has several causes; selects the
/// message. The numbers each reason fills are in its row of `reasons`.
enum class reason : std::uint8_t {
  none,
  wrong_arity,            ///< arity = positional arguments given, expected_arity = taken
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
  /// device = the first, more = how many more
  missing_devices,
  /// verify: a scope (object) lacks devices the program uses for an allocation (subject)
  /// in some world, where the sets are symbolic or infinite
  uncovered_devices,
  /// device-out-of-range at an allocation (subject) whose device set reaches a limit
  /// (device) that a tool sets below the adapter's, where no one dispatch shows it
  allocation_beyond_limit,
  /// a window that is not the whole value of an assignment to one variable (subject: the
  /// allocation its pointer names)
  window_not_assigned,
  /// unsupported-device: device= is an expression, neither an integer constant nor a
  /// variable (`r + 1`, `r % 2`, `a if c else b`, a call)
  device_expression,
  /// unsupported-device: device= reads a variable that may hold something other than an
  /// integer constant or the variable of a for loop around the dispatch (a parameter, a
  /// computed value, a counter carried from one iteration to the next)
  device_variable,
  /// unsupported-device: the variable of a for loop whose bounds are not integer constants
  /// or the world size (a note points at the loop)
  device_loop_bounds,
  /// unsupported-device: the variable of a for loop whose step is 0 (a note: the loop)
  device_loop_step,
  /// unsupported-device: the variable of a for loop that ends before the dispatch (a note:
  /// the loop)
  device_loop_ended,
  /// view-escapes: a view passed to a function whose body the program does not have (a
  /// library's, a declaration: expression_flow::external), which cannot be inlined
  view_into_external_call,
  /// view-escapes: a window pointer passed to such a function
  pointer_into_external_call,
  /// a host orchestrator (subject) whose walk has more positions (statements, calls) than
  /// the analysis numbers: 2^32 - 1
  function_too_large,
  /// view-escapes: a window pointer passed to a dispatch (object: the chip function)
  pointer_into_dispatch,
  /// view-escapes: a view returned by a host orchestrator (object) whose callers the pass
  /// does not follow (returns_to_callers)
  view_returned_to_callers,
  /// view-escapes: a window pointer returned by such a host orchestrator (object)
  pointer_returned_to_callers,
  /// a window whose pointer names no allocation of the host orchestrator (a parameter, a
  /// helper's result, a module's value): no scope would hold it
  window_of_unknown_pointer,
};

/// A reason's row: the code it refines, its message and help, and its rank among the
/// findings at one position of the walk. Findings that share a position sort by rank,
/// so that, for instance, the verifier's findings on a scope itself read in the order a
/// reader checks a scope: its slots, then its device list.
struct reason_info {
  error_code code;
  std::string_view message;
  std::string_view help;
  std::uint8_t rank = 0;
};

/// Every reason, in the order of `reason` (`none` has no text: its code's row speaks).
inline constexpr std::array<reason_info, 41> reasons{{
    {error_code::malformed_op, {}, {}, 0}, // none
    {error_code::malformed_op,
     "operation {subject} takes {expected_arity} positional argument{expected_arity:s}, got "
     "{arity}",
     "pass the operation the number of positional arguments it takes", 0},
    {error_code::malformed_op, "allocation {subject} must be assigned directly to one variable",
     "assign the allocation to one variable on its own: x = alloc_window_buffer(size)", 0},
    {error_code::malformed_op, "call of unknown function {subject}",
     "dispatch a function of the program, or define the function called", 0},
    {error_code::malformed_op,
     "allocation {subject} is outside the comm-domain scopes of a function that already has "
     "them",
     "move the allocation into a scope, or run the pass on the function before its scopes", 0},
    {error_code::malformed_op,
     "allocation {subject} is in a body that cannot be wrapped in comm-domain scopes",
     "give the function a body the IR can wrap in scopes", 0},
    {error_code::verify, "scope {subject} has no slots",
     "the rewrite broke an invariant: report it with the input file", 2},
    {error_code::verify, "scope {subject} has a null slot",
     "the rewrite broke an invariant: report it with the input file", 1},
    {error_code::verify, "window buffer {subject} is a slot of more than one scope",
     "the rewrite broke an invariant: report it with the input file", 0},
    {error_code::verify,
     "scope {subject} has a device list that is not ascending, unique and non-negative",
     "the rewrite broke an invariant: report it with the input file", 3},
    {error_code::verify, "a view of window buffer {subject} is outside every scope that holds it",
     "the rewrite broke an invariant: report it with the input file", 0},
    {error_code::verify, "allocation {subject} is no slot of a scope that encloses it",
     "the rewrite broke an invariant: report it with the input file", 0},
    {error_code::verify, "a view typed with window buffer {subject} reads another allocation",
     "the rewrite broke an invariant: report it with the input file", 0},
    {error_code::malformed_op,
     "an allreduce must be the whole value of an assignment, an expression statement or a "
     "return, never nested in an expression: a signal is bound before its statement",
     "assign the allreduce to a variable in a statement of its own", 0},
    {error_code::malformed_op,
     "the core_num= of an allreduce without a signal must be a positive integer constant",
     "give core_num= a positive integer constant, or pass a signal", 0},
    {error_code::collective_in_loop,
     "an allreduce without a signal cannot run inside a loop: its synthesized signal would be "
     "a fresh window per iteration",
     "allocate the signal before the loop and pass it", 0},
    {error_code::malformed_op,
     "the pointer of this window may name allocation {subject} or {object}: a view has one "
     "window buffer",
     "take each window from a pointer that names one allocation", 0},
    {error_code::verify, "scope {subject} has a symbolic device set that is not in canonical form",
     "the rewrite broke an invariant: report it with the input file", 3},
    {error_code::partial_world_range,
     "the dispatch of {subject} iterates over the world with a negative start, a step below 1 "
     "or a stop past world_size(): a scope holds range(START, world_size() - C, STEP) only for "
     "START >= 0, STEP >= 1 and C >= 0",
     "loop from a start of at least 0 with a step of at least 1 up to at most world_size()", 0},
    {error_code::view_escapes,
     "a view of allocation {subject} is passed to {object}, a function the pass does not "
     "follow: dispatch the view directly, or inline {object} first",
     "dispatch the view directly or inline the helper", 0},
    {error_code::view_escapes,
     "a view of allocation {subject} is an operand of {object}, which may have side effects "
     "the pass cannot follow: dispatch the view directly, or derive it through an operation "
     "without side effects",
     "dispatch the view directly, or derive it through an operation without side effects", 0},
    {error_code::view_escapes,
     "the window pointer of allocation {subject} is passed to {object}, a function the pass "
     "does not follow: take the window here and dispatch it, or inline {object} first",
     "take the window where the pointer is and dispatch it, or inline the helper", 0},
    {error_code::view_escapes,
     "the window pointer of allocation {subject} is an operand of {object}, which may have "
     "side effects the pass cannot follow: take the window from the pointer directly",
     "take the window from the pointer directly", 0},
    {error_code::view_escapes,
     "a view of allocation {subject} is passed to {object} by keyword: the pass follows the "
     "views of positional arguments only (a dispatch gives them its devices, a collective "
     "its coverage); pass the view positionally",
     "pass the view positionally", 0},
    {error_code::view_escapes,
     "the window pointer of allocation {subject} is passed to {object} by keyword: take a "
     "window of it and pass that positionally",
     "take a window of the pointer and pass that positionally", 0},
    {error_code::verify,
     "scope {object} lacks devices the program uses for allocation {subject}: "
     "{device}{more:and}",
     "the rewrite broke an invariant: report it with the input file", 1},
    {error_code::verify,
     "scope {object} does not cover the devices the program uses for allocation {subject}",
     "the rewrite broke an invariant: report it with the input file", 1},
    {error_code::device_out_of_range,
     "allocation {subject} is used on device {device}, at or above the device limit {limit}",
     "use device ids below the device limit in the dispatches of its views", 0},
    {error_code::malformed_op,
     "a window of allocation {subject} must be assigned directly to one variable: the rewrite "
     "gives a view its window buffer through its variable",
     "assign the window to one variable on its own (v = window(ptr, ...)) and use v", 0},
    {error_code::unsupported_device,
     "cannot infer the devices of the dispatch of {subject} from its device= expression, "
     "which is neither an integer constant nor a variable",
     "pass an integer constant or the variable of a loop over pl.range(...); for r + 1 or "
     "r % 2, loop over those devices themselves (pl.range(1, n + 1), pl.range(0, n, 2))",
     0},
    {error_code::unsupported_device,
     "cannot infer the devices of the dispatch of {subject} from its device= expression: the "
     "variable may hold a value that is neither an integer constant nor the variable of an "
     "enclosing loop over a range (a parameter, a computed value, an element of a sequence, "
     "a value carried over from another iteration)",
     "dispatch inside a for loop over pl.range(...) and pass its variable, or pass an integer "
     "constant",
     0},
    {error_code::unsupported_device,
     "cannot infer the devices of the dispatch of {subject} from its device= expression: it "
     "is the variable of a loop whose bounds are not all integer constants or the world size",
     "loop over pl.range(pld.world_size()) or over integer constants", 0},
    {error_code::unsupported_device,
     "cannot infer the devices of the dispatch of {subject} from its device= expression: it "
     "is the variable of a loop whose step is 0",
     "give the loop a step other than 0", 0},
    {error_code::unsupported_device,
     "cannot infer the devices of the dispatch of {subject} from its device= expression: it "
     "is the variable of a loop that ends before the dispatch",
     "dispatch inside the loop, or pass an integer constant", 0},
    {error_code::view_escapes,
     "a view of allocation {subject} is passed to {object}, a library function the pass does "
     "not follow: dispatch the view itself, and call {object} on it in the chip function",
     "pass views to dispatches as they are, and work on them (a cast, a copy, a fill) in the "
     "chip function they are dispatched to",
     0},
    {error_code::view_escapes,
     "the window pointer of allocation {subject} is passed to {object}, a library function "
     "the pass does not follow: take a window of it here, dispatch that, and call {object} in "
     "the chip function",
     "take a window of the pointer where it is and dispatch that; work on the window in the "
     "chip function it is dispatched to",
     0},
    {error_code::malformed_op,
     "host orchestrator {subject} has more statements and calls than the analysis numbers "
     "(4,294,967,295)",
     "split it into several host orchestrators", 0},
    {error_code::view_escapes,
     "the window pointer of allocation {subject} is passed to the dispatch of {object}: a "
     "dispatch gives its devices to the views it is passed, not to a pointer; take a window "
     "of the pointer and dispatch that",
     "take a window of the pointer (pld.window) and dispatch that", 0},
    {error_code::view_escapes,
     "a view of allocation {subject} is returned by {object} to callers the pass does not "
     "follow: a caller that dispatches it would use devices the allocation's scope lacks",
     "dispatch the view in the function that allocates it, and return no view of it", 0},
    {error_code::view_escapes,
     "the window pointer of allocation {subject} is returned by {object} to callers the pass "
     "does not follow: a caller could take windows of it on devices the allocation's scope "
     "lacks",
     "take the windows and dispatch them in the function that allocates it, and return no "
     "pointer",
     0},
    {error_code::malformed_op,
     "a window is taken of a pointer that names no allocation of this host orchestrator (a "
     "parameter, a helper's result, a value of the module): the pass cannot tell which "
     "devices use it, and no scope would hold it",
     "allocate the window buffer in this host orchestrator (p = pld.alloc_window_buffer(size)) "
     "and take the window of that variable",
     0},
}};

/// The row of a reason.
[[nodiscard]] constexpr const reason_info& reason_row(reason why) {
  return reasons[static_cast<std::size_t>(why)];
}

/// What a note of a diagnostic points at (docs/semantics.md, "Notes"); selects its
/// message.
enum class note_kind : std::uint8_t {
  earlier_allocation, ///< duplicate-name: the first allocation of the name
  device_loop,        ///< the loop whose bounds made the dispatch's device set
  view,               ///< unconsumed-alloc: one view of the allocation (no subject)
  enclosing_loop,     ///< collective-in-loop: the innermost loop around the call
  shared_allocation,  ///< collective-aliased-windows: the allocation both views are of
  aliased_view,       ///< collective-aliased-windows: one of the two views; subject = role
  variable_loop,      ///< unsupported-device: the loop that binds the device variable
};

/// The message patterns of the notes, in the order of `note_kind`.
inline constexpr std::array<std::string_view, 7> note_messages{{
    "the first allocation named {subject} is here",
    "the devices come from this loop",
    "a view of it is taken here",
    "inside this loop",
    "allocation {subject} is here",
    "the {subject:as_is} is a view of it taken here",
    "the device variable is bound by this loop",
}};

} // namespace commscope
