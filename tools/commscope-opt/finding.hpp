// One diagnostic of commscope-opt as it is printed (docs/commscope-opt.md, "Diagnostics
// on standard error" and the JSON `diagnostics`), whichever part of the run found it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace commscope::opt {

/// Why a diagnostic is not reported; its spelling in the JSON document.
enum class suppression : std::uint8_t { none, inline_comment, config, command_line };

[[nodiscard]] constexpr std::string_view suppression_name(suppression s) {
  switch (s) {
  case suppression::inline_comment:
    return "inline";
  case suppression::config:
    return "config";
  case suppression::command_line:
    return "command-line";
  case suppression::none:
    break;
  }
  return "";
}

struct note_line {
  std::string message;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct finding {
  std::string code;
  std::string message;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::size_t order = 0;
  std::vector<note_line> notes;
  std::string file; ///< another file it is located in (an imported module); empty: the input
  /// How to fix it, when there is more to say than the code's own hint (`did you mean
  /// 'r'?`); printed as the `help:` line of the text format.
  std::string help;
  suppression suppressed = suppression::none; ///< why it is not reported, if it is not
};

} // namespace commscope::opt
