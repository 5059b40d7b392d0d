// The reference IR's side of the rewrite: its nodes are immutable, so a changed function
// is rebuilt, substituting retyped views everywhere and sharing every untouched subtree,
// and the program is republished with the unchanged functions as the very same objects.
// New nodes go to an arena of the rewrite's own, which the new program holds besides the
// old program's. The rebuild keeps its own stacks: deep programs do not grow the call
// stack.
#pragma once

#include <commscope/detail/compiled.hpp>
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

  void retype_view(const variable* v, const window_buffer* w);

  void begin_function(const function* f) {
    current_ = f;
    scopes_.clear();
  }
  void add_scope(std::string_view name, std::span<const std::int64_t> devices,
                 std::span<const window_buffer* const> slots,
                 std::span<const device_progression> progressions = {});
  /// Rebuilds the current function with views substituted and the scopes nested around
  /// its body (outermost first).
  void end_function();

  program_ptr finish();

private:
  /// Post-order rebuild of statements and expressions with explicit stacks: a node is
  /// copied (into `w`) only when something below it changed; the rewriter's substitution
  /// gives the variable that replaces a variable (itself when none does). A plain class,
  /// not one per variable map, defined in impl/rewrite.hpp: with the separately compiled
  /// core it is compiled there, once.
  class rebuilder {
  public:
    rebuilder(node_factory& w, const rewriter& r) : w_(w), r_(r) {}

    detail::vec<statement_ptr> body(node_span<statement_ptr> in);

    /// `e` with variables substituted (`e` itself when nothing in it changes). Leaves, the
    /// most common operands, directly; others post-order on an explicit stack.
    expression_ptr expression_of(expression_ptr e);

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

    void finish_expression(const expression& e);

    void finish_statement(const statement& s);

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
  void collide(const variable* v, variable_ptr nv);

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

#if !defined(COMMSCOPE_SEPARATE_COMPILATION)
#include <commscope/reference/impl/rewrite.hpp>
#endif
