// The one statement walk: pre-order, with enter and leave events, on an explicit stack,
// so that its depth in the call stack does not grow with the nesting of the program.
// The analysis (collect.hpp), the read-back of materialized bodies (read_back.hpp) and
// the verifier (verify.hpp) are its visitors.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/vector.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <utility>
#include <vector>

namespace commscope::detail {

/// A visitor has `bool enter(statement)`, called before a statement's children, which
/// returns whether it wants `void leave(statement)` after them. A visitor that cares which
/// children are alternatives has `bool entered_alternatives()`, asked right after enter
/// (it has just asked control_of), and `void branch(statement)`: the children of such a
/// statement are then its branches, in order, and branch tells where each begins (the
/// first too). Other visitors see the children.
template <class Adapter> class statement_walker {
  using statement = typename Adapter::statement;
  using children_range =
      decltype(std::declval<const Adapter&>().children(std::declval<statement>()));
  /// Children the walker can index (sized, with a subscript: std::vector, std::span, a
  /// random-access view): read one at a time from their parent (a cursor on the stack),
  /// never stacked all at once. A materialized body is one scope's children: stacking
  /// them would copy the whole body.
  static constexpr bool indexed_children =
      std::ranges::sized_range<children_range> && requires(const children_range& r, std::size_t k) {
    { r[k] } -> std::convertible_to<statement>;
  };
  enum class event : std::uint8_t { enter, leave, branch, children };
  struct item {
    statement s{};
    event what = event::enter;
    std::uint32_t next = 0; ///< children: the index of the next child of s
  };

public:
  /// Walks each statement of `statements` (a body) and everything nested in it.
  template <class Range, class Visitor>
  constexpr void run(const Adapter& a, Range&& statements, Visitor& v) {
    // Top-level statements are taken from the body in order; only nested ones are
    // stacked (a body is mostly flat, and stacking it would copy it).
    for (auto&& top_level : statements) {
      statement s = top_level;
      for (;;) {
        if (v.enter(s))
          stack_.emplace_back(item{s, event::leave});
        const auto first = stack_.size();
        if constexpr (requires { v.entered_alternatives(); }) {
          if (v.entered_alternatives())
            push_branches(a, s);
          else
            push_children(a, s);
        } else {
          push_children(a, s);
        }
        if (stack_.size() - first > 1) // children go on the stack last first
          std::reverse(stack_.begin() + static_cast<std::ptrdiff_t>(first), stack_.end());
        for (;;) {
          while (!stack_.empty() && stack_.back().what == event::leave) {
            const statement done = stack_.back().s;
            stack_.pop_back();
            v.leave(done);
          }
          if (stack_.empty() || stack_.back().what != event::branch)
            break;
          const statement owner = stack_.back().s;
          stack_.pop_back();
          if constexpr (requires { v.branch(owner); })
            v.branch(owner);
        }
        if (stack_.empty())
          break;
        item& top = stack_.back();
        if constexpr (indexed_children) {
          if (top.what == event::children) { // a cursor: its next child
            auto&& children = a.children(top.s);
            const std::uint32_t k = top.next++;
            if (top.next == static_cast<std::size_t>(std::ranges::size(children)))
              stack_.pop_back(); // the last child: the cursor is done
            s = children[k];
            continue;
          }
        }
        s = top.s;
        stack_.pop_back();
      }
    }
  }

private:
  constexpr void push_children(const Adapter& a, statement s) {
    auto&& children = a.children(s);
    if constexpr (indexed_children) {
      // A few children are stacked, which costs less than reading them through a cursor.
      const auto n = static_cast<std::size_t>(std::ranges::size(children));
      if (n > 16 && n <= UINT32_MAX) {
        stack_.emplace_back(item{s, event::children, 0});
        return;
      }
    }
    for (auto&& c : children)
      stack_.emplace_back(item{c, event::enter});
  }
  constexpr void push_branches(const Adapter& a, statement s) {
    if constexpr (Adapter::has_control_flow) {
      for (auto&& b : a.branches(s)) {
        stack_.emplace_back(item{s, event::branch});
        for (auto&& c : b)
          stack_.emplace_back(item{c, event::enter});
      }
    }
  }

  vec<item> stack_;
};

/// Calls `visit` on every node of e's operand trees (e excluded), in pre-order, on an
/// explicit stack (`stack`, a vector of expressions, left as it was found). Operands for
/// which `wanted` is false are neither visited nor descended into: the caller's leaves.
template <class Adapter, class Stack, class Wanted, class Visit>
constexpr void for_each_operand_preorder(const Adapter& a, typename Adapter::expression e,
                                         Stack& stack, Wanted&& wanted, Visit&& visit) {
  const auto base = stack.size();
  for (;;) {
    const auto mark = stack.size();
    for_each_in<typename Adapter::expression>(a.subexpressions(e),
                                              [&](typename Adapter::expression sub) {
                                                if (wanted(sub))
                                                  stack.emplace_back(sub);
                                              });
    if (stack.size() - mark > 1) // operands go on the stack last first
      std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
    if (stack.size() == base)
      return;
    e = stack.back();
    stack.pop_back();
    visit(e);
  }
}

} // namespace commscope::detail
