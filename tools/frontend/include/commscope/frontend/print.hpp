// The reference IR in the text form that the front end reads back (docs/commscope-opt.md,
// "The text form: Python modules"); and the source-preserving output of `--emit=ir`: the
// input file with only the rewritten host orchestrator bodies replaced by their printed
// form, every other byte kept.
#pragma once

#include <commscope/device_set.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/reference/ir.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::frontend {

/// Appends the canonical text of one expression (docs/commscope-opt.md, "Sizes": one
/// space around binary operators, parentheses only where precedence needs them, calls as
/// written).
void append_expression(std::string& out, const reference::expression& e);
[[nodiscard]] std::string print_expression(const reference::expression& e);

/// Appends a world-relative progression as a scope's devices are written:
/// `range(S, W - C, K)` with W spelled `world_size`, a C of 0 and a step of 1 left out.
void append_progression(std::string& out, device_progression p,
                        std::string_view world_size = "pld.world_size()");

/// Appends `body`, statements of `in`, each line indented by `indent` and one `unit`
/// more per nested block, lines ended by `newline`; an empty body prints `pass`. A
/// statement the front end read prints as its author wrote it; a scope prints with
/// `module`, the file's name for pypto.language.distributed.
void print_statements(std::string& out, const reference::program& in,
                      std::span<const reference::statement_ptr> body, std::string_view indent,
                      std::string_view newline, std::string_view unit = "    ",
                      std::string_view module = "pld");

/// The whole program as a module of its own: a `@pl.program` class, or module-level
/// `@pl.jit` functions for a jit group. Bodies that were not parsed print as `pass`.
[[nodiscard]] std::string print(const reference::program& p);
[[nodiscard]] std::string print(const reference::program_ptr& p);

/// A host body to replace in the source, and its printed replacement.
using body_edit = std::pair<const body_span*, std::string>;

/// The host bodies of `unit` that the rewrite replaced: `before` is the program as
/// parsed, `after` the program after the pass (a rewritten function is a new object).
/// Each is printed at its span's indentation, lines ended by `newline`.
[[nodiscard]] std::vector<body_edit> rewritten_bodies(const program_unit& unit,
                                                      const reference::program& before,
                                                      const reference::program& after,
                                                      std::string_view newline);

/// `text` with every edit applied (the spans come from parsing `text`).
[[nodiscard]] std::string splice_bodies(std::string_view text, std::vector<body_edit> edits,
                                        std::string_view newline);

} // namespace commscope::frontend
