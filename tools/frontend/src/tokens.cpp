// The tokenizer: Python 3's lexical rules over a whole file.
#include "tokens.hpp"

#include "identifier_ranges.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

namespace {
/// Character classes, one table lookup each.
enum char_class : std::uint8_t { cc_name_start = 1, cc_digit = 2, cc_operator = 4 };
inline constexpr auto char_classes = [] {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80)
      t[static_cast<std::size_t>(c)] |= cc_name_start;
    if (c >= '0' && c <= '9')
      t[static_cast<std::size_t>(c)] |= cc_digit;
  }
  for (const char c : std::string_view("()[]{},:.;@=+-*/%&|^~<>"))
    t[static_cast<unsigned char>(c)] |= cc_operator;
  return t;
}();

inline bool is_name_start(unsigned char c) { return char_classes[c] & cc_name_start; }
inline bool is_decimal(unsigned char c) { return char_classes[c] & cc_digit; }
inline bool is_name_char(unsigned char c) { return char_classes[c] & (cc_name_start | cc_digit); }

template <std::size_t N> bool in_ranges(const code_point_range (&ranges)[N], std::uint32_t c) {
  const auto* it =
      std::upper_bound(std::begin(ranges), std::end(ranges), c,
                       [](std::uint32_t x, const code_point_range& r) { return x < r.first; });
  return it != std::begin(ranges) && c <= (it - 1)->last;
}

/// The code point that valid UTF-8 `s` holds at byte `i`, and its length in bytes.
std::pair<std::uint32_t, std::size_t> code_point_at(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80)
    return {c, 1};
  if (c < 0xE0)
    return {((c & 0x1Fu) << 6) | (b(1) & 0x3Fu), 2};
  if (c < 0xF0)
    return {((c & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu), 3};
  return {((c & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu), 4};
}

/// The flags of a string prefix (`rb`, `F`, ...), or -1 when `p` is not one.
inline int string_prefix_flags(std::string_view p) {
  if (p.size() > 2)
    return -1;
  int flags = 0;
  for (const char c : p) {
    int f = 0;
    switch (c) {
    case 'r':
    case 'R':
      f = string_raw;
      break;
    case 'b':
    case 'B':
      f = string_bytes;
      break;
    case 'f':
    case 'F':
      f = string_formatted;
      break;
    case 'u':
    case 'U':
      if (p.size() != 1)
        return -1;
      break;
    default:
      return -1;
    }
    if (flags & f)
      return -1;
    flags |= f;
  }
  if ((flags & string_bytes) && (flags & string_formatted))
    return -1;
  return flags;
}

class tokenizer {
public:
  explicit tokenizer(std::string_view src) { out_.source = src; }

  token_stream run() {
    s_ = out_.source;
    out_.ascii = is_ascii(s_);
    check_bytes();
    if (s_.substr(0, 3) == "\xEF\xBB\xBF")
      pos_ = 3;
    out_.tokens.reserve(s_.size() / 3 + 16);
    out_.line_starts.reserve(s_.size() / 32 + 16);
    indents_.push_back({0, 0});
    bool at_line_start = true;
    while (true) {
      if (at_line_start && brackets_.empty()) {
        at_line_start = false;
        if (!indentation())
          break;
      }
      if (pos_ >= s_.size())
        break;
      const auto c = static_cast<unsigned char>(s_[pos_]);
      if (is_name_start(c)) { // the most common start of a token first
        name_or_string();
      } else if (c == ' ' || c == '\t' || c == '\f') {
        ++pos_;
        while (pos_ < s_.size() && s_[pos_] == ' ')
          ++pos_;
      } else if (single_operator(c)) {
        single_op(c);
      } else if (c == '#') {
        const char* p = s_.data() + pos_;
        const char* e = s_.data() + s_.size();
        while (p < e && *p != '\n' && *p != '\r')
          ++p;
        pos_ = static_cast<std::size_t>(p - s_.data());
      } else if (c == '\n' || c == '\r') {
        if (brackets_.empty() && line_has_tokens_)
          push(tok::newline, pos_, pos_);
        line_has_tokens_ = brackets_.empty() ? false : line_has_tokens_;
        newline();
        at_line_start = brackets_.empty(); // inside brackets, indentation means nothing
      } else if (c == '\\') {
        const std::uint32_t at = pos_;
        ++pos_;
        if (pos_ >= s_.size())
          fail(at, "unexpected EOF while parsing");
        if (s_[pos_] != '\n' && s_[pos_] != '\r')
          fail(at, "unexpected character after line continuation character");
        newline();
        if (pos_ >= s_.size()) // the joined line is the end of the file
          fail(at + 1, "unexpected EOF while parsing");
      } else if (is_decimal(c) || (c == '.' && pos_ + 1 < s_.size() &&
                                   is_decimal(static_cast<unsigned char>(s_[pos_ + 1])))) {
        number();
      } else if (c == '"' || c == '\'') {
        string(pos_, 0);
      } else {
        op();
      }
    }
    if (!brackets_.empty())
      fail(brackets_.back().second,
           std::string("'") + brackets_.back().first + "' was never closed");
    if (line_has_tokens_)
      push(tok::newline, pos(), pos());
    for (std::size_t i = 1; i < indents_.size(); ++i)
      push(tok::dedent, pos(), pos());
    push(tok::end, pos(), pos());
    return std::move(out_);
  }

private:
  struct indent_level {
    std::uint32_t col;     ///< tabs to multiples of 8
    std::uint32_t alt_col; ///< tabs as one column: must order lines the same way
  };

  std::uint32_t pos() const { return static_cast<std::uint32_t>(pos_); }

  /// No byte above 0x7f: eight bytes a step (a byte at a time cost 2.5 instructions a
  /// byte, as much as the rest of a token's characters).
  static bool is_ascii(std::string_view s) {
    const char* p = s.data();
    const char* const e = p + s.size();
    std::uint64_t high = 0;
    for (; e - p >= 64; p += 64) {
      for (int k = 0; k < 8; ++k) {
        std::uint64_t w;
        std::memcpy(&w, p + 8 * k, 8);
        high |= w;
      }
      if (high & 0x8080808080808080ull)
        return false;
    }
    for (; p < e; ++p)
      high |= static_cast<unsigned char>(*p);
    return (high & 0x8080808080808080ull) == 0;
  }

  /// Python decodes the file before it reads it: the first bad byte is the error, unless
  /// a null byte comes first. Out of line, so that the tokenizer's loop stays as the
  /// compiler inlines it best.
  [[gnu::noinline]] void check_bytes() {
    std::size_t bad = std::string_view::npos;
    std::string why;
    utf8_names_ = !out_.ascii && !other_coding(s_);
    if (utf8_names_)
      bad = invalid_utf8(s_, why);
    if (const auto nul = s_.find('\0'); nul != std::string_view::npos && nul < bad)
      fail(nul, "source code cannot contain null bytes");
    if (bad != std::string_view::npos) {
      static constexpr char hex[] = "0123456789abcdef";
      const auto byte = static_cast<unsigned char>(s_[bad]);
      fail(bad, std::string("(unicode error) 'utf-8' codec can't decode byte 0x") + hex[byte >> 4] +
                    hex[byte & 15] + " in position " + std::to_string(bad) + ": " + why);
    }
  }

  /// Whether a coding declaration (PEP 263) in the first two lines names an encoding
  /// other than UTF-8. Python then decodes the file with it; the front end reads the
  /// bytes as they are and does not reject them (every encoding Python accepts keeps
  /// ASCII, which is all the DSL needs).
  static bool other_coding(std::string_view s) {
    std::size_t b = s.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    for (int line = 0; line < 2 && b < s.size(); ++line) {
      std::size_t e = b;
      while (e < s.size() && s[e] != '\n' && s[e] != '\r')
        ++e;
      const std::string_view l = s.substr(b, e - b);
      std::size_t k = 0;
      while (k < l.size() && (l[k] == ' ' || l[k] == '\t' || l[k] == '\f'))
        ++k;
      if (k < l.size() && l[k] == '#') {
        for (auto c = l.find("coding", k); c != std::string_view::npos;
             c = l.find("coding", c + 1)) {
          std::size_t v = c + 6;
          if (v >= l.size() || (l[v] != ':' && l[v] != '='))
            continue;
          ++v;
          while (v < l.size() && (l[v] == ' ' || l[v] == '\t'))
            ++v;
          std::string name;
          for (; v < l.size() && (std::isalnum(static_cast<unsigned char>(l[v])) || l[v] == '-' ||
                                  l[v] == '_' || l[v] == '.');
               ++v)
            name += static_cast<char>(std::tolower(static_cast<unsigned char>(l[v])));
          if (name.empty())
            continue;
          std::replace(name.begin(), name.end(), '_', '-');
          return !(name == "utf-8" || name == "utf8" || name.starts_with("utf-8-"));
        }
      } else if (k < l.size()) {
        return false; // a line of code: no declaration after it
      }
      b = e < s.size() && s[e] == '\r' && e + 1 < s.size() && s[e + 1] == '\n' ? e + 2 : e + 1;
    }
    return false;
  }

  /// The offset of the first byte that starts no valid UTF-8 sequence (npos: none), and
  /// why, in Python's words. Overlong forms, surrogates and code points beyond U+10FFFF
  /// are invalid, as in Python. ASCII runs go eight bytes a step.
  static std::size_t invalid_utf8(std::string_view s, std::string& why) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
      if (n - i >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        if ((w & 0x8080808080808080ull) == 0) {
          i += 8;
          continue;
        }
      }
      const unsigned char c = p[i];
      if (c < 0x80) {
        ++i;
        continue;
      }
      std::size_t len = 0;
      unsigned char lo = 0x80, hi = 0xBF; // the range of the second byte
      if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
      } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
      } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
      } else {
        why = "invalid start byte";
        return i;
      }
      for (std::size_t k = 1; k < len; ++k) {
        if (i + k >= n) {
          why = "unexpected end of data";
          return i;
        }
        const unsigned char x = p[i + k];
        if (k == 1 ? (x < lo || x > hi) : (x & 0xC0) != 0x80) {
          why = "invalid continuation byte";
          return i;
        }
      }
      i += len;
    }
    return std::string_view::npos;
  }

  /// The characters above U+007F of the name [b, e) (of a UTF-8 file) are ones Python
  /// accepts there (identifier_ranges.hpp); the first that is not is the error, named as
  /// Python names it.
  void check_name(std::size_t b, std::size_t e) const {
    if (!utf8_names_)
      return;
    for (std::size_t i = b; i < e;) {
      if (static_cast<unsigned char>(s_[i]) < 0x80) {
        ++i;
        continue;
      }
      const auto [c, n] = code_point_at(s_, i);
      if (i == b ? !in_ranges(identifier_start_ranges, c)
                 : !in_ranges(identifier_continue_ranges, c))
        invalid_character(i, c);
      i += n;
    }
  }
  /// A character above U+007F right after a number: Python names one that can be in no
  /// name before it says the literal is invalid.
  void check_after_number(std::size_t at) const {
    if (utf8_names_ && at < s_.size() && static_cast<unsigned char>(s_[at]) >= 0x80) {
      const auto c = code_point_at(s_, at).first;
      if (!in_ranges(identifier_continue_ranges, c))
        invalid_character(at, c);
    }
  }
  [[noreturn]] void invalid_character(std::size_t at, std::uint32_t c) const {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string u = "U+"; // at least four digits, as Python's %04X
    int shift = 12;
    while (shift < 28 && (c >> (shift + 4)) != 0)
      shift += 4;
    for (; shift >= 0; shift -= 4)
      u += hex[(c >> shift) & 15];
    if (!in_ranges(printable_ranges, c))
      fail(at, "invalid non-printable character " + u);
    fail(at, "invalid character '" + std::string(s_.substr(at, code_point_at(s_, at).second)) +
                 "' (" + u + ")");
  }

  [[noreturn]] void fail(std::size_t at, std::string message) const {
    throw syntax_failure{static_cast<std::uint32_t>(at), std::move(message)};
  }

  void push(tok k, std::size_t b, std::size_t e, std::uint8_t flags = 0) {
    const auto length = static_cast<std::uint32_t>(e - b);
    if (length >= token::long_length) [[unlikely]]
      note_long_token(e);
    auto& tokens = out_.tokens;
    if (tokens.size() == tokens.capacity()) [[unlikely]]
      grow_tokens();
#if defined(__GNUC__) || defined(__clang__)
    if (tokens.size() == tokens.capacity())
      __builtin_unreachable(); // so that emplace_back's own growth is not compiled in
#endif
    tokens.emplace_back(k, flags, static_cast<std::uint32_t>(b), length);
    if (k != tok::newline && k != tok::indent && k != tok::dedent)
      line_has_tokens_ = true;
  }

  /// The end of the token about to be pushed, too long for its length field: out of
  /// line, so that push() (once per token) stays small enough to inline.
#if defined(__GNUC__) || defined(__clang__)
  [[gnu::noinline, gnu::cold]]
#endif
  void
  note_long_token(std::size_t e) {
    out_.long_tokens.emplace_back(static_cast<std::uint32_t>(out_.tokens.size()),
                                  static_cast<std::uint32_t>(e));
  }

#if defined(__GNUC__) || defined(__clang__)
  [[gnu::noinline, gnu::cold]]
#endif
  void
  grow_tokens() {
    out_.tokens.reserve(out_.tokens.capacity() * 2 + 16);
  }

  void newline() {
    if (s_[pos_] == '\r' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n')
      ++pos_;
    ++pos_;
    out_.line_starts.push_back(static_cast<std::uint32_t>(pos_));
  }

  /// Measures a line's indentation and emits INDENT/DEDENT; false at the end of input.
  bool indentation() {
    std::uint32_t col = 0, alt = 0;
    const std::size_t start = pos_;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == ' ') {
        ++col;
        ++alt;
      } else if (c == '\t') {
        col = (col / 8 + 1) * 8;
        ++alt;
      } else if (c == '\f') {
        col = alt = 0;
      } else {
        break;
      }
      ++pos_;
    }
    if (pos_ >= s_.size())
      return false;
    const char c = s_[pos_];
    if (c == '#' || c == '\n' || c == '\r')
      return true; // a blank or comment-only line does not count
    if (c == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '\n' || s_[pos_ + 1] == '\r'))
      return true; // Python reads the joined line's indentation from here too
    const indent_level top = indents_.back();
    const auto tab_error = [&] {
      fail(start, "inconsistent use of tabs and spaces in indentation");
    };
    if (col == top.col) {
      if (alt != top.alt_col)
        tab_error();
    } else if (col > top.col) {
      if (alt <= top.alt_col)
        tab_error();
      if (indents_.size() >= max_indentation_levels)
        fail(pos_, "too many levels of indentation");
      indents_.push_back({col, alt});
      push(tok::indent, pos_, pos_);
    } else {
      while (indents_.size() > 1 && col < indents_.back().col) {
        indents_.pop_back();
        push(tok::dedent, pos_, pos_);
      }
      if (col != indents_.back().col)
        fail(pos_, "unindent does not match any outer indentation level");
      if (alt != indents_.back().alt_col)
        tab_error();
    }
    return true;
  }

  void name_or_string() {
    const std::size_t b = pos_;
    const char* p = s_.data() + pos_;
    const char* e = s_.data() + s_.size();
    while (p < e && is_name_char(static_cast<unsigned char>(*p)))
      ++p;
    pos_ = static_cast<std::size_t>(p - s_.data());
    check_name(b, pos_);
    if (pos_ < s_.size() && (s_[pos_] == '"' || s_[pos_] == '\'')) {
      const int flags = string_prefix_flags(s_.substr(b, pos_ - b));
      if (flags >= 0)
        return string(b, static_cast<std::uint8_t>(flags));
    }
    const std::size_t n = pos_ - b;
    std::uint8_t keyword = 0;
    if (n >= 2 && n <= 8) {
      const int bucket = keyword_bucket(s_[b]);
      if (bucket >= 0) {
        std::uint64_t w;
        if (std::endian::native == std::endian::little && b + 8 <= s_.size()) {
          // one load, the bytes past the name masked off
          std::memcpy(&w, s_.data() + b, 8);
          if (n < 8)
            w &= (std::uint64_t{1} << (8 * n)) - 1;
        } else {
          w = packed_name(s_.substr(b, n));
        }
        for (const std::uint8_t i : keyword_buckets[static_cast<std::size_t>(bucket)]) {
          if (i == 0)
            break;
          if (packed_keywords[i] == w) {
            keyword = i;
            break;
          }
        }
      }
    }
    push(tok::name, b, pos_, keyword);
  }

  void number() {
    const std::size_t b = pos_;
    auto digits = [&](auto is_digit, bool leading_underscore) {
      // Digits with single underscores between them; at least one digit.
      std::size_t n = 0;
      bool after_underscore = false;
      if (leading_underscore && pos_ < s_.size() && s_[pos_] == '_') {
        ++pos_;
        after_underscore = true;
      }
      while (pos_ < s_.size()) {
        const auto c = static_cast<unsigned char>(s_[pos_]);
        if (is_digit(c)) {
          ++n;
          after_underscore = false;
        } else if (c == '_' && !after_underscore && n > 0) {
          after_underscore = true;
        } else {
          break;
        }
        ++pos_;
      }
      if (after_underscore || n == 0)
        fail(b, "invalid decimal literal");
      return n;
    };
    const auto dec = [](unsigned char c) { return is_decimal(c); };
    const char c0 = s_[pos_];
    const char c1 = pos_ + 1 < s_.size() ? s_[pos_ + 1] : '\0';
    if (c0 == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'o' || c1 == 'O' || c1 == 'b' || c1 == 'B')) {
      pos_ += 2;
      const char k = static_cast<char>(c1 | 0x20);
      const auto hex = [](unsigned char c) {
        return is_decimal(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      };
      const auto oct = [](unsigned char c) { return c >= '0' && c <= '7'; };
      const auto bin = [](unsigned char c) { return c == '0' || c == '1'; };
      const char* what = k == 'x'   ? "invalid hexadecimal literal"
                         : k == 'o' ? "invalid octal literal"
                                    : "invalid binary literal";
      try {
        if (k == 'x')
          digits(hex, true);
        else if (k == 'o')
          digits(oct, true);
        else
          digits(bin, true);
      } catch (const syntax_failure&) {
        fail(b, what);
      }
      check_after_number(pos_);
      if (pos_ < s_.size() && is_name_char(static_cast<unsigned char>(s_[pos_])) &&
          !keyword_follows())
        fail(b, what);
      return push(tok::number, b, pos_);
    }
    if (c0 != '.') {
      digits(dec, false);
      const std::string_view lit = s_.substr(b, pos_ - b);
      const bool all_zero = lit.find_first_not_of("0_") == std::string_view::npos;
      if (lit.size() > 1 && lit[0] == '0' && !all_zero &&
          !(pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E' ||
                                 s_[pos_] == 'j' || s_[pos_] == 'J')))
        fail(b, "leading zeros in decimal integer literals are not permitted; use an 0o prefix "
                "for octal integers");
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (pos_ < s_.size() && is_decimal(static_cast<unsigned char>(s_[pos_])))
        digits(dec, false);
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      const std::size_t e = pos_;
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-'))
        ++pos_;
      if (pos_ < s_.size() && is_decimal(static_cast<unsigned char>(s_[pos_]))) {
        digits(dec, false);
      } else {
        pos_ = e; // `1else`: the number ends before the keyword
      }
    }
    if (pos_ < s_.size() && (s_[pos_] == 'j' || s_[pos_] == 'J'))
      ++pos_;
    check_after_number(pos_);
    if (pos_ < s_.size() && is_name_char(static_cast<unsigned char>(s_[pos_])) &&
        !keyword_follows())
      fail(b, "invalid decimal literal");
    push(tok::number, b, pos_);
  }

  /// Python still reads `1if x else 2` and `[0x1for x in y]`: a keyword may follow a
  /// number directly.
  bool keyword_follows() const {
    static constexpr std::array<std::string_view, 8> kw{"and", "else", "for", "if",
                                                        "in",  "is",   "not", "or"};
    std::size_t e = pos_;
    while (e < s_.size() && is_name_char(static_cast<unsigned char>(s_[e])))
      ++e;
    const std::string_view word = s_.substr(pos_, e - pos_);
    return std::any_of(kw.begin(), kw.end(), [&](std::string_view k) {
      return word.starts_with(k) && (word.size() == k.size() || k == "or" || k == "and");
    });
  }

  /// One string literal starting at `b` (its prefix) with the quote at pos_. f-strings
  /// are scanned with an explicit stack of nested literals and replacement fields, so
  /// that `f"{x!r:>{w}}"` and `f"{d["k"]}"` end where Python ends them.
  void string(std::size_t b, std::uint8_t flags) {
    struct frame {
      char quote;
      bool triple;
      bool raw;
      bool formatted;
      std::size_t start;     ///< offset of the literal (for messages)
      std::uint32_t depth;   ///< brackets open inside the current replacement field
      bool in_field = false; ///< inside `{...}` of this f-string
      bool in_spec = false;  ///< inside the format spec after ':' of that field
    };
    std::vector<frame> stack;
    auto open_literal = [&](std::size_t start, std::uint8_t f) {
      const char q = s_[pos_];
      const bool triple = pos_ + 2 < s_.size() && s_[pos_ + 1] == q && s_[pos_ + 2] == q;
      pos_ += triple ? 3 : 1;
      if (stack.size() >= max_open_brackets)
        fail(start, "f-string: too many nested expressions");
      stack.push_back({q, triple, (f & string_raw) != 0, (f & string_formatted) != 0, start, 0});
    };
    if (pos_ + 2 < s_.size() && s_[pos_ + 1] == s_[pos_] && s_[pos_ + 2] == s_[pos_])
      flags |= string_triple;
    open_literal(b, flags);
    while (!stack.empty()) {
      frame& f = stack.back();
      if (pos_ >= s_.size())
        unterminated(f);
      const char c = s_[pos_];
      if (f.in_field && !f.in_spec) {
        // Python code inside a replacement field.
        if (c == '\n' || c == '\r') { // a field may span lines (Python 3.12)
          newline();
          continue;
        }
        if (c == '"' || c == '\'') {
          open_literal(pos_, 0);
          continue;
        }
        if (is_name_start(static_cast<unsigned char>(c))) {
          const std::size_t nb = pos_;
          while (pos_ < s_.size() && is_name_char(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
          if (pos_ < s_.size() && (s_[pos_] == '"' || s_[pos_] == '\'')) {
            const int pf = string_prefix_flags(s_.substr(nb, pos_ - nb));
            if (pf >= 0)
              open_literal(nb, static_cast<std::uint8_t>(pf));
          }
          continue;
        }
        if (c == '#') { // a comment (Python 3.12): to the end of the line
          while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r')
            ++pos_;
          continue;
        }
        if (c == '(' || c == '[' || c == '{') {
          if (++f.depth > max_open_brackets)
            fail(pos_, "too many nested parentheses");
        } else if ((c == ')' || c == ']') && f.depth > 0) {
          --f.depth;
        } else if (c == '}') {
          if (f.depth > 0) {
            --f.depth;
          } else if (f.quote == '\0') { // a field nested in a spec: back to that spec
            ++pos_;
            stack.pop_back();
            continue;
          } else {
            f.in_field = false;
          }
        } else if (c == ':' && f.depth == 0) {
          if (!(pos_ + 1 < s_.size() && s_[pos_ + 1] == '=')) // `:=` needs parentheses
            f.in_spec = true;
        } else if (c == '\\' && !f.triple) {
          // backslashes are allowed in expressions from 3.12 on; just step over
        }
        ++pos_;
        continue;
      }
      // Literal text (or a format spec, which is literal text with nested fields).
      if (c == f.quote &&
          (!f.triple || (pos_ + 2 < s_.size() && s_[pos_ + 1] == c && s_[pos_ + 2] == c))) {
        if (f.in_field) // the spec of a field ended by the literal's quote
          unterminated_field(f);
        pos_ += f.triple ? 3 : 1;
        stack.pop_back();
        continue;
      }
      if (c == '\n' || c == '\r') {
        if (!f.triple)
          unterminated(f);
        newline();
        continue;
      }
      if (c == '\\') {
        ++pos_;
        if (pos_ >= s_.size())
          unterminated(f);
        if (s_[pos_] == '\n' || s_[pos_] == '\r')
          newline();
        else if (!(f.formatted && (s_[pos_] == '{' || s_[pos_] == '}')))
          ++pos_;
        continue;
      }
      if (f.formatted && c == '{') {
        if (!f.in_spec && pos_ + 1 < s_.size() && s_[pos_ + 1] == '{') {
          pos_ += 2;
          continue;
        }
        // A field (or a nested field inside a spec: the spec's field closes back to it).
        if (f.in_spec) {
          // Nested replacement field inside a format spec: a new field level.
          if (stack.size() >= max_open_brackets)
            fail(pos_, "f-string: too many nested expressions");
          frame nested = f;
          nested.in_spec = false;
          nested.in_field = true;
          nested.depth = 0;
          ++pos_;
          skip_spaces();
          if (pos_ < s_.size() && s_[pos_] == '}')
            fail(pos_, "f-string: valid expression required before '}'");
          stack.push_back(nested);
          // Its closing '}' pops back to the spec: mark with quote 0 (never a quote).
          stack.back().quote = '\0';
          continue;
        }
        ++pos_;
        skip_spaces();
        if (pos_ < s_.size() && (s_[pos_] == '}' || s_[pos_] == '!' || s_[pos_] == ':'))
          fail(pos_,
               "f-string: valid expression required before '" + std::string(1, s_[pos_]) + "'");
        f.in_field = true;
        f.depth = 0;
        continue;
      }
      if (f.formatted && c == '}') {
        if (f.in_spec) {
          f.in_spec = false;
          f.in_field = false;
          ++pos_;
          if (f.quote == '\0') // the nested field of a spec: back to the spec
            stack.pop_back();
          continue;
        }
        if (pos_ + 1 < s_.size() && s_[pos_ + 1] == '}') {
          pos_ += 2;
          continue;
        }
        fail(pos_, "f-string: single '}' is not allowed");
      }
      ++pos_;
    }
    push(tok::string, b, pos_, flags);
  }

  void skip_spaces() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t'))
      ++pos_;
  }

  [[noreturn]] void unterminated(const auto& f) {
    if (f.quote == '\0' || f.in_field)
      unterminated_field(f);
    if (f.formatted)
      fail(f.start, f.triple ? "unterminated triple-quoted f-string literal"
                             : "unterminated f-string literal");
    fail(f.start,
         f.triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
  }
  [[noreturn]] void unterminated_field(const auto& f) { fail(f.start, "f-string: expecting '}'"); }

  /// An operator that is never the start of a longer one: ( ) [ ] { } , ; ~
  static bool single_operator(unsigned char c) {
    return c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == ',' ||
           c == ';' || c == '~';
  }
  void single_op(unsigned char c) {
    const std::size_t b = pos_;
    if (c == '(' || c == '[' || c == '{') {
      if (brackets_.size() >= max_open_brackets)
        fail(b, "too many nested parentheses");
      brackets_.emplace_back(static_cast<char>(c), static_cast<std::uint32_t>(b));
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (brackets_.empty())
        fail(b, std::string("unmatched '") + static_cast<char>(c) + "'");
      if (brackets_.back().first != want)
        fail(b, std::string("closing parenthesis '") + static_cast<char>(c) +
                    "' does not match opening parenthesis '" + brackets_.back().first + "'");
      brackets_.pop_back();
    }
    ++pos_;
    push(tok::op, b, pos_, static_cast<std::uint8_t>(c));
  }

  void op() {
    const std::size_t b = pos_;
    const char c = s_[pos_];
    const char c1 = pos_ + 1 < s_.size() ? s_[pos_ + 1] : '\0';
    const char c2 = pos_ + 2 < s_.size() ? s_[pos_ + 2] : '\0';
    // The longest operator that starts here.
    if (const auto [len, code] = long_operator(c, c1, c2); len != 0) {
      pos_ += len;
      return push(tok::op, b, pos_, code);
    }
    if (c == '\0')
      fail(b, "source code cannot contain null bytes");
    if (!(char_classes[static_cast<unsigned char>(c)] & cc_operator)) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 0x21 && u < 0x7f)
        fail(b, std::string("invalid character '") + c + "' (U+" + hex2(u) + ")");
      fail(b, "invalid non-printable character U+" + hex2(u));
    }
    if (c == '(' || c == '[' || c == '{') {
      if (brackets_.size() >= max_open_brackets)
        fail(b, "too many nested parentheses");
      brackets_.emplace_back(c, static_cast<std::uint32_t>(b));
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (brackets_.empty())
        fail(b, std::string("unmatched '") + c + "'");
      if (brackets_.back().first != want)
        fail(b, std::string("closing parenthesis '") + c +
                    "' does not match opening parenthesis '" + brackets_.back().first + "'");
      brackets_.pop_back();
    }
    ++pos_;
    push(tok::op, b, pos_, static_cast<std::uint8_t>(c));
  }

  /// The length and code of the operator of two or three characters at c c1 c2, or
  /// {0, 0}.
  static constexpr std::pair<std::size_t, std::uint8_t> long_operator(char c, char c1, char c2) {
    constexpr auto code = [](std::string_view o) { return op_code(o); };
    switch (c) {
    case '*':
      if (c1 == '*')
        return c2 == '=' ? std::pair{std::size_t{3}, code("**=")}
                         : std::pair{std::size_t{2}, code("**")};
      break;
    case '/':
      if (c1 == '/')
        return c2 == '=' ? std::pair{std::size_t{3}, code("//=")}
                         : std::pair{std::size_t{2}, code("//")};
      break;
    case '>':
      if (c1 == '>')
        return c2 == '=' ? std::pair{std::size_t{3}, code(">>=")}
                         : std::pair{std::size_t{2}, code(">>")};
      if (c1 == '=')
        return {2, code(">=")};
      return {0, 0};
    case '<':
      if (c1 == '<')
        return c2 == '=' ? std::pair{std::size_t{3}, code("<<=")}
                         : std::pair{std::size_t{2}, code("<<")};
      if (c1 == '=')
        return {2, code("<=")};
      return {0, 0};
    case '.':
      return (c1 == '.' && c2 == '.') ? std::pair{std::size_t{3}, code("...")}
                                      : std::pair{std::size_t{0}, std::uint8_t{0}};
    case '-':
      if (c1 == '>')
        return {2, code("->")};
      break;
    case ':':
      return c1 == '=' ? std::pair{std::size_t{2}, code(":=")}
                       : std::pair{std::size_t{0}, std::uint8_t{0}};
    case '=':
      return c1 == '=' ? std::pair{std::size_t{2}, code("==")}
                       : std::pair{std::size_t{0}, std::uint8_t{0}};
    case '!':
      return c1 == '=' ? std::pair{std::size_t{2}, code("!=")}
                       : std::pair{std::size_t{0}, std::uint8_t{0}};
    case '+':
    case '%':
    case '&':
    case '|':
    case '^':
    case '@':
      break;
    default:
      return {0, 0};
    }
    if (c1 == '=') { // c= for + - * / % & | ^ @
      const char two[2] = {c, '='};
      return {2, op_code(std::string_view(two, 2))};
    }
    return {0, 0};
  }

  static std::string hex2(unsigned char c) {
    static constexpr char hex[] = "0123456789ABCDEF";
    return std::string("00") + hex[c >> 4] + hex[c & 15];
  }

  token_stream out_;
  std::string_view s_;
  bool utf8_names_ = false; ///< the names may hold characters above U+007F, in UTF-8
  std::size_t pos_ = 0;

  bool line_has_tokens_ = false;
  std::vector<indent_level> indents_;
  std::vector<std::pair<char, std::uint32_t>> brackets_;
};

} // namespace

token_stream tokenize(std::string_view source) { return tokenizer(source).run(); }

bool string_value(std::string_view spelling, std::uint8_t flags, std::string& out) {
  if (flags & (string_bytes | string_formatted))
    return false;
  std::size_t i = 0;
  while (i < spelling.size() && spelling[i] != '"' && spelling[i] != '\'')
    ++i;
  const std::size_t q = (flags & string_triple) ? 3 : 1;
  if (spelling.size() < i + 2 * q)
    return false;
  const std::string_view body = spelling.substr(i + q, spelling.size() - i - 2 * q);
  const bool raw = flags & string_raw;
  for (std::size_t k = 0; k < body.size(); ++k) {
    char c = body[k];
    if (c == '\r') { // newlines inside a literal read as \n
      if (k + 1 < body.size() && body[k + 1] == '\n')
        ++k;
      out += '\n';
      continue;
    }
    if (c != '\\' || raw || k + 1 >= body.size()) {
      out += c;
      continue;
    }
    const char e = body[++k];
    switch (e) {
    case '\n':
      break;
    case '\r':
      if (k + 1 < body.size() && body[k + 1] == '\n')
        ++k;
      break;
    case 'n':
      out += '\n';
      break;
    case 't':
      out += '\t';
      break;
    case 'r':
      out += '\r';
      break;
    case '0':
      out += '\0';
      break;
    case '\\':
    case '\'':
    case '"':
      out += e;
      break;
    case 'x': {
      auto hv = [](char h) {
        return (h >= '0' && h <= '9')   ? h - '0'
               : (h >= 'a' && h <= 'f') ? h - 'a' + 10
               : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                        : -1;
      };
      if (k + 2 < body.size() + 0 && hv(body[k + 1]) >= 0 && hv(body[k + 2]) >= 0) {
        out += static_cast<char>(hv(body[k + 1]) * 16 + hv(body[k + 2]));
        k += 2;
      } else {
        out += "\\x";
      }
      break;
    }
    default:
      out += '\\';
      out += e;
    }
  }
  return true;
}

} // namespace commscope::frontend::detail
