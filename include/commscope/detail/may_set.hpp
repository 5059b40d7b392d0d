// May-sets of small indices (the views a variable may hold where several bindings reach a
// use: docs/semantics.md, "Rebinding and control flow"). A set is a 32-bit handle: empty,
// one index inline, or a sorted run in a pool. Straight-line code only ever makes the
// first two, so a pool is touched only where bindings actually merge.
#pragma once

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/plan.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace commscope::detail {

class may_sets {

public:
  using handle = std::uint32_t;
  static constexpr handle empty = no_index;
  /// A handle below this is the one element it holds; at or above, a pooled run.
  static constexpr handle pooled = handle{1} << 31;

  constexpr void clear() {
    items_.clear();
    starts_.clear();
  }

  /// The elements of one set, ascending, as a range (valid while the set's pool is
  /// unchanged, and while this object lives: one element is held inline).
  class elements {
  public:
    constexpr elements(std::uint32_t one, const std::uint32_t* b, const std::uint32_t* e)
        : one_(one), b_(b), e_(e) {}
    [[nodiscard]] constexpr const std::uint32_t* begin() const { return b_ ? b_ : &one_; }
    [[nodiscard]] constexpr const std::uint32_t* end() const {
      return b_ ? e_ : &one_ + (one_ == empty ? 0 : 1);
    }

  private:
    std::uint32_t one_;
    const std::uint32_t* b_;
    const std::uint32_t* e_;
  };
  [[nodiscard]] constexpr elements of(handle h) const {
    if (h < pooled || h == empty)
      return {h, nullptr, nullptr};
    const auto k = h - pooled;
    return {empty, items_.data() + starts_[k], items_.data() + starts_[k + 1]};
  }

  /// Calls f(index) for every element, ascending.
  template <class F> constexpr void for_each(handle h, F&& f) const {
    for (const auto i : of(h))
      f(i);
  }

  /// a ∪ b, sharing a or b when the union is one of them.
  [[nodiscard]] constexpr handle unite(handle a, handle b) {
    if (a == b || b == empty)
      return a;
    if (a == empty)
      return b;
    COMMSCOPE_RUN_COMPILED(unite(*this, a, b));
    return unite_impl(a, b);
  }

private:
  friend struct compiled;
  [[nodiscard, gnu::noinline]] constexpr handle unite_impl(handle a, handle b) {
    if (starts_.empty())
      starts_.emplace_back(0);
    const auto mark = static_cast<std::uint32_t>(items_.size());
    // Both runs are read by index: the appends below may move the pool.
    const auto [a0, a1] = run(a);
    const auto [b0, b1] = run(b);
    auto i = a0, j = b0;
    while (i < a1 || j < b1) {
      const std::uint32_t x = i < a1 ? at(a, i) : no_index;
      const std::uint32_t y = j < b1 ? at(b, j) : no_index;
      const std::uint32_t next = x < y ? x : y;
      if (x == next)
        ++i;
      if (y == next)
        ++j;
      items_.emplace_back(next);
    }
    const auto n = static_cast<std::uint32_t>(items_.size()) - mark;
    if (n == a1 - a0 || n == b1 - b0) { // one contains the other
      items_.resize(mark);
      return n == a1 - a0 ? a : b;
    }
    starts_.emplace_back(static_cast<std::uint32_t>(items_.size()));
    return pooled + static_cast<handle>(starts_.size() - 2);
  }

  struct span_of {
    std::uint32_t begin, end;
  };
  /// Positions of h's elements: [0, 1) for an inline one, else its run in the pool.
  [[nodiscard]] constexpr span_of run(handle h) const {
    if (h < pooled)
      return {0, 1};
    const auto k = h - pooled;
    return {starts_[k], starts_[k + 1]};
  }
  [[nodiscard]] constexpr std::uint32_t at(handle h, std::uint32_t i) const {
    return h < pooled ? h : items_[i];
  }

  vec<std::uint32_t> items_;
  vec<std::uint32_t> starts_; ///< run k is items_[starts_[k], starts_[k + 1])
};

} // namespace commscope::detail
