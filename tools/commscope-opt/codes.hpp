// Every code commscope-opt reports: the pass's own (commscope::error_codes, with the
// driver's own help where it has more to say: its flags) and the front end's, with their
// texts. `--help`, `--select`/`--ignore`, the `help:` lines of the text format and the
// rules of a SARIF log all read this one list.
#pragma once

#include <commscope/diagnostics.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace commscope::opt {

/// The driver's own help for a pass code, in place of the library's generic one: it
/// names what only the driver offers (the file's constants, -D).
struct own_help {
  error_code code;
  std::string_view help;
};
inline constexpr std::array<own_help, 1> driver_help{{
    {error_code::unsupported_device,
     "device= accepts an integer constant (a literal, a constant of the file, a -D name, "
     "arithmetic on them) or the variable of a loop over pl.range(...) whose bounds are "
     "constants or pld.world_size(); for r + 1, loop over the shifted range instead"},
}};

/// The driver's own help for a reason of a pass code, where the library's would not name
/// the file's constants.
struct own_reason_help {
  reason why;
  std::string_view help;
};
inline constexpr std::array<own_reason_help, 2> driver_reason_help{{
    {reason::device_variable,
     "dispatch inside a for loop over pl.range(...) and pass its variable, or pass an integer "
     "constant (a literal, a constant of the file, a -D name)"},
    {reason::device_loop_bounds,
     "loop over pl.range(pld.world_size()) or over integer constants (literals, constants of "
     "the file, -D names)"},
}};

/// The help of a reason as the driver prints it.
[[nodiscard]] constexpr std::string_view reason_help(reason why) {
  for (const auto& h : driver_reason_help)
    if (h.why == why)
      return h.help;
  return reason_row(why).help;
}

/// The pass's codes as the driver lists them: the library's rows, with the driver's help
/// where it has its own.
inline constexpr auto pass_codes = [] {
  auto rows = error_codes;
  for (const auto& h : driver_help)
    rows[static_cast<std::size_t>(h.code)].help = h.help;
  return rows;
}();

/// The front end's codes, which the pass's table does not hold (their messages are the
/// front end's).
inline constexpr std::array<error_code_info, 2> front_end_codes{{
    {"syntax",
     "The file is not valid Python.",
     "Python would reject the file: it is not valid UTF-8, does not tokenize, or has "
     "unbalanced brackets or indentation; no program of the file is analyzed.",
     "fix the file so that Python reads it; no program of it was checked",
     {}},
    {"unknown-decorator",
     "A DSL decorator that the DSL does not define, or one the front end cannot read.",
     "A decorator (or a @pl.function keyword value) names an attribute of the DSL's module "
     "that does not exist, so Python itself would fail on it; or it is spelled in a form the "
     "front end does not follow (@(pl).jit.host, a name bound to pl.jit.host if c else "
     "pl.jit, host = pl.jit.host(f) where f is no def above it in the same scope). The "
     "function it decorates would otherwise silently drop out of the analysis.",
     "the DSL's decorators are pl.program, pl.function, pl.inline, pl.jit and pl.jit.host, "
     "pl.jit.incore, pl.jit.inline, pl.jit.opaque, pl.jit.extern",
     {}},
}};

inline constexpr std::size_t code_count = pass_codes.size() + front_end_codes.size();

/// The k-th code of the run's list: the pass's in their order, then the front end's.
[[nodiscard]] constexpr const error_code_info& code_at(std::size_t k) {
  return k < pass_codes.size() ? pass_codes[k] : front_end_codes[k - pass_codes.size()];
}

/// The index of a code by its spelling.
[[nodiscard]] constexpr std::optional<std::size_t> code_index(std::string_view name) {
  for (std::size_t k = 0; k < code_count; ++k)
    if (code_at(k).name == name)
      return k;
  return std::nullopt;
}

} // namespace commscope::opt
