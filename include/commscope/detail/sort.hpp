// One sort for cold paths that sort few elements (diagnostics): every call sorts 32-bit
// indices through a comparison called by pointer, so that std::sort is instantiated once
// in a translation unit rather than once per element type and comparator. Each instance
// of std::sort is kilobytes of object code that g++ compiles at -O2. The
// indirection costs a call per comparison: several times a direct sort, so paths that
// sort a whole program's worth of elements (the verifier's slots) sort directly. It runs
// in constant evaluation as well.
#pragma once

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/vector.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace commscope::detail {

/// A strict weak order on the indices of some sequence, called through a function
/// pointer (no vtable or type information per comparator). The pointer receives the
/// order itself, which it casts back to its own type: a cast to the object's dynamic
/// type, which constant evaluation allows.
struct index_order {
  bool (*less)(const index_order&, std::uint32_t, std::uint32_t);
};

template <class Less> struct index_order_of : index_order {
  Less compare;
  constexpr explicit index_order_of(Less c) : index_order{&call}, compare(std::move(c)) {}
  static constexpr bool call(const index_order& o, std::uint32_t x, std::uint32_t y) {
    return static_cast<const index_order_of&>(o).compare(x, y);
  }
};

/// 0, 1, ..., n - 1 sorted by `order`: the one instantiation of std::sort. Not stable:
/// an order must break every tie that a reader can tell apart.
[[gnu::noinline]] constexpr vec<std::uint32_t> sorted_indices_impl(std::size_t n,
                                                                   const index_order& order) {
  vec<std::uint32_t> indices;
  indices.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    indices.push_back(static_cast<std::uint32_t>(i));
  std::sort(indices.begin(), indices.end(),
            [&order](std::uint32_t x, std::uint32_t y) { return order.less(order, x, y); });
  return indices;
}
constexpr vec<std::uint32_t> sorted_indices(std::size_t n, const index_order& order) {
  COMMSCOPE_RUN_COMPILED(sorted_indices(n, order));
  return sorted_indices_impl(n, order);
}

/// A handle as a sort key, and an index: what sort_keyed sorts, by key, then index. A
/// pointer or integer handle maps to a key that keeps its order, so that every adapter
/// with such handles shares one direct sort.
struct keyed_index {
  std::uint64_t key;
  std::uint32_t index;
};

/// Templates only so that a translation unit that reads this header and sorts nothing
/// instantiates no sort: Key is keyed_index.
template <class Key> [[gnu::noinline]] void sort_keyed_impl(Key* first, std::size_t n) {
  std::sort(first, first + n, [](const Key& x, const Key& y) {
    return x.key < y.key || (x.key == y.key && x.index < y.index);
  });
}
/// Sorts `n` keyed indices at `first` (never in constant evaluation).
template <class Key> void sort_keyed(Key* first, std::size_t n) {
  COMMSCOPE_RUN_COMPILED(sort_keyed(first, n));
  sort_keyed_impl(first, n);
}

/// Whether handles of type H map to keys that keep std::less<H>'s order (keyed_index).
template <class H>
inline constexpr bool keyable = std::is_pointer_v<H> || (std::is_integral_v<H> && sizeof(H) <= 8);

/// h as a key: std::less on pointers is the order of their addresses; a signed integer
/// is offset so that its order survives as unsigned.
template <class H> std::uint64_t key_of(H h) {
  if constexpr (std::is_pointer_v<H>)
    return reinterpret_cast<std::uintptr_t>(h);
  else if constexpr (std::is_signed_v<H>)
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(h)) ^ (std::uint64_t{1} << 63);
  else
    return static_cast<std::uint64_t>(h);
}
template <class H> H handle_of(std::uint64_t key) {
  if constexpr (std::is_pointer_v<H>)
    return reinterpret_cast<H>(static_cast<std::uintptr_t>(key));
  else if constexpr (std::is_signed_v<H>)
    return static_cast<H>(static_cast<std::int64_t>(key ^ (std::uint64_t{1} << 63)));
  else
    return static_cast<H>(key);
}

/// Sorts `v` by `less` on its elements: sorts indices,
/// then moves the elements along the cycles of the permutation, in place.
template <class Vec, class Less> constexpr void sort_by(Vec& v, Less less) {
  const std::size_t n = v.size();
  if (n < 2)
    return;
  vec<std::uint32_t> from = sorted_indices(
      n, index_order_of([&](std::uint32_t x, std::uint32_t y) { return less(v[x], v[y]); }));
  // Position i receives the element at from[i]; a finished position is marked from[i] = i.
  for (std::uint32_t i = 0; i < n; ++i) {
    if (from[i] == i)
      continue;
    auto held = std::move(v[i]);
    std::uint32_t j = i;
    for (;;) {
      const std::uint32_t k = from[j];
      from[j] = j;
      if (k == i)
        break;
      v[j] = std::move(v[k]);
      j = k;
    }
    v[j] = std::move(held);
  }
}

} // namespace commscope::detail
