// The traits contract: everything an IR adapter provides, documented once.
//
// An adapter specializes `commscope::ir_traits<Program>` for its program handle type
// (or passes its own traits class as the second template argument of the entry points).
// The pass, the lattice and the clustering are written against this contract only; see
// ../../../shared/spec/pass.md for what the pass computes.
//
// All members are static functions or type aliases (no ADL, no objects). Handles are
// cheap values (pointers, indices, small structs) that the library copies freely and
// value-initializes in its own records: every handle type is std::semiregular (a handle
// type without an empty state, such as mlir::Location, needs a nullable form:
// mlir::LocationAttr). Two adapters exist: reference/traits.hpp rebuilds immutable
// nodes, mlir/traits.hpp mutates MLIR in place.
//
// ---------------------------------------------------------------------------------
// Required types
//   program      the handle the entry points take (by reference for the rewrite)
//   function     a function of the program
//   statement    a statement (or MLIR op) inside a function body
//   expression   an expression (or an op as a value, or an SSA operand)
//   variable     something an assignment binds (a variable, an SSA value)
//   location     whatever the IR uses to point into the source
//
// Required functions (analysis: `analyze`)
//   functions(program)            range of function, in source order
//   describe(function)            -> function_info (name, level, orchestrator?, graph?)
//   body(function)                range of statement: the top-level statements. A
//                                 block terminator that only forwards values (an MLIR
//                                 func.return, scf.yield) need not be a statement; leave
//                                 it out: a body whose only statement is a scope is
//                                 "already materialized" (that is how a second run
//                                 recognizes its own output)
//   statement_kind_of(statement)  -> statement_kind
//   statement_location(statement) -> location
//   children(statement)           range of statement nested in it (loop bodies, branches,
//                                 a scope's body; all regions of an op, in order); empty
//                                 for leaves
//   targets(statement)            range of variable an assignment binds (an op's results).
//                                 A variable bound twice is followed no further, so SSA
//                                 values, bound once each, resolve best
//   value(statement)              the expression of an assignment or an evaluation (for an
//                                 op: the op itself, as an expression)
//   expressions(statement)        the other direct expressions of a statement that is
//                                 neither assignment, evaluation nor for loop
//                                 (conditions, returned values, yielded operands)
//   loop_variable(statement)      the variable of a for loop
//   loop_bounds(statement)        -> loop_bounds<expression> {start, stop, step}; an IR
//                                 with implicit bounds (range(n)) supplies constants
//   expression_kind_of(expression)  -> expression_kind
//   expression_location(expression) -> location
//   integer_value(expression)     the value of an integer constant
//   variable_of(expression)       the variable an expression refers to. The pass follows
//                                 a variable through the binding of the assignment that
//                                 bound it (copies, integer constants, world_size(),
//                                 loop variables), so an IR whose constants are ops
//                                 (`%c = arith.constant 4`) makes such an op an assignment
//                                 whose value has kind integer
//   call_target_of(expression)    -> call_target: a recognised operation, a function of
//                                 the program (a captured/submitted dispatch is reported
//                                 exactly like the call), or an unresolved callee
//   arguments(expression)         range of expression: a call's positional arguments
//   device_of(expression)         -> std::optional<expression>: a call's `device=`
//   allocation_name(expression)   -> std::string_view: the name of an allocation call
//   subexpressions(expression)    range of expression: every direct operand (arguments,
//                                 keyword values, operands of other expressions), so
//                                 that calls nested anywhere are found
//   variable_key(variable)        a key equality-comparable and std::hash-able that
//                                 identifies the variable (e.g. its address)
//
// Required for the rewrite (`materialize`)
//   window_buffer                 handle of a window-buffer object; value-initialized
//                                 means "none"; ordered by std::less
//   rewriter                      per-program rewrite state
//   begin_rewrite(program&)       -> rewriter
//   make_window_buffer(rewriter&, const window_buffer_spec<Traits>&) -> window_buffer
//   retype_view(rewriter&, variable, window_buffer)   point the view's type at it (in
//                                 place: record the window buffer on the view's op)
//   wrap_body(rewriter&, function, std::span<const scope_spec<Traits>>)
//                                 wrap the body in the scopes, outermost first; an IR
//                                 rebuilt on rewrite also substitutes retyped views here.
//                                 Called once per rewritten function, after that
//                                 function's make_window_buffer and retype_view calls
//   commit(rewriter&, program&)   publish the result (rebuild, or nothing if in place)
//   Hooks are only called once the whole program is known to be valid, so an in-place
//   IR is never left half-changed; a hook must not fail.
//
// Required for reading materialized IR (`verify`, and the plan of an already
// materialized function)
//   scope_name(statement)         -> std::string_view
//   scope_devices(statement)      range of std::int64_t; empty means all devices
//   scope_slots(statement)        range of window_buffer
//   view_window_buffer(variable)  -> window_buffer a variable's type points at, or none
//   window_buffer_name(window_buffer) -> std::string_view
//   window_buffer_base(window_buffer) -> variable
//   window_buffer_size(window_buffer) -> expression
//
// Optional members (detected; see concepts.hpp)
//   variable_index(variable), variable_bound(program)
//                                 a dense numbering of variables in [0, bound): per-
//                                 variable tables become arrays, no hashing (required
//                                 for constant evaluation, where hashing is unavailable)
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
// ---------------------------------------------------------------------------------
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace commscope {

/// Specialize for your program handle type. The primary template is undefined so that
/// a missing specialization is diagnosed by `diagnose<Traits>()` (concepts.hpp).
template <class Program>
struct ir_traits;

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

template <class Expression>
struct loop_bounds {
  Expression start;
  Expression stop;
  Expression step;
};

/// What `make_window_buffer` receives for one allocation.
template <class Traits>
struct window_buffer_spec {
  typename Traits::variable base;
  typename Traits::expression size;
  std::string_view name;
};

/// What `wrap_body` receives for one domain, outermost first.
template <class Traits>
struct scope_spec {
  std::string_view name;                                  ///< comm_d0, comm_d1, ...
  std::span<const std::int64_t> devices;                  ///< ascending; empty = all
  std::span<const typename Traits::window_buffer> slots;  ///< allocation order
};

} // namespace commscope
