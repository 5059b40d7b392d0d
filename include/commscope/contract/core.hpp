// Layer 1, the analysis core: what `analyze` and `run` need. Each member is declared once
// (member.hpp says how): the required ones in the order the diagnosis asks for them, then
// the optional ones with their defaults. docs/adapter-guide.md has the table of them.
#pragma once

#include <commscope/contract/member.hpp>
#include <commscope/contract/vocabulary.hpp>
#include <commscope/detail/call_operands.hpp>
#include <commscope/device_set.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

namespace commscope {

namespace detail {
template <class>
concept any_type = true;

/// The sound default of `flow_of` for an expression of kind `kind` that calls `c`.
constexpr expression_flow default_flow(expression_kind kind, const call_target& c) {
  if (kind != expression_kind::call)
    return {operand_flow::derived, {}, false};
  if (c.what == call_target::kind::operation)
    return {operand_flow::escapes, {}, false};
  return {operand_flow::escapes, c.callee.name, true};
}
} // namespace detail

namespace contract {

/// The traits class itself: `commscope::ir_traits<Program>` specialized, or the class of
/// the traits object passed to an entry point.
COMMSCOPE_RULE(
    specialization,
    "no ir_traits specialization for this program type; specialize "
    "commscope::ir_traits<Program> or pass a traits object (traits.hpp)",
    requires { sizeof(T); });

// ---- the handle types: cheap std::semiregular values (pointers, indices, small structs)
// that the library copies freely and value-initializes in its own records. A handle type
// without an empty state, such as mlir::Location, needs a nullable form
// (mlir::LocationAttr).

/// What the entry points take (any type: a module, a pointer to one).
COMMSCOPE_HANDLE(core, required, program, detail::any_type, "the program handle type");
/// A function of the program.
COMMSCOPE_HANDLE(core, required, function, std::semiregular,
                 "a copyable, default-constructible handle");
/// A statement.
COMMSCOPE_HANDLE(core, required, statement, std::semiregular,
                 "a copyable, default-constructible handle");
/// An expression.
COMMSCOPE_HANDLE(core, required, expression, std::semiregular,
                 "a copyable, default-constructible handle");
/// A variable.
COMMSCOPE_HANDLE(core, required, variable, std::semiregular,
                 "a copyable, default-constructible handle");
/// Where a node is, as diagnostics report it.
COMMSCOPE_HANDLE(core, required, location, std::semiregular,
                 "copyable and default-constructible: give mlir::Location its nullable form");

// ---- program and functions

/// The program's functions in its order (a map sorted by name is fine): the order of the
/// plan's functions and of diagnostics of different functions. Each host orchestrator is
/// analyzed on its own and numbers its scopes comm_d0, comm_d1, ... itself.
COMMSCOPE_REQUIRED(core, functions, (const program&), range_of<function>);
/// Name, level, orchestrator?, graph? (vocabulary.hpp).
COMMSCOPE_REQUIRED(core, describe, (function), function_info);
/// The top-level statements. A block terminator that only forwards values (func.return,
/// scf.yield) need not be one.
COMMSCOPE_REQUIRED(core, body, (function), range_of<statement>);

// ---- statements

COMMSCOPE_REQUIRED(core, statement_kind_of, (statement), statement_kind);

/// `location location_of(statement)` and `location location_of(expression)`: one name,
/// two overloads (one record; for an IR whose statements are expressions, one function).
struct location_of {
  using self = location_of;
  static constexpr std::string_view name = "location_of";
  static constexpr std::string_view signature = "location_of(statement), location_of(expression)";
  static constexpr layer layer_of = layer::core;
  static constexpr member_kind kind = member_kind::required;
  template <class T, class Node>
  static constexpr bool callable_with = requires(const T& t, Node n) {
    t.location_of(n);
  };
  template <class T, class Node> static constexpr bool given_with = requires(const T& t, Node n) {
    { t.location_of(n) } -> std::convertible_to<typename names<T>::location>;
  };
  template <class T>
  static constexpr bool given =
      given_with<T, typename names<T>::statement>&& given_with<T, typename names<T>::expression>;
  template <class T> static constexpr bool holds = given<T>;
  template <class T> static constexpr void diagnose() {
    using s = typename names<T>::statement;
    using e = typename names<T>::expression;
    if constexpr (!callable_with<T, s>)
      static_assert(detail::always_false<T>,
                    "commscope: add `location_of(statement)`, returning location");
    else if constexpr (!given_with<T, s>)
      static_assert(detail::always_false<T>,
                    "commscope: `location_of(statement)` must return location");
    else if constexpr (!callable_with<T, e>)
      static_assert(detail::always_false<T>,
                    "commscope: add `location_of(expression)`, returning location");
    else
      static_assert(detail::always_false<T>,
                    "commscope: `location_of(expression)` must return location");
  }
  template <class T, class Node> static constexpr auto invoke(const T& t, Node n) {
    return typename T::location(t.location_of(n));
  }
  template <class T, class Facade> struct facade_call {
    template <class Node> constexpr auto location_of(Node n) const {
      return self::invoke(static_cast<const Facade&>(*this).traits(), n);
    }
  };
  template <class H, class F> struct archetype_member {
    template <class Node>
    requires(std::same_as<Node, typename H::statement> ||
             std::same_as<Node, typename H::expression>) static constexpr typename H::location
        location_of(Node) {
      return {};
    }
  };
};

/// The statements nested in a statement (loop bodies, branches, a scope's body; all
/// regions of an op, in order); empty for leaves.
COMMSCOPE_REQUIRED(core, children, (statement), range_of<statement>);
/// What an assignment binds (an op's results); of another statement that is no loop,
/// what it binds before its children run (`with ... as x`; empty for most).
COMMSCOPE_REQUIRED(core, targets, (statement), range_of<variable>);
/// The expression of an assignment or an evaluation (for an op: the op itself). A
/// variable may be bound several times (`x = f(x)`); a use sees every binding that may
/// reach it (docs/semantics.md, "Rebinding and control flow"). Loop bodies may run zero or
/// more times; other children are a block that may not run, unless control_of says more.
/// SSA IRs bind each variable once and carry region results through yields (`values`).
COMMSCOPE_REQUIRED(core, value, (statement), expression);
/// The variable of a for loop.
COMMSCOPE_REQUIRED(core, loop_variable, (statement), variable);
/// A for loop's {start, stop, step}, each an expression or an integer (range(n) is
/// `loop_bounds<std::int64_t, expression, std::int64_t>{0, n, 1}`); start and step may be
/// std::optional<expression>, absent meaning 0 and 1.
COMMSCOPE_REQUIRED(core, loop_bounds, (statement), loop_bounds_of<expression>);

// ---- expressions

COMMSCOPE_REQUIRED(core, expression_kind_of, (expression), expression_kind);
/// The value of an integer constant.
COMMSCOPE_REQUIRED(core, integer_value, (expression), std::int64_t);
/// The variable a variable expression refers to. The pass follows it to the binding that
/// reaches the use (copies, integer constants, world_size(), loop variables), so an IR
/// whose constants are ops (`%c = arith.constant 4`) makes such an op an assignment whose
/// value has kind integer.
COMMSCOPE_REQUIRED(core, variable_of, (expression), variable);
/// A recognized operation, a function of the program (a captured or submitted dispatch is
/// reported exactly like the call), or an unresolved callee.
COMMSCOPE_REQUIRED(core, call_target_of, (expression), call_target);
/// A call's positional arguments.
COMMSCOPE_REQUIRED(core, arguments, (expression), range_of<expression>);
/// A call's `device=`.
COMMSCOPE_REQUIRED(core, device_of, (expression), std::optional<expression>);
/// The name of an allocation call.
COMMSCOPE_REQUIRED(core, allocation_name, (expression), std::string_view);

// ---- variable identity: a dense numbering, a key, or the handle itself

/// With variable_bound, a dense numbering in [0, bound): the analysis' tables become
/// arrays (needed in constant evaluation, where nothing hashes).
COMMSCOPE_OPTIONAL(core, variable_index, (variable), std::size_t);
/// The bound of variable_index.
COMMSCOPE_OPTIONAL(core, variable_bound, (const program&), std::size_t);
/// A key that std::hash and == accept. Default: the handle itself.
COMMSCOPE_OPTIONAL(core, variable_key, (variable v), hashable_key, { return v; });

COMMSCOPE_RULE(variable_numbering,
               "`variable_index(variable)` and `variable_bound(const program&)` come together "
               "(a dense numbering and its bound): add the other one",
               variable_index::given<T> == variable_bound::given<T>);
COMMSCOPE_RULE(variable_identity,
               "variables need an identity: add `variable_key(variable)` returning a "
               "std::hash-able key, or variable_index(variable) and "
               "variable_bound(const program&), or make the variable handle hashable",
               variable_index::given<T> || variable_key::given<T> ||
                   detail::hashable<typename names<T>::variable>);

// ---- optional: control flow (both or neither; without them the reading described at
// `value` stays, which is sound but merges more)

/// How the children of a statement that is no loop, assignment, evaluation or jump run: a
/// block (once, in order: a region that always runs), may_skip (at most once), repeat
/// (zero or more times: `for x in items`), alternatives (exactly one of branches(s):
/// if/elif/else, scf.if, scf.index_switch), may_stop (at most once, and it may stop after
/// any step with what follows still running: a try body, a `with` body whose manager may
/// swallow an exception). Loops always repeat; a jump
/// (break, continue) carries what was bound before it to the loop's next iteration and
/// exit. Default: a scope's body runs once, any other statement's children may be skipped.
COMMSCOPE_OPTIONAL(core, control_of, (statement s), control_flow, {
  return t.statement_kind_of(s) == statement_kind::scope ? control_flow::block
                                                         : control_flow::may_skip;
});
/// The alternatives of a statement whose control_of is alternatives, in order; a missing
/// `else` is an empty range.
COMMSCOPE_OPTIONAL(core, branches, (statement), ranges_of<statement>);
COMMSCOPE_RULE(control_flow_pair,
               "control_of(statement) and branches(statement) come together: add the other "
               "one (which statements' children are alternatives, and which alternatives)",
               control_of::given<T> == branches::given<T>);

// ---- optional: parallel and loop-carried bindings

/// One expression per target: an assignment that binds each target to its own value, all
/// read before any is bound (`a, b = b, a`; an scf.yield presented as the assignment of
/// the region's results); empty for any other assignment. Asked only of an assignment of
/// several targets. On a for or while loop: the loop-carried variables' values on entry
/// (scf.for iter_args, the DSL's init_values); the body rebinds them.
COMMSCOPE_OPTIONAL(core, values, (statement), range_of<expression>);

// ---- optional, derived when absent

/// The other direct expressions of a statement that is neither assignment, evaluation nor
/// for loop (conditions, returned values). Default: none.
COMMSCOPE_OPTIONAL(core, expressions, (statement), range_of<expression>,
                   { return std::span<const expression>(); });
/// Every direct operand, so that calls nested anywhere are found. A dispatch with more
/// operands than its arguments and device= has keyword arguments: its positional
/// arguments come first, and what follows them is judged apart. Default: a call's
/// arguments, then its device_of. Give it when other operands (keyword values, operands
/// of arithmetic) may hold calls.
COMMSCOPE_OPTIONAL(core, subexpressions, (expression e), range_of<expression>, {
  using operands = detail::call_operands<decltype(t.arguments(e)), expression>;
  if (t.expression_kind_of(e) != expression_kind::call)
    return operands();
  return operands(t.arguments(e), t.device_of(e));
});
/// What an expression that is neither a recognized operation, a dispatch nor a call of an
/// unknown name does with the views among its operands (vocabulary.hpp, operand_flow).
/// Default, the sound one: a call may do anything with its operands, so a view among them
/// escapes (named by its callee when it calls a function); any other expression is
/// derived from its operands.
COMMSCOPE_OPTIONAL(core, flow_of, (expression e), expression_flow, {
  const expression_kind kind = t.expression_kind_of(e);
  return detail::default_flow(kind,
                              kind == expression_kind::call ? t.call_target_of(e) : call_target{});
});
/// For a call of a chip orchestrator: the operands (subexpressions, in their order) whose
/// views its value may hold, bit k for the k-th (bit 63 for the 63rd and every later one):
/// what the chip function may return of what it is given (a tensor it writes into, passed
/// and returned). A value that may hold a view is followed like a derived one: dispatched
/// again, its devices go to that view's allocation; stored, it escapes. Default: every
/// operand, since the pass does not look into the chip function.
COMMSCOPE_OPTIONAL(core, returned_operands, (expression), std::uint64_t,
                   { return ~std::uint64_t{0}; });
/// Whether what the function returns reaches code the pass does not follow: a host
/// orchestrator that another function of the program calls hands the views it returns to
/// that caller, which may dispatch them on devices its allocations never get. A view or
/// window pointer among its returned values (statement_kind::return_) is then
/// `view-escapes`. Default: false, the function returns to the runtime.
COMMSCOPE_OPTIONAL(core, returns_to_callers, (function), bool, { return false; });
/// Whether a statement may end the function's run in some worlds and not in others (an
/// assertion, a call of a function that may exit), so that no dispatch from it on surely
/// runs, as after a jump (docs/semantics.md, "Guarded dispatches"). Asked of every
/// statement, before its expressions are walked. Default: false, only jumps and returns
/// end a run early.
COMMSCOPE_OPTIONAL(core, may_end_run, (statement), bool, { return false; });
/// False for a body wrap_body cannot wrap (an MLIR function with several blocks): a host
/// orchestrator with allocations there is `malformed-op`. Default: true.
COMMSCOPE_OPTIONAL(core, can_wrap_body, (function), bool, { return true; });

/// Device ids at or above it are `device-out-of-range`. Default 1,048,576.
COMMSCOPE_CONSTANT(core, device_limit, std::int64_t, std::int64_t{1} << 20);
/// A function that needs more domains (nested scopes) than this is
/// `scope-nesting-limit`, reported at the first allocation beyond it. Default: no limit.
/// For hosts whose nested regions are handled recursively (MLIR's printer).
COMMSCOPE_CONSTANT(core, scope_nesting_limit, std::size_t, static_cast<std::size_t>(-1));
/// The one-argument entry points may default-construct a traits class that holds state
/// when its default state works (an optional cache).
COMMSCOPE_CONSTANT(core, usable_by_default, bool, false);

/// The adapter's scopes can hold world-relative progressions (docs/semantics.md,
/// "Symbolic device sets"): the loop variable of `range(START, world_size() - C, STEP)`
/// gives one instead of `partial-world-range`; wrap_body receives them in
/// scope_spec::progressions. Default: no symbolic sets.
COMMSCOPE_CONSTANT(core, symbolic_device_sets, bool, false);
/// With symbolic_device_sets: for `x - C` with a constant C, x and C (none for any other
/// expression), so that `world_size() - C` is seen, directly or through a temporary.
COMMSCOPE_OPTIONAL(core, minus_constant, (expression), minus_constant_result<expression>,
                   { return minus_constant_result<expression>(); });
COMMSCOPE_RULE(symbolic_subtraction,
               "`symbolic_device_sets` needs `minus_constant(expression)`, returning "
               "minus_constant_result<expression>",
               !symbolic_device_sets::of<T>() || minus_constant::given<T>);

/// The analysis core, in the order of its diagnosis.
using analysis_core =
    records<specialization, program, function, statement, expression, variable, location, functions,
            describe, body, statement_kind_of, location_of, children, targets, value, loop_variable,
            loop_bounds, expression_kind_of, integer_value, variable_of, call_target_of, arguments,
            device_of, allocation_name, variable_index, variable_bound, variable_numbering,
            variable_key, variable_identity, control_of, branches, control_flow_pair, values,
            expressions, subexpressions, flow_of, returned_operands, returns_to_callers,
            may_end_run, can_wrap_body, device_limit, scope_nesting_limit, usable_by_default,
            symbolic_device_sets, minus_constant, symbolic_subtraction>;

} // namespace contract
} // namespace commscope
