// The program model of the ground-truth checker: host orchestrators as the DSL writes
// them (docs/semantics.md, "Rebinding and control flow"), small enough to run concretely.
// Window buffers are allocated at the top, once each, and may be reached through pointer
// copies; views are variables that are bound, copied, swapped and rebound anywhere; loops
// run over the world or over constant ranges, or while an opaque condition holds;
// `if`/`elif`/`else` take opaque conditions; `with` blocks run once; dispatches run on a
// constant device, on an enclosing loop's variable or on a device variable bound
// anywhere; host collectives pass coverage. Views also flow through expressions
// (docs/semantics.md, "Every use of a view is followed or refused"): slices and method
// calls of views, tuples packed, read back and unpacked, conditional expressions choosing
// a view or guarding a dispatch; and they escape into helpers the pass does not follow
// (`stage(v)`), which it must refuse.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ground_truth {

/// A tuple holds views: its elements are hidden view variables of their own (`elements`),
/// which only the tuple's own statements bind and read.
enum class variable_kind : std::uint8_t { buffer, view, integer, tuple };

struct variable {
  std::string name;
  variable_kind kind = variable_kind::view;
  std::vector<int> elements; ///< a tuple's: one hidden view variable per element
  /// First bound inside a loop, below a guarded dispatch that reads it: unbound there in
  /// the first iteration (that execution raises NameError if the dispatch runs), the
  /// previous iteration's value after it.
  bool late = false;
};

/// How a dispatch or a helper call passes a variable, or how a derived binding reads it.
enum class form : std::uint8_t {
  plain,   ///< v
  slice,   ///< v[0:32]
  method,  ///< v.reshape([8, 8])
  element, ///< t[k], a tuple's k-th element
  whole,   ///< t, a whole tuple: every view it holds
};

/// A variable as an operand: its form, and the element read (form::element).
struct operand {
  form how = form::plain;
  int index = 0;
  friend bool operator==(const operand&, const operand&) = default;
};

enum class collective : std::uint8_t {
  allreduce,
  broadcast,
  reduce_scatter,
  barrier,
  allgather,
  all_to_all,
  all_to_all_v,
};

/// The DSL's name of a collective, its positional arguments, the argument its result
/// views (-1: its result is no view), and its inheritance edges (docs/semantics.md,
/// step 4).
struct collective_shape {
  const char* name;
  int arguments;
  int result;
  struct edge {
    int to, from;
  };
  edge edges[2];
  int edge_count;
};
inline constexpr collective_shape shapes[] = {
    {"allreduce", 2, 0, {{1, 0}, {}}, 1},        {"broadcast", 2, 0, {{1, 0}, {}}, 1},
    {"reduce_scatter", 2, 0, {{1, 0}, {}}, 1},   {"barrier", 1, 0, {{}, {}}, 0},
    {"allgather", 3, 1, {{2, 1}, {}}, 1},        {"all_to_all", 3, 1, {{2, 1}, {}}, 1},
    {"all_to_all_v", 5, 1, {{2, 1}, {4, 1}}, 2},
};
constexpr const collective_shape& shape(collective c) { return shapes[static_cast<int>(c)]; }

enum class statement_kind : std::uint8_t {
  allocate,   ///< target = pld.alloc_window_buffer(size)
  window,     ///< target = pld.window(source, [...], dtype=...); from.how element:
              ///< the pointer read back from a tuple, pld.window((source, 0)[0], ...)
  copy,       ///< target = source (views, pointers, device variables)
  constant,   ///< target = constant (a device variable)
  parallel,   ///< arguments... = sources..., every source read before any is bound
  dispatch,   ///< chipN(args..., device=DEVICE)
  collective, ///< [target =] pld.tensor.OP(args...)
  if_else,    ///< if/elif/else: blocks are the branches; else_ says the last is an else
  for_world,  ///< for target in pl.range(pld.world_size()): blocks[0]
  for_range,  ///< for target in range(start, stop, step): blocks[0]
  while_loop, ///< while cN(): blocks[0]
  for_items,  ///< for target in source (a tuple): blocks[0], once per element, in order
              ///< (reversed for `reversed(...)`: `repack`)
  with_block, ///< with pl.at(...): blocks[0], run once
  jump,       ///< break (else_ false) or continue (else_ true)
  return_,    ///< return x
  derive,     ///< target = source[0:32] / source.reshape(...) / source[k] (from: the form)
  pack,       ///< target = (sources...) or [sources...]: a tuple's elements bound
  unpack,     ///< arguments... = source: each bound to the tuple's element
  choose,     ///< target = sources[0] if cN() else sources[1]: both outcomes happen
  escape,     ///< stage(argument) or helper(argument): view-escapes (else_: helper);
              ///< or a store of it (store)
};

struct statement;
using block = std::vector<statement>;

struct statement {
  statement_kind kind{};
  int id = -1;                ///< pre-order number (number())
  int target = -1;            ///< variable
  int source = -1;            ///< variable (a window's buffer, a copy's source)
  std::vector<int> arguments; ///< variables; -1 is the host tensor x (no window)
  /// A dispatch's or an escape's: per argument, how it is passed (empty: all plain).
  std::vector<operand> forms;
  operand from; ///< derive: how the source is read
  /// A dispatch inside a conditional expression, `chipN(...) if cN() else None`: it runs
  /// in some executions only (conditions[0] is its condition).
  bool guarded = false;
  /// A dispatch: its arguments passed by keyword (x0=..., ...): a view so passed is
  /// view-escapes, as at a helper call (a dispatch covers its positional arguments only).
  bool keywords = false;
  /// An escape written as something other than a call, which the front end cannot follow
  /// either: 1 a store `x.held = ARG`, 2 a binding in an expression `(kept := ARG)`, 3 a
  /// nested definition reading it, `def later(): return ARG` (0: a call).
  int store = 0;
  std::vector<int> sources; ///< a parallel assignment's values (variables)
  std::int64_t size = 64;
  // dispatch: the device is `constant` when device_variable < 0; through_copy renders
  // `d = VARIABLE` before the call and passes d.
  std::int64_t constant = 0;
  int device_variable = -1;
  bool through_copy = false;
  collective op{};
  std::int64_t start = 0, stop = 0, step = 1;
  /// for_world: range(start, world_size() - world_offset, step), a loop over part of the
  /// world (docs/semantics.md, "Symbolic device sets") unless it is range(world_size()).
  std::int64_t world_offset = 0;
  bool builtin_range = false; ///< range(...) rather than pl.range(...)
  bool else_ = false;
  /// for_items: how the tuple is iterated, through Python's builtins that repack it.
  enum class repacking : std::uint8_t {
    none,      ///< for v in t
    list,      ///< for v in list(t)
    tuple,     ///< for v in tuple(t)
    reversed,  ///< for v in reversed(t): the last element first
    enumerate, ///< for eN, v in enumerate(t)
    zip,       ///< for v, zN in zip(t, t)
  } repack = repacking::none;
  std::vector<int> conditions; ///< if: one per branch but an else; while, choose, a
                               ///< guarded dispatch: one
  std::vector<block> blocks;
};

struct program {
  std::vector<variable> variables;
  block body;
  int conditions = 0;
  int statements = 0;   ///< after number()
  int device_copy = -1; ///< the variable `d` of dispatches through a copy
};

inline bool is_loop(const statement& s) {
  return s.kind == statement_kind::for_world || s.kind == statement_kind::for_range ||
         s.kind == statement_kind::while_loop;
}

/// The values of a for_range loop, in order.
inline std::vector<std::int64_t> range_values(const statement& s) {
  std::vector<std::int64_t> r;
  for (auto i = s.start; s.step > 0 ? i < s.stop : i > s.stop; i += s.step)
    r.push_back(i);
  return r;
}

/// Whether a for_world loop runs over part of the world only.
inline bool partial_world(const statement& s) {
  return s.kind == statement_kind::for_world &&
         (s.start != 0 || s.step != 1 || s.world_offset != 0);
}
/// The values of a for_world loop in a world of `world_size` devices, in order.
inline std::vector<std::int64_t> world_values(const statement& s, std::int64_t world_size) {
  std::vector<std::int64_t> r;
  for (auto i = s.start; i < world_size - s.world_offset; i += s.step)
    r.push_back(i);
  return r;
}

/// Calls f(statement&, depth) on every statement in pre-order.
template <class Block, class F> void each_statement(Block& b, F&& f, int depth = 0) {
  for (auto& s : b) {
    f(s, depth);
    for (auto& inner : s.blocks)
      each_statement(inner, f, depth + 1);
  }
}

/// Whether some loop of the program runs over part of the world.
template <class Program> bool has_partial_world(const Program& p) {
  bool any = false;
  each_statement(p.body, [&](const statement& s, int) { any = any || partial_world(s); });
  return any;
}
/// Numbers the statements in pre-order.
inline void number(program& p) {
  int n = 0;
  each_statement(p.body, [&](statement& s, int) { s.id = n++; });
  p.statements = n;
}

/// Whether a statement binds a variable.
inline bool binds(const statement& s) {
  switch (s.kind) {
  case statement_kind::allocate:
  case statement_kind::window:
  case statement_kind::copy:
  case statement_kind::constant:
  case statement_kind::parallel:
  case statement_kind::derive:
  case statement_kind::pack:
  case statement_kind::unpack:
  case statement_kind::choose:
  case statement_kind::for_items:
    return true;
  case statement_kind::dispatch:
    return s.through_copy || s.target >= 0;
  case statement_kind::collective:
    return s.target >= 0;
  default:
    return false;
  }
}

/// Calls f(statement&, under) on every statement in pre-order, `under` saying whether it
/// is nested in a branch or a loop body (a `with` body runs once: straight-line code).
template <class Block, class F> void each_statement_under(Block& b, F&& f, bool under = false) {
  for (auto& s : b) {
    f(s, under);
    for (auto& inner : s.blocks)
      each_statement_under(inner, f, under || s.kind != statement_kind::with_block);
  }
}

/// No binding nested in a branch or a loop body: the class in which the analysis must be
/// exact (docs/semantics.md, "Rebinding and control flow").
inline bool straight_line_bindings(const program& p) {
  bool nested = false;
  each_statement_under(p.body,
                       [&](const statement& s, bool under) { nested |= under && binds(s); });
  return !nested;
}

/// Straight-line bindings, none of which is a branch in disguise or a may-set:
///   - `v = va if cN() else vb` is `if cN(): v = va / else: v = vb`, a binding under a
///     branch: the analysis joins the outcomes into one may-set per variable and loses
///     their correlation (after `w = v`, `allreduce(v, w)` passes b to b and c to c in
///     every execution, but {b, c} to {b, c} to the analysis);
///   - `x = t[k]`, `a, b = t` and `for x in t` read back a tuple: the analysis binds them to
///     any view the tuple holds (docs/semantics.md: soundly wider), while an execution knows
///     which one.
/// Slices, method calls, a whole tuple passed to a dispatch, a guarded dispatch (it runs
/// in some execution, and coverage is the union over executions) stay exact.
inline bool exact_class(const program& p) {
  bool inexact = !straight_line_bindings(p);
  each_statement(p.body, [&](const statement& s, int) {
    inexact |= s.kind == statement_kind::choose || s.kind == statement_kind::unpack ||
               s.kind == statement_kind::for_items ||
               (s.kind == statement_kind::derive && s.from.how == form::element);
    for (const auto& f : s.forms)
      inexact |= f.how == form::element;
  });
  return !inexact;
}

/// Whether the program uses a form of expression beyond plain variables (derived values,
/// tuples, conditional expressions, keyword arguments): the index IR (tests/index_ir), whose
/// expressions other than calls have no operands, cannot write them.
inline bool has_expressions(const program& p) {
  bool any = false;
  each_statement(p.body, [&](const statement& s, int) {
    any |= s.kind == statement_kind::derive || s.kind == statement_kind::pack ||
           s.kind == statement_kind::unpack || s.kind == statement_kind::choose || s.guarded ||
           s.keywords || s.kind == statement_kind::for_items ||
           (s.kind == statement_kind::window && s.from.how != form::plain);
    for (const auto& f : s.forms)
      any |= f.how != form::plain;
  });
  return any;
}

/// Whether the program binds what a dispatch returns (`vN = chipK(...)`).
inline bool has_dispatch_results(const program& p) {
  bool any = false;
  each_statement(p.body, [&](const statement& s, int) {
    any |= s.kind == statement_kind::dispatch && s.target >= 0;
  });
  return any;
}

/// Whether the program calls a helper (module-level `stage` or host-level `helper`).
inline bool has_escapes(const program& p, bool host_helper) {
  bool any = false;
  each_statement(p.body, [&](const statement& s, int) {
    any |= s.kind == statement_kind::escape && s.else_ == host_helper;
  });
  return any;
}

} // namespace ground_truth
