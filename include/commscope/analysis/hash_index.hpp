// Grouping of equal keys that have no dense numbering (device sets, allocation names) in
// linear expected time: an open-addressing table of indices into the caller's array.
// It replaces sorting A keys (A log A comparisons, each a string or interval-list
// compare) where only "seen before?" is asked. Constant-evaluable: the hashes are
// computed here (FNV-1a), not by std::hash, and the table lives in the storage policy's
// vector.
#pragma once

#include <commscope/device_set.hpp>
#include <commscope/plan.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace commscope::detail {

inline constexpr std::uint64_t fnv_offset = 14695981039346656037ull;
inline constexpr std::uint64_t fnv_prime = 1099511628211ull;

/// Mixes a whole word in at once (a byte-wise FNV step per byte costs eight multiplies):
/// the multiply spreads low bits up, the shift brings high bits back down.
constexpr std::uint64_t hash_mix(std::uint64_t h, std::uint64_t v) {
  h = (h ^ v) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 32);
}

constexpr std::uint64_t hash_of(std::string_view s) {
  std::uint64_t h = fnv_offset;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= fnv_prime;
  }
  return h;
}

template <class Storage> constexpr std::uint64_t hash_of(const device_set<Storage>& d) {
  std::uint64_t h = hash_mix(fnv_offset, d.is_all() ? 1u : 0u);
  for (const auto& r : d.intervals())
    h = hash_mix(hash_mix(h, static_cast<std::uint64_t>(r.first)),
                 static_cast<std::uint64_t>(r.last));
  return h;
}

/// Maps a key (given by its hash and an equality test against stored indices) to the
/// first index inserted with it.
template <class Storage> class index_table {
public:
  /// Empties the table and sizes it for `n` insertions (load at most one half).
  constexpr void reset(std::size_t n) {
    std::size_t cap = 8;
    while (cap < 2 * n)
      cap *= 2;
    slots_.assign(cap, entry{});
    mask_ = cap - 1;
  }

  /// The index stored for an equal key, or `i` after storing it. `equal(j)` compares
  /// the key of stored index j with the key being looked up.
  template <class Equal>
  constexpr std::uint32_t find_or_insert(std::uint64_t hash, std::uint32_t i, Equal&& equal) {
    // The low bits of FNV-1a are weak for keys that differ in high bytes: fold first.
    std::size_t pos = static_cast<std::size_t>(hash ^ (hash >> 29) ^ (hash >> 47)) & mask_;
    for (;; pos = (pos + 1) & mask_) {
      auto& e = slots_[pos];
      if (e.index == no_index) {
        e = {hash, i};
        return i;
      }
      if (e.hash == hash && equal(e.index))
        return e.index;
    }
  }

private:
  struct entry {
    std::uint64_t hash = 0;
    std::uint32_t index = no_index;
  };
  typename Storage::template vector<entry> slots_;
  std::size_t mask_ = 0;
};

} // namespace commscope::detail
