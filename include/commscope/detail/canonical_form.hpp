// The canonical form of a device set with progressions (docs/semantics.md, "Symbolic
// device sets"): device_set::canonicalize(), which clustering uses to compare symbolic
// sets. Part of device_set.hpp, which includes it.
#pragma once

#include <commscope/detail/vector.hpp>
#include <commscope/device_set.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace commscope {
namespace detail {

/// The canonical form (see device_set::canonicalize). Let e(x) be the smallest stop offset through
/// which device x belongs (0 for an id) and W the smallest world. x is in the set for
/// exactly the worlds of at least max(W, x + 1 + e(x)) devices, so two sets are equal in
/// every admissible world exactly when that first world agrees for every x. The form is
/// built from that function alone, hence equal sets get equal forms (given ids below W):
/// - x is *present* when x + e(x) < W (in every admissible world); a present device whose
///   first world no chosen progression matches is an id;
/// - every other device needs a progression of stop offset e(x). In ascending order, each
///   such device not yet covered takes the progression of the smallest step that puts none
///   of its elements into a world that lacks it, started at its smallest element whose
///   first world it matches (walking down, up to the first element it would put into a
///   world that lacks it).
/// The spec's rules are special cases: one line's merge is its smaller start; an id below
/// W - C that continues a progression downwards or lies on it is reached by that start;
/// K progressions of step K with consecutive starts put nothing extra anywhere at step 1;
/// range(0, ws) is all. So are the rules it needs beyond them: a progression nested in
/// another (range(2, ws, 4) in range(0, ws, 2)), or whose devices the others give as
/// early, is never chosen; a step is the smallest that fits (range(0, ws, 4) and
/// range(2, ws, 4) are range(0, ws, 2)).
struct canonical_form {
  /// Bounds of the explicit construction: constants and the smallest world, the period
  /// (lcm of the steps) and the extent walked past the last start.
  static constexpr device_id bound = device_id{1} << 16;
  static constexpr device_id period_bound = 1 << 10;
  static constexpr device_id none = INT64_MAX;

  const device_set::parts& s;
  device_id W;
  device_id tail = 0;   ///< past the ids, the starts and W: membership repeats by `period`
  device_id period = 1; ///< the lcm of the steps

  [[nodiscard]] constexpr device_id offset(device_id x) const {
    device_id e = s.ids.contains(x) ? 0 : none;
    for (const auto& p : s.progressions)
      if (p.stop_offset < e && p.holds(x))
        e = p.stop_offset;
    return e;
  }
  /// Covering x with stop offset c adds no world to it.
  [[nodiscard]] constexpr bool fits(device_id x, device_id c) const {
    const device_id e = offset(x);
    return e != none && (e <= c || e <= W - 1 - x);
  }
  /// Covering x with stop offset c gives exactly its first world.
  [[nodiscard]] constexpr bool exact(device_id x, device_id c) const {
    const device_id e = offset(x);
    if (e == none)
      return false;
    return e <= W - 1 - x ? c <= W - 1 - x : c == e;
  }
  /// Every element of range(x, ws - c, d) fits: up to the tail, then one period.
  [[nodiscard]] constexpr bool fits_from(device_id x, device_id d, device_id c) const {
    device_id y = x;
    for (; y < tail; y += d)
      if (!fits(y, c))
        return false;
    for (device_id k = period / std::gcd(d, period); k > 0; --k, y += d)
      if (!fits(y, c))
        return false;
    return true;
  }
  /// The progression that covers x with stop offset c into `out`; false when none fits.
  /// (A flag, as for run, not std::optional, whose code g++ would compile for one use.)
  [[nodiscard]] constexpr bool choose(device_id x, device_id c, device_progression& out) const {
    // The progression that gave x its offset has a step of at most `period`.
    for (device_id d = 1; d <= period; ++d) {
      if (!fits_from(x, d, c))
        continue;
      device_id start = x;
      for (device_id y = x - d; y >= 0 && fits(y, c); y -= d)
        if (exact(y, c))
          start = y;
      out = device_progression{start, d, c};
      return true;
    }
    return false;
  }

  /// The canonical form of `s` for worlds of at least W devices into `out`; false, `out`
  /// untouched, beyond the bounds. A flag and an out-parameter, not std::optional, whose
  /// code for a class with a destructor g++ would compile for this one use.
  static constexpr bool run(const device_set::parts& s, device_id W, device_set& out) {
    canonical_form f{s, W};
    if (W >= bound)
      return false;
    f.tail = W;
    device_id widest = 0; // the largest stop offset
    for (const auto& p : s.progressions) {
      if (p.start >= bound || p.step >= bound || p.stop_offset >= bound)
        return false;
      f.period = std::lcm(f.period, p.step);
      if (f.period > period_bound)
        return false;
      f.tail = std::max(f.tail, p.start);
      widest = std::max(widest, p.stop_offset);
    }
    if (!s.ids.is_bottom()) {
      const device_id last = s.ids.intervals().back().last;
      if (last >= bound)
        return false;
      f.tail = std::max(f.tail, last + 1);
    }
    vec<device_progression> chosen;
    const auto gives = [&](device_id x, device_id e) {
      return std::any_of(chosen.begin(), chosen.end(),
                         [&](const auto& q) { return q.stop_offset == e && q.holds(x); });
    };
    // Past tail + extent every device repeats one `extent` earlier, already covered: the
    // steps chosen past the tail divide the period.
    device_id extent = f.period;
    for (device_id x = std::max<device_id>(0, W - widest); x < f.tail + extent; ++x) {
      const device_id e = f.offset(x);
      if (e == none || e <= W - 1 - x || gives(x, e))
        continue; // absent, present, or covered
      if (e == 0 && s.ids.contains(x))
        continue; // an id at or past W: kept unless a later choice covers it
      device_progression p{};
      if (!f.choose(x, e, p))
        return false;
      chosen.push_back(p);
      extent = std::lcm(extent, p.step);
      if (extent > bound)
        return false;
    }
    device_set::sort_progressions(chosen);
    if (!chosen.empty() && chosen.front() == device_progression{0, 1, 0}) {
      out = device_set::all();
      return true;
    }
    device_set ids;
    for (device_id x = 0; x < f.tail; ++x)
      if (f.exact(x, 0) && !std::any_of(chosen.begin(), chosen.end(), [&](const auto& q) {
            return q.holds(x) && f.exact(x, q.stop_offset);
          }))
        ids.accumulate(device_interval{x, x});
    ids.normalize();
    out = device_set::joined(ids, chosen);
    return true;
  }
};

} // namespace detail

constexpr bool device_set::canonicalize_impl(device_id min_world) {
  if (!has_progressions())
    return false;
  device_set c;
  if (!detail::canonical_form::run(split(), std::max<device_id>(min_world, 1), c) || c == *this)
    return false;
  swap(c);
  return true;
}

} // namespace commscope
