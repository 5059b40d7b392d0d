// The lattice on its own: bottom < finite subsets < all; join is union, all absorbs.
#include <commscope/device_set.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
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

TEST_CASE("join is union: adjacent and overlapping ids coalesce into intervals") {
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

TEST_CASE("the order is total: bottom first and all last and equal sets compare equal") {
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

TEST_CASE("the lattice runs during constant evaluation") {
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

TEST_CASE(
    "a set of many intervals: copies are equal and independent and join back to one interval") {
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

// World-relative progressions: range(start, world_size() - stop_offset, step).

namespace {
using commscope::device_id;
using commscope::device_progression;

constexpr set range(device_id start, device_id stop_offset, device_id step = 1) {
  return set::progression(device_progression{start, step, stop_offset});
}
constexpr set join(set a, const set& b) {
  a.join(b);
  return a;
}

/// A union as written: ids and progressions, with the brute-force meaning in a world.
struct written {
  std::vector<device_id> ids;
  std::vector<device_progression> progressions;

  std::vector<device_id> at_world(device_id ws) const {
    std::vector<device_id> out;
    for (auto d : ids)
      if (d < ws)
        out.push_back(d);
    for (const auto& p : progressions)
      for (device_id d = p.start; d < ws - p.stop_offset; d += p.step)
        out.push_back(d);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  set lattice() const {
    set s;
    for (auto d : ids)
      s.join(set::single(d));
    for (const auto& p : progressions)
      s.join(set::progression(p));
    return s;
  }
};

constexpr device_id largest_world = 64;

/// The devices in every world from `W` to `largest_world`: with the constants below this
/// decides equality for every world of at least W (the sets repeat well before).
std::vector<std::vector<device_id>> meaning(const written& w, device_id W) {
  std::vector<std::vector<device_id>> m;
  for (device_id ws = W; ws <= largest_world; ++ws)
    m.push_back(w.at_world(ws));
  return m;
}

struct generator {
  std::mt19937_64 rng;
  device_id pick(device_id lo, device_id hi) {
    return std::uniform_int_distribution<device_id>(lo, hi)(rng);
  }
  device_progression progression() { return {pick(0, 6), pick(1, 4), pick(0, 3)}; }
  written any(device_id W) {
    written w;
    for (auto n = pick(1, 4); n > 0; --n) {
      if (pick(0, 9) < 3)
        w.ids.push_back(pick(0, W - 1));
      else
        w.progressions.push_back(progression());
    }
    return w;
  }
  /// The same devices in every world of at least W, written differently.
  written rewritten(written w, device_id W) {
    for (auto n = pick(1, 3); n > 0; --n) {
      if (w.progressions.empty())
        break;
      const auto p = w.progressions[static_cast<std::size_t>(
          pick(0, static_cast<device_id>(w.progressions.size()) - 1))];
      switch (pick(0, 4)) {
      case 0: // split into two of twice the step
        w.progressions.push_back({p.start, 2 * p.step, p.stop_offset});
        w.progressions.push_back({p.start + p.step, 2 * p.step, p.stop_offset});
        break;
      case 1: // an id on it, in every admissible world
        for (device_id d = p.start; d < W - p.stop_offset; d += p.step)
          if (pick(0, 1) == 0)
            w.ids.push_back(d);
        break;
      case 2: // a part of it, nested
        w.progressions.push_back(
            {p.start + p.step * pick(0, 2), p.step * pick(1, 3), p.stop_offset + pick(0, 2)});
        break;
      case 3: // the same again
        w.progressions.push_back(p);
        break;
      default: // its first elements as ids where they are in every admissible world
        if (p.start < W - p.stop_offset)
          w.ids.push_back(p.start);
        break;
      }
    }
    std::shuffle(w.ids.begin(), w.ids.end(), rng);
    std::shuffle(w.progressions.begin(), w.progressions.end(), rng);
    return w;
  }
};
} // namespace

TEST_CASE("the spec's examples") {
  // {0} ∪ range(1, ws) is all; so is range(0, ws, 2) ∪ range(1, ws, 2).
  CHECK(join(set::single(0), range(1, 0)).canonical(1).is_all());
  CHECK(join(range(0, 0, 2), range(1, 0, 2)).canonical(1).is_all());
  CHECK(range(0, 0).is_all());
  // {0} ∪ range(1, ws - 1) stays as written: in a world of one device, 0 is not in the
  // progression. From two devices on it is, and the id is absorbed.
  const set kept = join(set::single(0), range(1, 1));
  CHECK(kept.canonical(1) == kept);
  CHECK(kept.canonical(1).has_progressions());
  CHECK(ids(kept.canonical(1)) == std::vector<device_id>{0});
  CHECK(kept.canonical(1).progressions()[0] == device_progression{1, 1, 1});
  CHECK(kept.canonical(2) == range(0, 1));
  // One step, stop offset and residue: the smaller start wins, already in join.
  set line = range(6, 0, 2);
  CHECK(line.join(range(2, 0, 2)));
  CHECK(line == range(2, 0, 2));
  CHECK(!line.join(range(4, 0, 2)));
  // An id continuing a progression downwards or lying on it, below W - C.
  CHECK(join(set::single(2), range(4, 0, 2)).canonical(3) == range(2, 0, 2));
  CHECK(join(set::single(2), range(4, 1, 2)).canonical(3) != range(2, 1, 2));
  CHECK(join(set::single(2), range(4, 1, 2)).canonical(4) == range(2, 1, 2));
  CHECK(join(set::single(4), range(0, 0, 2)).canonical(5) == range(0, 0, 2));
  // K progressions of step K, consecutive starts: step 1.
  CHECK(join(join(range(3, 2, 3), range(4, 2, 3)), range(5, 2, 3)).canonical(1) == range(3, 2));
  // Nested progressions, and progressions the others cover.
  CHECK(join(range(0, 0, 2), range(2, 0, 4)).canonical(1) == range(0, 0, 2));
  CHECK(join(range(0, 0, 2), range(4, 1, 2)).canonical(1) == range(0, 0, 2));
  CHECK(join(range(1, 0), range(3, 1, 2)).canonical(1) == range(1, 0));
}

TEST_CASE(
    "progressions: membership and the printed order (all absorbs and bottom is the identity)") {
  const set s = join(join(join(set::single(0), range(1, 1, 2)), range(2, 0, 4)), range(3, 0));
  CHECK(s.at_world(9) == std::vector<device_id>{0, 1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(s.at_world(3) == std::vector<device_id>{0, 1, 2});
  CHECK(s.contains(1, 3));
  CHECK(!s.contains(1, 2));
  CHECK(!s.contains(9, 9));
  CHECK(s.contains(0));
  CHECK(!s.contains(1)); // an id only
  const auto p = s.progressions();
  REQUIRE(p.size() == 3);
  CHECK(p[0] == device_progression{3, 1, 0});
  CHECK(p[1] == device_progression{1, 2, 1});
  CHECK(p[2] == device_progression{2, 4, 0});
  set t = s;
  CHECK(!t.join(set::bottom()));
  CHECK(t == s);
  CHECK(t.join(set::all()));
  CHECK(t.is_all());
  CHECK(!t.join(s));
  set b;
  CHECK(b.join(s));
  CHECK(b == s);
  CHECK(set::bottom() < s);
  CHECK(s < set::all());
  CHECK(set::single(0) < s);
  set::builder acc;
  acc.add(commscope::device_interval{5, 5});
  acc.add(range(1, 0, 2));
  acc.add(commscope::device_interval{0, 0});
  CHECK(acc.finish() == join(join(set::single(0), set::single(5)), range(1, 0, 2)));
}

TEST_CASE("the common sets stay three words and progressions run in constant evaluation") {
  static_assert(sizeof(set) == 24);
  static_assert(join(set::single(0), range(1, 0)).canonical(1).is_all());
  static_assert(join(range(0, 0, 2), range(1, 0, 2)).canonical(1).is_all());
  static_assert(!join(set::single(0), range(1, 1)).canonical(1).is_all());
  static_assert(join(set::single(0), range(1, 1)).canonical(2) == range(0, 1));
  constexpr auto devices = [] {
    set s = join(of({0, 7}), range(2, 1, 3));
    set copy = s;
    set moved = std::move(copy);
    return moved.at_world(9).size() * 10 + moved.contains(5, 7);
  }();
  static_assert(devices == 41); // {0, 2, 5, 7}; 5 is in from seven devices on
  CHECK(devices == 41);
}

TEST_CASE("canonical forms: equal devices in every admissible world iff equal forms") {
  generator g{std::mt19937_64{20261202}};
  int cases = 0, equal_pairs = 0, rewritten_pairs = 0;
  for (device_id W = 1; W <= 8; ++W) {
    std::map<std::vector<std::vector<device_id>>, set> form_of;
    std::map<set, std::vector<std::vector<device_id>>> meaning_of;
    const auto check = [&](const written& w) {
      ++cases;
      const auto m = meaning(w, W);
      const set s = w.lattice();
      const set c = s.canonical(W);
      for (device_id ws = W; ws <= largest_world; ++ws) {
        CHECK(s.at_world(ws) == w.at_world(ws));
        CHECK(c.at_world(ws) == w.at_world(ws)); // sound and exact
      }
      CHECK(c.canonical(W) == c); // a fixpoint
      const auto [f, fresh] = form_of.emplace(m, c);
      if (!fresh) {
        ++equal_pairs;
        CHECK(f->second == c); // equal devices: equal forms
      }
      const auto [e, new_form] = meaning_of.emplace(c, m);
      if (!new_form)
        CHECK(e->second == m); // equal forms: equal devices
    };
    for (int i = 0; i < 400; ++i) {
      const written w = g.any(W);
      check(w);
      for (int k = 0; k < 2; ++k) {
        const auto before = equal_pairs;
        check(g.rewritten(w, W));
        rewritten_pairs += equal_pairs - before;
      }
    }
  }
  MESSAGE(cases << " sets, " << equal_pairs << " with the devices of an earlier one ("
                << rewritten_pairs << " rewritten)");
  CHECK(rewritten_pairs > 1000);
}

TEST_CASE("canonical forms with ids at or above the smallest world stay sound, exact and fixed") {
  // The analysis's W counts only dispatches that surely run, so an id may reach it.
  generator g{std::mt19937_64{20261203}};
  int cases = 0;
  for (device_id W = 1; W <= 6; ++W)
    for (int i = 0; i < 400; ++i) {
      written w = g.any(W);
      for (auto n = g.pick(1, 2); n > 0; --n)
        w.ids.push_back(g.pick(W, W + 8));
      const set s = w.lattice();
      const set c = s.canonical(W);
      ++cases;
      bool same = true;
      for (device_id ws = W; ws <= largest_world; ++ws)
        for (device_id d = 0; d < ws; ++d) // compared where the device exists
          same = same && c.contains(d, ws) == s.contains(d, ws);
      CHECK(same);
      CHECK(c.canonical(W) == c);
    }
  CHECK(cases == 2400);
}

TEST_CASE("join with progressions is commutative and associative and idempotent and all absorbs") {
  generator g{std::mt19937_64{7}};
  int cases = 0;
  for (int i = 0; i < 3000; ++i) {
    const device_id W = g.pick(1, 8);
    const set a = g.any(W).lattice(), b = g.any(W).lattice(), c = g.any(W).lattice();
    ++cases;
    CHECK(join(a, b) == join(b, a));
    CHECK(join(join(a, b), c) == join(a, join(b, c)));
    set self = a;
    CHECK(!self.join(a));
    CHECK(self == a);
    set grown = a;
    const bool changed = grown.join(b);
    CHECK(changed == (grown != a));
    CHECK(join(a, set::all()).is_all());
    CHECK(join(set::all(), a).is_all());
    CHECK(join(set::bottom(), a) == a);
    // Canonical forms commute with join: the union's form from the parts' forms.
    CHECK(join(a.canonical(W), b.canonical(W)).canonical(W) == join(a, b).canonical(W));
    for (device_id ws = W; ws <= 24; ++ws) {
      auto u = a.at_world(ws), v = b.at_world(ws);
      u.insert(u.end(), v.begin(), v.end());
      std::sort(u.begin(), u.end());
      u.erase(std::unique(u.begin(), u.end()), u.end());
      CHECK(join(a, b).at_world(ws) == u);
    }
  }
  MESSAGE(cases << " triples");
}

TEST_CASE("canonicalize: sets without progressions are canonical and large constants stay sound") {
  const set ids = of({1, 3, 4});
  CHECK(ids.canonical(9) == ids);
  CHECK(set::all().canonical(1).is_all());
  CHECK(set::bottom().canonical(1).is_bottom());
  // A period or a smallest world beyond the explicit construction: join's merging only.
  const set wide = join(range(0, 0, 1021), range(5, 0, 1031));
  CHECK(wide.canonical(1) == wide);
  const set far = join(set::single(0), range(1, 0));
  CHECK(far.canonical(device_id{1} << 20) == far);
  // An id at or past W (no admissible program has one): kept, the devices unchanged.
  const set past = join(set::single(9), range(0, 0, 2));
  for (device_id ws = 3; ws <= 20; ++ws)
    CHECK(past.canonical(3).at_world(ws) == past.at_world(ws));
  CHECK(join(set::single(10), range(0, 0, 2)).canonical(3) == range(0, 0, 2));
}

namespace {
/// Whether `part` has each of its devices in `whole` in every world from W to W + 64.
bool included_by_enumeration(const set& whole, const set& part, device_id W) {
  for (device_id ws = W; ws <= W + 64; ++ws) {
    const auto w = whole.at_world(ws), p = part.at_world(ws);
    if (!std::includes(w.begin(), w.end(), p.begin(), p.end()))
      return false;
  }
  return true;
}
} // namespace

TEST_CASE("includes: as enumeration says for every world of at least W") {
  generator g{std::mt19937_64{20261204}};
  int yes = 0, no = 0;
  const auto check = [&](const set& whole, const set& part, device_id W) {
    const bool expected = included_by_enumeration(whole, part, W);
    CAPTURE(W);
    CHECK(whole.includes(part, W) == expected);
    (expected ? yes : no) += 1;
  };
  for (device_id W = 1; W <= 8; ++W)
    for (int i = 0; i < 300; ++i) {
      written a = g.any(W), b = g.any(W);
      for (auto n = g.pick(0, 2); n > 0; --n) // ids at or past W: a dispatch that may not run
        (g.pick(0, 1) ? a : b).ids.push_back(g.pick(W, W + 8));
      const set x = a.lattice(), y = b.lattice();
      check(x, y, W);
      check(y, x, W);
      check(join(x, y), y, W);     // wider: always
      check(x.canonical(W), x, W); // the same devices, another form
      check(x, x.canonical(W), W);
      check(g.rewritten(a, W).lattice(), x, W);
      check(x, g.rewritten(a, W).lattice(), W);
      check(x, set::all(), W);
      check(set::all(), x, W);
      check(x, set::bottom(), W);
      check(set::bottom(), x, W);
      // A part of one line missing: range(s, ws - c, 2k) of range(s, ws - c, k).
      for (const auto& p : a.progressions) {
        check(x, set::progression({p.start, p.step * 2, p.stop_offset}), W);
        check(x, set::progression({p.start + p.step, p.step, p.stop_offset}), W);
        check(x, set::progression({p.start, p.step, p.stop_offset > 0 ? p.stop_offset - 1 : 0}), W);
      }
    }
  MESSAGE(yes << " inclusions, " << no << " not");
  CHECK(yes > 3000);
  CHECK(no > 1000);
}

TEST_CASE("includes: large constants, steps and worlds without enumeration or overflow") {
  constexpr device_id big = INT64_MAX;
  set million;
  million.assign({0, 999'999});
  set odd;
  odd.assign({1, 1});
  CHECK(million.includes(million, 1));
  CHECK(!million.includes(range(0, 0), 1)); // all devices of every world: no finite set
  CHECK(join(range(0, 0, 2), range(1, 0, 2)).includes(million, 1));
  CHECK(range(0, 0, 2).includes(join(set::single(4), range(2, 0, 4)), 1));
  CHECK(!range(0, 0, 2).includes(million, 1));
  CHECK(!range(0, 0, 2).includes(odd, 1));
  // An id of the smallest world is there from W on: range(0, ws - 5) holds 2 when W >= 8.
  CHECK(range(0, 5).includes(set::single(2), 8));
  CHECK(!range(0, 5).includes(set::single(2), 7));
  // Ids near the end of the device ids, steps and offsets near the largest values.
  set top;
  top.assign({big - 3, big});
  CHECK(top.includes(top, 1));
  CHECK(!top.includes(join(top, set::single(big - 5)), 1));
  CHECK(set::progression({0, big, 0}).includes(set::single(0), 1));
  CHECK(!set::progression({0, big, 0}).includes(set::single(1), 1));
  CHECK(set::progression({big - 1, 1, 0}).includes(set::progression({big - 1, 2, 0}), big));
  CHECK(range(0, 0).includes(set::progression({big, 1, big}), big)); // all
  CHECK(join(range(0, big - 1), set::single(3)).includes(range(0, big), big));
  CHECK(!range(0, big).includes(range(0, big - 1), big));
  // A covering of large period: judged once a period of the part's points, or not proven.
  const set halves = join(range(0, 0, 1021 * 2), range(1021, 0, 1021 * 2));
  CHECK(halves.includes(range(0, 0, 1021), 1));
  CHECK(!halves.includes(range(0, 0, 1), 1));
  static_assert(
      join(range(0, 0, 3), join(range(1, 0, 3), range(2, 0, 3))).includes(range(0, 0), 1));
  static_assert(!range(1, 1).includes(range(1, 0), 1));
  // Id 1 is in every world of two devices on; range(1, ws - 1) has it from three on.
  static_assert(range(1, 1).includes(join(set::single(1), range(2, 1)), 3));
  static_assert(!range(1, 1).includes(join(set::single(1), range(2, 1)), 2));
}
