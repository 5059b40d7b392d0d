// libFuzzer target: the text front end plus the whole pass on arbitrary bytes.
// parse -> analyze -> materialize -> verify -> print, and for a parsed program also
// print -> parse again, which must succeed (the printer only emits what the parser
// reads). Any crash, sanitizer report, hang or failed round trip is a finding.
#include <commscope/commscope.hpp>
#include <commscope/reference/parser.hpp>
#include <commscope/reference/printer.hpp>
#include <commscope/reference/traits.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ref = commscope::reference;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = ref::parse(text);
  if (!parsed) {
    if (!parsed.error || parsed.error->line == 0 || parsed.error->column == 0)
      std::abort(); // every syntax error has a location
    return 0;
  }
  ref::program_ptr prog = parsed.program;
  const std::string original = ref::print(prog);
  const auto pl = commscope::analyze(prog);
  for (const auto& d : pl.diagnostics)
    (void)d.message();
  const ref::program_ptr analysed = prog; // the plan's handles point into it
  commscope::materialize(prog, pl);
  (void)commscope::verify(prog);
  const std::string printed = ref::print(prog);

  // The printer's output is always valid input.
  for (const std::string* s : {&original, &printed}) {
    auto again = ref::parse(*s);
    if (!again) {
      std::fprintf(stderr, "printed program does not parse: %u:%u: %s\n%s\n", again.error->line,
                   again.error->column, again.error->message.c_str(), s->c_str());
      std::abort();
    }
  }
  return 0;
}
