// The traits contract: everything an IR adapter provides, documented once.
//
// An adapter is a class, usually a specialization of `commscope::ir_traits<Program>`.
// The entry points take an object of it: `analyze(program)` default-constructs
// `ir_traits<Program>`, `analyze(program, my_traits{&module})` passes a stateful one
// (a module that an index means nothing without; the one-argument form is then a compile
// error, unless the class says `static constexpr bool usable_by_default = true`, its state
// being an optional cache). The library calls every member through
// that object, as `t.member(...)` on a const object, so static member functions work
// unchanged and non-static ones must be const. A constexpr traits object runs the pass in
// the compiler. No ADL; see ../../../shared/spec/pass.md for what the pass computes.
//
// The contract has four layers; each entry point diagnoses the first missing member of
// the layers it needs (concepts.hpp), one message per member.
//
// ---------------------------------------------------------------------------------
// 1. The analysis core (`analyze`, `run`)
//
// Types: program, function, statement, expression, variable, location. Handles are
// cheap std::semiregular values (pointers, indices, small structs) that the library copies
// freely and value-initializes in its own records (a handle type without an empty state,
// such as mlir::Location, needs a nullable form: mlir::LocationAttr).
//
//   functions(program)            range of function. The order is the program's order of
//                                 functions (a map sorted by name is fine): it decides the
//                                 order of the plan's functions and the order in which
//                                 diagnostics of different functions are reported. Nothing
//                                 else depends on it: each host orchestrator is analysed on
//                                 its own and numbers its scopes comm_d0, comm_d1, ... itself
//   describe(function)            -> function_info (name, level, orchestrator?, graph?)
//   body(function)                range of statement: the top-level statements. A block
//                                 terminator that only forwards values (func.return,
//                                 scf.yield) need not be a statement
//   statement_kind_of(statement)  -> statement_kind
//   location_of(statement), location_of(expression) -> location (one overloaded name; the
//                                 older pair statement_location/expression_location works too)
//   children(statement)           range of statement nested in it (loop bodies, branches,
//                                 a scope's body; all regions of an op, in order); empty for
//                                 leaves
//   targets(statement)            range of variable an assignment binds (an op's results);
//                                 of another statement that is no loop, what it binds
//                                 before its children run (`with ... as x`; empty for most)
//   value(statement)              the expression of an assignment or an evaluation (for an
//                                 op: the op itself, as an expression)
//   loop_variable(statement)      the variable of a for loop
//   loop_bounds(statement)        -> loop_bounds<A, B, C> {start, stop, step}, each field an
//                                 expression or an integer (implicit bounds: range(n) is
//                                 loop_bounds<std::int64_t, expression, std::int64_t>{0, n, 1});
//                                 start and step may be std::optional<expression>, absent
//                                 meaning 0 and 1
//   expression_kind_of(expression) -> expression_kind
//   integer_value(expression)     the value of an integer constant
//   variable_of(expression)       the variable a variable expression refers to. The pass
//                                 follows it to the binding that reaches the use (copies,
//                                 integer constants, world_size(), loop variables), so an IR
//                                 whose constants are ops (`%c = arith.constant 4`) makes such
//                                 an op an assignment whose value has kind integer
//   call_target_of(expression)    -> call_target: a recognised operation, a function of the
//                                 program (a captured/submitted dispatch is reported exactly
//                                 like the call), or an unresolved callee
//   arguments(expression)         range of expression: a call's positional arguments
//   device_of(expression)         -> std::optional<expression>: a call's `device=`
//   allocation_name(expression)   -> std::string_view: the name of an allocation call
//   variable identity, one of:    variable_index(variable) and variable_bound(program), a
//                                 dense numbering in [0, bound): tables become arrays (needed
//                                 in constant evaluation); or variable_key(variable), a key
//                                 that std::hash and == accept; or nothing, when the variable
//                                 handle itself is std::hash-able (an index, a pointer)
//
// Rebinding: a variable may be bound several times (Python's `x = f(x)`); a use sees every
// binding that may reach it, a may-set (pass.md, "Rebinding and control flow"). Loop
// bodies may run zero or more times; a statement's other children are taken as a block
// that may not run (a binding inside reaches past it merged with the value before),
// unless control_of says more. SSA IRs bind each variable once and carry region results
// through yields (below).
//
// Optional, control flow (both or neither; without them the reading above stays, which
// is sound but merges more):
//   control_of(statement)         -> control_flow, asked of every statement that is no loop,
//                                 assignment, evaluation or jump (a return, a scope, any
//                                 other; it may have children): block
//                                 (runs once, in order: `with`, a region that always runs),
//                                 may_skip (at most once), repeat (zero or more times: `for x in
//                                 items`), alternatives (exactly one of branches(s) runs:
//                                 if/elif/else, scf.if, scf.index_switch). Loops always repeat
//   branches(statement)           range of ranges of statement: the alternatives, in order;
//                                 a missing `else` is an empty range. Asked only of a
//                                 statement whose control_of is alternatives, instead of
//                                 children
// Optional, parallel and loop-carried bindings:
//   values(statement)             range of expression, one per target: an assignment that
//                                 binds each target to its own value, all read before any
//                                 is bound (`a, b = b, a`; an scf.yield presented as the
//                                 assignment of the region's results or loop-carried
//                                 values); empty for any other assignment. Asked only of
//                                 an assignment of several targets: for one, value(s) is
//                                 its value (a yield of one value gives it there).
//                                 On a for or while loop: the loop-carried
//                                 variables (its targets) and their values on entry, bound
//                                 before the first iteration (scf.for iter_args, the DSL's
//                                 init_values); the body rebinds them for the next one
//   statement_kind::jump          break/continue: the values here also reach the enclosing
//                                 loop's next iteration and its exit
//
// Optional, derived when absent:
//   expressions(statement)        the other direct expressions of a statement that is
//                                 neither assignment, evaluation nor for loop (conditions,
//                                 returned values): default none
//   subexpressions(expression)    every direct operand, so that calls nested anywhere are
//                                 found: default a call's arguments, then its device_of
//                                 (asked only of calls). Give it when other operands
//                                 (keyword values, operands of arithmetic) may hold calls
//   device_limit                  static constexpr std::int64_t; ids at or above it are
//                                 `device-out-of-range` (default 1,048,576)
//   scope_nesting_limit           static constexpr std::size_t; a function that needs more
//                                 domains (nested scopes) than this is
//                                 `scope-nesting-limit`, reported at the first allocation
//                                 beyond it (default: no limit). For hosts whose nested
//                                 regions are handled recursively (MLIR's printer)
//   can_wrap_body(function)       -> bool; false for a body wrap_body cannot wrap (an
//                                 MLIR function with several blocks): a host
//                                 orchestrator with allocations there is `malformed-op`
//                                 (default: true)
//   storage                       the container policy (storage.hpp): boost_storage by
//                                 default, std_storage for constant evaluation
//
// ---------------------------------------------------------------------------------
// 2. The scope readers (`verify`; for `analyze`, what recognises a body that is already
//    materialized: without them no body is, and a scope statement is walked as a block)
//
//   window_buffer                 handle of a window-buffer object, ordered by operator<
//   A body whose only statement is a scope (or that holds scopes anywhere) is already
//   materialized: its plan is read back from the scopes, and the rewrite leaves it alone
//   (that is how a second run recognizes its own output).
//   scope_name(statement)         -> std::string_view
//   scope_devices(statement)      range of std::int64_t; empty means all devices
//   scope_slots(statement)        range of window_buffer or of std::optional<window_buffer>
//   view_window_buffer(variable)  -> std::optional<window_buffer> (none: not a view), or a
//                                 window_buffer where a null value means none. An IR that
//                                 rebinds variables may take (statement, variable) instead:
//                                 the assignment that binds it, and the variable
//   window_buffer_name(window_buffer) -> std::string_view
//   window_buffer_base(window_buffer) -> variable
//   window_buffer_size(window_buffer) -> expression
//   "None" is std::nullopt when view_window_buffer returns std::optional (then every plain
//   handle the adapter hands out is real, index 0 included), else a value-initialized
//   handle (nullptr). The library passes the readers only handles the adapter handed
//   out, never none.
//
// ---------------------------------------------------------------------------------
// 3. The rewrite hooks (`materialize`, `run`). Called only once the whole program is
//    known to be valid, so an in-place IR is never left half-changed; a hook must not fail.
//
//   window_buffer                 as above
//   make_window_buffer([rewriter&,] const window_buffer_spec<Traits>&) -> window_buffer:
//                                 one per allocation; the spec holds the allocation's
//                                 statement, location, base variable, size and name, so the
//                                 object can be built in one step
//   retype_view([rewriter&,] variable, window_buffer)   point the view's type at it (in
//                                 place: record the window buffer on the view's op); or
//                                 retype_view([rewriter&,] const view_spec<Traits>&), which
//                                 also names the view's assignment (an IR that rebinds
//                                 variables types the binding, not the variable)
//   wrap_body([rewriter&,] function, std::span<const scope_spec<Traits>>)
//                                 wrap the body in the scopes, outermost first; an IR
//                                 rebuilt on rewrite also substitutes retyped views here.
//                                 Called once per rewritten function, after that function's
//                                 make_window_buffer and retype_view calls
//   Optional, for an IR rebuilt on rewrite (absent: the hooks take no rewriter):
//   rewriter                      per-program rewrite state
//   begin_rewrite(program&)       -> rewriter
//   commit(rewriter&, program&)   publish the result
//
// ---------------------------------------------------------------------------------
// 4. Signal synthesis (`synthesize_signals`, `run(p, traits, with_signal_synthesis)`;
//    pass.md, "The companion pass"). Its analysis (`plan_signals`) needs the core and:
//
//   names_in_use(program)         range of std::string_view: every name the program uses
//                                 (variables, parameters, functions, globals); fresh names
//                                 are chosen outside it
//   core_num_of(expression)       optional -> std::int64_t: an allreduce's core_num=, 1 when
//                                 absent, <= 0 when it is no positive integer constant
//                                 (default: always 1)
//   statement_kind::return_       optional: without it an allreduce that is a returned
//                                 value counts as nested in an expression
//
//   Its rewrite needs one hook more, called only when the whole program is valid:
//   insert_signal([signal_rewriter&,] const signal_spec<Traits>&)
//                                 bind, immediately before spec.statement, the three names
//                                 of the spec to world_size(), an allocation of
//                                 `world_size * cores * 4` bytes and an INT32 window
//                                 [world_size, cores] of it; then make the signal window the
//                                 second positional argument of spec.call
//   Optional, for an IR rebuilt on rewrite: `using signal_rewriter`,
//   begin_signals(program&) -> signal_rewriter, commit_signals(signal_rewriter&, program&).
//
// ---------------------------------------------------------------------------------
// Ranges and lifetimes. A range may be any input range, returned by value (a prvalue
// vector, a view, a small struct with begin/end) or by reference to the IR; the library
// iterates it once, while the traits object and the IR are alive, and keeps no iterator.
// The plan (plan.hpp) keeps handles and the string_views of names (describe, allocation
// names, scope names) and diagnostics keep subjects: they must stay valid as long as the
// IR is unchanged. A rewrite that rebuilds the IR (reference/) may release the old nodes:
// after `materialize` returns `rewritten`, use the plan's numbers, not its handles.
// ---------------------------------------------------------------------------------
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace commscope {

/// Specialize for your program handle type. The primary template is undefined so that
/// a missing specialization is diagnosed by the entry points (concepts.hpp).
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
  jump,       ///< break or continue (optional: an IR without them never says it)
};

/// How a statement's children run (traits.hpp, `control_of`).
enum class control_flow : std::uint8_t {
  block,        ///< once, in order
  may_skip,     ///< at most once
  repeat,       ///< zero or more times
  alternatives, ///< exactly one of branches(statement)
};

enum class expression_kind : std::uint8_t { integer, variable, call, other };

/// The operations of pass.md the analysis recognises.
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

/// What `insert_signal` receives for one signal-less allreduce (traits.hpp, layer 4).
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
};

} // namespace commscope
