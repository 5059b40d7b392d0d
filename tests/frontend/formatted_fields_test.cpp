// What the replacement fields of an f-string read: the names of their expressions (no
// attributes, keywords, conversions or format specs), whether one may call something,
// and, where the text is not followed to its end, everything.
#include "formatted_fields.hpp"

#include <doctest/doctest.h>

#include <string_view>
#include <vector>

using commscope::frontend::detail::formatted_fields;

namespace {

std::vector<std::string_view> names(std::string_view spelling) {
  return formatted_fields(spelling).names;
}

} // namespace

TEST_CASE("an f-string's fields read their names, its literal text and specs none") {
  using v = std::vector<std::string_view>;
  CHECK(names(R"(f"v = {x}")") == v{"x"});
  CHECK(names(R"(f"{{v}} {x.shape!r:>{width}}")") == v{"x", "width"});
  CHECK(names(R"(f"{x=} {y if c else z}")") == v{"x", "y", "c", "z"});
  CHECK(names(R"(rf'''{a
    + b}''')") == v{"a", "b"});
  CHECK(names(R"(f"{d['key']} {1e5} {t[0]:.3f}")") == v{"d", "key", "t"});
  CHECK_FALSE(formatted_fields(R"(f"{x.shape} {y[1]}")").may_call);
  CHECK(formatted_fields(R"(f"{len(v)}")").may_call);
  CHECK(formatted_fields(R"(f"{(w := v)}")").may_call);
}

TEST_CASE("a nested f-string's fields count, and text the scan does not follow counts whole") {
  using v = std::vector<std::string_view>;
  CHECK(names(R"(f"{f'{inner}'}")") == v{"inner"});
  // An unterminated field: every name of the literal, and it may call.
  const auto unsure = formatted_fields(R"(f"text {x")");
  CHECK(unsure.may_call);
  CHECK(unsure.names == v{"f", "text", "x"});
}
