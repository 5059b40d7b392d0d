// The source text of a parsed program's statements: the front end's record beside the
// IR, keyed by statement::origin(), from which the printer prints a statement as its
// author wrote it. The program holds it (program::annotation), so that a program the
// pass rewrote still finds the text of every statement it kept or copied.
#pragma once

#include <commscope/reference/ir.hpp>

#include <cstdint>
#include <vector>

namespace commscope::frontend::detail {

/// A statement as written (its header for a compound one). Continuation lines are kept
/// without the statement's indentation; a line that starts inside a string literal is
/// marked by a leading '\0' and never re-indented.
struct statement_text {
  reference::str text;
  /// Where in `text` the statement's own trailing comment starts (0: none), so that a
  /// printed `# window_buffer=` comment goes before it.
  std::uint32_t comment_at = 0;
};

class source_text final : public reference::program_annotation {
public:
  /// Records `t`: the origin to give its statement (0 when there is no text).
  std::uint32_t add(const statement_text& t) {
    if (t.text.empty())
      return 0;
    statements_.push_back(t);
    return static_cast<std::uint32_t>(statements_.size());
  }
  /// The text of the statement of origin `origin`, or null.
  [[nodiscard]] const statement_text* of(std::uint32_t origin) const noexcept {
    return origin == 0 || origin > statements_.size() ? nullptr : &statements_[origin - 1];
  }
  /// The records of `p`, when the front end read it.
  [[nodiscard]] static const source_text* of(const reference::program& p) {
    return dynamic_cast<const source_text*>(p.annotation.get());
  }

private:
  std::vector<statement_text> statements_;
};

} // namespace commscope::frontend::detail
