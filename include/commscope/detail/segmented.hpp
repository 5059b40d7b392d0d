// A sequence that grows in segments of fixed capacity: appending never moves what it
// holds, and it never holds more than one segment of room beyond its size. For the walk's
// largest facts, whose count is known only at its end: a vector sized from an estimate
// held up to twice what was needed, and giving the excess back copied it all at the
// analysis' peak.
#pragma once

#include <commscope/detail/vector.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace commscope::detail {

template <class T> class segmented {
  /// Segments of about 32 KiB (at least 64 elements): few enough that finding one costs
  /// nothing, small enough that the room beyond the size stays small.
  static constexpr std::size_t shift = [] {
    std::size_t k = 6;
    while (k < 12 && (sizeof(T) << (k + 1)) <= 32768)
      ++k;
    return k;
  }();
  static constexpr std::size_t segment = std::size_t{1} << shift;
  static constexpr std::size_t mask = segment - 1;

public:
  class iterator {
  public:
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    constexpr iterator() = default;
    constexpr iterator(const segmented* s, std::size_t i) : s_(s), i_(i) {}
    constexpr const T& operator*() const { return (*s_)[i_]; }
    constexpr iterator& operator++() {
      ++i_;
      return *this;
    }
    constexpr iterator operator++(int) {
      auto old = *this;
      ++i_;
      return old;
    }
    friend constexpr bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }

  private:
    const segmented* s_ = nullptr;
    std::size_t i_ = 0;
  };

  [[nodiscard]] constexpr std::size_t size() const { return size_; }
  [[nodiscard]] constexpr bool empty() const { return size_ == 0; }
  [[nodiscard]] constexpr T& operator[](std::size_t i) { return segments_[i >> shift][i & mask]; }
  [[nodiscard]] constexpr const T& operator[](std::size_t i) const {
    return segments_[i >> shift][i & mask];
  }
  [[nodiscard]] constexpr iterator begin() const { return {this, 0}; }
  [[nodiscard]] constexpr iterator end() const { return {this, size_}; }

  /// Appends; a full segment is left as it is and a new one begun. Within a segment the
  /// vector grows as vectors do, so a short sequence takes little room.
  template <class... Args> constexpr T& emplace_back(Args&&... args) {
    if ((size_ & mask) == 0) {
      segments_.emplace_back();
      if (size_ != 0) // a sequence past its first segment fills whole ones
        segments_.back().reserve(segment);
    }
    ++size_;
    return segments_.back().emplace_back(std::forward<Args>(args)...);
  }

  /// Empties it and frees its segments.
  constexpr void clear() {
    segments_.clear();
    size_ = 0;
  }

private:
  std::vector<vec<T>> segments_;
  std::size_t size_ = 0;
};

} // namespace commscope::detail
