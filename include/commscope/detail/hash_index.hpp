// Grouping of equal keys that have no dense numbering (device sets, allocation names) in
// linear expected time: an open-addressing table of indices into the caller's array.
// It replaces sorting A keys (A log A comparisons, each a string or interval-list
// compare) where only "seen before?" is asked. Constant-evaluable: the hashes are
// computed here (a multiply-xorshift mix of whole words), not by std::hash.
#pragma once

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/device_set.hpp>
#include <commscope/plan.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace commscope::detail {

inline constexpr std::uint64_t fnv_offset = 14695981039346656037ull;

/// Mixes a whole word in at once (a byte-wise FNV step per byte costs eight multiplies):
/// the multiply spreads low bits up, the shift brings high bits back down.
constexpr std::uint64_t hash_mix(std::uint64_t h, std::uint64_t v) {
  h = (h ^ v) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 32);
}

/// Eight bytes at a time (assembled by shifts, which constant evaluation allows and the
/// optimizer turns into one load): a byte-wise step per character made hashing names a
/// tenth of the analysis.
constexpr std::uint64_t hash_of(std::string_view s) {
  std::uint64_t h = hash_mix(fnv_offset, s.size());
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w = 0;
    for (std::size_t k = 0; k < 8; ++k)
      w |= std::uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
    h = hash_mix(h, w);
  }
  if (i < s.size()) {
    std::uint64_t w = 0;
    for (std::size_t k = 0; i + k < s.size(); ++k)
      w |= std::uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
    h = hash_mix(h, w);
  }
  return h;
}

constexpr std::uint64_t hash_of(const device_set& d) {
  std::uint64_t h = hash_mix(fnv_offset, d.is_all() ? 1u : 0u);
  for (const auto& r : d.intervals())
    h = hash_mix(hash_mix(h, static_cast<std::uint64_t>(r.first)),
                 static_cast<std::uint64_t>(r.last));
  if (d.has_progressions()) [[unlikely]] // sets that differ only there must not collide
    for (const device_progression p : d.progressions())
      h = hash_mix(hash_mix(hash_mix(h, static_cast<std::uint64_t>(p.start)),
                            static_cast<std::uint64_t>(p.step)),
                   static_cast<std::uint64_t>(p.stop_offset));
  return h;
}

/// Maps a key (given by its hash and an equality test against stored indices) to the
/// first index inserted with it. It grows as it fills, so a caller that cannot know how
/// many distinct keys there will be (domains among allocations) sizes it small.
class index_table {
public:
  /// Empties the table, with room for `n` insertions before it first grows (load at
  /// most one half).
  constexpr void reset(std::size_t n) {
    COMMSCOPE_RUN_COMPILED(reset(*this, n));
    reset_impl(n);
  }
  constexpr void reset_impl(std::size_t n) {
    std::size_t cap = 8;
    while (cap < 2 * n)
      cap *= 2;
    slots_.assign(cap, entry{});
    mask_ = cap - 1;
    size_ = 0;
  }

  /// The index stored for an equal key, or `i` after storing it. `equal(j)` compares
  /// the key of stored index j with the key being looked up.
  template <class Equal>
  constexpr std::uint32_t find_or_insert(std::uint64_t hash, std::uint32_t i, Equal&& equal) {
    // Folded to 32 bits, the high bits mixed into the low ones that pick the slot.
    const auto tag = static_cast<std::uint32_t>(hash ^ (hash >> 29) ^ (hash >> 47));
    for (std::size_t pos = tag & mask_;; pos = (pos + 1) & mask_) {
      auto& e = slots_[pos];
      if (e.index == no_index) {
        if (2 * (size_ + 1) > slots_.size()) {
          grow();
          place({tag, i});
        } else {
          e = {tag, i};
        }
        ++size_;
        return i;
      }
      if (e.tag == tag && equal(e.index))
        return e.index;
    }
  }

private:
  friend struct compiled;
  /// 8 bytes: the folded hash (which also places the entry) and the index.
  struct entry {
    std::uint32_t tag = 0;
    std::uint32_t index = no_index;
  };

  constexpr void place(entry e) {
    std::size_t pos = e.tag & mask_;
    while (slots_[pos].index != no_index)
      pos = (pos + 1) & mask_;
    slots_[pos] = e;
  }
  constexpr void grow() {
    COMMSCOPE_RUN_COMPILED(grow(*this));
    grow_impl();
  }
  constexpr void grow_impl() {
    vec<entry> old(2 * slots_.size(), entry{});
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const auto& e : old)
      if (e.index != no_index)
        place(e);
  }

  vec<entry> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

} // namespace commscope::detail
