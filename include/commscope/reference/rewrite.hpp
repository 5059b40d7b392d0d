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
  // The child slots of each node, in one order shared by the push, the comparison and
  // the replacement below; null slots are skipped by all three alike.
  template <class E, class F>
  static void expression_slots(E& e, F&& f) {
    if (e.base)
      f(e.base);
    for (auto& a : e.args)
      if (a)
        f(a);
    for (auto& k : e.keywords)
      if (k.value)
        f(k.value);
  }
  template <class S, class F>
  static void statement_expression_slots(S& s, F&& f) {
    if (s.value)
      f(s.value);
    for (auto& v : s.values)
      if (v)
        f(v);
    for (auto* p : {&s.start, &s.stop, &s.step})
      if (*p)
        f(*p);
  }
  template <class S, class F>
  static void statement_slots(S& s, F&& f) {
    for (auto& b : s.body)
      if (b)
        f(b);
    for (auto& b : s.orelse)
      if (b)
        f(b);
  }

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

    const auto push_expression = [&](const expression_ptr& e) {
      stack.push_back({tag::expression_enter, &e});
    };
    const auto push_statement = [&](const statement_ptr& s) {
      stack.push_back({tag::statement_enter, &s});
    };
    // Children are pushed in order and the run reversed, so that they complete in order;
    // their results are then taken from the done stacks in that order.
    while (!stack.empty()) {
      const item it = stack.back();
      stack.pop_back();
      switch (it.t) {
      case tag::statement_enter: {
        const auto& s = *static_cast<const statement_ptr*>(it.node);
        stack.push_back({tag::statement_exit, it.node});
        const auto mark = static_cast<std::ptrdiff_t>(stack.size());
        statement_expression_slots(*s, push_expression);
        statement_slots(*s, push_statement);
        std::reverse(stack.begin() + mark, stack.end());
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
        const auto mark = static_cast<std::ptrdiff_t>(stack.size());
        expression_slots(*e, push_expression);
        std::reverse(stack.begin() + mark, stack.end());
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

  /// Whether the results of a node's children, starting at done[from], differ from them.
  template <class Node, class Slots, class Ptr>
  static bool children_changed(const Node& n, Slots slots, const std::vector<Ptr>& done,
                               std::size_t from) {
    bool changed = false;
    slots(n, [&](const Ptr& child) { changed |= done[from++] != child; });
    return changed;
  }
  /// Puts the results of a copied node's children, starting at done[from], in place.
  template <class Node, class Slots, class Ptr>
  static void replace_children(Node& n, Slots slots, const std::vector<Ptr>& done,
                               std::size_t from) {
    slots(n, [&](Ptr& child) { child = done[from++]; });
  }
  template <class Node, class Slots>
  static std::size_t count_children(const Node& n, Slots slots) {
    std::size_t k = 0;
    slots(n, [&](const auto&) { ++k; });
    return k;
  }

  expression_ptr finish_expression(const expression_ptr& e, std::vector<expression_ptr>& done) {
    const auto slots = [](auto& n, auto&& f) { expression_slots(n, f); };
    const std::size_t from = done.size() - count_children(*e, slots);
    const variable_ptr v = substituted(e->var);
    if (v == e->var && !children_changed(*e, slots, done, from)) {
      done.resize(from);
      return e;
    }
    auto c = std::make_shared<expression>(*e);
    replace_children(*c, slots, done, from);
    c->var = v;
    done.resize(from);
    return c;
  }

  statement_ptr finish_statement(const statement_ptr& s, std::vector<statement_ptr>& stmts,
                                 std::vector<expression_ptr>& exprs) {
    const auto statements = [](auto& n, auto&& f) { statement_slots(n, f); };
    const auto expressions = [](auto& n, auto&& f) { statement_expression_slots(n, f); };
    const std::size_t sf = stmts.size() - count_children(*s, statements);
    const std::size_t ef = exprs.size() - count_children(*s, expressions);
    bool changed = children_changed(*s, statements, stmts, sf) ||
                   children_changed(*s, expressions, exprs, ef) ||
                   substituted(s->loop_var) != s->loop_var;
    for (const auto& t : s->targets)
      changed = changed || substituted(t) != t;
    if (!changed) {
      stmts.resize(sf);
      exprs.resize(ef);
      return s;
    }
    auto c = std::make_shared<statement>(*s);
    replace_children(*c, statements, stmts, sf);
    replace_children(*c, expressions, exprs, ef);
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
