// Words of the text form that the parser and the printer must agree on.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace commscope::reference {

/// Python's reserved words: never a name in the text form.
inline bool is_reserved(std::string_view n) {
  static constexpr std::array<std::string_view, 35> words{
      "and",    "or",     "not",     "in",    "is",    "if",       "elif",   "else",     "for",
      "while",  "with",   "return",  "pass",  "def",   "class",    "import", "from",     "as",
      "lambda", "True",   "False",   "None",  "break", "continue", "global", "nonlocal", "yield",
      "try",    "except", "finally", "raise", "del",   "assert",   "async",  "await"};
  return std::find(words.begin(), words.end(), n) != words.end();
}

/// Whether `n` reads back as a name: an ASCII identifier that is not a reserved word.
/// Anything else (an allocation named by `name="..."`) is printed as a string literal.
inline bool is_plain_name(std::string_view n) {
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

} // namespace commscope::reference
