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
    if constexpr (provides<Traits, contract::variable_index>)
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

/// A copy of a body (its nodes in an arena of its own) and the arena.
struct rebuilt {
  std::vector<reference::statement_ptr> body;
  std::shared_ptr<reference::node_arena> arena;
  [[nodiscard]] const reference::statement_ptr* data() const { return body.data(); }
};

/// A copy of `body`: every statement and expression a fresh node, variables shared.
/// Pre-order with explicit stacks, like reference::rewriter.
inline rebuilt rebuild(reference::node_span<reference::statement_ptr> body) {
  using reference::expression;
  using reference::expression_ptr;
  using reference::statement;
  using reference::statement_ptr;
  reference::node_factory w;

  auto copy_expression = [&](expression_ptr root) -> expression_ptr {
    if (!root)
      return root;
    // Each copied node's operand slots are overwritten by their copies.
    expression* top = w.clone(*root);
    std::vector<expression*> todo{top};
    while (!todo.empty()) {
      expression* c = todo.back();
      todo.pop_back();
      if (const auto b = c->base()) {
        expression* nb = w.clone(*b);
        c->set_base(nb);
        todo.push_back(nb);
      }
      for (auto& a : c->mutable_args())
        if (a) {
          expression* na = w.clone(*a);
          a = na;
          todo.push_back(na);
        }
      for (auto& k : c->mutable_keywords())
        if (k.value) {
          expression* nv = w.clone(*k.value);
          k.value = nv;
          todo.push_back(nv);
        }
    }
    return top;
  };

  rebuilt out;
  std::vector<statement*> todo;
  for (const auto& s : body) {
    statement* c = w.clone(*s);
    out.body.push_back(c);
    todo.push_back(c);
  }
  std::vector<statement_ptr> children;
  while (!todo.empty()) {
    statement* c = todo.back();
    todo.pop_back();
    c->set_value(copy_expression(c->value()));
    if (!c->values().empty()) {
      std::vector<expression_ptr> values;
      for (const auto& v : c->values())
        values.push_back(copy_expression(v));
      c->set_values(w.list(values));
    }
    if (c->what == statement::kind::for_loop)
      c->set_loop(c->loop_var(), copy_expression(c->start()), copy_expression(c->stop()),
                  copy_expression(c->step()));
    for (const bool orelse : {false, true}) {
      const auto in = orelse ? c->orelse() : c->body();
      if (in.empty())
        continue;
      children.clear();
      for (const auto& b : in) {
        statement* nb = w.clone(*b);
        children.push_back(nb);
        todo.push_back(nb);
      }
      if (orelse)
        c->set_orelse(w.list(children));
      else
        c->set_body(w.list(children));
    }
  }
  out.arena = w.arena();
  return out;
}

} // namespace commscope::bench
