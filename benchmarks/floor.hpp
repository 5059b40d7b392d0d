// The floors the pass is measured against: the least work any implementation of it has
// to do on the same IR.
//
//   traverse  visits every statement, expression and variable (where it is bound) of
//             the host orchestrators once, through the same traits object the analysis
//             uses (any IR: the reference IR, the index IR), with an explicit stack, and
//             does nothing else (it folds the kinds into a checksum so the compiler
//             cannot drop the walk). An expression's operands are what the analysis
//             visits: subexpressions(e) where the traits give it, else the arguments
//             and device=, as adapter.hpp derives them.
//   rebuild   copies a function's body once, every statement and expression a new node
//             sharing the variables: what an immutable IR's rewrite does at the most,
//             without deciding anything.
#pragma once

#include <commscope/reference/ir.hpp>
#include <commscope/concepts.hpp>
#include <commscope/traits.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

namespace commscope::bench {

template <class Traits>
std::uint64_t traverse(const typename Traits::program& p, const Traits& t = Traits{}) {
  using statement = typename Traits::statement;
  using expression = typename Traits::expression;
  std::vector<statement> statements;
  std::vector<expression> expressions;
  std::uint64_t sum = 0;
  // A variable is a node too: read it once, where it is bound, as the analysis must.
  auto touch = [&](typename Traits::variable v) {
    if constexpr (numbers_variables<Traits>)
      sum += t.variable_index(v);
    else
      sum += std::hash<std::remove_cvref_t<decltype(t.variable_key(v))>>{}(t.variable_key(v));
  };
  auto walk = [&](expression root) {
    expressions.push_back(root);
    while (!expressions.empty()) {
      const expression e = expressions.back();
      expressions.pop_back();
      sum += static_cast<std::uint64_t>(t.expression_kind_of(e));
      if constexpr (requires { t.subexpressions(e); }) {
        for (auto&& sub : t.subexpressions(e))
          expressions.push_back(sub);
      } else {
        for (auto&& arg : t.arguments(e))
          expressions.push_back(arg);
        if (const auto d = t.device_of(e))
          expressions.push_back(*d);
      }
    }
  };
  for (auto&& f : t.functions(p)) {
    if (!t.describe(f).is_host_orchestrator())
      continue;
    for (auto&& s : t.body(f))
      statements.push_back(s);
    while (!statements.empty()) {
      const statement s = statements.back();
      statements.pop_back();
      const auto kind = t.statement_kind_of(s);
      sum += static_cast<std::uint64_t>(kind);
      switch (kind) {
      case statement_kind::assignment:
        for (auto&& v : t.targets(s))
          touch(v);
        walk(t.value(s));
        break;
      case statement_kind::evaluation:
        walk(t.value(s));
        break;
      case statement_kind::for_loop: {
        touch(t.loop_variable(s));
        const auto b = t.loop_bounds(s);
        walk(b.start);
        walk(b.stop);
        walk(b.step);
        break;
      }
      default:
        for (auto&& e : t.expressions(s))
          walk(e);
        break;
      }
      for (auto&& c : t.children(s))
        statements.push_back(c);
    }
  }
  return sum;
}

/// A copy of `body`: every statement and expression a fresh node, variables shared.
/// Post-order with explicit stacks, like reference::rewriter.
inline std::vector<reference::statement_ptr>
rebuild(const std::vector<reference::statement_ptr>& body) {
  using reference::expression;
  using reference::expression_ptr;
  using reference::statement;
  using reference::statement_ptr;

  auto copy_expression = [](const expression_ptr& root) {
    // Pre-order copy: each copied node's operand slots are overwritten by their copies.
    std::vector<expression_ptr*> todo;
    expression_ptr out = root;
    todo.push_back(&out);
    while (!todo.empty()) {
      expression_ptr* slot = todo.back();
      todo.pop_back();
      if (!*slot)
        continue;
      auto c = std::make_shared<expression>(**slot);
      todo.push_back(&c->base);
      for (auto& a : c->args)
        todo.push_back(&a);
      for (auto& k : c->keywords)
        todo.push_back(&k.value);
      *slot = std::move(c);
    }
    return out;
  };

  std::vector<statement_ptr> out = body;
  std::vector<statement_ptr*> todo;
  for (auto& s : out)
    todo.push_back(&s);
  while (!todo.empty()) {
    statement_ptr* slot = todo.back();
    todo.pop_back();
    auto c = std::make_shared<statement>(**slot);
    c->value = copy_expression(c->value);
    for (auto& v : c->values)
      v = copy_expression(v);
    c->start = copy_expression(c->start);
    c->stop = copy_expression(c->stop);
    c->step = copy_expression(c->step);
    for (auto& b : c->body)
      todo.push_back(&b);
    for (auto& b : c->orelse)
      todo.push_back(&b);
    *slot = std::move(c);
  }
  return out;
}

} // namespace commscope::bench
