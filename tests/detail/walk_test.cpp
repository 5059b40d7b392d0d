// detail::statement_walker, the one statement walk: its events in pre-order, whatever
// kind of range an adapter gives for a statement's children. Children it can index are
// read one at a time from their parent; others are stacked; a statement's children may
// also be alternatives (branches). The order must be the same in every case.
#include <commscope/detail/walk.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <iterator>
#include <ranges>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

/// A tree of statements 0..n-1; 0 is not walked (the body's owner). kids[s] are s's
/// children; a statement whose branch_size is not 0 has them as branches of that many.
struct tree {
  std::vector<std::vector<int>> kids;
  std::vector<int> branch_size; ///< 0: plain children
};

/// Children as a contiguous, subscripted range.
struct span_adapter {
  using statement = int;
  static constexpr bool has_control_flow = true;
  const tree* t;
  std::span<const int> children(int s) const { return t->kids[static_cast<std::size_t>(s)]; }
  std::vector<std::span<const int>> branches(int s) const {
    const auto all = children(s);
    const auto size = static_cast<std::size_t>(t->branch_size[static_cast<std::size_t>(s)]);
    std::vector<std::span<const int>> out;
    for (std::size_t k = 0; k < all.size(); k += size)
      out.push_back(all.subspan(k, size));
    return out;
  }
};

/// Children as a sized range that only goes forward: the walker cannot index it.
class forward_children {
public:
  class iterator {
  public:
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(const int* p) : p_(p) {}
    int operator*() const { return *p_; }
    iterator& operator++() {
      ++p_;
      return *this;
    }
    iterator operator++(int) {
      auto old = *this;
      ++p_;
      return old;
    }
    friend bool operator==(const iterator& x, const iterator& y) { return x.p_ == y.p_; }

  private:
    const int* p_ = nullptr;
  };
  explicit forward_children(std::span<const int> s) : s_(s) {}
  [[nodiscard]] iterator begin() const { return iterator(s_.data()); }
  [[nodiscard]] iterator end() const { return iterator(s_.data() + s_.size()); }
  [[nodiscard]] std::size_t size() const { return s_.size(); }

private:
  std::span<const int> s_;
};
static_assert(std::ranges::forward_range<forward_children> &&
              std::ranges::sized_range<forward_children> &&
              !std::ranges::random_access_range<forward_children>);

struct forward_adapter : span_adapter {
  forward_children children(int s) const { return forward_children(span_adapter::children(s)); }
};

/// Records the events as text: "e3" enter, "l3" leave, "b3" a branch of 3 begins.
template <class Adapter> struct recorder {
  const Adapter* a;
  std::vector<std::string> events;
  bool alternatives = false;
  bool enter(int s) {
    events.push_back("e" + std::to_string(s));
    alternatives = a->t->branch_size[static_cast<std::size_t>(s)] > 0;
    return !a->t->kids[static_cast<std::size_t>(s)].empty();
  }
  [[nodiscard]] bool entered_alternatives() const { return alternatives; }
  void branch(int s) { events.push_back("b" + std::to_string(s)); }
  void leave(int s) { events.push_back("l" + std::to_string(s)); }
};

/// The events a walk must give, by recursion (the trees here are small).
void expected(const tree& t, int s, std::vector<std::string>& out) {
  const auto& kids = t.kids[static_cast<std::size_t>(s)];
  out.push_back("e" + std::to_string(s));
  const auto size = static_cast<std::size_t>(t.branch_size[static_cast<std::size_t>(s)]);
  for (std::size_t k = 0; k < kids.size(); ++k) {
    if (size > 0 && k % size == 0)
      out.push_back("b" + std::to_string(s));
    expected(t, kids[k], out);
  }
  if (!kids.empty())
    out.push_back("l" + std::to_string(s));
}

template <class Adapter> std::vector<std::string> walked(const tree& t) {
  const Adapter a{{&t}};
  recorder<Adapter> r{&a, {}};
  commscope::detail::statement_walker<Adapter> w;
  w.run(a, a.children(0), r);
  return r.events;
}

/// Statement 0's children are the body: a wide block (1), an if with two branches (2),
/// a block of one (3); the wide block holds nested blocks, one of them wide too.
tree sample(int width) {
  tree t;
  auto add = [&](std::vector<int> kids, int branch = 0) {
    t.kids.push_back(std::move(kids));
    t.branch_size.push_back(branch);
    return static_cast<int>(t.kids.size()) - 1;
  };
  add({});    // 0: the function, filled below
  add({});    // 1: the wide block
  add({}, 2); // 2: if/else, branches of 2
  add({});    // 3: a block of one
  for (int i = 0; i < width; ++i) {
    const int leaf = add({});
    if (i % 7 == 3) { // a nested block around the leaf, with a wide block inside
      std::vector<int> inner;
      for (int j = 0; j < 5; ++j)
        inner.push_back(add({}));
      const int nested = add(std::move(inner));
      const int block = add({leaf, nested}); // before t.kids[1] is read: add may move it
      t.kids[1].push_back(block);
    } else {
      t.kids[1].push_back(leaf);
    }
  }
  for (int i = 0; i < 4; ++i) {
    const int branch_statement = add({});
    t.kids[2].push_back(branch_statement);
  }
  const int only = add({});
  t.kids[3].push_back(only);
  const int last = add({});
  t.kids[0] = {1, 2, 3, last};
  return t;
}

} // namespace

TEST_CASE("the walk's events are in pre-order whatever the children's range") {
  for (const int width : {0, 1, 2, 50, 1000}) {
    CAPTURE(width);
    const tree t = sample(width);
    std::vector<std::string> want;
    for (const int s : t.kids[0])
      expected(t, s, want);
    CHECK(walked<span_adapter>(t) == want);
    CHECK(walked<forward_adapter>(t) == want);
  }
}

TEST_CASE("a walker is reused: a second body walks as the first") {
  const tree t = sample(30);
  const span_adapter a{&t};
  recorder<span_adapter> first{&a, {}}, second{&a, {}};
  commscope::detail::statement_walker<span_adapter> w;
  w.run(a, a.children(0), first);
  w.run(a, a.children(0), second);
  CHECK(first.events == second.events);
}

namespace {
/// In constant evaluation: a fixed tree, its walk order checked by a sum of each
/// statement weighted by its place in the walk.
struct fixed_adapter {
  using statement = int;
  static constexpr std::array<std::array<int, 3>, 8> kids{{{1, 2, 3},
                                                           {4, 5, -1},
                                                           {-1, -1, -1},
                                                           {6, 7, -1},
                                                           {-1, -1, -1},
                                                           {-1, -1, -1},
                                                           {-1, -1, -1},
                                                           {-1, -1, -1}}};
  constexpr std::span<const int> children(int s) const {
    const auto& k = kids[static_cast<std::size_t>(s)];
    std::size_t n = 0;
    while (n < k.size() && k[n] >= 0)
      ++n;
    return std::span<const int>(k.data(), n);
  }
};
struct order_visitor {
  int sum = 0, at = 0;
  constexpr bool enter(int s) {
    sum += s * ++at; // weighs each statement by its place in the walk
    return true;
  }
  constexpr void leave(int) {}
};
constexpr int walk_order_sum() {
  const fixed_adapter a;
  order_visitor v;
  commscope::detail::statement_walker<fixed_adapter> w;
  w.run(a, a.children(0), v);
  return v.sum;
}
} // namespace

// Pre-order from 0's children: 1 4 5 2 3 6 7 at places 1..7.
static_assert(walk_order_sum() == 1 * 1 + 4 * 2 + 5 * 3 + 2 * 4 + 3 * 5 + 6 * 6 + 7 * 7);
