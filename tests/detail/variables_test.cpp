// detail::definitions, the walk's table of variables and their definitions: a binding
// reads back as it was made whatever its value (definitions store most values in 26
// bits and the rest apart), and a new function forgets the previous one's variables.
#include <commscope/detail/variables.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using commscope::no_index;
using commscope::detail::binding;
using commscope::detail::definitions;
using commscope::detail::interned_keys;

namespace {

constexpr std::int64_t two_to(int k) { return std::int64_t{1} << k; }

// Around every edge of the stored forms: 26 bits, no_index, 32 bits, and the extremes.
constexpr std::array<std::int64_t, 17> values{0,
                                              1,
                                              two_to(26) - 2,
                                              two_to(26) - 1,
                                              two_to(26),
                                              two_to(31),
                                              two_to(32) - 2,
                                              two_to(32) - 1, // no_index
                                              two_to(32),
                                              std::numeric_limits<std::int64_t>::max(),
                                              -1,
                                              -2,
                                              -two_to(26),
                                              -two_to(26) - 1,
                                              -two_to(31) - 1,
                                              -two_to(40),
                                              std::numeric_limits<std::int64_t>::min()};

constexpr bool same(const binding& a, const binding& b) {
  return a.what == b.what && a.ref == b.ref && a.value == b.value;
}

/// Binds variable 0 to every value, each with a ref of its own (world_offset keeps both),
/// and reads every definition back.
constexpr bool every_value_reads_back() {
  definitions d(true, 2);
  d.reset();
  std::array<std::uint32_t, values.size()> made{};
  for (std::size_t i = 0; i < values.size(); ++i)
    made[i] = d.bind(0, {binding::kind::world_offset, static_cast<std::uint32_t>(i), values[i]});
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!same(d.at(made[i]),
              {binding::kind::world_offset, static_cast<std::uint32_t>(i), values[i]}))
      return false;
  return d.use(0) == made.back();
}

/// A window's view index, set after the walk, whatever its size; the pointer it names
/// stays.
constexpr bool views_read_back(std::uint32_t view) {
  definitions d(true, 4);
  d.reset();
  const auto alloc = d.bind(0, {binding::kind::allocation, 0, 0});
  const auto window = d.bind(1, {binding::kind::window, alloc, -1 - two_to(30)});
  d.set_view(window, view);
  return same(d.at(window), {binding::kind::window, alloc, view}) &&
         d.allocation_of(d.at(window).ref) == 0;
}

/// Variables bound in one function are unbound in the next; rebinding works again.
constexpr bool functions_forget(int functions) {
  definitions d(true, 3);
  for (int f = 0; f < functions; ++f) {
    d.reset();
    if (d.use(0) != no_index || d.use(1) != no_index || d.use(2) != no_index)
      return false;
    for (int k = 0; k <= f % 5; ++k) // a different number of definitions each time
      d.bind(static_cast<std::uint32_t>(k % 2), {binding::kind::integer, no_index, f});
    if (d.at(d.use(0)).value != f || d.use(2) != no_index)
      return false;
  }
  return true;
}

} // namespace

static_assert(every_value_reads_back());
static_assert(views_read_back(7));
static_assert(views_read_back(static_cast<std::uint32_t>(two_to(26))));
static_assert(functions_forget(20));

TEST_SUITE_BEGIN("variables");

TEST_CASE("a definition reads back as it was made, whatever its value") {
  CHECK(every_value_reads_back());
}

TEST_CASE("a view index past 26 bits is kept, and the window's pointer with it") {
  CHECK(views_read_back(0));
  CHECK(views_read_back(static_cast<std::uint32_t>(two_to(26) - 2)));
  CHECK(views_read_back(static_cast<std::uint32_t>(two_to(26) - 1)));
  CHECK(views_read_back(static_cast<std::uint32_t>(two_to(26))));
  CHECK(views_read_back(no_index - 4));
}

TEST_CASE("a function's variables are forgotten by the next, across many functions") {
  CHECK(functions_forget(10000));
}

// Variables without an index are numbered by their keys in the order first seen. Keys
// laid out the ways handles are (consecutive integers, pointers into arenas of several
// strides, far-apart values) each get their own number, across the table's growths, and
// read back the same; release forgets them.
template <class Key> bool numbers_in_order(const std::vector<Key>& keys) {
  interned_keys<Key> ids;
  for (std::uint32_t round = 0; round < 2; ++round)
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (ids.id(keys[i]) != i)
        return false;
  ids.release();
  return keys.empty() || ids.id(keys.back()) == 0;
}

TEST_CASE("variables without an index are numbered by their keys, in the order first seen") {
  std::vector<std::uint32_t> consecutive, far_apart;
  for (std::uint32_t i = 0; i < 50000; ++i) {
    consecutive.push_back(i);
    far_apart.push_back(i * 2654435761u); // distinct: an odd multiplier is a bijection
  }
  CHECK(numbers_in_order(consecutive));
  CHECK(numbers_in_order(far_apart));
  static std::array<std::uint64_t, 40000 * 64 / 8> arena{};
  for (const std::size_t stride : {8u, 16u, 40u, 64u, 4096u}) {
    std::vector<const void*> pointers;
    for (std::size_t i = 0; i * stride < sizeof(arena) && i < 40000; ++i)
      pointers.push_back(reinterpret_cast<const char*>(arena.data()) + i * stride);
    CHECK_MESSAGE(numbers_in_order(pointers), "stride ", stride);
  }
  std::vector<std::string> names;
  for (int i = 0; i < 1000; ++i)
    names.push_back("v" + std::to_string(i));
  CHECK(numbers_in_order(names));
  CHECK(numbers_in_order(std::vector<std::uint32_t>{}));
}

TEST_SUITE_END();
