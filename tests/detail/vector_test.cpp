// detail::trivial_vector (vec), the analysis' own arrays: a first block is exactly the
// size asked for (the analysis' peak counts on it), and a table grown index by index
// (`resize(i + 1)`) moves itself a logarithmic number of times, not once per index.
#include <commscope/detail/vector.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>

using commscope::detail::vec;

namespace {

/// Grows a table index by index to n entries, as a table keyed by variable id does; then
/// whether every entry holds what was written or the fill value.
constexpr bool grown_by_index(std::size_t n) {
  vec<std::uint32_t> v;
  for (std::size_t i = 0; i < n; i += 3) {
    if (i >= v.size())
      v.resize(i + 1, 7);
    v[i] = static_cast<std::uint32_t>(i);
  }
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] != (i % 3 == 0 ? i : 7))
      return false;
  return v.size() == (n == 0 ? 0 : (n - 1) / 3 * 3 + 1);
}

} // namespace

static_assert(grown_by_index(0));
static_assert(grown_by_index(1));
static_assert(grown_by_index(100));

TEST_CASE("a table grown index by index moves a logarithmic number of times") {
  CHECK(grown_by_index(100000));
  vec<std::uint64_t> v;
  std::size_t moves = 0;
  const std::uint64_t* at = v.data();
  for (std::size_t i = 0; i < 100000; ++i) {
    v.resize(i + 1, i);
    if (v.data() != at) {
      ++moves;
      at = v.data();
    }
  }
  CHECK(moves <= 20); // doubling from the first block: 17 for 100000
  for (std::size_t i = 0; i < v.size(); ++i)
    REQUIRE(v[i] == i);
}

TEST_CASE("a first block is the size asked for") {
  vec<std::uint32_t> v;
  v.resize(1000);
  CHECK(v.capacity() == 1000);
  vec<std::uint32_t> w(12345, 1);
  CHECK(w.capacity() == 12345);
  v.resize(10); // shrinking keeps the block
  CHECK(v.capacity() == 1000);
}
