// commscope-opt's command line (docs/commscope-opt.md): what the options ask for, read by
// CLI11, which also writes `--help` and checks the values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace commscope::frontend {
class module_loader;
}

namespace commscope::opt {

enum class emit_kind { plan, ir, both, dot };
enum class output_format { text, json, sarif, github };
enum class color_mode { automatic, always, never };

struct options {
  emit_kind emit = emit_kind::plan;
  output_format format = output_format::text;
  unsigned jobs = 0; ///< -j; 0 is the number of cores
  bool verify = false;
  bool explain = false;           ///< slots gain "evidence"
  bool synthesize_signals = true; ///< the companion pass runs first
  bool show_plan = false;         ///< the text format's plan table for several inputs too
  bool quiet = false;             ///< -q: the diagnostics alone
  bool force_exclude = false;     ///< exclusions apply to files given by name too
  color_mode color = color_mode::automatic;
  std::vector<std::pair<std::string, std::int64_t>> defines; ///< -D NAME=INT
  std::vector<std::string> include_dirs;                     ///< -I DIR
  std::vector<std::string> paths; ///< "-" is standard input; none is the built-in example
  std::optional<std::vector<std::string>> select; ///< --select; checked codes
  std::vector<std::string> ignore;                ///< --ignore; checked codes
  std::vector<std::string> exclude;               ///< --exclude GLOB
  std::optional<std::string> config_file;         ///< --config FILE
  bool no_config = false;                         ///< --no-config
  std::optional<std::string> output_dir;          ///< -o DIR (--emit=dot)
  /// The modules imported by the files of the run, each read once; shared by the files
  /// analyzed concurrently.
  frontend::module_loader* loader = nullptr;
};

/// What the command line asks for besides a run.
struct parsed_command_line {
  options opt;
  bool help = false;
  bool version = false;
};

struct usage_error {
  std::string message;
};

/// Reads the command line; throws usage_error (exit status 2) on anything it refuses.
[[nodiscard]] parsed_command_line parse_command_line(int argc, char** argv);

/// `--help`: every option with one line each, the exit statuses and the codes.
[[nodiscard]] std::string help_text();

/// NAME=INT of `-D` (and of the configuration's `define`), NAME an identifier.
[[nodiscard]] std::pair<std::string, std::int64_t> parse_define(std::string_view d);

/// A comma-separated list of codes, each one the run knows; `what` names the option.
[[nodiscard]] std::vector<std::string> checked_codes(const std::vector<std::string>& items,
                                                     std::string_view what);

/// checked_codes of a list that must name at least one code: one that names none (empty,
/// or blanks alone) is a usage error.
[[nodiscard]] std::vector<std::string> checked_list(const std::vector<std::string>& items,
                                                    std::string_view what);

} // namespace commscope::opt
