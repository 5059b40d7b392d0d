// A second, deliberately minimal IR for the tests: nodes in deques, pointer handles,
// variables as plain integers identified by hashing (no dense numbering), and only the
// analysis core of the contract. It proves the analysis needs nothing beyond it.
#pragma once

#include <commscope/commscope.hpp>

#include <cstdint>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

namespace minimal {

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
  std::vector<int> targets;
  const expr* value = nullptr;
  std::vector<const stmt*> children;
  int loop_var = -1;
  commscope::loop_bounds<const expr*> bounds{};
  int line = 0;
};

struct fn {
  commscope::function_info info;
  std::vector<const stmt*> body;
};

struct program {
  std::deque<fn> functions;
  std::deque<stmt> statements;
  std::deque<expr> expressions;
  int lines = 0;
  int variables = 0;

  // ---- a tiny builder
  const expr* integer(std::int64_t v) {
    expr e;
    e.kind = commscope::expression_kind::integer;
    e.value = v;
    return &expressions.emplace_back(e);
  }
  const expr* use(int var) {
    expr e;
    e.kind = commscope::expression_kind::variable;
    e.var = var;
    return &expressions.emplace_back(e);
  }
  const expr* op(commscope::operation o, std::vector<const expr*> args,
                 std::string_view name = {}) {
    expr e;
    e.kind = commscope::expression_kind::call;
    e.target = commscope::call_target::of(o);
    e.args = std::move(args);
    e.name = name;
    e.line = lines + 1;
    return &expressions.emplace_back(e);
  }
  const expr* call(const fn& callee, std::vector<const expr*> args, const expr* device) {
    expr e;
    e.kind = commscope::expression_kind::call;
    e.target = commscope::call_target::of(callee.info);
    e.args = std::move(args);
    e.device = device;
    e.line = lines + 1;
    return &expressions.emplace_back(e);
  }
  const stmt* assign(int& var, const expr* value) {
    var = variables++;
    stmt s;
    s.kind = commscope::statement_kind::assignment;
    s.targets = {var};
    s.value = value;
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  const stmt* evaluate(const expr* value) {
    stmt s;
    s.kind = commscope::statement_kind::evaluation;
    s.value = value;
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  const stmt* loop(int& var, const expr* start, const expr* stop, const expr* step,
                   std::vector<const stmt*> body) {
    stmt s;
    s.kind = commscope::statement_kind::for_loop;
    s.loop_var = var;
    s.bounds = {start, stop, step};
    s.children = std::move(body);
    s.line = ++lines;
    return &statements.emplace_back(s);
  }
  int fresh() { return variables++; }
};

} // namespace minimal

/// The analysis core of traits.hpp and nothing more: no expressions(), no
/// subexpressions(), no variable key (an int is hashable), no scope readers, no rewrite.
template <>
struct commscope::ir_traits<minimal::program> {
  using program = minimal::program;
  using function = const minimal::fn*;
  using statement = const minimal::stmt*;
  using expression = const minimal::expr*;
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
  static const std::vector<int>& targets(statement s) { return s->targets; }
  static expression value(statement s) { return s->value; }
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
