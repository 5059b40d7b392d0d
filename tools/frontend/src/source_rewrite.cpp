// Source-preserving output (docs/commscope-opt.md, "The rewritten file"): the input file
// with only the rewritten host orchestrator bodies replaced by their printed form; every
// other byte is kept.
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/ir.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace commscope::frontend {

std::vector<body_edit> rewritten_bodies(const program_unit& unit, const reference::program& before,
                                        const reference::program& after, std::string_view newline) {
  std::vector<body_edit> edits;
  for (std::size_t k = 0; k < after.functions.size() && k < before.functions.size(); ++k) {
    if (after.functions[k] == before.functions[k])
      continue;
    for (const auto& span : unit.bodies)
      if (span.fn == before.functions[k].get()) {
        std::string body;
        print_statements(body, after, after.functions[k]->body, span.indent, newline, "    ",
                         unit.distributed_module);
        edits.emplace_back(&span, std::move(body));
      }
  }
  if (!edits.empty() && unit.distributed_import)
    edits.emplace_back(&*unit.distributed_import,
                       "; import pypto.language.distributed as " + unit.distributed_module);
  return edits;
}

std::string splice_bodies(std::string_view text, std::vector<body_edit> edits,
                          std::string_view newline) {
  std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first->begin, a.first->end, a.second) <
           std::tie(b.first->begin, b.first->end, b.second);
  });
  // Every program of a module that needs the import asks for it at the same place: once.
  edits.erase(std::unique(edits.begin(), edits.end(),
                          [](const auto& a, const auto& b) {
                            return a.first->begin == b.first->begin &&
                                   a.first->end == b.first->end && a.second == b.second;
                          }),
              edits.end());
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  std::size_t at = 0;
  for (const auto& [span, body] : edits) {
    out.append(text.substr(at, span->begin - at));
    if (span->inline_body) // `def f(): stmt` becomes an indented block
      out += newline;
    out += body;
    at = span->end;
  }
  out.append(text.substr(at));
  return out;
}

} // namespace commscope::frontend
