// The analysis' own arrays. Most of what it records is plain data (indices, handles,
// flags): for those, `vec` is `trivial_vector`, whose every growth, insertion and copy
// goes through a handful of functions on bytes, compiled once for all element types.
// A std::vector brings 50 to 80 functions of its own per element type (allocator,
// relocation and iterator layers), and that, over the fifty-odd arrays of a pass, was
// the largest part of compiling an adopter's pass. Elements that are not plain data
// stay in std::vector.
#pragma once

#include <compare>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace commscope::detail {

/// Byte-level operations of `trivial_vector`, shared by every element type.
struct byte_array {
  /// The capacity to grow to, from `capacity`, for at least `least` elements.
  [[nodiscard]] static constexpr std::size_t grown(std::size_t capacity, std::size_t least) {
    const std::size_t doubled = 2 * capacity;
    return doubled > least ? doubled : (least > 4 ? least : 4);
  }
  /// A new block of `capacity` bytes holding the first `used` bytes of `data`, which
  /// is released.
  [[gnu::noinline]] static void* reallocate(void* data, std::size_t used, std::size_t capacity) {
    void* grown = capacity == 0 ? nullptr : ::operator new(capacity);
    if (used != 0)
      std::memcpy(grown, data, used);
    ::operator delete(data);
    return grown;
  }
  static void release(void* data) noexcept { ::operator delete(data); }
  /// Opens `gap` bytes at `at`, moving the `used - at` bytes after it (the block has
  /// room).
  static void open(void* data, std::size_t used, std::size_t at, std::size_t gap) {
    char* bytes = static_cast<char*>(data);
    std::memmove(bytes + at + gap, bytes + at, used - at);
  }
  /// Closes the `gap` bytes at `at`.
  static void close(void* data, std::size_t used, std::size_t at, std::size_t gap) {
    char* bytes = static_cast<char*>(data);
    std::memmove(bytes + at, bytes + at + gap, used - at - gap);
  }
  /// Sets `count` elements of `size` bytes from `value`.
  [[gnu::noinline]] static void fill(void* data, std::size_t count, const void* value,
                                     std::size_t size) {
    if (count == 0)
      return;
    char* bytes = static_cast<char*>(data);
    std::memcpy(bytes, value, size);
    // Doubling what is written: a few large copies instead of one per element.
    for (std::size_t done = 1; done < count;) {
      const std::size_t step = done < count - done ? done : count - done;
      std::memcpy(bytes + done * size, bytes, step * size);
      done += step;
    }
  }
};

/// A vector of trivially copyable elements with std::vector's interface as far as the
/// analysis uses it; iterators are pointers. In constant evaluation it works on typed
/// storage, since bytes cannot be reinterpreted there. That branch is chosen with the
/// builtin, not std::is_constant_evaluated(): the compiler folds the builtin as it
/// reads the function, so the typed branch never reaches code generation, where the
/// library function would only be folded once inlined.
template <class T> class trivial_vector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;

  constexpr trivial_vector() noexcept = default;
  constexpr explicit trivial_vector(std::size_t count) { resize(count); }
  constexpr trivial_vector(std::size_t count, const T& value) { assign(count, value); }
  constexpr trivial_vector(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
  }
  template <class Iterator>
  requires(!std::is_integral_v<Iterator>) constexpr trivial_vector(Iterator first, Iterator last) {
    assign(first, last);
  }
  constexpr trivial_vector(const trivial_vector& other) { assign(other.begin(), other.end()); }
  constexpr trivial_vector(trivial_vector&& other) noexcept
      : first_(std::exchange(other.first_, nullptr)), last_(std::exchange(other.last_, nullptr)),
        end_(std::exchange(other.end_, nullptr)) {}
  constexpr trivial_vector& operator=(const trivial_vector& other) {
    if (this != &other)
      assign(other.begin(), other.end());
    return *this;
  }
  constexpr trivial_vector& operator=(trivial_vector&& other) noexcept {
    if (this != &other) {
      release();
      first_ = std::exchange(other.first_, nullptr);
      last_ = std::exchange(other.last_, nullptr);
      end_ = std::exchange(other.end_, nullptr);
    }
    return *this;
  }
  constexpr ~trivial_vector() {
    if (__builtin_is_constant_evaluated()) {
      if (first_ != nullptr)
        std::allocator<T>{}.deallocate(first_, static_cast<std::size_t>(end_ - first_));
    } else {
      byte_array::release(first_);
    }
  }

  [[nodiscard]] constexpr T* begin() noexcept { return first_; }
  [[nodiscard]] constexpr T* end() noexcept { return last_; }
  [[nodiscard]] constexpr const T* begin() const noexcept { return first_; }
  [[nodiscard]] constexpr const T* end() const noexcept { return last_; }
  [[nodiscard]] constexpr const T* cbegin() const noexcept { return first_; }
  [[nodiscard]] constexpr const T* cend() const noexcept { return last_; }
  [[nodiscard]] constexpr T* data() noexcept { return first_; }
  [[nodiscard]] constexpr const T* data() const noexcept { return first_; }
  [[nodiscard]] constexpr std::size_t size() const noexcept {
    return static_cast<std::size_t>(last_ - first_);
  }
  [[nodiscard]] constexpr std::size_t capacity() const noexcept {
    return static_cast<std::size_t>(end_ - first_);
  }
  [[nodiscard]] constexpr bool empty() const noexcept { return first_ == last_; }
  [[nodiscard]] constexpr T& operator[](std::size_t i) noexcept { return first_[i]; }
  [[nodiscard]] constexpr const T& operator[](std::size_t i) const noexcept { return first_[i]; }
  [[nodiscard]] constexpr T& front() noexcept { return *first_; }
  [[nodiscard]] constexpr const T& front() const noexcept { return *first_; }
  [[nodiscard]] constexpr T& back() noexcept { return last_[-1]; }
  [[nodiscard]] constexpr const T& back() const noexcept { return last_[-1]; }

  constexpr void reserve(std::size_t count) {
    if (count > static_cast<std::size_t>(end_ - first_))
      reallocate(count);
  }
  constexpr void clear() noexcept { last_ = first_; }
  constexpr void pop_back() noexcept { --last_; }
  constexpr void push_back(const T& value) { emplace_back(value); }
  template <class... Args> constexpr T& emplace_back(Args&&... args) {
    if (__builtin_is_constant_evaluated()) {
      if (last_ == end_) {
        const T made(std::forward<Args>(args)...); // the arguments may be an element
        reallocate(byte_array::grown(static_cast<std::size_t>(end_ - first_),
                                     static_cast<std::size_t>(last_ - first_) + 1));
        return *std::construct_at(last_++, made);
      }
      return *std::construct_at(last_++, std::forward<Args>(args)...);
    }
    // Built first, since the arguments may be an element; a plain store then, not
    // std::construct_at: one function less per element type and argument list.
    const T made(std::forward<Args>(args)...);
    if (last_ == end_)
      reallocate(byte_array::grown(static_cast<std::size_t>(end_ - first_),
                                   static_cast<std::size_t>(last_ - first_) + 1));
    *last_ = made;
    return *last_++;
  }
  constexpr void resize(std::size_t count, const T& value = T{}) {
    const auto used = static_cast<std::size_t>(last_ - first_);
    if (count <= used) {
      last_ = first_ + count;
      return;
    }
    const T copy = value;
    // A table grown index by index (`resize(i + 1)`) must not copy itself each time:
    // past its first block it grows as a push does. The first block is exact.
    if (const auto room = static_cast<std::size_t>(end_ - first_); count > room)
      reallocate(room == 0 ? count : byte_array::grown(room, count));
    put(last_, count - used, copy);
    last_ = first_ + count;
  }
  constexpr void assign(std::size_t count, const T& value) {
    const T copy = value;
    clear();
    reserve(count);
    put(first_, count, copy);
    last_ = first_ + count;
  }
  template <class Iterator>
  requires(!std::is_integral_v<Iterator>) constexpr void assign(Iterator first, Iterator last) {
    clear();
    insert(first_, first, last);
  }

  constexpr T* insert(const T* at, const T& value) { return insert(at, std::size_t{1}, value); }
  constexpr T* insert(const T* at, std::size_t count, const T& value) {
    const T copy = value;
    T* gap = open(at, count);
    put(gap, count, copy);
    return gap;
  }
  template <class Iterator>
  requires(!std::is_integral_v<Iterator>) constexpr T* insert(const T* at, Iterator first,
                                                              Iterator last) {
    // As for std::vector, the range is not this vector's own.
    const auto count = static_cast<std::size_t>(std::distance(first, last));
    T* gap = open(at, count);
    for (T* to = gap; first != last; ++first, ++to)
      if (__builtin_is_constant_evaluated())
        std::construct_at(to, *first);
      else
        *to = *first;
    return gap;
  }
  constexpr T* erase(const T* at) { return erase(at, at + 1); }
  constexpr T* erase(const T* first, const T* last) {
    T* from = first_ + (first - first_);
    const auto count = static_cast<std::size_t>(last - first);
    if (count == 0)
      return from;
    if (__builtin_is_constant_evaluated()) {
      for (T* p = from; p + count != last_; ++p)
        *p = p[count];
    } else {
      byte_array::close(first_, static_cast<std::size_t>(last_ - first_) * sizeof(T),
                        static_cast<std::size_t>(from - first_) * sizeof(T), count * sizeof(T));
    }
    last_ -= count;
    return from;
  }
  constexpr void swap(trivial_vector& other) noexcept {
    std::swap(first_, other.first_);
    std::swap(last_, other.last_);
    std::swap(end_, other.end_);
  }
  constexpr void shrink_to_fit() {
    if (end_ != last_)
      reallocate(static_cast<std::size_t>(last_ - first_));
  }

  [[nodiscard]] friend constexpr bool operator==(const trivial_vector& a, const trivial_vector& b) {
    if (a.size() != b.size())
      return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!(a.first_[i] == b.first_[i]))
        return false;
    return true;
  }

private:
  // Out of line: growth is rare, and every append would otherwise carry it.
  [[gnu::noinline]] constexpr void reallocate(std::size_t count) {
    const auto used = static_cast<std::size_t>(last_ - first_);
    if (__builtin_is_constant_evaluated()) {
      T* grown = count == 0 ? nullptr : std::allocator<T>{}.allocate(count);
      for (std::size_t i = 0; i < used; ++i)
        std::construct_at(grown + i, first_[i]);
      if (first_ != nullptr)
        std::allocator<T>{}.deallocate(first_, static_cast<std::size_t>(end_ - first_));
      first_ = grown;
    } else {
      first_ = static_cast<T*>(byte_array::reallocate(first_, used * sizeof(T), count * sizeof(T)));
    }
    last_ = first_ + used;
    end_ = first_ + count;
  }
  constexpr void release() noexcept {
    // The builtin tested as it is (not negated), which is what the compiler folds early.
    if (__builtin_is_constant_evaluated()) {
      if (first_ != nullptr)
        std::allocator<T>{}.deallocate(first_, capacity());
    } else {
      byte_array::release(first_);
    }
  }
  /// Makes room for `count` elements at `at`; returns where they go (not yet written).
  constexpr T* open(const T* at, std::size_t count) {
    const auto index = static_cast<std::size_t>(at - first_);
    if (count == 0)
      return first_ + index;
    const auto used = static_cast<std::size_t>(last_ - first_);
    if (const auto room = static_cast<std::size_t>(end_ - first_); used + count > room)
      reallocate(byte_array::grown(room, used + count));
    if (__builtin_is_constant_evaluated()) {
      for (std::size_t i = used; i-- > index;)
        std::construct_at(first_ + i + count, first_[i]);
    } else {
      byte_array::open(first_, used * sizeof(T), index * sizeof(T), count * sizeof(T));
    }
    last_ += count;
    return first_ + index;
  }
  constexpr void put(T* to, std::size_t count, const T& value) {
    if (__builtin_is_constant_evaluated()) {
      for (std::size_t i = 0; i < count; ++i)
        std::construct_at(to + i, value);
    } else {
      byte_array::fill(to, count, &value, sizeof(T));
    }
  }

  T* first_ = nullptr;
  T* last_ = nullptr;
  T* end_ = nullptr;
};

/// A pair of plain values that is itself plain data (std::pair's assignment is not
/// trivial, which would keep a vector of pairs out of trivial_vector).
template <class First, class Second> struct plain_pair {
  using first_type = First;
  using second_type = Second;
  First first;
  Second second;
  friend constexpr auto operator<=>(const plain_pair&, const plain_pair&) = default;
};

/// The analysis' array of `T`: trivial_vector for plain data, else std::vector.
template <class T>
using vec =
    std::conditional_t<std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T> &&
                           alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__,
                       trivial_vector<T>, std::vector<T>>;

} // namespace commscope::detail
