// The definitions of the reference IR's rewriter (rewrite.hpp). Included by rewrite.hpp
// in the header-only build; with COMMSCOPE_SEPARATE_COMPILATION, compiled once in the
// separately compiled core (separate_compilation.hpp) instead of in every translation
// unit that rewrites the reference IR.
#pragma once

#include <commscope/reference/rewrite.hpp>

namespace commscope::reference {

COMMSCOPE_DECL void rewriter::retype_view(const variable* v, const window_buffer* w) {
  type t = v->var_type ? *v->var_type : type{};
  t.window = w;
  const variable_ptr nv = w_.make_binding(next_id_++, *v, w_.make_node(t));
  // Variables carry dense ids: the substitution is an array indexed by them, not a
  // hash map (it is looked up at every variable use of the rebuilt body). The old
  // pointer is kept to tell apart two variables that share an id, should an IR
  // builder have numbered carelessly; those go to the map.
  if (v->id >= substitution_.size())
    substitution_.resize(std::max<std::size_t>(v->id + 1, old_->variable_bound));
  auto& slot = substitution_[v->id];
  if (slot.from == nullptr || slot.from == v) {
    if (slot.from == nullptr)
      substituted_ids_.push_back(v->id);
    slot = {v, nv};
  } else {
    collide(v, nv);
  }
}

COMMSCOPE_DECL void rewriter::add_scope(std::string_view name,
                                        std::span<const std::int64_t> devices,
                                        std::span<const window_buffer* const> slots,
                                        std::span<const device_progression> progressions) {
  pending_scope s;
  s.name = w_.string(name);
  s.devices = w_.list(devices);
  s.all_devices = devices.empty() && progressions.empty();
  if (!progressions.empty()) { // the common scope has none: no buffer for it
    detail::vec<std::int64_t> triples;
    triples.reserve(3 * progressions.size());
    for (const auto& p : progressions)
      for (const std::int64_t x : {p.start, p.step, p.stop_offset})
        triples.push_back(x);
    s.progressions = w_.list(triples);
  }
  detail::vec<window_buffer_ptr> ws(slots.begin(), slots.end());
  s.slots = w_.list(ws);
  scopes_.push_back(s);
}

COMMSCOPE_DECL void rewriter::end_function() {
  auto* f = w_.make_node(*current_);
  detail::vec<statement_ptr> body = rebuilder(w_, *this).body(current_->body);
  const source_location at = body.empty() ? current_->where : body.front()->where;
  for (auto i = scopes_.size(); i-- > 0;) {
    auto* scope = w_.make_scope(at, body);
    scope->set_scope(scopes_[i].name, scopes_[i].devices, scopes_[i].all_devices, scopes_[i].slots,
                     scopes_[i].progressions);
    body.assign(1, scope);
  }
  f->body = w_.list(body);
  replaced_.push_back({position_of(current_), f});
  for (auto id : substituted_ids_)
    substitution_[id] = {};
  substituted_ids_.clear();
  collisions_.clear();
  current_ = nullptr;
}

COMMSCOPE_DECL program_ptr rewriter::finish() {
  if (replaced_.empty())
    return old_;
  auto p = std::make_shared<program>(*old_);
  for (const auto& r : replaced_) // in call order: of a function wrapped twice, the last wins
    if (r.position < p->functions.size())
      p->functions[r.position] = r.function;
  p->variable_bound = next_id_;
  p->arenas.push_back(w_.arena());
  return p;
}

COMMSCOPE_DECL detail::vec<statement_ptr> rewriter::rebuilder::body(node_span<statement_ptr> in) {
  struct item {
    bool exit;
    const statement* node;
  };
  detail::vec<item> stack;
  done_statements_.clear();
  for (auto i = in.size(); i-- > 0;)
    stack.push_back({false, in[i].get()});
  // Children are pushed in reverse, so that they complete in order; their results are
  // then taken from the done stack in that order. A statement's expressions are
  // rebuilt when it completes.
  while (!stack.empty()) {
    const item it = stack.back();
    stack.pop_back();
    if (it.exit) {
      finish_statement(*it.node);
      continue;
    }
    stack.push_back({true, it.node});
    const auto body = it.node->body();
    const auto orelse = it.node->orelse();
    for (auto c = orelse.size(); c-- > 0;)
      if (orelse[c])
        stack.push_back({false, orelse[c].get()});
    for (auto c = body.size(); c-- > 0;)
      if (body[c])
        stack.push_back({false, body[c].get()});
  }
  return std::move(done_statements_);
}

COMMSCOPE_DECL expression_ptr rewriter::rebuilder::expression_of(expression_ptr e) {
  if (!e->has_operands()) {
    const variable_ptr v = e->var();
    if (!v)
      return e;
    const variable_ptr m = r_.substituted(v);
    if (m == v)
      return e;
    expression* c = w_.clone(*e);
    c->set_var(m);
    return c;
  }
  auto& stack = expression_stack_;
  auto& done = done_expressions_;
  const std::size_t base = done.size();
  stack.clear();
  stack.push_back({false, e.get()});
  while (!stack.empty()) {
    const expression_item it = stack.back();
    stack.pop_back();
    if (it.exit) {
      finish_expression(*it.node);
      continue;
    }
    if (!it.node->has_operands()) {
      done.push_back(expression_of(it.node)); // a leaf: no recursion
      continue;
    }
    stack.push_back({true, it.node});
    const auto mark = static_cast<std::ptrdiff_t>(stack.size());
    expression_children(*it.node, [&](expression_ptr c) { stack.push_back({false, c.get()}); });
    std::reverse(stack.begin() + mark, stack.end());
  }
  const expression_ptr r = done.back();
  done.resize(base);
  return r;
}

COMMSCOPE_DECL void rewriter::rebuilder::finish_expression(const expression& e) {
  auto& done = done_expressions_;
  const auto children = [](const expression& n, auto&& f) { expression_children(n, f); };
  const std::size_t from = done.size() - count(e, children);
  const variable_ptr old_var = e.var();
  const variable_ptr v = mapped(old_var);
  bool changed = v != old_var;
  std::size_t k = from;
  expression_children(e, [&](expression_ptr c) { changed |= done[k++] != c; });
  if (!changed) {
    done.resize(from);
    done.push_back(&e);
    return;
  }
  expression* c = w_.clone(e);
  k = from;
  if (c->base())
    c->set_base(done[k++]);
  for (auto& a : c->mutable_args())
    if (a)
      a = done[k++];
  for (auto& kw : c->mutable_keywords())
    if (kw.value)
      kw.value = done[k++];
  if (old_var)
    c->set_var(v);
  done.resize(from);
  done.push_back(c);
}

COMMSCOPE_DECL void rewriter::rebuilder::finish_statement(const statement& s) {
  auto& stmts = done_statements_;
  auto& exprs = done_expressions_;
  const auto children = [](const statement& n, auto&& f) { statement_children(n, f); };
  const std::size_t sf = stmts.size() - count(s, children);
  const std::size_t ef = exprs.size();
  statement_expressions(s, [&](expression_ptr e) {
    const expression_ptr r = expression_of(e);
    exprs.push_back(r);
  });
  bool changed = mapped(s.loop_var()) != s.loop_var();
  for (const auto& t : s.targets())
    changed = changed || mapped(t) != t;
  std::size_t k = sf;
  statement_children(s, [&](statement_ptr c) { changed |= stmts[k++] != c; });
  k = ef;
  statement_expressions(s, [&](expression_ptr e) { changed |= exprs[k++] != e; });
  if (!changed) {
    stmts.resize(sf);
    exprs.resize(ef);
    stmts.push_back(&s);
    return;
  }
  statement* c = w_.clone(s);
  // Expressions, in statement_expressions' order.
  k = ef;
  if (s.value())
    c->set_value(exprs[k++]);
  // A changed list is copied into the arena and rewritten there, before it is
  // published: no array in between.
  if (!s.values().empty()) {
    const node_list<expression_ptr> values = w_.list(s.values());
    for (auto *v = values.mutable_data(), *end = v + values.size(); v != end; ++v)
      if (*v)
        *v = exprs[k++];
    c->set_values(values);
  }
  if (s.what == statement::kind::for_loop) {
    expression_ptr b[3] = {s.start(), s.stop(), s.step()};
    for (auto& x : b)
      if (x)
        x = exprs[k++];
    c->set_loop(mapped(s.loop_var()), b[0], b[1], b[2]);
  }
  // Children.
  k = sf;
  const auto replaced = [&](node_span<statement_ptr> in) {
    const node_list<statement_ptr> out = w_.list(in);
    for (auto *x = out.mutable_data(), *end = x + out.size(); x != end; ++x)
      if (*x)
        *x = stmts[k++];
    return out;
  };
  if (!s.body().empty())
    c->set_body(replaced(s.body()));
  if (!s.orelse().empty())
    c->set_orelse(replaced(s.orelse()));
  // Targets: inline in an assignment (the copy's own), a shared list otherwise.
  if (s.what == statement::kind::assign) {
    for (auto& t : c->mutable_targets())
      t = mapped(t);
  } else if (!s.targets().empty()) {
    const node_list<variable_ptr> targets = w_.list(s.targets());
    for (auto *t = targets.mutable_data(), *end = t + targets.size(); t != end; ++t)
      *t = mapped(*t);
    c->set_targets(targets);
  }
  stmts.resize(sf);
  exprs.resize(ef);
  stmts.push_back(c);
}

COMMSCOPE_DECL void rewriter::collide(const variable* v, variable_ptr nv) {
  const std::size_t at = collision_at(v);
  if (at < collisions_.size() && collisions_[at].from == v)
    collisions_[at].to = nv;
  else
    collisions_.insert(collisions_.begin() + at, substitution{v, nv});
}
} // namespace commscope::reference
