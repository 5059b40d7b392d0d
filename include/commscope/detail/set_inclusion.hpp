// Inclusion of device sets in every admissible world (docs/semantics.md, "Symbolic
// device sets"): device_set::includes(), which the verifier uses for soundness, judged
// arithmetically. Part of device_set.hpp, which includes it.
#pragma once

#include <commscope/detail/vector.hpp>
#include <commscope/device_set.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

namespace commscope {
namespace detail {

/// includes(): the parts of `other`, each a piece {a + k*t <= hi} with a stop offset,
/// judged against the parts of the including set that may hold its devices.
struct set_inclusion {
  static constexpr device_id unbounded = INT64_MAX;
  static constexpr std::uint64_t period_bound = std::uint64_t{1} << 16;
  /// A progression of the including set as far as it may hold a piece's devices:
  /// start + k*step <= last.
  struct line {
    device_id start, step, last;
  };

  std::span<const device_interval> ids; ///< the including set's ids
  std::span<const device_progression> progressions;
  device_id W;
  vec<line> lines; ///< for the piece being judged

  /// The progressions that may hold devices of a part of stop offset c: one of stop
  /// offset at most c holds them in every world that has them; a larger one only
  /// devices x with x + its offset below W, present from the smallest world on.
  constexpr void prepare(device_id c) {
    lines.clear();
    for (const auto& p : progressions) {
      if (p.start < 0 || p.step < 1 || p.stop_offset < 0)
        continue; // no progression: holds nothing
      const device_id last = p.stop_offset <= c ? unbounded : W - 1 - p.stop_offset;
      if (last >= p.start)
        lines.push_back({p.start, p.step, last});
    }
  }

  /// The first point x + k*t past `after` (>= x), or none if it is past hi.
  static constexpr std::optional<device_id> next(device_id x, device_id t, device_id after,
                                                 device_id hi) {
    const auto k = (static_cast<std::uint64_t>(after) - static_cast<std::uint64_t>(x)) /
                       static_cast<std::uint64_t>(t) +
                   1;
    const auto room = (static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(x)) /
                      static_cast<std::uint64_t>(t);
    if (k > room)
      return std::nullopt;
    return static_cast<device_id>(static_cast<std::uint64_t>(x) +
                                  k * static_cast<std::uint64_t>(t));
  }

  /// Whether every point of {a + k*t <= hi} (a >= 0, t >= 1) is an id or on a line.
  [[nodiscard]] constexpr bool covers(device_id a, device_id t, device_id hi) const {
    device_id x = a;
    while (x <= hi) {
      const auto it =
          std::lower_bound(ids.begin(), ids.end(), x,
                           [](const device_interval& r, device_id y) { return r.last < y; });
      if (it != ids.end() && it->first <= x) { // ids hold a stretch: skip past it
        if (it->last >= hi)
          return true;
        const auto n = next(x, t, it->last, hi);
        if (!n)
          return true;
        x = *n;
        continue;
      }
      // The stretch [x, e]: no id, no line starts or ends inside it.
      device_id e = hi;
      if (it != ids.end())
        e = std::min(e, it->first - 1);
      std::uint64_t period = 1; // of the points, in steps of t: lcm of step / gcd(step, t)
      bool any = false, whole = false;
      for (const auto& l : lines) {
        if (l.start > x) {
          e = std::min(e, l.start - 1);
          continue;
        }
        if (l.last < x)
          continue;
        e = std::min(e, l.last);
        const device_id g = std::gcd(l.step, t);
        if ((x - l.start) % g != 0)
          continue; // meets none of the points
        any = true;
        const auto m = static_cast<std::uint64_t>(l.step / g);
        if (m == 1)
          whole = true; // holds every point
        else if (m > period_bound)
          period = period_bound + 1;
        else if (period <= period_bound)
          period = period / std::gcd(period, m) * m;
      }
      if (!any)
        return false; // x itself is held by nothing
      if (!whole) {
        // The lines repeat every `period` points: check one period, or all if fewer.
        const std::uint64_t count =
            (static_cast<std::uint64_t>(e) - static_cast<std::uint64_t>(x)) /
                static_cast<std::uint64_t>(t) +
            1;
        const std::uint64_t checked = std::min(count, period);
        if (checked > period_bound)
          return false; // not proven
        device_id y = x;
        for (std::uint64_t k = 1;; ++k, y += t) { // y + t <= e while k < count
          if (!on_line(y, x))
            return false;
          if (k == checked)
            break;
        }
      }
      if (e >= hi)
        return true;
      const auto n = next(x, t, e, hi);
      if (!n)
        return true;
      x = *n;
    }
    return true;
  }

  /// Whether y is on a line that spans the stretch starting at x.
  [[nodiscard]] constexpr bool on_line(device_id y, device_id x) const {
    for (const auto& l : lines)
      if (l.start <= x && x <= l.last && (y - l.start) % l.step == 0)
        return true;
    return false;
  }
};

} // namespace detail

constexpr bool device_set::includes_impl(const device_set& other, device_id min_world) const {
  if (is_all() || other.is_bottom())
    return true;
  if (is_bottom())
    return false;
  const parts mine = split();
  detail::set_inclusion in{
      mine.ids.intervals(), mine.progressions, std::max<device_id>(min_world, 1), {}};
  if (other.is_all()) {
    in.prepare(0);
    return in.covers(0, 1, detail::set_inclusion::unbounded);
  }
  in.prepare(0);
  for (const auto& r : other.intervals())
    if (r.last >= 0 && !in.covers(std::max<device_id>(r.first, 0), 1, r.last))
      return false;
  for (const auto p : other.progressions()) {
    if (p.start < 0 || p.step < 1 || p.stop_offset < 0)
      return false;
    in.prepare(p.stop_offset);
    if (!in.covers(p.start, p.step, detail::set_inclusion::unbounded))
      return false;
  }
  return true;
}

} // namespace commscope
