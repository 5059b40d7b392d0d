// Boost.Container's small_vector, for code that makes a `boost_storage::small_vector`
// (storage.hpp only declares it, so that the pass does not parse its header).
#pragma once

#include <commscope/storage.hpp>

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
