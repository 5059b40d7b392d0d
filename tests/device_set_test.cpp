// The lattice on its own: bottom < finite subsets < all; join is union, all absorbs.
#include <commscope/device_set.hpp>

#include <doctest/doctest.h>

#include <vector>

using set = commscope::device_set;

namespace {
std::vector<commscope::device_id> ids(const set& s) {
  std::vector<commscope::device_id> r;
  s.for_each([&](commscope::device_id d) { r.push_back(d); });
  return r;
}
constexpr set of(std::initializer_list<commscope::device_id> l) {
  set::builder b;
  for (auto d : l)
    b.add(commscope::device_interval{d, d});
  return b.finish();
}
} // namespace

TEST_CASE("bottom is the identity of join") {
  set s = of({3, 1});
  CHECK(!s.join(set::bottom()));
  CHECK(ids(s) == std::vector<commscope::device_id>{1, 3});
  set b;
  CHECK(b.is_bottom());
  CHECK(b.join(s));
  CHECK(b == s);
}

TEST_CASE("join is union; adjacent and overlapping ids coalesce into intervals") {
  set s = of({0, 1, 2, 7});
  CHECK(s.intervals().size() == 2);
  CHECK(s.join(of({3, 5})));
  CHECK(ids(s) == std::vector<commscope::device_id>{0, 1, 2, 3, 5, 7});
  CHECK(s.intervals().size() == 3);
  CHECK(!s.join(of({2, 5})));
  CHECK(s.size() == 6);
  CHECK(s.contains(5));
  CHECK(!s.contains(4));
}

TEST_CASE("all absorbs") {
  set s = of({1});
  CHECK(s.join(set::all()));
  CHECK(s.is_all());
  CHECK(!s.join(of({2})));
  CHECK(s.is_all());
  set::builder b;
  b.add(commscope::device_interval{4, 9});
  b.add_all();
  b.add(commscope::device_interval{1, 1});
  CHECK(b.finish() == set::all());
}

TEST_CASE("the order is total: bottom first, all last, equal sets compare equal") {
  CHECK(set::bottom() < of({0}));
  CHECK(of({0}) < of({1}));
  CHECK((of({0, 1}) < of({0, 2})) != (of({0, 2}) < of({0, 1})));
  CHECK(of({5}) < set::all());
  CHECK((of({2, 3}) <=> of({3, 2})) == 0);
}

TEST_CASE("a large interval stays one interval") {
  set::builder b;
  b.add(commscope::device_interval{0, 999'999});
  set s = b.finish();
  CHECK(s.intervals().size() == 1);
  CHECK(s.size() == 1'000'000);
  CHECK(s.join(of({1'000'000})));
  CHECK(s.intervals().size() == 1);
}

TEST_CASE("the lattice runs during constant evaluation (no storage policy needed)") {
  constexpr auto size = [] {
    commscope::device_set s = commscope::device_set::single(4);
    s.join(commscope::device_set::single(5));
    s.join(commscope::device_set::single(9));
    return s.intervals().size() * 100 + s.size();
  }();
  static_assert(size == 203);
  CHECK(size == 203);
  // Two intervals live in a heap array: copied, moved, then joined back into one.
  constexpr auto rejoined = [] {
    set s = of({1, 3, 5});
    set copy = s;
    set moved = std::move(copy);
    const bool equal = moved == s;
    s.join(of({2, 4}));
    return (equal ? 1000 : 0) + s.intervals().size() * 100 + s.size() + (moved.size() == 3);
  }();
  static_assert(rejoined == 1106);
  CHECK(rejoined == 1106);
}

TEST_CASE("a set of many intervals: copies are equal and independent; back to one interval") {
  set s;
  for (commscope::device_id d = 0; d < 40; d += 2)
    s.join(set::single(d));
  CHECK(s.intervals().size() == 20);
  set copy = s;
  CHECK(copy == s);
  CHECK((copy <=> s) == 0);
  CHECK(copy.join(set::single(1)));
  CHECK(copy.intervals().size() == 19);
  CHECK(s.intervals().size() == 20);
  CHECK(s < copy);
  set filled;
  filled.assign({1, 37});
  CHECK(s.join(filled));
  CHECK(s.intervals().size() == 1);
  CHECK(s.intervals()[0] == commscope::device_interval{0, 38});
  set::builder b;
  for (commscope::device_id d = 9; d >= 0; --d)
    b.add(commscope::device_interval{2 * d, 2 * d});
  const set built = b.finish();
  CHECK(built.intervals().size() == 10);
  CHECK(built.intervals().front().first == 0);
  CHECK(built.contains(18));
  CHECK(!built.contains(17));
  set moved = set(built);
  CHECK(moved == built);
  moved = set::all();
  CHECK(moved.is_all());
  CHECK(moved.intervals().empty());
}
