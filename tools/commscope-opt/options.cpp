#include "options.hpp"

#include "codes.hpp"

#include <commscope/frontend/frontend.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>

namespace commscope::opt {
namespace {

/// The option values as CLI11 reads them, before they become `options`.
struct raw_options {
  std::string format;
  std::string emit;
  std::string color = "auto";
  std::vector<std::string> defines;
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  std::string config;
  std::string jobs;
  bool no_synthesis = false;
  bool help = false;
  bool version = false;
};

/// The exit statuses and codes that close `--help`.
std::string help_footer() {
  std::string f = "Exit status:\n"
                  "  0  no error (suppressed diagnostics do not count)\n"
                  "  1  some program was rejected\n"
                  "  2  usage, configuration or I/O error\n"
                  "  3  syntax error in an input\n"
                  "\nCodes (for --select, --ignore and `# commscope: ignore[CODE]`):\n";
  std::size_t width = 0;
  for (std::size_t k = 0; k < code_count; ++k)
    width = std::max(width, code_at(k).name.size());
  for (std::size_t k = 0; k < code_count; ++k) {
    const auto& c = code_at(k);
    f += "  ";
    f += c.name;
    f.append(width + 2 - c.name.size(), ' ');
    f += c.summary;
    f += '\n';
  }
  f += "\nWith no PATH it runs on a built-in example. A [tool.commscope] table in the nearest\n"
       "pyproject.toml configures a run (see docs/commscope-opt.md).";
  return f;
}

/// Declares every option on `app`, bound to `raw` and `o`.
void declare(CLI::App& app, raw_options& raw, options& o) {
  app.set_help_flag();
  app.footer(help_footer());
  app.get_formatter()->column_width(34);
  app.add_flag("-h,--help", raw.help, "print this help and exit");
  app.add_flag("--version", raw.version, "print the version and exit");
  app.add_option("--format", raw.format,
                 "text (the default: for people), json, sarif or github (workflow commands)")
      ->type_name("FORMAT");
  app.add_option("--emit", raw.emit,
                 "plan (the JSON plan), ir (the rewritten file), both, or dot (a picture)")
      ->type_name("WHAT");
  app.add_option("-o", o.output_dir, "with --emit=dot: write one STEM.dot per input under DIR")
      ->type_name("DIR");
  app.add_flag("--verify", o.verify, "run the verifier on the rewritten program");
  app.add_flag("--explain", o.explain, "JSON: each slot says why it is in its domain");
  app.add_flag("--no-synthesize-signals", raw.no_synthesis,
               "run the main pass without signal synthesis first");
  app.add_option("-D", raw.defines, "bind an open name of the files to an integer")
      ->type_name("NAME=INT")
      ->allow_extra_args(false);
  app.add_option("-I", o.include_dirs, "search DIR for imported modules")
      ->type_name("DIR")
      ->allow_extra_args(false);
  app.add_option("-j,--jobs", raw.jobs, "analyze up to N files at once (default: the cores)")
      ->type_name("N");
  // The commas are split by parse_command_line, not by CLI11: a value of commas alone
  // would give CLI11 no item, and it would take the next argument (a file) for the codes.
  app.add_option("--select", raw.select, "report only these codes (comma-separated)")
      ->type_name("CODES")
      ->allow_extra_args(false);
  app.add_option("--ignore", raw.ignore, "do not report these codes (comma-separated)")
      ->type_name("CODES")
      ->allow_extra_args(false);
  app.add_option("--config", raw.config, "read [tool.commscope] from FILE")->type_name("FILE");
  app.add_flag("--no-config", o.no_config, "read no pyproject.toml");
  app.add_option("--exclude", o.exclude, "skip files matching GLOB in directories")
      ->type_name("GLOB")
      ->allow_extra_args(false);
  app.add_flag("--force-exclude", o.force_exclude,
               "apply the exclusions to files given by name too (pre-commit)");
  app.add_flag("--show-plan", o.show_plan, "text: print the plan of every input, not only one");
  app.add_flag("-q,--quiet", o.quiet, "print the diagnostics alone");
  app.add_option("--color", raw.color, "auto (a terminal without NO_COLOR), always or never")
      ->type_name("WHEN");
  app.add_option("PATH", o.paths, "files or directories (every *.py below); - is standard input")
      ->type_name("");
}

} // namespace

std::pair<std::string, std::int64_t> parse_define(std::string_view d) {
  const auto eq = d.find('=');
  const std::string_view name = eq == std::string_view::npos ? d : d.substr(0, eq);
  if (eq == std::string_view::npos || !frontend::is_plain_name(name))
    throw usage_error{"malformed -D '" + std::string(d) + "': expected NAME=INT"};
  std::string_view v = d.substr(eq + 1);
  const bool negative = v.starts_with('-');
  if (negative || v.starts_with('+'))
    v.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (v.empty() || ec != std::errc{} || end != v.data() + v.size())
    throw usage_error{"malformed -D '" + std::string(d) +
                      "': expected NAME=INT (a 64-bit integer)"};
  return {std::string(name), negative ? -value : value};
}

namespace {

/// Every code, for the messages about a list of them.
std::string known_codes() {
  std::string known;
  for (std::size_t k = 0; k < code_count; ++k)
    known += (k ? ", " : "") + std::string(code_at(k).name);
  return known;
}

/// The error of a list of codes that names none.
usage_error no_codes(std::string_view what) {
  return {std::string(what) + " got no codes (codes: " + known_codes() + ")"};
}

} // namespace

std::vector<std::string> checked_codes(const std::vector<std::string>& items,
                                       std::string_view what) {
  std::vector<std::string> codes;
  for (const auto& item : items) {
    // Spaces after the commas of `--select a, b` are no part of a code.
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    if (b == std::string::npos)
      continue;
    std::string code = item.substr(b, e - b + 1);
    if (!code_index(code))
      throw usage_error{"unknown code '" + code + "' in " + std::string(what) +
                        " (codes: " + known_codes() + ")"};
    codes.push_back(std::move(code));
  }
  return codes;
}

std::vector<std::string> checked_list(const std::vector<std::string>& items,
                                      std::string_view what) {
  std::vector<std::string> codes = checked_codes(items, what);
  if (codes.empty())
    throw no_codes(what);
  return codes;
}

parsed_command_line parse_command_line(int argc, char** argv) {
  parsed_command_line r;
  raw_options raw;
  CLI::App app{"Materializes communication-domain scopes in DSL model files and reports what "
               "it cannot.",
               "commscope-opt"};
  declare(app, raw, r.opt);
  // CLI11 reads `--config=` (an empty value) as no value, and takes the next argument (a
  // file) for it: a confusing error at best, the file read as something else at worst.
  for (int i = 1; i < argc && std::string_view(argv[i]) != "--"; ++i) {
    const std::string_view a(argv[i]);
    if (a.size() <= 3 || !a.starts_with("--") || !a.ends_with('='))
      continue;
    const std::string option(a.substr(0, a.size() - 1));
    if (option == "--select" || option == "--ignore")
      throw no_codes(option);
    const CLI::Option* o = app.get_option_no_throw(option);
    if (o != nullptr && o->get_items_expected_max() > 0) // not a flag
      throw usage_error{option + "= got no value"};
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    throw usage_error{e.what()};
  }
  r.help = raw.help;
  r.version = raw.version;
  options& o = r.opt;
  static const std::map<std::string, emit_kind, std::less<>> emits{{"plan", emit_kind::plan},
                                                                   {"ir", emit_kind::ir},
                                                                   {"both", emit_kind::both},
                                                                   {"dot", emit_kind::dot}};
  static const std::map<std::string, output_format, std::less<>> formats{
      {"text", output_format::text},
      {"json", output_format::json},
      {"sarif", output_format::sarif},
      {"github", output_format::github}};
  const auto one_of = [](const auto& choices, const std::string& value, std::string_view option) {
    const auto it = choices.find(value);
    if (it != choices.end())
      return it->second;
    std::string names;
    for (const auto& [name, v] : choices)
      names += (names.empty() ? "" : ", ") + name;
    throw usage_error{"unknown " + std::string(option) + " value '" + value + "' (" + names + ")"};
  };
  if (!raw.emit.empty())
    o.emit = one_of(emits, raw.emit, "--emit");
  // `--emit=plan` and `--emit=both` are JSON documents: without --format they mean it.
  if (!raw.format.empty())
    o.format = one_of(formats, raw.format, "--format");
  else if (!raw.emit.empty() && (o.emit == emit_kind::plan || o.emit == emit_kind::both))
    o.format = output_format::json;
  if ((o.format == output_format::sarif || o.format == output_format::github) &&
      !raw.emit.empty() && o.emit != emit_kind::plan)
    throw usage_error{"--format=" + raw.format + " replaces the output of --emit: use one of them"};
  if (o.format == output_format::text && !raw.emit.empty() &&
      (o.emit == emit_kind::plan || o.emit == emit_kind::both))
    throw usage_error{"--emit=" + raw.emit + " is a JSON document: use --format=json"};
  if (o.output_dir && o.emit != emit_kind::dot)
    throw usage_error{"-o DIR writes pictures: it takes --emit=dot"};
  static const std::map<std::string, color_mode, std::less<>> colors{
      {"always", color_mode::always},
      {"auto", color_mode::automatic},
      {"never", color_mode::never}};
  o.color = one_of(colors, raw.color, "--color");
  if (app.count("-j")) {
    const auto [end, ec] =
        std::from_chars(raw.jobs.data(), raw.jobs.data() + raw.jobs.size(), o.jobs);
    if (raw.jobs.empty() || ec != std::errc{} || end != raw.jobs.data() + raw.jobs.size() ||
        o.jobs == 0)
      throw usage_error{"malformed -j '" + raw.jobs + "': expected a positive integer"};
  }
  // Standard input is read once: a second `-` would be an empty file, or with -j a
  // stream two workers read at once.
  if (std::count(o.paths.begin(), o.paths.end(), "-") > 1)
    throw usage_error{"'-' (standard input) is given more than once"};
  o.synthesize_signals = !raw.no_synthesis;
  // A name given again takes its last value, as a compiler's -D does: a script's own -D
  // after shared flags overrides them.
  for (const auto& d : raw.defines) {
    auto define = parse_define(d);
    const auto same = std::find_if(o.defines.begin(), o.defines.end(),
                                   [&](const auto& e) { return e.first == define.first; });
    if (same == o.defines.end())
      o.defines.push_back(std::move(define));
    else
      same->second = define.second;
  }
  // Each --select and --ignore is a list of its own: one that names no code (`--select
  // "$CODES"` with the variable unset) is a mistake, and would select nothing.
  const auto codes_of = [](const std::vector<std::string>& values, std::string_view option) {
    std::vector<std::string> codes;
    for (const auto& v : values) {
      std::vector<std::string> items;
      for (std::size_t b = 0;;) {
        const std::size_t comma = v.find(',', b);
        items.push_back(v.substr(b, comma == std::string::npos ? comma : comma - b));
        if (comma == std::string::npos)
          break;
        b = comma + 1;
      }
      for (auto& c : checked_list(items, option))
        codes.push_back(std::move(c));
    }
    return codes;
  };
  if (app.count("--select"))
    o.select = codes_of(raw.select, "--select");
  o.ignore = codes_of(raw.ignore, "--ignore");
  if (std::find(o.ignore.begin(), o.ignore.end(), "syntax") != o.ignore.end())
    throw usage_error{"'syntax' cannot be ignored: a file Python rejects is never checked"};
  if (app.count("--config"))
    o.config_file = raw.config;
  if (o.config_file && o.no_config)
    throw usage_error{"--config and --no-config exclude each other"};
  return r;
}

std::string help_text() {
  raw_options raw;
  options o;
  CLI::App app{"Materializes communication-domain scopes in DSL model files and reports what "
               "it cannot.",
               "commscope-opt"};
  declare(app, raw, o);
  return app.help();
}

} // namespace commscope::opt
