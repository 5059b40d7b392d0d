// One diagnostic of commscope-opt as it is printed (cli.md: the diagnostics format and
// the JSON `diagnostics`), whichever part of the run found it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace commscope::opt {

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
};

} // namespace commscope::opt
