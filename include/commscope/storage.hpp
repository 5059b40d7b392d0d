// Container policies. The analysis keeps all of its bookkeeping in containers chosen by
// the traits (`Traits::storage`), so that the same templates run on Boost.Container at
// run time and on standard containers during constant evaluation.
#pragma once

// g++ 12 reports a false -Wstringop-overread inside Boost.Container's element moves once
// they are inlined into user code; the pragma marks those header lines only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
#include <boost/container/small_vector.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <cstddef>
#include <vector>

namespace commscope {

/// The default: flat, cache-friendly storage, with Boost.Container's small_vector for
/// lists that are mostly one or two long (inline room, no heap block per item). The
/// analysis' own per-allocation lists no longer use it: an allocation's views are threaded
/// through the view records and a device set keeps its one interval inline (plan.hpp,
/// device_set.hpp), both smaller than a small_vector's header. Plain vectors are
/// std::vector: as fast here, and boost::container::vector made a third of the code the
/// compiler generates for the pass (its insertion paths per element type).
struct boost_storage {
  template <class T>
  using vector = std::vector<T>;
  template <class T, std::size_t N>
  using small_vector = boost::container::small_vector<T, N>;
  static constexpr bool constant_evaluable = false;
};

/// Standard containers: usable in constant evaluation (C++20 transient allocation).
struct std_storage {
  template <class T>
  using vector = std::vector<T>;
  template <class T, std::size_t>
  using small_vector = std::vector<T>;
  static constexpr bool constant_evaluable = true;
};

} // namespace commscope
