// The reference IR: a small host IR with shared immutable nodes, like the compiler the
// design note comes from. Window-buffer objects are shared and their identity matters:
// every view of one allocation points at the very same `window_buffer`.
//
// Nodes are held by std::shared_ptr<const T>: create one with std::make_shared, fill it,
// then publish it as const. A rewrite builds new nodes and shares every unchanged
// subtree; nodes know their owner (enable_shared_from_this) so that the rewrite can
// share a node it only has a handle to. Build programs with builder.hpp, print them
// with printer.hpp, parse the text form with parser.hpp.
#pragma once

#include <commscope/traits.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace commscope::reference {

struct source_location {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  friend constexpr bool operator==(source_location, source_location) = default;
};

struct variable;
struct expression;
struct statement;
struct window_buffer;
struct type;
struct function;
struct program;

using variable_ptr = std::shared_ptr<const variable>;
using expression_ptr = std::shared_ptr<const expression>;
using statement_ptr = std::shared_ptr<const statement>;
using window_buffer_ptr = std::shared_ptr<const window_buffer>;
using type_ptr = std::shared_ptr<const type>;
using function_ptr = std::shared_ptr<const function>;
using program_ptr = std::shared_ptr<const program>;

/// A variable's type. `annotation` is the type as written (parameters); a view's type
/// is the distributed tensor type made of the window call's shape and dtype, and after
/// the pass it points at its window buffer.
struct type {
  expression_ptr annotation;
  expression_ptr shape;
  expression_ptr dtype;
  window_buffer_ptr window;
};

/// One binding. `id` is dense within its program (see program::variable_bound): the
/// analysis keeps per-variable tables in arrays indexed by it.
struct variable : std::enable_shared_from_this<variable> {
  std::uint32_t id = 0;
  std::string name;
  type_ptr var_type;
};

/// The window-buffer object of one allocation (pass.md step 7).
struct window_buffer : std::enable_shared_from_this<window_buffer> {
  variable_ptr base;
  expression_ptr size;
  bool load_from_host = false;
  bool store_to_host = false;
  std::string name;
};

struct keyword_argument {
  std::string name;
  expression_ptr value;
};

/// A function's identity as seen by callers: shared between the function and every
/// call of it, so rebuilding a body never invalidates a call.
struct signature {
  std::string name;
  commscope::level level = commscope::level::other;
  bool orchestrator = false;               ///< role Orchestrator or type Orchestration
  bool graph = false;                      ///< type Graph
  std::vector<keyword_argument> decorator; ///< @pl.function(...) as written

  [[nodiscard]] function_info info() const { return {name, level, orchestrator, graph}; }
};
using signature_ptr = std::shared_ptr<const signature>;

struct expression : std::enable_shared_from_this<expression> {
  enum class kind : std::uint8_t {
    integer,       ///< value (text holds the digits when they overflow int64)
    boolean,       ///< value 0 or 1
    none,          ///< None
    string,        ///< text
    name,          ///< var; or, for an unbound name, text
    attribute,     ///< base.text
    operation,     ///< a recognised operation: op, text = spelling, args, keywords
    function_call, ///< self.NAME(...): callee (null when NAME is unknown), text = NAME
    call,          ///< any other call: base(args, keywords)
    subscript,     ///< base[args...]
    list,          ///< [args...]
    tuple,         ///< (args...)
    unary,         ///< text args[0]   (text: "-", "not")
    binary,        ///< args[0] text args[1]   (arithmetic, comparison, and/or)
    opaque,        ///< any other Python form: text as written, args its operands
  };
  kind what = kind::none;
  source_location where{};
  std::int64_t value = 0;
  bool overflow = false; ///< an integer literal outside int64
  std::string text;
  /// Where in `text` the statement's own trailing comment starts (0: none), so that a
  /// printed `# window_buffer=` comment goes before it.
  std::uint32_t comment_at = 0;
  std::string name; ///< an allocation's name: its name= keyword or its variable's name
  variable_ptr var;
  commscope::operation op = commscope::operation::none;
  signature_ptr callee;
  expression_ptr base;
  std::vector<expression_ptr> args;
  std::vector<keyword_argument> keywords;

  expression() = default;
  expression(const expression&) = default;
  expression& operator=(const expression&) = default;
  ~expression(); // iterative: a deep expression must not recurse on destruction
};

struct statement : std::enable_shared_from_this<statement> {
  enum class kind : std::uint8_t {
    assign,     ///< targets = value
    evaluate,   ///< value
    for_loop,   ///< for loop_var in range(start, stop, step): body
    while_loop, ///< while value: body
    if_else,    ///< if value: body else: orelse (elif is an if_else alone in orelse)
    return_,    ///< return values...
    pass,
    scope,    ///< with pld.comm_domain(scope_name, devices, slots): body
    block,    ///< any other compound statement (with, try, except, for over no range,
              ///< else of a loop, ...): text is its header; values, targets, body
    verbatim, ///< any other simple statement (x += e, del, assert, a docstring, ...):
              ///< text as written; values are read, targets rebound opaquely
  };
  kind what = kind::pass;
  source_location where{};
  std::vector<variable_ptr> targets;
  expression_ptr value;
  std::vector<expression_ptr> values;
  variable_ptr loop_var;
  expression_ptr start, stop, step; ///< always present; implicit ones are constants
  std::uint8_t range_arity = 1;     ///< how many range() arguments were written
  bool builtin_range = false;       ///< `range(...)` rather than `pl.range(...)`
  bool is_elif = false;             ///< printed as `elif` inside its parent's orelse
  /// The statement as written (its header for a compound one), when it was parsed:
  /// printed as is, so that a rewritten body keeps the author's spelling. Continuation
  /// lines are stored without the statement's indentation; a line that starts inside a
  /// string literal is marked by a leading '\0' and never re-indented.
  std::string text;
  /// Where in `text` the statement's own trailing comment starts (0: none), so that a
  /// printed `# window_buffer=` comment goes before it.
  std::uint32_t comment_at = 0;
  std::vector<statement_ptr> body;
  std::vector<statement_ptr> orelse;
  // scope
  std::string scope_name;
  bool all_devices = true;
  std::vector<std::int64_t> devices;
  std::vector<window_buffer_ptr> slots;

  statement() = default;
  statement(const statement&) = default;
  statement& operator=(const statement&) = default;
  ~statement(); // iterative: 100,000 nested loops must not recurse on destruction
};

struct parameter {
  variable_ptr var;
};

struct function {
  signature_ptr sig;
  std::vector<parameter> params;
  expression_ptr returns; ///< the `-> TYPE` annotation, or null
  std::vector<statement_ptr> body;
  source_location where{};
};

struct program {
  /// `@pl.program class NAME:` with `@pl.function` methods, or a group of module-level
  /// (or function-local) `@pl.jit` functions that call each other by bare name.
  enum class form : std::uint8_t { program_class, jit_group };
  form style = form::program_class;
  std::string name;
  std::vector<function_ptr> functions;
  std::uint32_t variable_bound = 0; ///< every variable id is below it
};

namespace detail {
/// Moves the children we own alone into `pending`, so that they die one at a time in
/// the caller's loop instead of recursively inside this node's destructor.
template <class T>
void adopt_sole(std::vector<std::shared_ptr<const T>>& from,
                std::vector<std::shared_ptr<const T>>& pending) {
  for (auto& c : from)
    if (c && c.use_count() == 1)
      pending.push_back(std::move(c));
  from.clear();
}
inline void adopt_sole(expression_ptr& from, std::vector<expression_ptr>& pending) {
  if (from && from.use_count() == 1)
    pending.push_back(std::move(from));
  from.reset();
}
inline void dismantle(expression& e, std::vector<expression_ptr>& pending) {
  adopt_sole(e.base, pending);
  adopt_sole(e.args, pending);
  for (auto& k : e.keywords)
    adopt_sole(k.value, pending);
  e.keywords.clear();
}
} // namespace detail

inline expression::~expression() {
  std::vector<expression_ptr> pending;
  detail::dismantle(*this, pending);
  while (!pending.empty()) {
    expression_ptr e = std::move(pending.back());
    pending.pop_back();
    // Sole owner: the node is not shared, and was created non-const (make_shared).
    detail::dismantle(const_cast<expression&>(*e), pending);
  }
}

inline statement::~statement() {
  std::vector<statement_ptr> pending;
  detail::adopt_sole(body, pending);
  detail::adopt_sole(orelse, pending);
  while (!pending.empty()) {
    statement_ptr s = std::move(pending.back());
    pending.pop_back();
    auto& m = const_cast<statement&>(*s); // sole owner, created non-const
    detail::adopt_sole(m.body, pending);
    detail::adopt_sole(m.orelse, pending);
  }
}

} // namespace commscope::reference
