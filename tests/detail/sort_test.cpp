// The window buffers' sort (read-back and the verifier): by handle, then index, whatever
// the handle's type, at run time and in constant evaluation. With the separate core,
// pointer and integer handles go through the core's one keyed sort.
#include <commscope/detail/read_back.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>

namespace {
using commscope::detail::plain_pair;
using commscope::detail::vec;

/// `entries` sorted by sort_by_buffer and, for comparison, by std::sort with the order it
/// promises (buffer by std::less, then index).
template <class H> void check_sorted_by_buffer(vec<plain_pair<H, std::uint32_t>> entries) {
  auto expected = entries;
  std::sort(expected.begin(), expected.end(), [](const auto& x, const auto& y) {
    const std::less<H> less;
    return less(x.first, y.first) || (!less(y.first, x.first) && x.second < y.second);
  });
  commscope::detail::sort_by_buffer(entries);
  REQUIRE(entries.size() == expected.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    CHECK(entries[i].first == expected[i].first);
    CHECK(entries[i].second == expected[i].second);
  }
}

constexpr bool sorts_in_constant_evaluation() {
  vec<plain_pair<int, std::uint32_t>> v{{3, 1}, {-2, 4}, {3, 0}, {0, 2}, {-2, 3}};
  commscope::detail::sort_by_buffer(v);
  return v[0].first == -2 && v[0].second == 3 && v[1].second == 4 && v[2].first == 0 &&
         v[3].first == 3 && v[3].second == 0 && v[4].second == 1;
}
static_assert(sorts_in_constant_evaluation());

/// A handle that is neither a pointer nor an integer, with an order of its own.
struct handle {
  std::uint32_t i;
  bool operator==(const handle&) const = default;
  bool operator<(const handle& o) const { return i > o.i; }
};
} // namespace

TEST_CASE("window buffers sort by handle, then index, whatever the handle's type") {
  int buffers[6] = {};
  // Pointers: by address, equal ones by index.
  check_sorted_by_buffer<const int*>({{&buffers[4], 2},
                                      {&buffers[1], 7},
                                      {&buffers[4], 1},
                                      {&buffers[0], 0},
                                      {&buffers[5], 3},
                                      {&buffers[1], 5}});
  // Signed integers keep their order across zero and at both ends.
  check_sorted_by_buffer<std::int64_t>(
      {{5, 0}, {-1, 1}, {INT64_MIN, 2}, {INT64_MAX, 3}, {0, 4}, {-1, 0}});
  check_sorted_by_buffer<std::int32_t>({{7, 1}, {-7, 0}, {7, 0}, {INT32_MIN, 9}});
  check_sorted_by_buffer<std::uint32_t>({{UINT32_MAX, 0}, {0, 1}, {2, 2}, {UINT32_MAX, 1}});
  check_sorted_by_buffer<std::uint64_t>({{UINT64_MAX, 1}, {0, 0}, {UINT64_MAX, 0}});
  check_sorted_by_buffer<handle>({{{1}, 0}, {{3}, 1}, {{1}, 2}, {{2}, 0}});
  check_sorted_by_buffer<const int*>({});
  check_sorted_by_buffer<const int*>({{&buffers[2], 4}});
}
