// The devices of a function's allocations while its dispatches are judged: each distinct
// set is held once, and an allocation's devices are an index into the pool (4 bytes,
// where a set of its own took 24 at the analysis' peak). Dispatches repeat their devices
// and neighboring allocations their pairs of sets: two small direct-mapped caches find
// those again without hashing a set. Nothing here depends on the IR, so that the
// separately compiled core compiles the lookups once (compiled.hpp).
#pragma once

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/hash_index.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/device_set.hpp>

#include <cstddef>
#include <cstdint>

namespace commscope::detail {

class device_pool {
public:
  /// The index of bottom: the devices of an allocation no dispatch has passed.
  static constexpr std::uint32_t bottom = 0;

  /// Empty but for bottom; for the next function.
  constexpr void reset() {
    release();
    table_.reset(16);
    intern(device_set{});
    for (auto& slot : intervals_)
      slot = {};
    for (auto& slot : joins_)
      slot = {};
  }
  /// Frees the sets.
  constexpr void release() { vec<device_set>().swap(sets_); }

  [[nodiscard]] constexpr const device_set& operator[](std::uint32_t id) const { return sets_[id]; }

  /// The index of a set equal to s: a set of one interval, the common case, is looked up
  /// by its interval first.
  constexpr std::uint32_t id_of(const device_set& s) {
    COMMSCOPE_RUN_COMPILED(id_of(*this, s));
    return id_of_impl(s);
  }
  constexpr std::uint32_t id_of_impl(const device_set& s) {
    const auto v = s.intervals();
    if (v.size() != 1 || s.has_progressions())
      return intern(s);
    const device_interval r = v[0];
    auto& slot =
        intervals_[(static_cast<std::uint64_t>(r.first) * 8 + static_cast<std::uint64_t>(r.last)) %
                   slots];
    if (slot.id == bottom || !(slot.r == r))
      slot = {r, intern(s)};
    return slot.id;
  }

  /// The index of the union of sets x and y, neither of them bottom.
  constexpr std::uint32_t join(std::uint32_t x, std::uint32_t y) {
    auto& slot = joins_[(std::size_t{x} * 8 + y) % slots];
    if (slot.x != x || slot.y != y)
      slot = {x, y, join_sets(x, y)};
    return slot.joined;
  }

  /// The index of a set equal to s, added if there is none.
  constexpr std::uint32_t intern(const device_set& s) {
    COMMSCOPE_RUN_COMPILED(intern(*this, s));
    return intern_impl(s);
  }
  [[gnu::noinline]] constexpr std::uint32_t intern_impl(const device_set& s) {
    const auto next = static_cast<std::uint32_t>(sets_.size());
    const auto i =
        table_.find_or_insert(hash_of(s), next, [&](std::uint32_t j) { return sets_[j] == s; });
    if (i == next)
      sets_.push_back(device_set(s));
    return i;
  }

  constexpr std::uint32_t join_sets(std::uint32_t x, std::uint32_t y) {
    COMMSCOPE_RUN_COMPILED(join_sets(*this, x, y));
    return join_sets_impl(x, y);
  }
  [[gnu::noinline]] constexpr std::uint32_t join_sets_impl(std::uint32_t x, std::uint32_t y) {
    device_set joined = sets_[x];
    joined.accumulate(sets_[y]);
    joined.normalize();
    return intern_impl(joined);
  }

private:
  static constexpr std::size_t slots = 64;
  struct interval_id {
    device_interval r{0, 0};
    std::uint32_t id = bottom; ///< bottom: an empty slot (a set of one interval is never bottom)
  };
  struct join_id {
    std::uint32_t x = bottom, y = bottom, joined = bottom; ///< x bottom: an empty slot
  };

  vec<device_set> sets_;
  index_table table_;
  interval_id intervals_[slots]{};
  join_id joins_[slots]{};
};

} // namespace commscope::detail
