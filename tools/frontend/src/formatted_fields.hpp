// The names a formatted string literal reads. The tokenizer keeps an f-string as one
// token, replacement fields included; what its fields evaluate is found here by a scan
// of the token's text, so that a view read (or dispatched) inside `f"{...}"` is a use
// the pass sees, never one it drops.
#pragma once

#include "keywords.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace commscope::frontend::detail {

/// What the replacement fields of a formatted string literal read.
struct formatted_reads {
  /// The names its fields' expressions read (no attribute names, no keywords), as
  /// offsets into the spelling: each may be a variable.
  std::vector<std::string_view> names;
  /// A field may call something (an opening parenthesis in its expression: a call, a
  /// parenthesized walrus or lambda); then what it reads may be used anywhere.
  bool may_call = false;
};

namespace formatted {

constexpr bool starts_name(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
constexpr bool in_name(char c) { return starts_name(c) || (c >= '0' && c <= '9'); }
constexpr bool is_quote(char c) { return c == '\'' || c == '"'; }

/// Every name of `text` that is no attribute and no keyword (the fallback: where the
/// scan is unsure, everything counts).
inline void all_names(std::string_view text, formatted_reads& out) {
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] >= '0' && text[i] <= '9') {
      while (i < text.size() && in_name(text[i]))
        ++i;
      continue;
    }
    if (!starts_name(text[i])) {
      ++i;
      continue;
    }
    const std::size_t b = i;
    while (i < text.size() && in_name(text[i]))
      ++i;
    const std::string_view n = text.substr(b, i - b);
    if ((b == 0 || text[b - 1] != '.') && !is_reserved(n))
      out.names.push_back(n);
  }
}

} // namespace formatted

/// What the fields of the formatted string literal `spelling` (prefix and quotes
/// included, as the tokenizer gives it) read. Literal text and format specs read nothing;
/// strings nested in a field are searched for names too (an over-approximation: a nested
/// f-string's fields are among them). A spelling the scan does not follow to its end
/// counts every name of it, and may call.
inline formatted_reads formatted_fields(std::string_view spelling) {
  using namespace formatted;
  formatted_reads out;
  std::size_t i = 0;
  while (i < spelling.size() && !is_quote(spelling[i]))
    ++i;
  if (i == spelling.size()) {
    all_names(spelling, out);
    out.may_call = true;
    return out;
  }
  const char q = spelling[i];
  const bool triple = spelling.size() >= i + 6 && spelling[i + 1] == q && spelling[i + 2] == q;
  const std::size_t open = triple ? 3 : 1;
  if (spelling.size() < i + 2 * open) {
    all_names(spelling, out);
    out.may_call = true;
    return out;
  }
  const std::string_view body = spelling.substr(i + open, spelling.size() - i - 2 * open);

  // Fields nest through format specs (`{x:{width}}`): per open field, its bracket depth
  // and whether its format spec has begun.
  struct field {
    int depth = 0;
    bool spec = false;
  };
  std::vector<field> fields;
  bool understood = true;
  std::size_t k = 0;
  while (k < body.size() && understood) {
    const char c = body[k];
    if (fields.empty() || fields.back().spec) { // literal text or a format spec
      if (c == '{') {
        if (fields.empty() && k + 1 < body.size() && body[k + 1] == '{') {
          k += 2; // an escaped brace
          continue;
        }
        fields.push_back({});
      } else if (c == '}' && !fields.empty()) {
        fields.pop_back();
      }
      ++k;
      continue;
    }
    field& f = fields.back();
    if (is_quote(c)) { // a string in the field: its names count too
      const bool nested_triple = k + 2 < body.size() && body[k + 1] == c && body[k + 2] == c;
      const std::size_t quotes = nested_triple ? 3 : 1;
      std::size_t j = k + quotes;
      for (; j < body.size(); ++j) {
        if (body[j] == '\\') {
          ++j;
          continue;
        }
        if (body[j] == c &&
            (!nested_triple || (j + 2 < body.size() && body[j + 1] == c && body[j + 2] == c)))
          break;
      }
      if (j >= body.size()) {
        understood = false;
        break;
      }
      all_names(body.substr(k + quotes, j - k - quotes), out);
      k = j + quotes;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      out.may_call = out.may_call || c == '(';
      ++f.depth;
    } else if (c == ')' || c == ']') {
      --f.depth;
    } else if (c == '}') {
      if (f.depth == 0)
        fields.pop_back();
      else
        --f.depth;
    } else if (f.depth == 0 && c == '!' && k + 1 < body.size() && body[k + 1] != '=') {
      k += 2; // a conversion (!r, !s, !a): no name
      continue;
    } else if (f.depth == 0 && c == ':') {
      f.spec = true;
    } else if (c >= '0' && c <= '9') {
      while (k < body.size() && (in_name(body[k]) || body[k] == '.'))
        ++k;
      continue;
    } else if (starts_name(c)) {
      const std::size_t b = k;
      while (k < body.size() && in_name(body[k]))
        ++k;
      const std::string_view n = body.substr(b, k - b);
      std::size_t before = b;
      while (before > 0 && (body[before - 1] == ' ' || body[before - 1] == '\t'))
        --before;
      const bool attribute = before > 0 && body[before - 1] == '.';
      const bool prefix = k < body.size() && is_quote(body[k]); // a nested string's
      if (!attribute && !prefix && !is_reserved(n))
        out.names.push_back(n);
      continue;
    }
    ++k;
  }
  if (!understood || !fields.empty()) {
    out.names.clear();
    all_names(spelling, out);
    out.may_call = true;
  }
  return out;
}

} // namespace commscope::frontend::detail
