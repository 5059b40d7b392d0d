// A flat hash table of handles keyed by a name each handle knows (a variable's name, an
// interned string): 16 bytes a slot, no node per entry, for the front end's tables that
// grow with the program (a million bindings in one host orchestrator).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace commscope::reference::detail {

/// A fast hash of a short name; never 0 (0 marks an empty slot).
inline std::uint64_t hash_name(std::string_view s) noexcept {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ (s.size() * 0xff51afd7ed558ccdull);
  const char* p = s.data();
  std::size_t n = s.size();
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
    p += 8;
    n -= 8;
  }
  if (n != 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  }
  h ^= h >> 29;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 32;
  return h | 1;
}

/// Handles (trivially copyable, a value-initialized one is "none") keyed by
/// `KeyOf{}(handle)`, a string_view; open addressing, linear probing.
template <class T, class KeyOf> class name_table {
public:
  /// The handle stored under `key`, or a value-initialized one.
  [[nodiscard]] T find(std::string_view key) const noexcept {
    if (slots_.empty())
      return T{};
    const std::uint64_t h = hash_name(key);
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
  void grow() {
    std::vector<slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, slot{});
    mask_ = slots_.size() - 1;
    for (const auto& s : old)
      if (s.hash != 0)
        for (std::size_t i = s.hash & mask_;; i = (i + 1) & mask_)
          if (slots_[i].hash == 0) {
            slots_[i] = s;
            break;
          }
  }

  std::vector<slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

} // namespace commscope::reference::detail
