// The reference IR's side of the rewrite: its nodes are immutable, so a changed function
// is rebuilt, substituting retyped views everywhere and sharing every untouched subtree,
// and the program is republished with the unchanged functions as the very same objects.
// New nodes go to an arena of the rewrite's own, which the new program holds besides the
// old program's. The rebuild keeps its own stacks: deep programs do not grow the call
// stack.
#pragma once

#include <commscope/detail/vector.hpp>
#include <commscope/device_set.hpp>
#include <commscope/reference/ir.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::reference {

class rewriter {
public:
  explicit rewriter(const program_ptr& p) : old_(p), next_id_(p->variable_bound) {}

  const window_buffer* make_window_buffer(const variable* base, const expression* size,
                                          std::string_view name) {
    return w_.make_node(window_buffer{base, size, false, false, w_.string(name)});
  }

  void retype_view(const variable* v, const window_buffer* w) {
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

  void begin_function(const function* f) {
    current_ = f;
    scopes_.clear();
  }
  void add_scope(std::string_view name, std::span<const std::int64_t> devices,
                 std::span<const window_buffer* const> slots,
                 std::span<const device_progression> progressions = {}) {
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
  /// Rebuilds the current function with views substituted and the scopes nested around
  /// its body (outermost first).
  void end_function() {
    auto* f = w_.make_node(*current_);
    detail::vec<statement_ptr> body = rebuilder(w_, *this).body(current_->body);
    const source_location at = body.empty() ? current_->where : body.front()->where;
    for (auto i = scopes_.size(); i-- > 0;) {
      auto* scope = w_.make_scope(at, body);
      scope->set_scope(scopes_[i].name, scopes_[i].devices, scopes_[i].all_devices,
                       scopes_[i].slots, scopes_[i].progressions);
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

  program_ptr finish() {
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

private:
  /// Post-order rebuild of statements and expressions with explicit stacks: a node is
  /// copied (into `w`) only when something below it changed; the rewriter's substitution
  /// gives the variable that replaces a variable (itself when none does). A plain class,
  /// not one per variable map: it is compiled in every translation unit of the pass.
  class rebuilder {
  public:
    rebuilder(node_factory& w, const rewriter& r) : w_(w), r_(r) {}

    detail::vec<statement_ptr> body(node_span<statement_ptr> in) {
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

    /// `e` with variables substituted (`e` itself when nothing in it changes). Leaves, the
    /// most common operands, directly; others post-order on an explicit stack.
    expression_ptr expression_of(expression_ptr e) {
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

  private:
    // The child slots of each node, in one order shared by the push, the comparison and
    // the replacement below; null slots are skipped by all three alike.
    template <class F> static void expression_children(const expression& e, F&& f) {
      if (auto b = e.base())
        f(b);
      for (const auto& a : e.args())
        if (a)
          f(a);
      for (const auto& k : e.keywords())
        if (k.value)
          f(k.value);
    }
    template <class F> static void statement_expressions(const statement& s, F&& f) {
      if (auto v = s.value())
        f(v);
      for (const auto& v : s.values())
        if (v)
          f(v);
      for (const auto& b : {s.start(), s.stop(), s.step()})
        if (b)
          f(b);
    }
    template <class F> static void statement_children(const statement& s, F&& f) {
      for (const auto& b : s.body())
        if (b)
          f(b);
      for (const auto& b : s.orelse())
        if (b)
          f(b);
    }
    template <class Node, class Children>
    static std::size_t count(const Node& n, Children children) {
      std::size_t k = 0;
      children(n, [&](const auto&) { ++k; });
      return k;
    }

    variable_ptr mapped(variable_ptr v) const { return v ? r_.substituted(v) : v; }

    void finish_expression(const expression& e) {
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

    void finish_statement(const statement& s) {
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

    node_factory& w_;
    const rewriter& r_;
    detail::vec<statement_ptr> done_statements_;
    detail::vec<expression_ptr> done_expressions_;
    struct expression_item {
      bool exit;
      const expression* node;
    };
    detail::vec<expression_item> expression_stack_;
  };

  struct pending_scope {
    str name;
    node_list<std::int64_t> devices;
    bool all_devices = true;
    node_list<window_buffer_ptr> slots;
    node_list<std::int64_t> progressions;
  };

  /// The position of `f` among the program's functions (their count when it is none of
  /// them), searched from just after the previous one found: the pass wraps functions in
  /// program order, so each search is a step. Positions, not a hash map from function to
  /// replacement, which would be instantiated in every translation unit of the pass.
  std::size_t position_of(const function* f) {
    const auto& fs = old_->functions;
    for (std::size_t k = 0; k < fs.size(); ++k) {
      const std::size_t i = (next_position_ + k) % fs.size();
      if (fs[i].get() == f) {
        next_position_ = i + 1;
        return i;
      }
    }
    return fs.size();
  }

  variable_ptr substituted(variable_ptr v) const {
    if (v->id < substitution_.size()) {
      const auto& slot = substitution_[v->id];
      if (slot.from == v.get())
        return slot.to;
    }
    if (collisions_.empty())
      return v;
    const std::size_t at = collision_at(v.get());
    return at < collisions_.size() && collisions_[at].from == v.get() ? collisions_[at].to : v;
  }

  /// Where `v` is, or belongs, among the collisions (sorted by address): they are rare,
  /// and a sorted array of records the rewriter has anyway costs no hash table.
  [[nodiscard]] std::size_t collision_at(const variable* v) const {
    const auto at = std::lower_bound(collisions_.begin(), collisions_.end(), v,
                                     [](const substitution& s, const variable* x) {
                                       return std::less<const variable*>{}(s.from, x);
                                     });
    return static_cast<std::size_t>(at - collisions_.begin());
  }
  void collide(const variable* v, variable_ptr nv) {
    const std::size_t at = collision_at(v);
    if (at < collisions_.size() && collisions_[at].from == v)
      collisions_[at].to = nv;
    else
      collisions_.insert(collisions_.begin() + at, substitution{v, nv});
  }

  program_ptr old_;
  std::uint32_t next_id_;
  node_factory w_;
  const function* current_ = nullptr;
  detail::vec<pending_scope> scopes_;
  struct substitution {
    const variable* from = nullptr;
    variable_ptr to;
  };
  detail::vec<substitution> substitution_; ///< indexed by the old variable's id
  detail::vec<std::uint32_t> substituted_ids_;
  /// Variables that share an id with another substituted one, sorted by address.
  detail::vec<substitution> collisions_;
  struct replacement {
    std::size_t position; ///< in the old program's functions
    function_ptr function;
  };
  detail::vec<replacement> replaced_;
  std::size_t next_position_ = 0;
};

} // namespace commscope::reference
