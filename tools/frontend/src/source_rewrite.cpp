// Source-preserving output (docs/commscope-opt.md, "The rewritten file"): the input file
// with only the rewritten host orchestrator bodies replaced by their printed form; every
// other byte is kept.
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/ir.hpp>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::frontend {

namespace {

/// The scope headers the printer wrote (`with pld.comm_domain(...)`, lines of its own
/// making: a scope read from the file prints as written) in the file's spelling of the
/// module, so that the rewritten file runs where it imports the module as `dist`.
std::string respell_scopes(std::string_view body, std::string_view module,
                           std::string_view newline) {
  constexpr std::string_view header = "with pld.comm_domain(";
  std::string out;
  out.reserve(body.size());
  std::size_t at = 0;
  while (at < body.size()) {
    std::size_t end = body.find(newline, at);
    end = end == std::string_view::npos ? body.size() : end + newline.size();
    std::string_view line = body.substr(at, end - at);
    const std::size_t code = line.find_first_not_of(" \t");
    if (code != std::string_view::npos && line.substr(code).starts_with(header)) {
      std::string respelled(line);
      for (std::size_t p = respelled.find("pld.", code); p != std::string::npos;) {
        const char before = p == 0 ? ' ' : respelled[p - 1];
        const bool own =
            std::isalnum(static_cast<unsigned char>(before)) == 0 && before != '_' && before != '.';
        if (own)
          respelled.replace(p, 3, module);
        p = respelled.find("pld.", p + (own ? module.size() : 3) + 1);
      }
      out += respelled;
    } else {
      out += line;
    }
    at = end;
  }
  return out;
}

} // namespace

std::vector<body_edit> rewritten_bodies(const program_unit& unit, const reference::program& before,
                                        const reference::program& after, std::string_view newline) {
  std::vector<body_edit> edits;
  for (std::size_t k = 0; k < after.functions.size() && k < before.functions.size(); ++k) {
    if (after.functions[k] == before.functions[k])
      continue;
    for (const auto& span : unit.bodies)
      if (span.fn == before.functions[k].get()) {
        std::string body;
        print_statements(body, after, after.functions[k]->body, span.indent, newline);
        if (unit.distributed_module != "pld")
          body = respell_scopes(body, unit.distributed_module, newline);
        edits.emplace_back(&span, std::move(body));
      }
  }
  return edits;
}

std::string splice_bodies(std::string_view text, std::vector<body_edit> edits,
                          std::string_view newline) {
  std::sort(edits.begin(), edits.end(),
            [](const auto& a, const auto& b) { return a.first->begin < b.first->begin; });
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
