// A flat hash table of handles keyed by a name each handle knows (a variable's name, an
// interned string): 16 bytes a slot, no node per entry, for the IR's interned names and
// the front end's tables that grow with the program (a million bindings in one host
// orchestrator).
#pragma once

#include <commscope/detail/vector.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace commscope::detail {

/// A fast hash of a short name; never 0 (0 marks an empty slot). Loads of fixed size
/// only (the last 8 or 4 bytes overlap the first), so a name costs a few instructions.
inline std::uint64_t hash_name(std::string_view s) noexcept {
  const auto mix = [](std::uint64_t a, std::uint64_t b) {
    std::uint64_t h = (a ^ 0xa0761d6478bd642full) * 0xff51afd7ed558ccdull;
    h ^= (h >> 32) ^ b;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
  };
  const char* p = s.data();
  const std::size_t n = s.size();
  std::uint64_t a = 0, b = 0;
  if (n >= 8) {
    std::uint64_t h = n;
    std::size_t i = 0;
    for (; n - i > 16; i += 16) {
      std::uint64_t x, y;
      std::memcpy(&x, p + i, 8);
      std::memcpy(&y, p + i + 8, 8);
      h = mix(x ^ h, y);
    }
    // 1 to 16 bytes left (8 at least in all): the first 8 of them, or the 8 before the
    // last 8, and the last 8 (loads that may overlap, never past the end).
    std::memcpy(&a, p + (n - i >= 8 ? i : n - 8), 8);
    std::memcpy(&b, p + n - 8, 8);
    a ^= h;
  } else if (n >= 4) {
    std::uint32_t x, y;
    std::memcpy(&x, p, 4);
    std::memcpy(&y, p + n - 4, 4);
    a = x;
    b = y;
  } else if (n > 0) {
    a = (std::uint64_t{static_cast<unsigned char>(p[0])} << 16) |
        (std::uint64_t{static_cast<unsigned char>(p[n >> 1])} << 8) |
        static_cast<unsigned char>(p[n - 1]);
  }
  return mix(mix(a, b), n ^ 0x8ebc6af09c88c6e3ull) | 1;
}

/// Handles (trivially copyable, a value-initialized one is "none") keyed by
/// `KeyOf{}(handle)`, a string_view; open addressing, linear probing.
template <class T, class KeyOf> class name_table {
public:
  /// The handle stored under `key`, or a value-initialized one.
  [[nodiscard]] T find(std::string_view key) const noexcept { return find(key, hash_name(key)); }
  /// The same, `h` being hash_name(key).
  [[nodiscard]] T find(std::string_view key, std::uint64_t h) const noexcept {
    if (slots_.empty())
      return T{};
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const slot& s = slots_[i];
      if (s.hash == 0)
        return T{};
      if (s.hash == h && KeyOf{}(s.item) == key)
        return s.item;
    }
  }
  /// Stores `item` under its key, replacing the handle stored there before.
  void put(T item) {
    if ((size_ + 1) * 2 > slots_.size())
      grow();
    const std::string_view key = KeyOf{}(item);
    const std::uint64_t h = hash_name(key);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      slot& s = slots_[i];
      if (s.hash == 0) {
        s = {h, item};
        ++size_;
        return;
      }
      if (s.hash == h && KeyOf{}(s.item) == key) {
        s.item = item;
        return;
      }
    }
  }
  /// Where `key` is, or goes: locate() then put_at() costs one probe.
  struct place {
    T found;
    std::size_t slot;
    std::uint64_t hash;
  };
  [[nodiscard]] place locate(std::string_view key) { return locate(key, hash_name(key)); }
  /// The same, `h` being hash_name(key).
  [[nodiscard]] place locate(std::string_view key, std::uint64_t h) {
    if ((size_ + 1) * 2 > slots_.size())
      grow();
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const slot& s = slots_[i];
      if (s.hash == 0)
        return {T{}, i, h};
      if (s.hash == h && KeyOf{}(s.item) == key)
        return {s.item, i, h};
    }
  }
  /// Stores `item` (whose key is the one located) where locate() found its place.
  void put_at(const place& p, T item) {
    slot& s = slots_[p.slot];
    if (s.hash == 0)
      ++size_;
    s = {p.hash, item};
  }
  /// Asks the processor for the slot where a key of hash `h` goes: a table of millions
  /// of names misses cache on nearly every new one, so a caller that knows the names it
  /// will meet (the scan's bindings) fetches them ahead. A hint; no effect on contents.
  void prefetch(std::uint64_t h) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
    if (!slots_.empty())
      __builtin_prefetch(&slots_[h & mask_], 1);
#else
    (void)h;
#endif
  }
  /// Room for `n` handles without growing (a hint: the table grows past it as needed).
  void reserve(std::size_t n) {
    std::size_t want = 64;
    while (want < 2 * (n + 1))
      want *= 2;
    if (want > slots_.size())
      grow(want);
  }
  void clear() noexcept {
    slots_.clear();
    mask_ = 0;
    size_ = 0;
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

private:
  struct slot {
    std::uint64_t hash = 0;
    T item{};
  };
  void grow(std::size_t to = 0) {
    vec<slot> old = std::move(slots_);
    slots_.assign(to != 0 ? to : old.empty() ? 64 : old.size() * 2, slot{});
    mask_ = slots_.size() - 1;
    for (const auto& s : old)
      if (s.hash != 0)
        for (std::size_t i = s.hash & mask_;; i = (i + 1) & mask_)
          if (slots_[i].hash == 0) {
            slots_[i] = s;
            break;
          }
  }

  /// Plain data: a detail::vec, so that a table (even an unused one, as a rewrite's
  /// node_factory holds) brings no std::vector of its own into a translation unit.
  vec<slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

} // namespace commscope::detail
