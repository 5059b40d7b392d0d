// Choosing and suppressing diagnostics: `# commscope: ignore[CODE, ...]` at the end of a
// diagnostic's line, `# commscope: ignore-file[CODE, ...]` in a file's opening comments,
// and the codes a run selects or ignores (command line, configuration, per-file ignores).
#pragma once

#include "finding.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace commscope::opt {

/// A `commscope: ignore` directive: every code (`all`), or the codes listed.
struct ignore_directive {
  /// A list that suppresses nothing as written: its brackets hold no code, or the '[' is
  /// never closed.
  enum class flaw : std::uint8_t { none, no_codes, unclosed };
  bool all = false;
  std::vector<std::string> codes;
  std::vector<std::size_t> offsets; ///< where each code starts in the comment
  flaw problem = flaw::none;
  std::size_t bracket = 0; ///< where the list's '[' is in the comment
  [[nodiscard]] bool covers(std::string_view code) const {
    if (all)
      return true;
    for (const auto& c : codes)
      if (c == code)
        return true;
    return false;
  }
};

/// The index just past the string literal whose quote is at `i` (past the line when it
/// does not close on it); escapes skipped. A triple-quoted one ends at three quotes: a
/// lone quote inside it (`"""it's"""`) does not end it.
[[nodiscard]] inline std::size_t past_string(std::string_view line, std::size_t i) {
  const std::string_view triple = line[i] == '"' ? std::string_view(R"(""")") : "'''";
  const std::string_view end = line.substr(i).starts_with(triple) ? triple : triple.substr(0, 1);
  for (i += end.size(); i < line.size(); ++i) {
    if (line[i] == '\\')
      ++i;
    else if (line.substr(i).starts_with(end))
      return i + end.size();
  }
  return line.size();
}

/// The index just past the string literal whose quote is at `i` in a whole text: a
/// triple-quoted one across lines, any other at its quote or its line's end (a backslash
/// continues it).
[[nodiscard]] inline std::size_t past_literal(std::string_view text, std::size_t i) {
  const char c = text[i];
  if (text.substr(i).starts_with(c == '"' ? std::string_view(R"(""")") : "'''"))
    return past_string(text, i);
  std::size_t end = i + 1;
  for (; end < text.size() && text[end] != c && text[end] != '\n'; ++end)
    if (text[end] == '\\')
      ++end;
  return std::min(end + 1, text.size());
}

/// The comment of a source line: from its first '#' outside a string literal that starts
/// on this line (a string opened on an earlier line is not seen; a '#' in it would only
/// make a directive count that Python reads as string text, which is as the author wrote).
[[nodiscard]] inline std::string_view comment_of(std::string_view line) {
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '"' || line[i] == '\'')
      i = past_string(line, i);
    else if (line[i] == '#')
      return line.substr(i);
    else
      ++i;
  }
  return {};
}

/// `s` without its leading blanks.
[[nodiscard]] inline std::string_view without_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  return s;
}

/// Whether `commscope:` at `at` opens a comment: only blanks between it and a '#'. Prose
/// that mentions a directive (`# TODO: drop the commscope: ignore`) is no directive, as
/// `# noqa` counts for ruff only right after a '#'.
[[nodiscard]] inline bool opens_comment(std::string_view comment, std::size_t at) {
  while (at > 0 && (comment[at - 1] == ' ' || comment[at - 1] == '\t'))
    --at;
  return at > 0 && comment[at - 1] == '#';
}

/// The directive `# commscope: KEYWORD` or `# commscope: KEYWORD[CODE, ...]` in a comment,
/// if it holds one (after any other tool's directives: `# noqa: E501  # commscope: ignore`).
[[nodiscard]] inline std::optional<ignore_directive> directive_in(std::string_view comment,
                                                                  std::string_view keyword) {
  constexpr std::string_view tool = "commscope:";
  for (std::size_t at = comment.find(tool); at != std::string_view::npos;
       at = comment.find(tool, at + 1)) {
    if (!opens_comment(comment, at))
      continue;
    std::string_view rest = without_blanks(comment.substr(at + tool.size()));
    if (!rest.starts_with(keyword))
      continue;
    rest.remove_prefix(keyword.size());
    // `ignore` must not match the start of `ignore-file`.
    if (!rest.empty() && rest.front() != '[' && rest.front() != ' ' && rest.front() != '\t' &&
        rest.front() != '#' && rest.front() != '\r')
      continue;
    // `ignore [CODE]` lists its codes as `ignore[CODE]` does: read as a bare `ignore`, it
    // would suppress every code of the line, not the one written.
    rest = without_blanks(rest);
    ignore_directive d;
    if (!rest.starts_with('[')) {
      d.all = true;
      return d;
    }
    d.bracket = static_cast<std::size_t>(rest.data() - comment.data());
    const auto close = rest.find(']');
    if (close == std::string_view::npos) {
      d.problem = ignore_directive::flaw::unclosed;
      return d;
    }
    std::string_view list = rest.substr(1, close - 1);
    while (!list.empty()) {
      const auto comma = list.find(',');
      std::string_view item = without_blanks(list.substr(0, comma));
      list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
      while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
        item.remove_suffix(1);
      if (!item.empty()) {
        d.codes.emplace_back(item);
        d.offsets.push_back(static_cast<std::size_t>(item.data() - comment.data()));
      }
    }
    if (d.codes.empty())
      d.problem = ignore_directive::flaw::no_codes;
    return d;
  }
  return std::nullopt;
}

/// The source lines of a file, found once and then looked up by number.
class source_lines {
public:
  explicit source_lines(std::string_view text) : text_(text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        starts_.push_back(i + 1);
  }
  /// Line `n` (1-based) without its line end; empty past the end.
  [[nodiscard]] std::string_view line(std::uint32_t n) const {
    if (n == 0 || n > starts_.size())
      return {};
    std::size_t b = starts_[n - 1];
    std::size_t e = n < starts_.size() ? starts_[n] - 1 : text_.size();
    if (n == 1 && text_.starts_with("\xEF\xBB\xBF")) // columns count from after a BOM
      b = std::min<std::size_t>(3, e);
    if (e > b && text_[e - 1] == '\r')
      --e;
    return text_.substr(b, e - b);
  }
  [[nodiscard]] std::uint32_t count() const { return static_cast<std::uint32_t>(starts_.size()); }

  /// The comment of line `n`, found as Python finds it: where a triple-quoted string that
  /// an earlier line opened ends on this line (`"""; chip(...)  # commscope: ignore`),
  /// after that end.
  [[nodiscard]] std::string_view comment(std::uint32_t n) const {
    const std::string_view l = line(n);
    if (n == 0 || n > starts_.size())
      return {};
    if (resume_.empty())
      find_string_ends();
    const std::size_t from = resume_[n - 1];
    return from >= l.size() ? std::string_view{} : comment_of(l.substr(from));
  }

private:
  /// resume_: for each line, where its code starts: 0, or past the end of a string an
  /// earlier line opened (the line's length when it does not end there).
  void find_string_ends() const {
    resume_.assign(starts_.size(), 0);
    std::size_t next_line = 1; // the first line start not yet passed
    for (std::size_t i = 0; i < text_.size();) {
      const char c = text_[i];
      if (c == '#') {
        i = std::min(text_.find('\n', i), text_.size());
      } else if (c == '"' || c == '\'') {
        const std::size_t end = past_literal(text_, i);
        while (next_line < starts_.size() && starts_[next_line] <= i)
          ++next_line;
        for (; next_line < starts_.size() && starts_[next_line] < end; ++next_line)
          resume_[next_line] = end - starts_[next_line];
        i = end;
      } else {
        ++i;
      }
    }
  }

  std::string_view text_;
  std::vector<std::size_t> starts_;
  mutable std::vector<std::size_t> resume_; ///< made on first use, by one thread
};

/// The `ignore-file` directives of a file: in the comments that open it (its first line,
/// or the comment lines before its first statement, as a shebang or a license header
/// puts it below the first line). Only those lines are read.
[[nodiscard]] inline std::vector<ignore_directive> file_directives(std::string_view text) {
  std::vector<ignore_directive> found;
  if (text.starts_with("\xEF\xBB\xBF"))
    text.remove_prefix(3);
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view l = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t' || l.front() == '\f'))
      l.remove_prefix(1);
    if (l.empty() || l == "\r")
      continue;
    if (!l.starts_with('#'))
      break;
    if (auto d = directive_in(l, "ignore-file"))
      found.push_back(std::move(*d));
  }
  return found;
}

/// A code listed by an `ignore` or `ignore-file` directive, or a list of its that
/// suppresses nothing (`problem`, `code` empty), and where it is written (1-based; the
/// column in characters, as diagnostics count it).
struct listed_code {
  std::string code;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  ignore_directive::flaw problem = ignore_directive::flaw::none;
};

/// Every code listed by an `ignore` or `ignore-file` directive in the comments of `text`,
/// and every list that holds none, in source order, so that one the run does not know is
/// reported instead of silently suppressing nothing. Comments are found as Python finds
/// them: a string literal, triple-quoted ones across lines too, is skipped, so that a
/// docstring showing a directive lists nothing.
[[nodiscard]] inline std::vector<listed_code> listed_codes(std::string_view text) {
  std::vector<listed_code> found;
  if (text.find("commscope:") == std::string_view::npos) // most files: no scan
    return found;
  std::uint32_t line = 1;
  std::size_t line_start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0; // columns follow a BOM
  const auto next_lines = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k)
      if (text[k] == '\n') {
        ++line;
        line_start = k + 1;
      }
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      const std::size_t end = past_literal(text, i);
      next_lines(i, end);
      i = end;
    } else if (c == '#') {
      const std::size_t eol = std::min(text.find('\n', i), text.size());
      const std::string_view comment = text.substr(i, eol - i);
      for (const std::string_view keyword : {"ignore", "ignore-file"}) {
        const auto d = directive_in(comment, keyword);
        if (!d)
          continue;
        const auto column_of = [&](std::size_t offset) {
          std::uint32_t column = 1;
          for (std::size_t b = line_start; b < i + offset; ++b)
            column += (static_cast<unsigned char>(text[b]) & 0xC0) != 0x80 ? 1 : 0;
          return column;
        };
        if (d->problem != ignore_directive::flaw::none)
          found.push_back({{}, line, column_of(d->bracket), d->problem});
        for (std::size_t k = 0; k < d->codes.size(); ++k)
          found.push_back({d->codes[k], line, column_of(d->offsets[k])});
      }
      i = eol;
    } else {
      next_lines(i, i + 1);
      ++i;
    }
  }
  return found;
}

} // namespace commscope::opt
