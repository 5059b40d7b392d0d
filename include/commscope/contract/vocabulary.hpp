// The vocabulary of the contract: the values an adapter returns (function_info,
// statement_kind, call_target, ...) and the specs the rewrite hooks receive. The members
// that use them are in the layer files (core.hpp, readers.hpp, rewrite.hpp, signals.hpp).
#pragma once

#include <commscope/device_set.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

namespace commscope {

/// Specialize for your program handle type. The primary template is undefined so that
/// a missing specialization is diagnosed by the entry points (entry_points.hpp).
template <class Program> struct ir_traits;

/// Function level, as far as the pass cares.
enum class level : std::uint8_t { host, chip, other };

/// What the pass needs to know of a function (or of the callee of a call).
struct function_info {
  std::string_view name;
  commscope::level level = level::other;
  bool orchestrator = false; ///< role Orchestrator or type Orchestration
  bool graph = false;        ///< type Graph: never a dispatch target

  [[nodiscard]] constexpr bool is_host_orchestrator() const {
    return level == level::host && orchestrator;
  }
  [[nodiscard]] constexpr bool is_chip_orchestrator() const {
    return level == level::chip && orchestrator && !graph;
  }
};

enum class statement_kind : std::uint8_t {
  assignment, ///< targets = value
  evaluation, ///< an expression statement
  for_loop,   ///< loop_variable in range(loop_bounds): children
  while_loop, ///< children (and a condition among expressions)
  scope,      ///< a materialized comm-domain scope: children
  other,      ///< anything else: children and expressions are still visited
  return_,    ///< a return: the returned values are its expressions. Optional (`other`
              ///< does for the main pass); signal synthesis accepts an allreduce there
  jump,       ///< break, continue, raise: leaves the block, its expressions evaluated
              ///< first. Optional: an IR without them never says it
};

/// How a statement's children run (core.hpp, `control_of`).
enum class control_flow : std::uint8_t {
  block,        ///< once, in order
  may_skip,     ///< at most once
  repeat,       ///< zero or more times
  alternatives, ///< exactly one of branches(statement)
  /// At most once, and it may stop after any of its steps while what follows still runs
  /// (a try body, whose exception a handler catches; a with body, whose manager may
  /// swallow one): what follows may see any value it bound on the way.
  may_stop,
};

enum class expression_kind : std::uint8_t { integer, variable, call, other };

/// The operations the analysis recognizes (docs/semantics.md).
enum class operation : std::uint8_t {
  none, ///< an operation the pass does not know (its operands are still visited)
  alloc_window_buffer,
  window,
  world_size,
  allreduce,
  broadcast,
  reduce_scatter,
  barrier,
  allgather,
  all_to_all,
  all_to_all_v,
};

/// What an expression that the pass does not recognize does with the views among its
/// operands (core.hpp, `flow_of`; the rule is docs/semantics.md, "Every use of a view is
/// followed or refused").
enum class operand_flow : std::uint8_t {
  /// No side effects: its value may be (part of) any view among its operands (a slice, a
  /// tuple, a cast, a method call on a value).
  derived,
  /// Derived, and some operands may not be evaluated (`a if c else b`, `and`/`or`, a
  /// lambda, a comprehension): a dispatch among them does not surely run.
  conditional,
  /// May do anything with its operands (a helper's call, an op of an unknown dialect, a
  /// store): a view or window pointer among them is `view-escapes`.
  escapes,
  /// Its value holds nothing of its operands and it does nothing with them that uses a
  /// device: a view's metadata (`v.shape`, `v.dtype`), `len(v)`.
  independent,
};

/// `flow_of`'s answer: the flow, and for an escape what the message names.
struct expression_flow {
  operand_flow what = operand_flow::escapes;
  std::string_view name; ///< the callee or operation, as the message names it
  bool call = false;     ///< a call of a function (the fix: inline it first)
  /// For escapes: the first `receivers` operands are what the call is made on (`lst` of
  /// `lst.append(v)`, `v` of `v.reshape(n)`): they do not escape, and its value may be
  /// (part of) them.
  std::uint32_t receivers = 0;
  /// For a call: the callee's body is not the program's (a library's function, a
  /// declaration), so there is nothing to inline; the message says to use it in the chip
  /// function instead.
  bool external = false;
};

/// What a call calls.
struct call_target {
  enum class kind : std::uint8_t { operation, function, unresolved_function };
  kind what = kind::operation;
  commscope::operation op = operation::none; ///< when what == operation
  function_info callee{};                    ///< when what == function (name also when
                                             ///< unresolved)

  static constexpr call_target of(commscope::operation o) { return {kind::operation, o, {}}; }
  static constexpr call_target of(function_info f) { return {kind::function, operation::none, f}; }
  static constexpr call_target unresolved(std::string_view name) {
    return {kind::unresolved_function, operation::none, {name, level::other, false, false}};
  }
};

/// What `minus_constant` returns: for `x - C` with a constant C, x and C.
template <class Expression>
using minus_constant_result = std::optional<std::pair<Expression, std::int64_t>>;

/// A for loop's range. Each field is an expression or, for a bound the IR leaves
/// implicit, an integer: `loop_bounds<expression>` or e.g.
/// `loop_bounds<std::int64_t, expression, std::int64_t>{0, n, 1}`.
template <class Start, class Stop = Start, class Step = Start> struct loop_bounds {
  Start start;
  Stop stop;
  Step step;
};

/// What `make_window_buffer` receives for one allocation: everything an IR needs to
/// build the object in one step. `statement` is the allocation's assignment.
template <class Traits> struct window_buffer_spec {
  typename Traits::statement statement;
  typename Traits::location where;
  typename Traits::variable base;
  typename Traits::expression size;
  std::string_view name;
};

/// What `retype_view` may receive for one view: the window's assignment, the variable it
/// binds, and the window buffer its type must point at. An IR that rebinds variables
/// records the type on the statement (one variable may hold several views).
template <class Traits> struct view_spec {
  typename Traits::statement statement;
  typename Traits::variable variable;
  typename Traits::window_buffer window_buffer;
};

/// What `insert_signal` receives for one signal-less allreduce (signals.hpp).
/// The names live only during the call: copy them.
template <class Traits> struct signal_spec {
  typename Traits::function function;
  typename Traits::statement statement; ///< the bindings go immediately before it
  typename Traits::expression call;     ///< the allreduce
  typename Traits::location where;      ///< the call's
  std::int64_t cores = 1;               ///< core_num=
  std::uint64_t index = 0;              ///< N of the names
  std::string_view world_size_name;     ///< __allreduce_signal_world_size_N
  std::string_view buffer_name;         ///< __allreduce_signal_buf_N
  std::string_view signal_name;         ///< __allreduce_signal_N
};

/// What `wrap_body` receives for one domain, outermost first.
template <class Traits> struct scope_spec {
  std::string_view name;                                 ///< comm_d0, comm_d1, ...
  std::span<const std::int64_t> devices;                 ///< ascending; empty = all
  std::span<const typename Traits::window_buffer> slots; ///< allocation order
  /// With devices, the world-relative progressions of a symbolic set, in the printed
  /// order; always empty for an adapter without `symbolic_device_sets`.
  std::span<const device_progression> progressions = {};
};

} // namespace commscope
