// The device-descriptor lattice (docs/semantics.md, "Device descriptors" and "Symbolic
// device sets"):
//   bottom (no evidence) < sets of devices ordered by inclusion < all.
// Join is union and `all` absorbs. No IR in sight.
//
// A finite set is kept as ascending, disjoint, non-adjacent closed intervals, so that a
// constant loop of a million devices costs one interval, not a million ids. A set may also
// hold world-relative progressions, `range(start, world_size() - stop_offset, step)`: its
// devices in a world of `ws` devices are its ids below `ws` and every progression's
// elements below `ws - stop_offset`.
//
// The set is 24 bytes: the plan keeps one per allocation and per domain, and almost every
// set is one interval (a device, a loop's range) or a state (bottom, all). One interval is
// held inline; two or more live in a heap array. A set with progressions keeps its ids and
// its progressions in one heap array of the same element type, so that the other sets do
// not pay for them: their code reads no more state than before. The same type runs at run
// time and in constant evaluation (std::allocator is constexpr in C++20).
//
// The canonical form of sets with progressions (canonicalize) and inclusion in every world
// (includes) are detail/canonical_form.hpp and detail/set_inclusion.hpp, included below.
#pragma once

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/sort.hpp>
#include <commscope/detail/vector.hpp>

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace commscope {

using device_id = std::int64_t;

namespace detail {
struct canonical_form; // detail/canonical_form.hpp
} // namespace detail

struct device_interval {
  device_id first;
  device_id last; ///< inclusive
  friend constexpr bool operator==(const device_interval&, const device_interval&) = default;
  friend constexpr auto operator<=>(const device_interval&, const device_interval&) = default;
};

/// `range(start, world_size() - stop_offset, step)`: the devices `start + k*step` below
/// `ws - stop_offset` in a world of `ws` devices. start >= 0, step >= 1, stop_offset >= 0.
struct device_progression {
  device_id start;
  device_id step;
  device_id stop_offset;
  friend constexpr bool operator==(const device_progression&, const device_progression&) = default;
  /// The printed order: by step, residue, stop offset, then start.
  friend constexpr std::strong_ordering operator<=>(const device_progression& a,
                                                    const device_progression& b) {
    if (auto c = a.step <=> b.step; c != 0)
      return c;
    if (auto c = a.start % a.step <=> b.start % b.step; c != 0)
      return c;
    if (auto c = a.stop_offset <=> b.stop_offset; c != 0)
      return c;
    return a.start <=> b.start;
  }
  [[nodiscard]] constexpr bool holds(device_id d) const {
    return d >= start && (d - start) % step == 0;
  }
  /// Same step, stop offset and residue: one of the two contains the other.
  [[nodiscard]] constexpr bool same_line(const device_progression& o) const {
    return step == o.step && stop_offset == o.stop_offset && start % step == o.start % o.step;
  }
};

class device_set {
public:
  using intervals_type = std::span<const device_interval>;
  class progressions_view;

  constexpr device_set() = default; ///< bottom
  constexpr device_set(const device_set& o) : one_{o.one_[0]} {
    if (o.many_) {
      std::size_t n = count_of(o);
      if (o.one_[0].last >= 0) [[likely]]
        one_[0].last = one_[0].first; // capacity: exactly the count
      else
        n = record_size(o); // a record, copied whole
      many_ = allocate(n);
      copy_into(many_, o.many_, n);
    }
  }
  constexpr device_set(device_set&& o) noexcept
      : one_{std::exchange(o.one_[0], bottom_state)}, many_(std::exchange(o.many_, nullptr)) {}
  constexpr device_set& operator=(const device_set& o) {
    if (this != &o) {
      device_set copy(o);
      swap(copy);
    }
    return *this;
  }
  constexpr device_set& operator=(device_set&& o) noexcept {
    device_set moved(std::move(o));
    swap(moved);
    return *this;
  }
  constexpr ~device_set() { release(); }

  [[nodiscard]] static constexpr device_set bottom() { return {}; }
  [[nodiscard]] static constexpr device_set all() {
    device_set s;
    s.one_[0] = all_state;
    return s;
  }
  [[nodiscard]] static constexpr device_set single(device_id d) {
    device_set s;
    s.one_[0] = {d, d};
    return s;
  }
  /// The devices of `p` in every world (`range(0, world_size())` is `all`).
  [[nodiscard]] static constexpr device_set progression(device_progression p);

  /// Becomes the devices of `r` (first <= last) in place.
  constexpr void assign(device_interval r) {
    release();
    one_[0] = r;
  }

  [[nodiscard]] constexpr bool is_all() const { return !many_ && one_[0] == all_state; }
  [[nodiscard]] constexpr bool is_bottom() const { return !many_ && one_[0] == bottom_state; }
  /// Whether the set holds world-relative progressions (then it is neither bottom nor all).
  [[nodiscard]] constexpr bool has_progressions() const { return many_ && one_[0].last < 0; }

  /// The intervals of the set's ids, ascending (empty for bottom and for all).
  [[nodiscard]] constexpr intervals_type intervals() const {
    return {many_ ? many_ : one_, runs()};
  }
  /// The progressions, in the printed order (none unless has_progressions()).
  [[nodiscard]] constexpr progressions_view progressions() const;

  /// Number of ids (0 for bottom and for all; progressions not counted).
  [[nodiscard]] constexpr std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& r : intervals())
      n += static_cast<std::uint64_t>(r.last - r.first) + 1;
    return n;
  }

  /// Whether `d` is one of the ids (true for all; progressions not consulted: see the
  /// overload with a world size).
  [[nodiscard]] constexpr bool contains(device_id d) const {
    if (is_all())
      return true;
    const auto v = intervals();
    auto it = std::lower_bound(v.begin(), v.end(), d,
                               [](const device_interval& r, device_id x) { return r.last < x; });
    return it != v.end() && it->first <= d;
  }
  /// Whether device `d` belongs to the set in a world of `world_size` devices.
  [[nodiscard]] constexpr bool contains(device_id d, device_id world_size) const;
  /// The devices in a world of `world_size` devices, ascending.
  [[nodiscard]] constexpr std::vector<device_id> at_world(device_id world_size) const;

  /// Calls f(id) for every id, ascending (nothing for bottom and for all).
  template <class F> constexpr void for_each(F&& f) const {
    for (const auto& r : intervals())
      for (device_id d = r.first;; ++d) {
        f(d);
        if (d == r.last)
          break;
      }
  }

  /// Least upper bound, in place. Returns whether *this changed. Progressions of one step,
  /// stop offset and residue merge; the rest of the canonical form needs the smallest world
  /// and is canonicalize()'s.
  constexpr bool join(const device_set& other) {
    if (is_all() || other.is_bottom())
      return false;
    if (!many_ && !other.many_ && !other.is_all() && !is_bottom() &&
        touch(one_[0], other.one_[0])) { // the common case: one interval
      const device_interval u{std::min(one_[0].first, other.one_[0].first),
                              std::max(one_[0].last, other.one_[0].last)};
      const bool changed = !(u == one_[0]);
      one_[0] = u;
      return changed;
    }
    COMMSCOPE_RUN_COMPILED(join_rest(*this, other));
    return join_rest(other);
  }

  /// Brings a set with progressions into the canonical form for the world sizes of at
  /// least `min_world` (docs/semantics.md, "Symbolic device sets"): two sets with the
  /// same devices in every such world become equal (==) when no id reaches `min_world`.
  /// An id that does (its dispatch might not run, devices.hpp, smallest_world) keeps the
  /// form sound, compared where the device exists, but equal sets may then differ. Sets
  /// without progressions are canonical already. Beyond the bounds of an explicit
  /// construction (constants or a period in the thousands) only join's merging is
  /// applied. Returns whether *this changed.
  constexpr bool canonicalize(device_id min_world) {
    COMMSCOPE_RUN_COMPILED(canonicalize(*this, min_world));
    return canonicalize_impl(min_world);
  }
  [[nodiscard]] constexpr device_set canonical(device_id min_world) const {
    device_set s = *this;
    s.canonicalize(min_world);
    return s;
  }

  /// Whether *this holds every device of `other` in every world of at least `min_world`
  /// devices where `other` holds it (docs/semantics.md, "Symbolic device sets"):
  /// device x of a part with stop offset c (0 for an id) is in a world of ws devices when
  /// ws > x + c, so *this must hold x through a part of stop offset at most
  /// max(c, min_world - 1 - x). `all` includes everything; bottom is included in
  /// everything. Judged arithmetically, stretch by stretch between the parts' ends, never
  /// enumerating a progression: where only progressions cover a stretch, one period of
  /// their steps is checked (of at most 2^16 elements of `other`'s part). Beyond that
  /// bound, and for a progression of `other` with a negative start or a step below 1, it
  /// answers false: not proven.
  [[nodiscard]] constexpr bool includes(const device_set& other, device_id min_world) const {
    COMMSCOPE_RUN_COMPILED(includes(*this, other, min_world));
    return includes_impl(other, min_world);
  }

  /// Equal representations. For sets with progressions, compare canonical forms.
  friend constexpr bool operator==(const device_set& a, const device_set& b) {
    if (a.many_ || b.many_) {
      COMMSCOPE_RUN_COMPILED(equal_arrays(a, b));
      return equal_arrays(a, b);
    }
    return a.one_[0] == b.one_[0];
  }
  /// A total order (bottom first, all last, others by their ids then their progressions),
  /// for users that keep sets in sorted containers.
  friend constexpr std::strong_ordering operator<=>(const device_set& a, const device_set& b);

  /// Accumulation in place, for callers that keep one set per item (no builder to
  /// finish and move from): accumulate() appends cheaply and leaves the set unnormalized
  /// (unsorted, possibly overlapping) until normalize().
  constexpr void accumulate(device_interval r) {
    if (is_all())
      return;
    if (!is_bottom() && !(many_ && one_[0].last < 0)) {
      // The same or a neighbouring interval again (an allocation dispatched on the same
      // devices many times, or on d and d+1) widens the last one instead of growing the
      // list: the set stays inline and normalize() has nothing to sort.
      auto& b = many_ ? many_[count_of(*this) - 1] : one_[0];
      if (touch(b, r)) {
        b = {std::min(b.first, r.first), std::max(b.last, r.last)};
        return;
      }
    }
    COMMSCOPE_RUN_COMPILED(accumulate_rest(*this, r));
    accumulate_rest(r);
  }
  constexpr void accumulate(const device_set& s) {
    COMMSCOPE_RUN_COMPILED(accumulate(*this, s));
    accumulate_impl(s);
  }
  constexpr void accumulate_impl(const device_set& s) {
    if (is_all())
      return;
    if (s.is_all()) {
      assign_all();
      return;
    }
    if (s.has_progressions() || has_progressions()) {
      normalize();
      device_set t = s;
      t.normalize();
      join_symbolic(t);
      return;
    }
    for (const auto& r : s.intervals())
      accumulate(r);
  }
  constexpr void normalize() {
    if (many_ && one_[0].last >= 0) // a set with progressions is kept normalized
      sort_intervals();
  }

  class builder;

  constexpr void swap(device_set& o) noexcept {
    std::swap(one_[0], o.one_[0]);
    std::swap(many_, o.many_);
  }

private:
  struct parts;
  friend struct detail::canonical_form; // takes sets apart and puts them together

  // Without a heap array, `one_[0]` is the set's one interval, or a state no interval can be
  // (first > last). With an array of intervals, `one_[0]` holds its count (>= 2) and
  // capacity. A set with progressions has an array that is a record, exactly as long as its
  // contents: its id intervals (normalized, any count), then each progression as
  // {start, step}, {stop offset, 0}; `one_[0]` holds the count of id intervals and
  // -1 - the count of progressions (< -1). So the ids read like any array of intervals.
  static constexpr device_interval bottom_state{0, -1};
  static constexpr device_interval all_state{1, -1};

  static constexpr std::size_t count_of(const device_set& s) {
    return static_cast<std::size_t>(s.one_[0].first);
  }
  static constexpr std::size_t progression_count(const device_set& s) {
    return static_cast<std::size_t>(-1 - s.one_[0].last);
  }
  static constexpr std::size_t record_size(const device_set& s) {
    return count_of(s) + 2 * progression_count(s);
  }
  // equal_arrays, join_rest and accumulate_rest: the rest of operator==, join() and
  // accumulate() off their common paths, which call them through COMMSCOPE_RUN_COMPILED
  // themselves, so that a header-only build compiles no forwarding function for them.
  /// operator== where a set has a heap array.
  static constexpr bool equal_arrays(const device_set& a, const device_set& b) {
    if ((a.one_[0].last | b.one_[0].last) < 0) [[unlikely]] // a record, or a state
      return equal_rare(a, b);
    const auto x = a.intervals(), y = b.intervals();
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  }
  /// operator== off its common path: a record, or an array and a state.
  [[gnu::cold]] static constexpr bool equal_rare(const device_set& a, const device_set& b) {
    if (a.has_progressions() != b.has_progressions())
      return false;
    if (!a.has_progressions()) {
      const auto x = a.intervals(), y = b.intervals();
      return std::equal(x.begin(), x.end(), y.begin(), y.end());
    }
    return a.one_[0] == b.one_[0] &&
           std::equal(a.many_, a.many_ + record_size(a), b.many_, b.many_ + record_size(b));
  }
  [[nodiscard]] constexpr std::size_t runs() const {
    return many_ ? count_of(*this) : (one_[0].first <= one_[0].last ? 1 : 0);
  }
  static constexpr bool touch(const device_interval& a, const device_interval& b) {
    return (a.first <= b.last && b.first <= a.last) ||
           (a.last < b.first && a.last + 1 == b.first) ||
           (b.last < a.first && b.last + 1 == a.first);
  }
  // std::uninitialized_copy_n is not constexpr before C++26.
  static constexpr void copy_into(device_interval* to, const device_interval* from, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      std::construct_at(to + i, from[i]);
  }
  static constexpr device_interval* allocate(std::size_t n) {
    return std::allocator<device_interval>{}.allocate(n);
  }
  constexpr void release() {
    if (many_) {
      const bool record = one_[0].last < 0;
      const std::size_t n = record ? record_size(*this) : count_of(*this);
      std::destroy_n(many_, n);
      std::allocator<device_interval>{}.deallocate(
          many_, record ? n : static_cast<std::size_t>(one_[0].last));
      many_ = nullptr;
    }
    one_[0] = bottom_state;
  }
  constexpr void assign_all() {
    release();
    one_[0] = all_state;
  }
  /// Room for `n` intervals in a heap array (the inline one moved there).
  constexpr void reserve(std::size_t n) {
    const std::size_t have = runs();
    if (n <= (many_ ? static_cast<std::size_t>(one_[0].last) : 1))
      return;
    auto* grown = allocate(n);
    if (many_) {
      copy_into(grown, many_, have);
      std::destroy_n(many_, have);
      std::allocator<device_interval>{}.deallocate(many_, static_cast<std::size_t>(one_[0].last));
    } else if (have == 1) {
      std::construct_at(grown, one_[0]);
    }
    many_ = grown;
    one_[0] = {static_cast<device_id>(have), static_cast<device_id>(n)};
  }
  constexpr void append(device_interval r) {
    const std::size_t n = runs();
    if (n == 0 && !many_) {
      one_[0] = r;
      return;
    }
    if (!many_ || n == static_cast<std::size_t>(one_[0].last))
      reserve(std::max<std::size_t>(4, 2 * n));
    std::construct_at(many_ + n, r);
    one_[0].first = static_cast<device_id>(n + 1);
  }
  /// Merges overlapping and adjacent intervals of the sorted heap array in place; back
  /// inline when one is left.
  constexpr void coalesce() {
    const std::size_t n = count_of(*this);
    std::size_t out = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (out > 0 &&
          (many_[out - 1].last >= many_[i].first ||
           (many_[out - 1].last < INT64_MAX && many_[out - 1].last + 1 == many_[i].first)))
        many_[out - 1].last = std::max(many_[out - 1].last, many_[i].last);
      else
        many_[out++] = many_[i];
    }
    if (out == 1) {
      const device_interval only = many_[0];
      release();
      one_[0] = only;
      return;
    }
    std::destroy(many_ + out, many_ + n);
    one_[0].first = static_cast<device_id>(out);
  }

  // Sets with progressions (defined below): taken apart, put together, joined.
  [[nodiscard]] constexpr parts split() const;
  static constexpr device_set joined(const device_set& ids,
                                     std::span<const device_progression> progressions);
  /// join() off its common case: a copy, or a merge of several intervals or progressions.
  constexpr bool join_rest(const device_set& other) {
    if (other.is_all() || is_bottom()) {
      *this = other;
      return true;
    }
    if (has_progressions() || other.has_progressions())
      return join_symbolic(other);
    return join_intervals(other);
  }
  /// accumulate(r) off its common case: appended, or joined to a set with progressions.
  constexpr void accumulate_rest(device_interval r) {
    if (many_ && one_[0].last < 0) { // with progressions: kept normalized
      device_set one;
      one.assign(r);
      join_symbolic(one);
      return;
    }
    append(r);
  }
  /// join() of two sets without progressions, one of them at least two intervals.
  constexpr bool join_intervals(const device_set& other) {
    COMMSCOPE_RUN_COMPILED(join_intervals(*this, other));
    return join_intervals_impl(other);
  }
  [[gnu::noinline]] constexpr bool join_intervals_impl(const device_set& other) {
    // A two-way merge into a fresh array, then coalesced.
    const auto a = intervals(), b = other.intervals();
    device_set merged;
    merged.reserve(a.size() + b.size());
    auto x = a.begin(), y = b.begin();
    while (x != a.end() || y != b.end())
      merged.append(y == b.end() || (x != a.end() && !(*y < *x)) ? *x++ : *y++);
    merged.coalesce();
    if (merged == *this)
      return false;
    swap(merged);
    return true;
  }
  /// normalize() of a set of several intervals: sorted, then coalesced.
  constexpr void sort_intervals() {
    COMMSCOPE_RUN_COMPILED(sort_intervals(*this));
    sort_intervals_impl();
  }
  [[gnu::noinline]] constexpr void sort_intervals_impl() {
    std::sort(many_, many_ + count_of(*this));
    coalesce();
  }
  constexpr bool join_symbolic(const device_set& other) {
    COMMSCOPE_RUN_COMPILED(join_symbolic(*this, other));
    return join_symbolic_impl(other);
  }
  // What the separately compiled core (detail/compiled.hpp) compiles once. Defined out of
  // the class, so without `noinline` (g++ rejects it after `inline`); too large to be
  // inlined anyway.
  friend struct detail::compiled;
  constexpr bool canonicalize_impl(device_id min_world);
  [[nodiscard]] constexpr bool includes_impl(const device_set& other, device_id min_world) const;
  constexpr bool join_symbolic_impl(const device_set& other);
  /// Adds `from` to the sorted `to`, one progression per line (the smaller start wins).
  static constexpr void merge(detail::vec<device_progression>& to, const progressions_view& from);
  /// Sorts progressions in the printed order. Through sorted_indices, which the pass
  /// instantiates anyway, not a std::sort of its own: the lists are short, and each
  /// std::sort instance is kilobytes of code that g++ compiles at -O2 in every TU.
  static constexpr void sort_progressions(detail::vec<device_progression>& v) {
    detail::sort_by(v,
                    [](const device_progression& a, const device_progression& b) { return a < b; });
  }

  device_interval one_[1] = {bottom_state}; ///< an array: g++ 12 rejects one past a plain member
                                            ///< in constant evaluation
  device_interval* many_ = nullptr;
};

static_assert(sizeof(device_set) == 24, "the common sets stay three words");

/// The progressions of a set, read from its record (by value, in the printed order).
class device_set::progressions_view {
public:
  class iterator {
  public:
    using value_type = device_progression;
    using reference = device_progression;
    using pointer = void;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    constexpr iterator() = default;
    constexpr explicit iterator(const device_interval* at) : at_(at) {}
    constexpr device_progression operator*() const {
      return {at_[0].first, at_[0].last, at_[1].first};
    }
    constexpr iterator& operator++() {
      at_ += 2;
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator was = *this;
      at_ += 2;
      return was;
    }
    friend constexpr bool operator==(const iterator&, const iterator&) = default;

  private:
    const device_interval* at_ = nullptr;
  };

  constexpr progressions_view() = default;
  constexpr progressions_view(const device_interval* at, std::size_t n) : at_(at), n_(n) {}
  [[nodiscard]] constexpr iterator begin() const { return iterator(at_); }
  [[nodiscard]] constexpr iterator end() const { return iterator(at_ + 2 * n_); }
  [[nodiscard]] constexpr std::size_t size() const { return n_; }
  [[nodiscard]] constexpr bool empty() const { return n_ == 0; }
  [[nodiscard]] constexpr device_progression operator[](std::size_t i) const {
    return *iterator(at_ + 2 * i);
  }

private:
  const device_interval* at_ = nullptr;
  std::size_t n_ = 0;
};

/// A set with progressions taken apart: its ids (normalized, never all) and progressions.
struct device_set::parts {
  device_set ids;
  detail::vec<device_progression> progressions;
};

constexpr device_set::progressions_view device_set::progressions() const {
  if (!has_progressions())
    return {};
  return {many_ + count_of(*this), progression_count(*this)};
}

constexpr device_set::parts device_set::split() const {
  parts p;
  if (!has_progressions()) {
    p.ids = *this;
    return p;
  }
  for (const auto& r : intervals())
    p.ids.append(r);
  for (const auto q : progressions())
    p.progressions.push_back(q);
  return p;
}

constexpr device_set device_set::joined(const device_set& ids,
                                        std::span<const device_progression> progressions) {
  if (progressions.empty())
    return ids;
  if (progressions.front() == device_progression{0, 1, 0}) // first in the printed order
    return all();
  const auto v = ids.intervals();
  device_set s;
  s.many_ = allocate(v.size() + 2 * progressions.size());
  s.one_[0] = {static_cast<device_id>(v.size()), -1 - static_cast<device_id>(progressions.size())};
  std::size_t at = 0;
  for (const auto& r : v)
    std::construct_at(s.many_ + at++, r);
  for (const auto& p : progressions) {
    std::construct_at(s.many_ + at++, device_interval{p.start, p.step});
    std::construct_at(s.many_ + at++, device_interval{p.stop_offset, 0});
  }
  return s;
}

constexpr void device_set::merge(detail::vec<device_progression>& to,
                                 const progressions_view& from) {
  bool changed = false;
  for (const auto p : from) {
    auto it = std::find_if(to.begin(), to.end(), [&](const auto& q) { return q.same_line(p); });
    if (it == to.end()) {
      to.push_back(p);
      changed = true;
    } else if (p.start < it->start) {
      it->start = p.start;
      changed = true;
    }
  }
  if (changed)
    sort_progressions(to);
}

constexpr device_set device_set::progression(device_progression p) {
  COMMSCOPE_RUN_COMPILED(progression(p));
  return joined(device_set{}, {&p, 1});
}

constexpr bool device_set::join_symbolic_impl(const device_set& other) {
  parts mine = split();
  if (other.has_progressions()) {
    mine.ids.join(other.split().ids);
    merge(mine.progressions, other.progressions());
  } else {
    mine.ids.join(other);
  }
  device_set joined_set = joined(mine.ids, mine.progressions);
  if (joined_set == *this)
    return false;
  swap(joined_set);
  return true;
}

constexpr std::strong_ordering operator<=>(const device_set& a, const device_set& b) {
  if (a.is_all() != b.is_all())
    return a.is_all() ? std::strong_ordering::greater : std::strong_ordering::less;
  const auto x = a.intervals(), y = b.intervals();
  if (auto c = std::lexicographical_compare_three_way(x.begin(), x.end(), y.begin(), y.end());
      c != 0)
    return c;
  if (!a.has_progressions() && !b.has_progressions())
    return std::strong_ordering::equal;
  const auto p = a.progressions(), q = b.progressions();
  for (std::size_t i = 0; i < p.size() && i < q.size(); ++i)
    if (auto c = p[i] <=> q[i]; c != 0)
      return c;
  return p.size() <=> q.size();
}

constexpr bool device_set::contains(device_id d, device_id world_size) const {
  if (d < 0 || d >= world_size)
    return false;
  if (is_all() || contains(d))
    return true;
  for (const auto p : progressions())
    if (p.holds(d) && d < world_size - p.stop_offset)
      return true;
  return false;
}

constexpr std::vector<device_id> device_set::at_world(device_id world_size) const {
  std::vector<device_id> out;
  if (is_all()) {
    for (device_id d = 0; d < world_size; ++d)
      out.push_back(d);
    return out;
  }
  for_each([&](device_id d) {
    if (d >= 0 && d < world_size)
      out.push_back(d);
  });
  for (const auto p : progressions()) {
    const device_id stop = world_size - p.stop_offset;
    for (device_id d = p.start; d < stop; d += p.step) {
      out.push_back(d);
      if (stop - d <= p.step)
        break;
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// Accumulates evidence cheaply (append only) and normalizes once at the end.
class device_set::builder {
public:
  constexpr void add_all() { s_.accumulate(all()); }
  constexpr void add(device_interval r) { s_.accumulate(r); }
  constexpr void add(const device_set& s) { s_.accumulate(s); }
  [[nodiscard]] constexpr device_set finish() {
    s_.normalize();
    return std::exchange(s_, device_set{});
  }

private:
  device_set s_;
};

namespace detail {
/// v.push_back(std::move(s)): where the pass appends sets, so that with the separately
/// compiled core std::vector<device_set>'s growth is compiled there, once.
constexpr void append(vec<device_set>& v, device_set&& s) {
  COMMSCOPE_RUN_COMPILED(append(v, std::move(s)));
  v.push_back(std::move(s));
}
} // namespace detail

} // namespace commscope

// canonicalize() and includes() with the algorithms they run: this header gives the whole
// device_set.
#include <commscope/detail/canonical_form.hpp>
#include <commscope/detail/set_inclusion.hpp>
#include <commscope/detail/vector.hpp>
