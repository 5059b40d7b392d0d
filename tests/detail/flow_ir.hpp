// A small non-SSA IR for the control-flow tests of the analysis: variables are names (one
// variable however often it is bound, as in Python), `if` statements have branches,
// `break`/`continue` are jumps, assignments may bind several targets in parallel, loops
// may carry values. It gives the control-flow members of traits.hpp (control_of,
// branches, values) and nothing of the scope readers or the rewrite.
#pragma once

#include <commscope/commscope.hpp>

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flow {

struct expr {
  commscope::expression_kind kind = commscope::expression_kind::other;
  std::int64_t value = 0;
  int var = -1;
  commscope::call_target target{};
  std::vector<const expr*> args;
  const expr* device = nullptr;
  std::string_view name;
  int line = 0;
};

struct stmt {
  commscope::statement_kind kind = commscope::statement_kind::other;
  commscope::control_flow control = commscope::control_flow::may_skip;
  std::vector<int> targets;
  const expr* value = nullptr;
  std::vector<const expr*> values; ///< parallel or loop-carried
  std::vector<const stmt*> children;
  std::vector<std::vector<const stmt*>> branches;
  int loop_var = -1;
  commscope::loop_bounds<const expr*> bounds{};
  int line = 0;
};

struct fn {
  commscope::function_info info;
  std::vector<const stmt*> body;
};

using block = std::vector<const stmt*>;

/// Builds one program: a chip orchestrator `chip` and host orchestrators. Statements are
/// made inner first (their children are arguments); lines count in the order they are made.
struct program {
  std::deque<fn> functions;
  std::deque<stmt> statements;
  std::deque<expr> expressions;
  std::deque<std::string> names;
  std::map<std::string, int, std::less<>> ids;
  int lines = 0;

  program() { functions.push_back({{"chip", commscope::level::chip, true, false}, {}}); }
  const fn& chip() const { return functions.front(); }
  void host(block body) {
    functions.push_back({{"host", commscope::level::host, true, false}, std::move(body)});
  }

  int var(std::string_view name) {
    if (auto it = ids.find(name); it != ids.end())
      return it->second;
    const int id = static_cast<int>(ids.size());
    ids.emplace(std::string(name), id);
    return id;
  }

  // ---- expressions
  const expr* integer(std::int64_t v) {
    expr e;
    e.kind = commscope::expression_kind::integer;
    e.value = v;
    return &expressions.emplace_back(e);
  }
  const expr* use(std::string_view name) {
    expr e;
    e.kind = commscope::expression_kind::variable;
    e.var = var(name);
    return &expressions.emplace_back(e);
  }
  const expr* op(commscope::operation o, std::vector<const expr*> args,
                 std::string_view name = {}) {
    expr e;
    e.kind = commscope::expression_kind::call;
    e.target = commscope::call_target::of(o);
    e.args = std::move(args);
    e.name = names.emplace_back(name);
    e.line = lines + 1;
    return &expressions.emplace_back(e);
  }
  const expr* world() { return op(commscope::operation::world_size, {}); }
  const expr* other() { return &expressions.emplace_back(expr{}); }

  // ---- statements
  const stmt* assign(std::string_view target, const expr* value) {
    stmt s;
    s.kind = commscope::statement_kind::assignment;
    s.targets = {var(target)};
    s.value = value;
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  const stmt* alloc(std::string_view name) {
    return assign(name, op(commscope::operation::alloc_window_buffer, {integer(64)}, name));
  }
  const stmt* window(std::string_view view, std::string_view pointer) {
    return assign(view, op(commscope::operation::window, {use(pointer), other(), other()}));
  }
  const stmt* copy(std::string_view to, std::string_view from) { return assign(to, use(from)); }
  /// `a, b = x, y`: all values read before any target is bound.
  const stmt* parallel(std::initializer_list<std::string_view> targets,
                       std::initializer_list<std::string_view> from) {
    stmt s;
    s.kind = commscope::statement_kind::assignment;
    for (auto t : targets)
      s.targets.push_back(var(t));
    for (auto f : from)
      s.values.push_back(use(f));
    s.value = other(); // the tuple, as a whole
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  /// chip(args..., device=device)
  const stmt* dispatch(std::initializer_list<std::string_view> args, const expr* device) {
    expr e;
    e.kind = commscope::expression_kind::call;
    e.target = commscope::call_target::of(chip().info);
    for (auto a : args)
      e.args.push_back(use(a));
    e.device = device;
    e.line = lines + 1;
    stmt s;
    s.kind = commscope::statement_kind::evaluation;
    s.value = &expressions.emplace_back(e);
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  /// chip(args..., device=N)
  const stmt* on(std::initializer_list<std::string_view> args, std::int64_t device) {
    return dispatch(args, integer(device));
  }
  /// chip(args..., device=NAME)
  const stmt* on_var(std::initializer_list<std::string_view> args, std::string_view device) {
    return dispatch(args, use(device));
  }
  /// `target = op(args...)` or, with no target, the call as a statement.
  const stmt* collective(std::string_view target, commscope::operation o,
                         std::initializer_list<std::string_view> args) {
    std::vector<const expr*> a;
    for (auto x : args)
      a.push_back(use(x));
    const expr* call = op(o, std::move(a));
    if (!target.empty())
      return assign(target, call);
    stmt s;
    s.kind = commscope::statement_kind::evaluation;
    s.value = call;
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  const stmt* if_(std::vector<block> branches) {
    stmt s;
    s.kind = commscope::statement_kind::other;
    s.control = commscope::control_flow::alternatives;
    for (const auto& b : branches)
      s.children.insert(s.children.end(), b.begin(), b.end());
    s.branches = std::move(branches);
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  const stmt* compound(commscope::control_flow how, block body) {
    stmt s;
    s.kind = commscope::statement_kind::other;
    s.control = how;
    s.children = std::move(body);
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  const stmt* for_(std::string_view v, const expr* start, const expr* stop, const expr* step,
                   block body) {
    stmt s;
    s.kind = commscope::statement_kind::for_loop;
    s.loop_var = var(v);
    s.bounds = {start, stop, step};
    s.children = std::move(body);
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  const stmt* for_world(std::string_view v, block body) {
    return for_(v, integer(0), world(), integer(1), std::move(body));
  }
  const stmt* for_range(std::string_view v, std::int64_t n, block body) {
    return for_(v, integer(0), integer(n), integer(1), std::move(body));
  }
  /// A for loop carrying `carried` (bound to `init` before the first iteration).
  const stmt* for_carrying(std::string_view v, std::int64_t n,
                           std::initializer_list<std::string_view> carried,
                           std::initializer_list<std::string_view> init, block body) {
    auto* s = const_cast<stmt*>(for_range(v, n, std::move(body)));
    for (auto c : carried)
      s->targets.push_back(var(c));
    for (auto i : init)
      s->values.push_back(use(i));
    return s;
  }
  const stmt* while_(block body) {
    stmt s;
    s.kind = commscope::statement_kind::while_loop;
    s.children = std::move(body);
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  const stmt* jump() {
    stmt s;
    s.kind = commscope::statement_kind::jump;
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
};

} // namespace flow

template <> struct commscope::ir_traits<flow::program> {
  using program = flow::program;
  using function = const flow::fn*;
  using statement = const flow::stmt*;
  using expression = const flow::expr*;
  using variable = int;
  using location = int; // a line

  static std::vector<function> functions(const program& p) {
    std::vector<function> r;
    for (const auto& f : p.functions)
      r.push_back(&f);
    return r;
  }
  static function_info describe(function f) { return f->info; }
  static const std::vector<statement>& body(function f) { return f->body; }

  static statement_kind statement_kind_of(statement s) { return s->kind; }
  static location location_of(statement s) { return s->line; }
  static location location_of(expression e) { return e->line; }
  static const std::vector<statement>& children(statement s) { return s->children; }
  static control_flow control_of(statement s) { return s->control; }
  static const std::vector<std::vector<statement>>& branches(statement s) { return s->branches; }
  static const std::vector<int>& targets(statement s) { return s->targets; }
  /// A parallel assignment of one target binds it to its one value.
  static expression value(statement s) {
    return s->targets.size() == 1 && s->values.size() == 1 ? s->values.front() : s->value;
  }
  static const std::vector<expression>& values(statement s) { return s->values; }
  static variable loop_variable(statement s) { return s->loop_var; }
  static commscope::loop_bounds<expression> loop_bounds(statement s) { return s->bounds; }

  static expression_kind expression_kind_of(expression e) { return e->kind; }
  static std::int64_t integer_value(expression e) { return e->value; }
  static variable variable_of(expression e) { return e->var; }
  static call_target call_target_of(expression e) { return e->target; }
  static const std::vector<expression>& arguments(expression e) { return e->args; }
  static std::optional<expression> device_of(expression e) {
    return e->device ? std::optional<expression>(e->device) : std::nullopt;
  }
  static std::string_view allocation_name(expression e) { return e->name; }
};
