// The reference IR's side of the rewrite: its nodes are immutable, so a changed function
// is rebuilt, substituting retyped views everywhere and sharing every untouched subtree,
// and the program is republished with the unchanged functions as the very same objects.
// The rebuild keeps its own stacks: deep programs do not grow the call stack.
#pragma once

#include <commscope/reference/ir.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace commscope::reference {

class rewriter {
public:
  explicit rewriter(const program_ptr& p) : old_(p), next_id_(p->variable_bound) {}

  const window_buffer* make_window_buffer(const variable* base, const expression* size,
                                          std::string_view name) {
    auto w = std::make_shared<window_buffer>();
    w->base = base->shared_from_this();
    w->size = size->shared_from_this();
    w->name = std::string(name);
    buffers_.push_back(w);
    return w.get();
  }

  void retype_view(const variable* v, const window_buffer* w) {
    auto t = std::make_shared<type>(v->var_type ? *v->var_type : type{});
    t->window = w->shared_from_this();
    auto nv = std::make_shared<variable>();
    nv->id = next_id_++;
    nv->name = v->name;
    nv->var_type = std::move(t);
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
      slot = {v, std::move(nv)};
    } else {
      collisions_[v] = std::move(nv);
    }
  }

  void begin_function(const function* f) {
    current_ = f;
    scopes_.clear();
  }
  void add_scope(std::string_view name, std::span<const std::int64_t> devices,
                 std::span<const window_buffer* const> slots) {
    auto s = std::make_shared<statement>();
    s->what = statement::kind::scope;
    s->scope_name = std::string(name);
    s->all_devices = devices.empty();
    s->devices.assign(devices.begin(), devices.end());
    for (auto w : slots)
      s->slots.push_back(w->shared_from_this());
    scopes_.push_back(std::move(s));
  }
  /// Rebuilds the current function with views substituted and the scopes nested around
  /// its body (outermost first).
  void end_function() {
    auto f = std::make_shared<function>(*current_);
    f->body = rebuild(current_->body);
    const source_location at = f->body.empty() ? current_->where : f->body.front()->where;
    std::vector<statement_ptr> inner = std::move(f->body);
    for (auto i = scopes_.size(); i-- > 0;) {
      scopes_[i]->where = at;
      scopes_[i]->body = std::move(inner);
      inner = {scopes_[i]};
    }
    f->body = std::move(inner);
    replaced_[current_] = std::move(f);
    for (auto id : substituted_ids_)
      substitution_[id] = {};
    substituted_ids_.clear();
    collisions_.clear();
    current_ = nullptr;
  }

  program_ptr finish() {
    if (replaced_.empty())
      return old_;
    auto p = std::make_shared<program>(*old_);
    for (auto& fn : p->functions)
      if (auto it = replaced_.find(fn.get()); it != replaced_.end())
        fn = it->second;
    p->variable_bound = next_id_;
    return p;
  }

private:
  /// Post-order rebuild over both statements and expressions with explicit stacks; a
  /// node is copied only when something below it changed.
  std::vector<statement_ptr> rebuild(const std::vector<statement_ptr>& body) {
    enum class tag : std::uint8_t { statement_enter, statement_exit, expression_enter,
                                    expression_exit };
    struct item {
      tag t;
      const void* node; // const statement_ptr* or const expression_ptr*
    };
    std::vector<item> stack;
    std::vector<statement_ptr> done_statements;
    std::vector<expression_ptr> done_expressions;
    for (auto i = body.size(); i-- > 0;)
      stack.push_back({tag::statement_enter, &body[i]});

    auto push_expression = [&](const expression_ptr& e) {
      if (e)
        stack.push_back({tag::expression_enter, &e});
    };
    // Children are pushed in reverse so that they complete in order; results are then
    // popped from the done stacks in reverse.
    while (!stack.empty()) {
      const item it = stack.back();
      stack.pop_back();
      switch (it.t) {
      case tag::statement_enter: {
        const auto& s = *static_cast<const statement_ptr*>(it.node);
        stack.push_back({tag::statement_exit, it.node});
        for (auto i = s->orelse.size(); i-- > 0;)
          stack.push_back({tag::statement_enter, &s->orelse[i]});
        for (auto i = s->body.size(); i-- > 0;)
          stack.push_back({tag::statement_enter, &s->body[i]});
        push_expression(s->step);
        push_expression(s->stop);
        push_expression(s->start);
        for (auto i = s->values.size(); i-- > 0;)
          push_expression(s->values[i]);
        push_expression(s->value);
        break;
      }
      case tag::statement_exit: {
        const auto& s = *static_cast<const statement_ptr*>(it.node);
        done_statements.push_back(finish_statement(s, done_statements, done_expressions));
        break;
      }
      case tag::expression_enter: {
        const auto& e = *static_cast<const expression_ptr*>(it.node);
        stack.push_back({tag::expression_exit, it.node});
        for (auto i = e->keywords.size(); i-- > 0;)
          push_expression(e->keywords[i].value);
        for (auto i = e->args.size(); i-- > 0;)
          push_expression(e->args[i]);
        push_expression(e->base);
        break;
      }
      case tag::expression_exit: {
        const auto& e = *static_cast<const expression_ptr*>(it.node);
        done_expressions.push_back(finish_expression(e, done_expressions));
        break;
      }
      }
    }
    return done_statements;
  }

  variable_ptr substituted(const variable_ptr& v) const {
    if (!v)
      return v;
    if (v->id < substitution_.size()) {
      const auto& slot = substitution_[v->id];
      if (slot.from == v.get())
        return slot.to;
    }
    if (collisions_.empty())
      return v;
    auto it = collisions_.find(v.get());
    return it == collisions_.end() ? v : it->second;
  }

  /// Pops the results of e's children (pushed in the order base, args, keywords).
  expression_ptr finish_expression(const expression_ptr& e, std::vector<expression_ptr>& done) {
    const std::size_t n = (e->base ? 1 : 0) + e->args.size() + e->keywords.size();
    const std::size_t from = done.size() - n;
    bool changed = false;
    std::size_t k = from;
    if (e->base)
      changed |= done[k++] != e->base;
    for (const auto& a : e->args)
      changed |= done[k++] != a;
    for (const auto& kw : e->keywords)
      changed |= done[k++] != kw.value;
    const variable_ptr v = substituted(e->var);
    changed |= v != e->var;
    if (!changed) {
      done.resize(from);
      return e;
    }
    auto c = std::make_shared<expression>(*e);
    k = from;
    if (c->base)
      c->base = done[k++];
    for (auto& a : c->args)
      a = done[k++];
    for (auto& kw : c->keywords)
      kw.value = done[k++];
    c->var = v;
    done.resize(from);
    return c;
  }

  statement_ptr finish_statement(const statement_ptr& s, std::vector<statement_ptr>& stmts,
                                 std::vector<expression_ptr>& exprs) {
    const std::size_t ns = s->body.size() + s->orelse.size();
    const std::size_t ne = (s->value ? 1 : 0) + s->values.size() + (s->start ? 1 : 0) +
                           (s->stop ? 1 : 0) + (s->step ? 1 : 0);
    const std::size_t sf = stmts.size() - ns, ef = exprs.size() - ne;
    bool changed = false;
    std::size_t k = sf;
    for (const auto& b : s->body)
      changed |= stmts[k++] != b;
    for (const auto& b : s->orelse)
      changed |= stmts[k++] != b;
    k = ef;
    if (s->value)
      changed |= exprs[k++] != s->value;
    for (const auto& v : s->values)
      changed |= exprs[k++] != v;
    for (const auto* p : {&s->start, &s->stop, &s->step})
      if (*p)
        changed |= exprs[k++] != *p;
    for (const auto& t : s->targets)
      changed |= substituted(t) != t;
    changed |= substituted(s->loop_var) != s->loop_var;
    if (!changed) {
      stmts.resize(sf);
      exprs.resize(ef);
      return s;
    }
    auto c = std::make_shared<statement>(*s);
    k = sf;
    for (auto& b : c->body)
      b = stmts[k++];
    for (auto& b : c->orelse)
      b = stmts[k++];
    k = ef;
    if (c->value)
      c->value = exprs[k++];
    for (auto& v : c->values)
      v = exprs[k++];
    for (auto* p : {&c->start, &c->stop, &c->step})
      if (*p)
        *p = exprs[k++];
    for (auto& t : c->targets)
      t = substituted(t);
    c->loop_var = substituted(c->loop_var);
    stmts.resize(sf);
    exprs.resize(ef);
    return c;
  }

  program_ptr old_;
  std::uint32_t next_id_;
  const function* current_ = nullptr;
  std::vector<window_buffer_ptr> buffers_;
  std::vector<std::shared_ptr<statement>> scopes_;
  struct substitution {
    const variable* from = nullptr;
    variable_ptr to;
  };
  std::vector<substitution> substitution_; ///< indexed by the old variable's id
  std::vector<std::uint32_t> substituted_ids_;
  std::unordered_map<const variable*, variable_ptr> collisions_;
  std::unordered_map<const function*, function_ptr> replaced_;
};

} // namespace commscope::reference
