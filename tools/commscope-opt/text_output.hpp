// The text format (the default): diagnostics as compilers print them, with the source
// line, a caret under the place and the rest of its call or statement underlined, notes
// in the same form and a `help:` line; plans as tables with their bytes; color on a
// terminal. Also the GitHub Actions format, one workflow command per diagnostic.
#pragma once

#include "codes.hpp"
#include "finding.hpp"
#include "suppressions.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace commscope::opt {

/// ANSI styles of the text format; all empty when color is off.
struct text_style {
  std::string_view bold, error, note, help, caret, reset;
  static text_style colored() {
    return {"\033[1m", "\033[1;31m", "\033[1;36m", "\033[1;32m", "\033[1;32m", "\033[0m"};
  }
  static text_style plain() { return {}; }
};

namespace text_detail {

inline bool name_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}

/// Skips a bracketed group opened at `i`, strings included; the end of `line` when it
/// does not close on this line.
inline std::size_t skip_group(std::string_view line, std::size_t i) {
  int depth = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (c == '"' || c == '\'') {
      i = past_string(line, i);
      continue;
    }
    if (c == '#')
      break;
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
      return i + 1;
    ++i;
  }
  return line.size();
}

/// The end of the code on a line: before its comment and trailing blanks.
inline std::size_t code_end(std::string_view line) {
  const std::string_view comment = comment_of(line);
  std::size_t e =
      comment.empty() ? line.size() : static_cast<std::size_t>(comment.data() - line.data());
  while (e > 0 && (line[e - 1] == ' ' || line[e - 1] == '\t'))
    --e;
  return e;
}

/// The byte extent of what starts at byte `b`: a dotted name with its calls and
/// subscripts (`self.chip(x, device=r)`), and for an assignment or an augmented one the
/// whole statement; at least one byte.
inline std::size_t extent_end(std::string_view line, std::size_t b) {
  if (b >= line.size())
    return b;
  if (!name_byte(static_cast<unsigned char>(line[b])))
    return b + 1;
  std::size_t i = b;
  while (i < line.size()) {
    while (i < line.size() && name_byte(static_cast<unsigned char>(line[i])))
      ++i;
    while (i < line.size() && (line[i] == '(' || line[i] == '['))
      i = skip_group(line, i);
    if (i < line.size() && line[i] == '.' && i + 1 < line.size() &&
        name_byte(static_cast<unsigned char>(line[i + 1])))
      ++i;
    else
      break;
  }
  std::size_t j = i;
  while (j < line.size() && line[j] == ' ')
    ++j;
  const bool assignment =
      j < line.size() && ((line[j] == '=' && (j + 1 >= line.size() || line[j + 1] != '=')) ||
                          (j + 1 < line.size() && line[j + 1] == '=' &&
                           std::string_view("+-*/%&|^@").find(line[j]) != std::string_view::npos) ||
                          line[j] == ',' || line[j] == ':');
  if (assignment)
    return std::max(i, code_end(line));
  return i;
}

/// The byte offset of 1-based code-point column `column` in `line` (its end if beyond).
inline std::size_t byte_of_column(std::string_view line, std::uint32_t column) {
  std::size_t i = 0;
  for (std::uint32_t c = 1; c < column && i < line.size(); ++c) {
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xc0) == 0x80)
      ++i;
  }
  return i;
}

/// The code point at byte `i` of `line` (a lead byte alone when the sequence is broken,
/// as in a file of another declared encoding; a stray continuation byte, which columns
/// count with the character before it, as a zero-width space), and the byte after it.
inline char32_t code_point_at(std::string_view line, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(line[i++]);
  if ((lead & 0xc0) == 0x80)
    return 0x200b;
  const int more = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
  char32_t cp = more == 3   ? lead & 0x07u
                : more == 2 ? lead & 0x0fu
                : more == 1 ? lead & 0x1fu
                            : lead;
  for (int k = 0; k < more; ++k) {
    if (i >= line.size() || (static_cast<unsigned char>(line[i]) & 0xc0) != 0x80)
      return lead;
    cp = (cp << 6) | (static_cast<unsigned char>(line[i++]) & 0x3fu);
  }
  return cp;
}

/// The terminal cells code point `cp` takes: none for combining marks and zero-width
/// characters, two for East Asian wide and fullwidth ones (CJK, kana, Hangul, fullwidth
/// forms), else one; so that a caret after them stands under its column.
inline int cells_of(char32_t cp) {
  struct range {
    char32_t first, last;
  };
  static constexpr range zero[] = {{0x0300, 0x036f}, {0x1160, 0x11ff}, {0x1ab0, 0x1aff},
                                   {0x1dc0, 0x1dff}, {0x200b, 0x200f}, {0x2060, 0x2064},
                                   {0x20d0, 0x20ff}, {0x3099, 0x309a}, {0xfe00, 0xfe0f},
                                   {0xfe20, 0xfe2f}, {0xfeff, 0xfeff}};
  static constexpr range wide[] = {{0x1100, 0x115f},   {0x2e80, 0x303e},   {0x3041, 0x3247},
                                   {0x3250, 0x4dbf},   {0x4e00, 0xa4cf},   {0xa960, 0xa97f},
                                   {0xac00, 0xd7a3},   {0xf900, 0xfaff},   {0xfe10, 0xfe19},
                                   {0xfe30, 0xfe6f},   {0xff00, 0xff60},   {0xffe0, 0xffe6},
                                   {0x1b000, 0x1b2ff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd}};
  if (cp < 0x300)
    return 1;
  for (const range& r : zero)
    if (cp >= r.first && cp <= r.last)
      return 0;
  for (const range& r : wide)
    if (cp >= r.first && cp <= r.last)
      return 2;
  return 1;
}

} // namespace text_detail

/// How to fix a finding: its own help, else its code's.
[[nodiscard]] inline std::string_view help_of(const finding& f) {
  if (!f.help.empty())
    return f.help;
  if (const auto k = code_index(f.code))
    return code_at(*k).help;
  return {};
}

/// Writes diagnostics in the text format into a string.
class text_writer {
public:
  explicit text_writer(text_style style) : style_(style) {}

  /// One diagnostic: its line, the source line with its caret, its notes, its help.
  /// `lines` is the source of `file`, `note_lines` that of the notes (the input); either
  /// may be null when it cannot be read.
  void diagnostic(std::string& out, std::string_view file, const finding& f,
                  const source_lines* lines, std::string_view note_file,
                  const source_lines* note_lines) const {
    header(out, file, f.line, f.column, "error", style_.error);
    out += f.message;
    out += " [";
    out += f.code;
    out += "]\n";
    snippet(out, lines, f.line, f.column);
    for (const auto& n : f.notes) {
      header(out, note_file, n.line, n.column, "note", style_.note);
      out += n.message;
      out += '\n';
      snippet(out, note_lines, n.line, n.column);
    }
    if (const std::string_view help = help_of(f); !help.empty()) {
      out += style_.help;
      out += "help:";
      out += style_.reset;
      out += ' ';
      out += help;
      out += '\n';
    }
  }

  /// `FILE:LINE:COLUMN: KIND: ` with the style of the kind.
  void header(std::string& out, std::string_view file, std::uint32_t line, std::uint32_t column,
              std::string_view kind, std::string_view kind_style) const {
    out += style_.bold;
    out += file;
    out += ':' + std::to_string(line) + ':' + std::to_string(column) + ": ";
    out += style_.reset;
    out += kind_style;
    out += kind;
    out += ':';
    out += style_.reset;
    out += ' ';
  }

  [[nodiscard]] const text_style& style() const { return style_; }

private:
  /// ` LINE | source`, then `      | ^~~~` under the column.
  void snippet(std::string& out, const source_lines* lines, std::uint32_t line,
               std::uint32_t column) const {
    if (!lines || line == 0 || line > lines->count())
      return;
    const std::string_view text = lines->line(line);
    const std::string number = std::to_string(line);
    const std::size_t width = std::max<std::size_t>(number.size(), 4);
    out.append(width + 1 - number.size(), ' ');
    out += number;
    out += " | ";
    out += text;
    out += '\n';
    out.append(width + 1, ' ');
    out += " | ";
    const std::size_t b = text_detail::byte_of_column(text, column);
    // Tabs stay tabs so that the caret stands under its column however tabs are shown;
    // a wide character (CJK) takes two cells, a combining mark none.
    for (std::size_t i = 0; i < b;) {
      if (text[i] == '\t') {
        out += '\t';
        ++i;
      } else {
        out.append(
            static_cast<std::size_t>(text_detail::cells_of(text_detail::code_point_at(text, i))),
            ' ');
      }
    }
    out += style_.caret;
    out += '^';
    const std::size_t e = text_detail::extent_end(text, b);
    std::size_t i = b;
    if (i < e) // the caret's own character
      text_detail::code_point_at(text, i);
    while (i < e)
      out.append(
          static_cast<std::size_t>(text_detail::cells_of(text_detail::code_point_at(text, i))),
          '~');
    out += style_.reset;
    out += '\n';
  }

  text_style style_;
};

/// GitHub Actions: `::error file=F,line=L,col=C,title=commscope CODE::MESSAGE`, the notes
/// and the help appended to the message (one annotation per diagnostic).
namespace github {

/// The escapes of a workflow command's message.
inline void append_data(std::string& out, std::string_view s) {
  for (const char c : s) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
}

/// The escapes of a property value: a message's, and ':' and ','.
inline void append_property(std::string& out, std::string_view s) {
  for (const char c : s) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      append_data(out, std::string_view(&c, 1));
  }
}

/// The path of an annotation: GitHub matches `file=` against the repository's paths as
/// written, so `./m.py` or `a/../m.py` (as `find .` or a script passes them) would
/// annotate no line of the diff. An absolute path stays absolute: the runner makes it
/// relative to the workspace.
inline std::string annotation_path(std::string_view file) {
  if (file.empty() || file.starts_with('<'))
    return std::string(file);
  return std::filesystem::path(file).lexically_normal().generic_string();
}

inline void command(std::string& out, std::string_view file, const finding& f,
                    std::string_view note_file) {
  out += "::error file=";
  append_property(out, annotation_path(file));
  out += ",line=" + std::to_string(f.line == 0 ? 1 : f.line);
  out += ",col=" + std::to_string(f.column == 0 ? 1 : f.column);
  out += ",title=";
  append_property(out, "commscope " + f.code);
  out += "::";
  append_data(out, f.message);
  for (const auto& n : f.notes) {
    out += "%0A";
    append_data(out, std::string(note_file) + ':' + std::to_string(n.line) + ':' +
                         std::to_string(n.column) + ": note: " + n.message);
  }
  if (const std::string_view help = help_of(f); !help.empty()) {
    out += "%0Ahelp: ";
    append_data(out, help);
  }
  out += '\n';
}

/// A file that could not be read: an annotation of the file itself.
inline std::string file_error(std::string_view file, std::string_view message) {
  std::string out = "::error file=";
  append_property(out, annotation_path(file));
  out += ",title=commscope::";
  append_data(out, message);
  out += '\n';
  return out;
}

} // namespace github

} // namespace commscope::opt
