// Python's keywords, in one table: the tokenizer marks name tokens with them, the printer
// and the driver's `-D` ask whether a name is reserved.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace commscope::frontend::detail {

/// Python's keywords (1 .. 35: the reserved words) and the soft keywords the front
/// end reads: the flags of a name token.
inline constexpr std::array<std::string_view, 39> keywords{
    "",         "and",    "or",       "not",    "in",     "is",     "if",      "elif",
    "else",     "for",    "while",    "with",   "return", "pass",   "def",     "class",
    "import",   "from",   "as",       "lambda", "True",   "False",  "None",    "break",
    "continue", "global", "nonlocal", "yield",  "try",    "except", "finally", "raise",
    "del",      "assert", "async",    "await",  "match",  "case",   "type"};
inline constexpr std::uint8_t last_reserved_keyword = 35;

/// Python's reserved words: never a name in the text form.
constexpr bool is_reserved(std::string_view n) {
  for (std::size_t i = 1; i <= last_reserved_keyword; ++i)
    if (keywords[i] == n)
      return true;
  return false;
}

/// Whether `n` reads back as a name: an ASCII identifier that is not a reserved word.
/// Anything else (an allocation named by `name="..."`) is printed as a string literal.
constexpr bool is_plain_name(std::string_view n) {
  const auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (n.empty() || !letter(n.front()))
    return false;
  for (char c : n)
    if (!letter(c) && !(c >= '0' && c <= '9'))
      return false;
  return !is_reserved(n);
}

} // namespace commscope::frontend::detail
