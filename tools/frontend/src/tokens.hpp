// Python 3's lexical rules for whole source files (docs/commscope-opt.md, "Lexical
// rules"): the front end reads every file Python tokenizes, and rejects, at the place
// Python points to, what Python rejects while tokenizing (unbalanced brackets,
// inconsistent indentation, unterminated strings and f-strings, stray characters).
//
// Tokens are small (8 bytes: where they start, their kind, flags and length) and a name
// token carries its keyword; a token's line and column are computed on demand from the
// line table, since almost every token of a real file is skipped unread.
#pragma once

#include "keywords.hpp"

#include <commscope/reference/source_location.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

using reference::source_location;

/// Caps that keep the front end's stack shallow; Python's own limits are the same
/// (100 indentation levels, 200 open brackets). Deeper input is a syntax error.
inline constexpr std::uint32_t max_indentation_levels = 100;
inline constexpr std::uint32_t max_open_brackets = 200;

enum class tok : std::uint8_t { name, number, string, op, newline, indent, dedent, end };

/// What kind of string literal a string token is.
enum string_flags : std::uint8_t {
  string_raw = 1,
  string_bytes = 2,
  string_formatted = 4,
  string_triple = 8,
};

/// Operators with more than one character, in one table: an operator token's code is
/// its character (one-character operators) or 128 + its index here, so that the front
/// end compares operators as bytes, not strings.
inline constexpr std::array<std::string_view, 24> long_operators{
    "**=", "//=", "...", ">>=", "<<=", "->", ":=", "**", "//", "<<", ">>", "<=",
    ">=",  "==",  "!=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "@="};

/// The code of an operator spelling (see long_operators); 0 for no operator.
constexpr std::uint8_t op_code(std::string_view o) {
  if (o.size() == 1)
    return static_cast<std::uint8_t>(o[0]);
  for (std::size_t i = 0; i < long_operators.size(); ++i)
    if (long_operators[i] == o)
      return static_cast<std::uint8_t>(128 + i);
  return 0;
}

/// `+=`, `**=`, ...: an augmented assignment.
constexpr bool is_augmented_code(std::uint8_t c) {
  return c == 128 || c == 129 || c == 131 || c == 132 || c >= 143;
}

/// The keywords by first letter (a-z, then F, N, T), at most 6 each.
constexpr int keyword_bucket(char c) {
  return (c >= 'a' && c <= 'z') ? c - 'a' : c == 'F' ? 26 : c == 'N' ? 27 : c == 'T' ? 28 : -1;
}
inline constexpr auto keyword_buckets = [] {
  std::array<std::array<std::uint8_t, 6>, 29> b{};
  for (std::size_t i = 1; i < keywords.size(); ++i) {
    auto& bucket = b[static_cast<std::size_t>(keyword_bucket(keywords[i][0]))];
    std::size_t k = 0;
    while (bucket[k] != 0)
      ++k;
    bucket[k] = static_cast<std::uint8_t>(i);
  }
  return b;
}();

/// A name of at most 8 bytes as one word (little end first), to compare in one step.
constexpr std::uint64_t packed_name(std::string_view n) {
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < n.size() && i < 8; ++i)
    w |= std::uint64_t{static_cast<unsigned char>(n[i])} << (8 * i);
  return w;
}
inline constexpr auto packed_keywords = [] {
  std::array<std::uint64_t, keywords.size()> p{};
  for (std::size_t i = 0; i < keywords.size(); ++i)
    p[i] = packed_name(keywords[i]);
  return p;
}();

/// The keyword `n` is (its index in `keywords`), or 0.
constexpr std::uint8_t keyword_of(std::string_view n) {
  if (n.size() < 2 || n.size() > 8)
    return 0;
  const int b = keyword_bucket(n[0]);
  if (b < 0)
    return 0;
  const std::uint64_t w = packed_name(n);
  for (const std::uint8_t i : keyword_buckets[static_cast<std::size_t>(b)]) {
    if (i == 0)
      return 0;
    if (packed_keywords[i] == w)
      return i;
  }
  return 0;
}

/// A keyword named at compile time: `is_name("for")` compares one byte.
struct keyword_id {
  std::uint8_t id;
  consteval keyword_id(const char* n) : id(keyword_of(n)) {
    if (id == 0)
      throw "not a keyword the tokenizer knows"; // a compile-time error
  }
};
/// An operator named at compile time.
struct operator_code {
  std::uint8_t code;
  const char* spelling;
  consteval operator_code(const char* o) : code(op_code(o)), spelling(o) {
    if (code == 0)
      throw "not an operator"; // a compile-time error
  }
};

/// +1 for the operator code of an opening bracket, -1 for a closing one, 0 for any other:
/// the step of the bracket depth that every scan of a logical line keeps.
constexpr int bracket_nesting(std::uint8_t op) {
  return (op == '(' || op == '[' || op == '{') ? 1 : (op == ')' || op == ']' || op == '}') ? -1 : 0;
}

struct token {
  std::uint32_t begin = 0; ///< byte offset into the source
  /// kind (3 bits), flags (8 bits: string_flags for strings, op_code for operators, the
  /// keyword for names), length (21 bits; all ones: see token_stream::end)
  std::uint32_t bits = 0;

  static constexpr std::uint32_t long_length = (std::uint32_t{1} << 21) - 1;
  constexpr token() = default;
  constexpr token(tok kind, std::uint8_t flags, std::uint32_t b, std::uint32_t length)
      : begin(b), bits(static_cast<std::uint32_t>(kind) | (std::uint32_t{flags} << 3) |
                       (std::min(length, long_length) << 11)) {}
  [[nodiscard]] constexpr tok kind() const { return static_cast<tok>(bits & 7); }
  [[nodiscard]] constexpr std::uint8_t flags() const {
    return static_cast<std::uint8_t>((bits >> 3) & 0xff);
  }
  [[nodiscard]] constexpr std::uint32_t length_field() const { return bits >> 11; }
  [[nodiscard]] constexpr bool is(tok k) const { return kind() == k; }
  [[nodiscard]] constexpr bool is_op(operator_code o) const {
    return kind() == tok::op && flags() == o.code;
  }
  [[nodiscard]] constexpr bool is_keyword(keyword_id k) const {
    return kind() == tok::name && flags() == k.id;
  }
  /// A reserved word (never a name).
  [[nodiscard]] constexpr bool is_reserved() const {
    return kind() == tok::name && flags() != 0 && flags() <= last_reserved_keyword;
  }
};
static_assert(sizeof(token) == 8);

/// A tokenized file: the tokens, the source they point into, and where each line starts.
class token_stream {
public:
  std::vector<token> tokens;
  std::string_view source;
  std::vector<std::uint32_t> line_starts{0}; ///< line_starts[n - 1]: offset of line n
  /// The ends of tokens too long for their length field: (index, end), by index.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> long_tokens;
  bool ascii = false; ///< no byte above 0x7f: a column is an offset within its line

  [[nodiscard]] std::uint32_t end(const token& t) const {
    if (t.length_field() != token::long_length)
      return t.begin + t.length_field();
    const auto index = static_cast<std::uint32_t>(&t - tokens.data());
    const auto it = std::lower_bound(long_tokens.begin(), long_tokens.end(),
                                     std::pair<std::uint32_t, std::uint32_t>{index, 0});
    return it != long_tokens.end() && it->first == index ? it->second
                                                         : t.begin + token::long_length;
  }
  [[nodiscard]] std::string_view text(const token& t) const {
    return source.substr(t.begin, end(t) - t.begin);
  }
  /// The line a token ends on (where the tokenizer stood when it read it: a string
  /// spanning lines counts as on its last).
  [[nodiscard]] std::uint32_t line(const token& t) const { return line_of(end(t)); }
  /// 1-based column in characters of byte `offset` on `line`. Counting restarts from the
  /// last column asked for on the same line, so reading a long line left to right stays
  /// linear.
  [[nodiscard]] std::uint32_t column(std::uint32_t offset, std::uint32_t line) const {
    std::uint32_t start = line >= 1 && line <= line_starts.size() ? line_starts[line - 1] : 0;
    if (line == 1 && source.starts_with("\xEF\xBB\xBF")) // Python counts from after a BOM
      start = 3;
    if (ascii || offset < start)
      return offset >= start ? offset - start + 1 : 1;
    std::uint32_t b = start, col = 1;
    if (cache_line_ == line && cache_offset_ <= offset) {
      b = cache_offset_;
      col = cache_column_;
    }
    for (; b < offset && b < source.size(); ++b)
      if ((static_cast<unsigned char>(source[b]) & 0xC0) != 0x80)
        ++col;
    cache_line_ = line;
    cache_offset_ = b;
    cache_column_ = col;
    return col;
  }
  /// Where a token begins (a string spanning lines: its first line, where Python points).
  [[nodiscard]] source_location where(const token& t) const {
    const std::uint32_t l = line_of(t.begin);
    return {l, column(t.begin, l)};
  }
  /// The line that holds byte `offset`. Reading forward stays O(1): the last line found
  /// is tried first, then the next ones.
  [[nodiscard]] std::uint32_t line_of(std::uint32_t offset) const {
    const auto n = static_cast<std::uint32_t>(line_starts.size());
    const auto on = [&](std::uint32_t l) {
      return l >= 1 && l <= n && offset >= line_starts[l - 1] &&
             (l == n || offset < line_starts[l]);
    };
    // The line asked for last, the next ones, the one before.
    for (const std::uint32_t l : {last_line_, last_line_ + 1, last_line_ + 2, last_line_ - 1})
      if (on(l)) {
        last_line_ = l;
        return l;
      }
    auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
    last_line_ = static_cast<std::uint32_t>(it - line_starts.begin());
    return last_line_;
  }
  [[nodiscard]] source_location where_offset(std::uint32_t offset) const {
    const auto line = line_of(offset);
    return {line, column(offset, line)};
  }

private:
  mutable std::uint32_t cache_line_ = 0, cache_offset_ = 0, cache_column_ = 1;
  mutable std::uint32_t last_line_ = 1;
};

/// A tokenizing or parsing failure at a byte offset.
struct syntax_failure {
  std::uint32_t offset = 0;
  std::string message;
};

/// Tokenizes a whole file; throws syntax_failure at the first lexical error.
[[nodiscard]] token_stream tokenize(std::string_view source);

/// The value of a plain string literal token (any quotes, `r`/`u` prefixes), or false
/// for bytes and f-strings, whose value the front end never needs.
bool string_value(std::string_view spelling, std::uint8_t flags, std::string& out);

} // namespace commscope::frontend::detail
