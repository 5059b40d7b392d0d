// libFuzzer target: the whole-module front end plus the whole pass on arbitrary bytes.
// parse_module -> for every program: synthesize_signals -> analyze (with evidence) ->
// materialize -> verify -> print, as commscope-opt runs them; every
// printed program parses again (the printer only emits what the parser reads), and so
// does every rewritten body printed at its place in the source. Any crash, sanitizer
// report, hang or failed round trip is a finding.
#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ref = commscope::reference;
namespace fe = commscope::frontend;

namespace {

void must_parse(const std::string& text) {
  auto again = fe::parse_module(text);
  if (again.error) {
    std::fprintf(stderr, "printed program does not parse: %u:%u: %s\n%s\n", again.error->line,
                 again.error->column, again.error->message.c_str(), text.c_str());
    std::abort();
  }
}

/// The comment lines that open `text` (at most two: where Python looks for a coding
/// declaration). The printer writes names and strings as the parser read them, so a
/// module read under a declared encoding other than UTF-8 prints text that reads back
/// under the same declaration: these lines go before each printed program.
std::string opening_comments(std::string_view text) {
  std::string out;
  std::size_t b = 0;
  for (int line = 0; line < 2 && b < text.size(); ++line) {
    std::size_t e = text.find_first_of("\r\n", b); // any of Python's line ends
    if (e == std::string_view::npos)
      e = text.size();
    else
      e += text.substr(e, 2) == "\r\n" ? 2 : 1;
    const std::string_view l = text.substr(b, e - b);
    const std::size_t at =
        l.find_first_not_of(" \t\f\r\n", line == 0 && l.starts_with("\xEF\xBB\xBF") ? 3 : 0);
    if (at == std::string_view::npos || l[at] != '#')
      break;
    out.append(l);
    if (!out.ends_with('\n'))
      out += '\n';
    b = e;
  }
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fe::module_options options;
  options.defines = {{"nr", 4}};
  auto module = fe::parse_module(text, options);
  if (module.error) {
    if (module.error->line == 0 || module.error->column == 0)
      std::abort(); // every syntax error has a location
    return 0;
  }
  for (const auto& unit : module.programs) {
    ref::program_ptr prog = unit.program;
    const ref::program_ptr parsed = prog;
    const std::string original = fe::print(prog);
    const commscope::ir_traits<ref::program_ptr> traits;
    bool rejected = false;
    for (const auto& d : commscope::synthesize_signals(prog, traits)) {
      (void)d.message();
      rejected = true;
    }
    if (rejected) {
      if (prog != parsed)
        std::abort(); // all or nothing
      continue;
    }
    const auto pl = commscope::analyze(prog, traits, commscope::with_evidence);
    for (const auto& d : pl.diagnostics) {
      (void)d.message();
      for (const auto& n : d.notes)
        (void)n.message();
    }
    const ref::program_ptr analyzed = prog; // the plan's handles point into it
    commscope::materialize(prog, pl, traits);
    (void)analyzed;
    (void)commscope::verify(prog);
    const std::string opening = opening_comments(text);
    must_parse(opening + original);
    must_parse(opening + fe::print(prog));
    // The file with the rewritten bodies in place of the original ones reads back too.
    must_parse(fe::splice_bodies(text, fe::rewritten_bodies(unit, *parsed, *prog, module.newline),
                                 module.newline));
  }
  return 0;
}
