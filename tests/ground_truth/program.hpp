// The program model of the ground-truth checker: host orchestrators as the DSL writes them
// (pass.md, "Rebinding and control flow"), small enough to run concretely. Window buffers
// are allocated at the top, once each, and may be reached through pointer copies; views
// are variables that are bound, copied, swapped and rebound anywhere; loops run over the
// world or over constant ranges, or while an opaque condition holds; `if`/`elif`/`else`
// take opaque conditions; `with` blocks run once; dispatches run on a constant device, on
// an enclosing loop's variable or on a device variable bound anywhere; host collectives
// pass coverage.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ground_truth {

enum class variable_kind : std::uint8_t { buffer, view, integer };

struct variable {
  std::string name;
  variable_kind kind = variable_kind::view;
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
/// views (-1: its result is no view), and its inheritance edges (pass.md, step 4).
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
    {"allreduce", 2, 0, {{1, 0}, {}}, 1},        {"broadcast", 2, -1, {{1, 0}, {}}, 1},
    {"reduce_scatter", 2, -1, {{1, 0}, {}}, 1},  {"barrier", 1, -1, {{}, {}}, 0},
    {"allgather", 3, 1, {{2, 1}, {}}, 1},        {"all_to_all", 3, 1, {{2, 1}, {}}, 1},
    {"all_to_all_v", 5, 1, {{2, 1}, {4, 1}}, 2},
};
constexpr const collective_shape& shape(collective c) { return shapes[static_cast<int>(c)]; }

enum class statement_kind : std::uint8_t {
  allocate,   ///< target = pld.alloc_window_buffer(size)
  window,     ///< target = pld.window(source, [...], dtype=...)
  copy,       ///< target = source (views, pointers, device variables)
  constant,   ///< target = constant (a device variable)
  parallel,   ///< arguments... = sources..., every source read before any is bound
  dispatch,   ///< chipN(args..., device=DEVICE)
  collective, ///< [target =] pld.tensor.OP(args...)
  if_else,    ///< if/elif/else: blocks are the branches; else_ says the last is an else
  for_world,  ///< for target in pl.range(pld.world_size()): blocks[0]
  for_range,  ///< for target in range(start, stop, step): blocks[0]
  while_loop, ///< while cN(): blocks[0]
  with_block, ///< with pl.at(...): blocks[0], run once
  jump,       ///< break (else_ false) or continue (else_ true)
  return_,    ///< return x
};

struct statement;
using block = std::vector<statement>;

struct statement {
  statement_kind kind{};
  int id = -1;                ///< pre-order number (number())
  int target = -1;            ///< variable
  int source = -1;            ///< variable (a window's buffer, a copy's source)
  std::vector<int> arguments; ///< variables; -1 is the host tensor x (no window)
  std::vector<int> sources;   ///< a parallel assignment's values (variables)
  std::int64_t size = 64;
  // dispatch: the device is `constant` when device_variable < 0; through_copy renders
  // `d = VARIABLE` before the call and passes d.
  std::int64_t constant = 0;
  int device_variable = -1;
  bool through_copy = false;
  collective op{};
  std::int64_t start = 0, stop = 0, step = 1;
  /// for_world: range(start, world_size() - world_offset, step), a loop over part of the
  /// world (pass.md, "Symbolic device sets") unless it is range(world_size()).
  std::int64_t world_offset = 0;
  bool builtin_range = false; ///< range(...) rather than pl.range(...)
  bool else_ = false;
  std::vector<int> conditions; ///< if: one per branch but an else; while: one
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
    return true;
  case statement_kind::dispatch:
    return s.through_copy;
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
/// exact (pass.md).
inline bool straight_line_bindings(const program& p) {
  bool nested = false;
  each_statement_under(p.body,
                       [&](const statement& s, bool under) { nested |= under && binds(s); });
  return !nested;
}

} // namespace ground_truth
