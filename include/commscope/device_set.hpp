// The device-descriptor lattice (pass.md, "Device descriptors"):
//   bottom (no evidence) < finite subsets ordered by inclusion < all.
// Join is union and `all` absorbs. No IR in sight.
//
// A finite set is kept as ascending, disjoint, non-adjacent closed intervals, so that a
// constant loop of a million devices costs one interval, not a million ids.
#pragma once

#include <commscope/storage.hpp>

#include <algorithm>
#include <compare>
#include <cstdint>

namespace commscope {

using device_id = std::int64_t;

struct device_interval {
  device_id first;
  device_id last; ///< inclusive
  friend constexpr bool operator==(const device_interval&, const device_interval&) = default;
  friend constexpr auto operator<=>(const device_interval&, const device_interval&) = default;
};

template <class Storage = boost_storage>
class device_set {
public:
  using intervals_type = typename Storage::template small_vector<device_interval, 1>;

  constexpr device_set() = default; ///< bottom

  [[nodiscard]] static constexpr device_set bottom() { return {}; }
  [[nodiscard]] static constexpr device_set all() {
    device_set s;
    s.all_ = true;
    return s;
  }
  [[nodiscard]] static constexpr device_set single(device_id d) {
    device_set s;
    s.runs_.push_back({d, d});
    return s;
  }

  /// Becomes the devices of `r` (first <= last) in place, keeping its storage (no set
  /// built and moved in).
  constexpr void assign(device_interval r) {
    all_ = false;
    if (runs_.size() == 1) {
      runs_.front() = r;
      return;
    }
    runs_.clear();
    runs_.emplace_back(r);
  }

  [[nodiscard]] constexpr bool is_all() const { return all_; }
  [[nodiscard]] constexpr bool is_bottom() const { return !all_ && runs_.empty(); }
  [[nodiscard]] constexpr const intervals_type& intervals() const { return runs_; }

  /// Number of devices of a finite set (0 for bottom and for all).
  [[nodiscard]] constexpr std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& r : runs_)
      n += static_cast<std::uint64_t>(r.last - r.first) + 1;
    return n;
  }

  [[nodiscard]] constexpr bool contains(device_id d) const {
    if (all_)
      return true;
    auto it = std::lower_bound(runs_.begin(), runs_.end(), d,
                               [](const device_interval& r, device_id v) { return r.last < v; });
    return it != runs_.end() && it->first <= d;
  }

  /// Calls f(id) for every device of a finite set, ascending.
  template <class F>
  constexpr void for_each(F&& f) const {
    for (const auto& r : runs_)
      for (device_id d = r.first;; ++d) {
        f(d);
        if (d == r.last)
          break;
      }
  }

  /// Least upper bound, in place. Returns whether *this changed.
  constexpr bool join(const device_set& other) {
    if (all_ || other.is_bottom())
      return false;
    if (other.all_) {
      all_ = true;
      runs_.clear();
      return true;
    }
    // A two-way merge by hand (what std::merge does): std::merge into a back_inserter
    // also instantiates the inserter and small_vector's out-of-line push_back.
    intervals_type merged;
    merged.reserve(runs_.size() + other.runs_.size());
    auto a = runs_.cbegin(), b = other.runs_.cbegin();
    const auto a_end = runs_.cend(), b_end = other.runs_.cend();
    while (a != a_end || b != b_end)
      merged.emplace_back(b == b_end || (a != a_end && !(*b < *a)) ? *a++ : *b++);
    coalesce(merged);
    if (merged == runs_)
      return false;
    runs_ = std::move(merged);
    return true;
  }

  friend constexpr bool operator==(const device_set& a, const device_set& b) {
    return a.all_ == b.all_ && a.runs_ == b.runs_;
  }
  /// A total order (bottom first, all last, finite sets lexicographically), for users
  /// that keep sets in sorted containers.
  friend constexpr std::strong_ordering operator<=>(const device_set& a, const device_set& b) {
    if (a.all_ != b.all_)
      return a.all_ ? std::strong_ordering::greater : std::strong_ordering::less;
    return std::lexicographical_compare_three_way(a.runs_.begin(), a.runs_.end(),
                                                  b.runs_.begin(), b.runs_.end());
  }

  /// Accumulation in place, for callers that keep one set per item (no builder to
  /// finish and move from): accumulate() appends cheaply and leaves the set unnormalized
  /// (unsorted, possibly overlapping) until normalize().
  constexpr void accumulate(device_interval r) {
    if (all_)
      return;
    // The same or a neighbouring interval again (an allocation dispatched on the same
    // devices many times, or on d and d+1) widens the last one instead of growing the
    // list: the list stays in its inline slot and normalize() has nothing to sort.
    if (!runs_.empty()) {
      auto& b = runs_.back();
      const bool touches = (r.first <= b.last && r.last >= b.first) ||
                           (r.last < b.first && r.last + 1 == b.first) ||
                           (b.last < r.first && b.last + 1 == r.first);
      if (touches) {
        b.first = std::min(b.first, r.first);
        b.last = std::max(b.last, r.last);
        return;
      }
    }
    append(r);
  }
  constexpr void accumulate(const device_set& s) {
    if (all_)
      return;
    if (s.all_) {
      all_ = true;
      runs_.clear();
      return;
    }
    for (const auto& r : s.runs_)
      accumulate(r);
  }
  constexpr void normalize() {
    if (runs_.size() > 1) {
      std::sort(runs_.begin(), runs_.end());
      coalesce(runs_);
    }
  }

  /// Accumulates evidence cheaply (append only) and normalizes once at the end.
  class builder {
  public:
    constexpr void add_all() { s_.accumulate(all()); }
    constexpr void add(device_interval r) { s_.accumulate(r); }
    constexpr void add(const device_set& s) { s_.accumulate(s); }
    [[nodiscard]] constexpr device_set finish() {
      s_.normalize();
      device_set s = std::move(s_);
      s_ = {};
      return s;
    }

  private:
    device_set s_;
  };

private:
  constexpr void append(device_interval r) { runs_.emplace_back(r); }

  /// Merge overlapping and adjacent intervals of a sorted list, in place.
  static constexpr void coalesce(intervals_type& v) {
    std::size_t out = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (out > 0 && (v[out - 1].last >= v[i].first ||
                      (v[out - 1].last < INT64_MAX && v[out - 1].last + 1 == v[i].first))) {
        v[out - 1].last = std::max(v[out - 1].last, v[i].last);
      } else {
        v[out++] = v[i];
      }
    }
    v.resize(out);
  }

  bool all_ = false;
  intervals_type runs_;
};

} // namespace commscope
