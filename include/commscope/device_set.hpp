// The device-descriptor lattice (pass.md, "Device descriptors"):
//   bottom (no evidence) < finite subsets ordered by inclusion < all.
// Join is union and `all` absorbs. No IR in sight.
//
// A finite set is kept as ascending, disjoint, non-adjacent closed intervals, so that a
// constant loop of a million devices costs one interval, not a million ids.
//
// The set is 24 bytes: the plan keeps one per allocation and per domain, and almost every
// set is one interval (a device, a loop's range) or a state (bottom, all). One interval is
// held inline; two or more live in a heap array. The same type runs at run time and in
// constant evaluation (std::allocator is constexpr in C++20), so it needs no storage policy.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

namespace commscope {

using device_id = std::int64_t;

struct device_interval {
  device_id first;
  device_id last; ///< inclusive
  friend constexpr bool operator==(const device_interval&, const device_interval&) = default;
  friend constexpr auto operator<=>(const device_interval&, const device_interval&) = default;
};

class device_set {
public:
  using intervals_type = std::span<const device_interval>;

  constexpr device_set() = default; ///< bottom
  constexpr device_set(const device_set& o) : one_{o.one_[0]} {
    if (o.many_) {
      one_[0].last = one_[0].first; // capacity: exactly the count
      many_ = allocate(count_of(o));
      copy_into(many_, o.many_, count_of(o));
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

  /// Becomes the devices of `r` (first <= last) in place.
  constexpr void assign(device_interval r) {
    release();
    one_[0] = r;
  }

  [[nodiscard]] constexpr bool is_all() const { return !many_ && one_[0] == all_state; }
  [[nodiscard]] constexpr bool is_bottom() const { return !many_ && one_[0] == bottom_state; }
  /// The intervals of a finite set, ascending (empty for bottom and for all).
  [[nodiscard]] constexpr intervals_type intervals() const {
    return {many_ ? many_ : one_, runs()};
  }

  /// Number of devices of a finite set (0 for bottom and for all).
  [[nodiscard]] constexpr std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& r : intervals())
      n += static_cast<std::uint64_t>(r.last - r.first) + 1;
    return n;
  }

  [[nodiscard]] constexpr bool contains(device_id d) const {
    if (is_all())
      return true;
    const auto v = intervals();
    auto it = std::lower_bound(v.begin(), v.end(), d,
                               [](const device_interval& r, device_id x) { return r.last < x; });
    return it != v.end() && it->first <= d;
  }

  /// Calls f(id) for every device of a finite set, ascending.
  template <class F> constexpr void for_each(F&& f) const {
    for (const auto& r : intervals())
      for (device_id d = r.first;; ++d) {
        f(d);
        if (d == r.last)
          break;
      }
  }

  /// Least upper bound, in place. Returns whether *this changed.
  constexpr bool join(const device_set& other) {
    if (is_all() || other.is_bottom())
      return false;
    if (other.is_all() || is_bottom()) {
      *this = other;
      return true;
    }
    if (!many_ && !other.many_ && touch(one_[0], other.one_[0])) { // the common case: one interval
      const device_interval u{std::min(one_[0].first, other.one_[0].first),
                              std::max(one_[0].last, other.one_[0].last)};
      const bool changed = !(u == one_[0]);
      one_[0] = u;
      return changed;
    }
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

  friend constexpr bool operator==(const device_set& a, const device_set& b) {
    if (a.many_ || b.many_) {
      const auto x = a.intervals(), y = b.intervals();
      return std::equal(x.begin(), x.end(), y.begin(), y.end());
    }
    return a.one_[0] == b.one_[0];
  }
  /// A total order (bottom first, all last, finite sets lexicographically), for users
  /// that keep sets in sorted containers.
  friend constexpr std::strong_ordering operator<=>(const device_set& a, const device_set& b) {
    if (a.is_all() != b.is_all())
      return a.is_all() ? std::strong_ordering::greater : std::strong_ordering::less;
    const auto x = a.intervals(), y = b.intervals();
    return std::lexicographical_compare_three_way(x.begin(), x.end(), y.begin(), y.end());
  }

  /// Accumulation in place, for callers that keep one set per item (no builder to
  /// finish and move from): accumulate() appends cheaply and leaves the set unnormalized
  /// (unsorted, possibly overlapping) until normalize().
  constexpr void accumulate(device_interval r) {
    if (is_all())
      return;
    // The same or a neighbouring interval again (an allocation dispatched on the same
    // devices many times, or on d and d+1) widens the last one instead of growing the
    // list: the set stays inline and normalize() has nothing to sort.
    if (!is_bottom()) {
      auto& b = many_ ? many_[count_of(*this) - 1] : one_[0];
      if (touch(b, r)) {
        b = {std::min(b.first, r.first), std::max(b.last, r.last)};
        return;
      }
    }
    append(r);
  }
  constexpr void accumulate(const device_set& s) {
    if (is_all())
      return;
    if (s.is_all()) {
      assign_all();
      return;
    }
    for (const auto& r : s.intervals())
      accumulate(r);
  }
  constexpr void normalize() {
    if (many_) {
      std::sort(many_, many_ + count_of(*this));
      coalesce();
    }
  }

  class builder;

  constexpr void swap(device_set& o) noexcept {
    std::swap(one_[0], o.one_[0]);
    std::swap(many_, o.many_);
  }

private:
  // Without a heap array, `one_[0]` is the set's one interval, or a state no interval can be
  // (first > last). With one, `one_[0]` holds its count (>= 2) and capacity.
  static constexpr device_interval bottom_state{0, -1};
  static constexpr device_interval all_state{1, -1};

  static constexpr std::size_t count_of(const device_set& s) {
    return static_cast<std::size_t>(s.one_[0].first);
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
      std::destroy_n(many_, count_of(*this));
      std::allocator<device_interval>{}.deallocate(many_, static_cast<std::size_t>(one_[0].last));
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

  device_interval one_[1] = {bottom_state}; ///< an array: g++ 12 rejects one past a plain member
                                            ///< in constant evaluation
  device_interval* many_ = nullptr;
};

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

} // namespace commscope
