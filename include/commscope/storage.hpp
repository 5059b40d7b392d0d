// Container policies. The analysis keeps all of its bookkeeping in containers chosen by
// the traits (`Traits::storage`), so that the same templates run on the default policy's
// containers at run time and on standard containers during constant evaluation.
#pragma once

// Only the declaration of Boost.Container's small_vector: no list of the analysis uses it
// any more, and its full header costs every translation unit of the pass a parse of
// a large part of a second. Code that makes a `boost_storage::small_vector` includes
// <commscope/detail/boost_small_vector.hpp> (the header, with g++ 12's false warnings in it
// silenced), as for any forward-declared type.
#include <boost/container/container_fwd.hpp>

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
