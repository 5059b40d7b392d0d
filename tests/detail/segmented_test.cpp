// detail::segmented, the walk's growing tables: what is appended stays where it was put
// once past the first segment, reads back in order across segments, and element types
// that are not plain data are constructed and destroyed once each.
#include <commscope/detail/segmented.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using commscope::detail::segmented;

namespace {

constexpr std::uint64_t sum_of_appended(std::size_t n) {
  segmented<std::uint32_t> s;
  for (std::size_t i = 0; i < n; ++i)
    s.emplace_back(static_cast<std::uint32_t>(i));
  std::uint64_t sum = 0;
  for (const auto x : s)
    sum += x;
  return sum + s.size();
}

/// Appends n, trims, appends `more`, trims twice; then whether every element reads back
/// in order, and after a clear, whether it fills again. In constant evaluation a block
/// leaked or freed twice is an error (the runtime case below runs under ASan in CI, which
/// also checks each block is freed with the size it was allocated with).
constexpr bool trimmed_then_grown(std::size_t n, std::size_t more) {
  segmented<std::uint32_t> s;
  for (std::size_t i = 0; i < n; ++i)
    s.emplace_back(static_cast<std::uint32_t>(i));
  s.trim();
  for (std::size_t i = 0; i < more; ++i)
    s.emplace_back(static_cast<std::uint32_t>(n + i));
  s.trim();
  s.trim();
  if (s.size() != n + more)
    return false;
  for (std::size_t i = 0; i < n + more; ++i)
    if (s[i] != i)
      return false;
  s.clear();
  for (std::uint32_t i = 0; i < 10; ++i)
    s.emplace_back(i);
  s.trim();
  s.emplace_back(10u);
  return s.size() == 11 && s[10] == 10 && s[3] == 3;
}

/// Appends n (trimmed when asked), consumes them, checks that they came in order, then
/// that the emptied sequence fills again. Constant evaluation checks that consume frees
/// every block once.
constexpr bool consumed_in_order(std::size_t n, bool trimmed) {
  segmented<std::uint32_t> s;
  for (std::size_t i = 0; i < n; ++i)
    s.emplace_back(static_cast<std::uint32_t>(3 * i));
  if (trimmed)
    s.trim();
  std::size_t next = 0;
  bool in_order = true;
  s.consume([&](std::uint32_t x) { in_order = in_order && x == 3 * next++; });
  if (!in_order || next != n || !s.empty())
    return false;
  s.consume([&](std::uint32_t) { ++next; }); // empty: calls nothing
  for (std::uint32_t i = 0; i < 5000; ++i)
    s.emplace_back(i);
  return next == n && s.size() == 5000 && s[4999] == 4999 && s[0] == 0;
}

/// Appends n (after filling and clearing it with `before` when asked), then doubles every
/// element through for_each_block: whether the blocks came in order, held n in all, and
/// the writes stuck.
constexpr bool blocks_in_order(std::size_t n, std::size_t before) {
  segmented<std::uint32_t> s;
  for (std::size_t i = 0; i < before; ++i)
    s.emplace_back(7u);
  s.clear();
  for (std::size_t i = 0; i < n; ++i)
    s.emplace_back(static_cast<std::uint32_t>(i));
  std::size_t seen = 0;
  bool in_order = true;
  s.for_each_block([&](std::uint32_t* first, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k, ++seen) {
      in_order = in_order && first[k] == seen;
      first[k] *= 2;
    }
  });
  if (!in_order || seen != n || s.size() != n)
    return false;
  for (std::size_t i = 0; i < n; ++i)
    if (s[i] != 2 * i)
      return false;
  return true;
}

} // namespace

// Past several segments (segments hold at most 4096 elements), in constant evaluation.
static_assert(sum_of_appended(0) == 0);
static_assert(sum_of_appended(5000) == 5000ull * 4999 / 2 + 5000);
// Trimmed empty, inside the first segment, at and past a segment's end (4096).
static_assert(trimmed_then_grown(0, 0) && trimmed_then_grown(0, 5) && trimmed_then_grown(1, 0));
static_assert(trimmed_then_grown(3, 1) && trimmed_then_grown(5, 4100));
static_assert(trimmed_then_grown(4096, 1) && trimmed_then_grown(4097, 0));
static_assert(trimmed_then_grown(4097, 4095) && trimmed_then_grown(4097, 5000));
// Consumed empty, inside the first segment, at a segment's end and past several.
static_assert(consumed_in_order(0, false) && consumed_in_order(7, false));
static_assert(consumed_in_order(7, true) && consumed_in_order(4096, false));
static_assert(consumed_in_order(4097, true) && consumed_in_order(9000, false));
// Blocks: none, one partial, one full, several; after a clear that kept the first block.
static_assert(blocks_in_order(0, 0) && blocks_in_order(5, 0) && blocks_in_order(4096, 0));
static_assert(blocks_in_order(9000, 0) && blocks_in_order(0, 5000) && blocks_in_order(4097, 9000));

TEST_SUITE_BEGIN("segmented");

TEST_CASE("elements keep their values and, past the first segment, their addresses") {
  segmented<std::uint64_t> s;
  std::vector<const std::uint64_t*> where;
  constexpr std::size_t n = 100000;
  for (std::size_t i = 0; i < n; ++i)
    where.push_back(&s.emplace_back(i * 7));
  REQUIRE(s.size() == n);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(s[i] == i * 7);
    moved += where[i] != &s[i];
  }
  CHECK(moved < 4096); // only the first segment's elements move, as it grows
  std::size_t i = 0;
  for (const auto x : s)
    CHECK(x == 7 * i++);
  CHECK(i == n);
  // Cleared, it keeps its first segment for what comes next, and fills past it again.
  s.clear();
  CHECK(s.empty());
  for (std::size_t k = 0; k < 3000; ++k)
    s.emplace_back(k + 1);
  REQUIRE(s.size() == 3000);
  for (std::size_t k = 0; k < 3000; ++k)
    CHECK(s[k] == k + 1);
}

TEST_CASE("appending one of its own elements while the first segment grows") {
  segmented<std::uint32_t> s;
  s.emplace_back(41u);
  for (int i = 0; i < 100; ++i)
    s.emplace_back(s[0]);
  for (const auto x : s)
    CHECK(x == 41u);
}

TEST_CASE("consume reads every element once, in order, and leaves no block") {
  segmented<std::string> s;
  const std::string long_text(100, 'y'); // heap owned: ASan sees a leak or a double free
  constexpr int n = 9000;                // several segments (1024 strings each)
  for (int i = 0; i < n; ++i)
    s.emplace_back(long_text + std::to_string(i));
  int next = 0;
  s.consume([&](const std::string& x) { CHECK(x == long_text + std::to_string(next++)); });
  CHECK(next == n);
  CHECK(s.empty());
  s.emplace_back("after");
  REQUIRE(s.size() == 1);
  CHECK(s[0] == "after");
}

TEST_CASE("for_each_block hands out every element once, in order, writable") {
  // At run time too, where ASan watches the blocks: sizes given at run time.
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{8192}, std::size_t{8193}})
    for (const std::size_t before : {std::size_t{0}, std::size_t{4097}})
      CHECK(blocks_in_order(n, before));
}

TEST_CASE("elements that are not plain data: moved on growth, destroyed on clear") {
  segmented<std::string> s;
  const std::string long_text(100, 'x'); // beyond the small-string buffer: heap owned
  for (int i = 0; i < 10000; ++i)
    s.emplace_back(long_text + std::to_string(i));
  CHECK(s[0] == long_text + "0");
  CHECK(s[9999] == long_text + "9999");
  s.clear();
  CHECK(s.empty());
  s.emplace_back("again");
  CHECK(s[0] == "again");
  segmented<std::string> t(std::move(s));
  CHECK(s.empty());
  REQUIRE(t.size() == 1);
  CHECK(t[0] == "again");
  s = std::move(t);
  CHECK(s[0] == "again");
}

TEST_CASE("trimmed, the last segment keeps its elements and grows again when appended to") {
  segmented<std::string> s;
  const std::string long_text(100, 'y');
  for (int i = 0; i < 5000; ++i)
    s.emplace_back(long_text + std::to_string(i));
  const std::string* first = &s[0];
  s.trim();
  CHECK(&s[0] == first); // full segments stay where they are
  for (int i = 5000; i < 9000; ++i)
    s.emplace_back(long_text + std::to_string(i));
  s.trim();
  REQUIRE(s.size() == 9000);
  for (int i = 0; i < 9000; i += 499)
    CHECK(s[static_cast<std::size_t>(i)] == long_text + std::to_string(i));
  CHECK(s[8999] == long_text + "8999");
  s.clear();
  s.emplace_back("again");
  s.trim();
  s.emplace_back("and again");
  REQUIRE(s.size() == 2);
  CHECK(s[1] == "and again");
}

TEST_SUITE_END();
