// A sequence that grows in segments of fixed capacity: appending never moves what it
// holds, and it never holds more than one segment of room beyond its size. For the walk's
// facts, whose count is known only at its end: a vector sized from an estimate held up
// to twice what was needed, its growth held the old and the new array at once, and
// giving the excess back copied it all at the analysis' peak.
//
// The segments are blocks it allocates itself, listed in a vector of pointers: a vector
// of vectors brought a std::vector's functions for every element type.
#pragma once

#include <commscope/detail/vector.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace commscope::detail {

template <class T> class segmented {
  /// Segments of about 32 KiB (at least 64 elements): few enough that finding one costs
  /// nothing, small enough that the room beyond the size stays small. (With 8 or 16 KiB
  /// the analysis ran 5 to 8% slower on the benchmarks' programs.)
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

  constexpr segmented() = default;
  segmented(const segmented&) = delete;
  segmented& operator=(const segmented&) = delete;
  constexpr segmented(segmented&& o) noexcept { take(o); }
  constexpr segmented& operator=(segmented&& o) noexcept {
    if (this != &o) {
      free();
      take(o);
    }
    return *this;
  }
  constexpr ~segmented() { free(); }

  [[nodiscard]] constexpr std::size_t size() const { return size_; }
  [[nodiscard]] constexpr bool empty() const { return size_ == 0; }
  [[nodiscard]] constexpr T& operator[](std::size_t i) { return segments_[i >> shift][i & mask]; }
  [[nodiscard]] constexpr const T& operator[](std::size_t i) const {
    return segments_[i >> shift][i & mask];
  }
  [[nodiscard]] constexpr iterator begin() const { return {this, 0}; }
  [[nodiscard]] constexpr iterator end() const { return {this, size_}; }

  /// Appends. The first segment grows as a vector does, so that a short sequence takes
  /// little room; past it, a full segment is left as it is and a new one begun.
  template <class... Args> constexpr T& emplace_back(Args&&... args) {
    if (next_ == limit_) {
      if (size_ < segment || (size_ & mask) != 0) { // the first, or a last one trimmed
        T made(std::forward<Args>(args)...);        // the arguments may be an element it moves
        const std::size_t held = size_ & mask;
        regrow_last(size_ < segment ? std::min(segment, std::max<std::size_t>(4, 2 * held))
                                    : segment);
        return place(std::move(made));
      }
      next_ = allocate(segment);
      limit_ = next_ + segment;
      segments_.emplace_back(next_);
      last_capacity_ = segment;
    }
    return place(std::forward<Args>(args)...);
  }

  /// Calls f(first, count) for each segment's elements, in order: a pass over all of
  /// them that does not find each element's segment again, as indexing does.
  template <class F> constexpr void for_each_block(F&& f) {
    for (std::size_t s = 0; s < segments_.size(); ++s)
      f(segments_[s], held_by(s));
  }

  /// Gives back the room beyond the size in the last segment, for a sequence that is
  /// complete: up to a segment (32 KiB) each, what a program of ten thousand allocations
  /// held idle at the analysis' peak was 6 bytes per allocation. Appending afterwards
  /// grows it again.
  constexpr void trim() {
    if (segments_.empty() || next_ == limit_ || next_ == segments_[segments_.size() - 1])
      return;
    regrow_last(static_cast<std::size_t>(next_ - segments_[segments_.size() - 1]));
  }

  /// Empties it and frees its segments but the first, whose room stays for what is
  /// appended next: a function's facts are cleared for the next function's, and a small
  /// function then allocates nothing.
  constexpr void clear() {
    if (segments_.empty())
      return;
    if constexpr (!std::is_trivially_destructible_v<T>)
      std::destroy_n(segments_[0], held_by(0));
    const std::size_t kept = segments_.size() == 1 ? last_capacity_ : segment;
    release_from(1);
    segments_.resize(1);
    size_ = 0;
    last_capacity_ = kept;
    next_ = segments_[0];
    limit_ = next_ + kept;
  }

  /// Calls f(element) for each element in order and frees each segment once it is read:
  /// it ends empty, holding no block, so that what f copies out of a large sequence
  /// never coexists with all of it.
  template <class F> constexpr void consume(F&& f) {
    for (std::size_t s = 0; s < segments_.size(); ++s) {
      const std::size_t n = held_by(s);
      for (std::size_t i = 0; i < n; ++i)
        f(std::as_const(segments_[s][i]));
      release_segment(s);
    }
    segments_.clear();
    free(); // the blocks are freed: what is left is to empty it
  }

private:
  template <class... Args> constexpr T& place(Args&&... args) {
    std::construct_at(next_, std::forward<Args>(args)...);
    ++size_;
    return *next_++;
  }

  /// Destroys the elements of segment `s` and frees it.
  constexpr void release_segment(std::size_t s) {
    if constexpr (!std::is_trivially_destructible_v<T>)
      std::destroy_n(segments_[s], held_by(s));
    deallocate(segments_[s], s + 1 == segments_.size() ? last_capacity_ : segment);
  }
  /// Destroys the elements of segments `from` on and frees those segments.
  constexpr void release_from(std::size_t from) {
    for (std::size_t s = from; s < segments_.size(); ++s)
      release_segment(s);
  }
  /// The elements segment `s` holds (every segment past the first holds at least one).
  [[nodiscard]] constexpr std::size_t held_by(std::size_t s) const {
    const std::size_t rest = size_ - (s << shift);
    return rest < segment ? rest : segment;
  }
  constexpr void free() {
    release_from(0);
    segments_.clear();
    size_ = 0;
    last_capacity_ = 0;
    next_ = limit_ = nullptr;
  }

  constexpr void take(segmented& o) {
    segments_.swap(o.segments_);
    size_ = std::exchange(o.size_, 0);
    last_capacity_ = std::exchange(o.last_capacity_, 0);
    next_ = std::exchange(o.next_, nullptr);
    limit_ = std::exchange(o.limit_, nullptr);
  }

  /// Plain data lives in raw blocks at run time, so that no std::allocator of its type is
  /// compiled (each costs the pass TU several functions); constant evaluation, which
  /// cannot reinterpret bytes, keeps typed storage. The builtin is the condition itself,
  /// which the compiler folds as it reads the function (vector.hpp).
  static constexpr bool plain =
      std::is_trivially_copyable_v<T> && alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__;
  static constexpr T* allocate(std::size_t n) {
    if constexpr (plain) {
      if (__builtin_is_constant_evaluated())
        return std::allocator<T>{}.allocate(n);
      else
        return static_cast<T*>(byte_array::reallocate(nullptr, 0, n * sizeof(T)));
    } else {
      return std::allocator<T>{}.allocate(n);
    }
  }
  static constexpr void deallocate(T* p, std::size_t n) {
    if constexpr (plain) {
      if (__builtin_is_constant_evaluated())
        std::allocator<T>{}.deallocate(p, n);
      else
        byte_array::release(p);
    } else {
      std::allocator<T>{}.deallocate(p, n);
    }
  }

  /// The last segment, moved into a block of `capacity` elements (at least what it
  /// holds); the first block when there is none.
  /// Out of line: once per segment, and every append would otherwise carry it.
  [[gnu::noinline]] constexpr void regrow_last(std::size_t capacity) {
    T* grown = allocate(capacity);
    if (segments_.empty()) {
      segments_.emplace_back(grown);
      next_ = grown;
    } else {
      T* old = segments_[segments_.size() - 1];
      const auto held = static_cast<std::size_t>(next_ - old);
      for (std::size_t i = 0; i < held; ++i) {
        std::construct_at(grown + i, std::move(old[i]));
        if constexpr (!std::is_trivially_destructible_v<T>)
          std::destroy_at(old + i);
      }
      deallocate(old, last_capacity_);
      segments_[segments_.size() - 1] = grown;
      next_ = grown + held;
    }
    last_capacity_ = capacity;
    limit_ = grown + capacity;
  }

  vec<T*> segments_;
  std::size_t size_ = 0;
  /// The last segment's room: `segment`, or less for a first one still growing or a
  /// trimmed one (every other segment is full at `segment`).
  std::size_t last_capacity_ = 0;
  T* next_ = nullptr;  ///< where the next element goes
  T* limit_ = nullptr; ///< the end of the last segment
};

} // namespace commscope::detail
