// The commscope passes for MLIR: the companion pass (`commscope-synthesize-signals`),
// the pass (`commscope-materialize`) and the verifier (`commscope-verify`), declared in
// ODS (passes.td: names, options, statistics) and defined in the library
// commscope::pld_passes. A driver registers them by name with register_passes(), or
// adds them to a pipeline with the create functions.
#pragma once

#include <mlir/Pass/Pass.h>

#include <cstdint>
#include <memory>

namespace commscope::pld {

// clang-format off
#define GEN_PASS_DECL
#include <commscope/mlir/passes.h.inc>
// clang-format on

inline std::unique_ptr<::mlir::Pass> create_synthesize_signals_pass() {
  return createCommscopeSynthesizeSignals();
}
inline std::unique_ptr<::mlir::Pass>
create_materialize_pass(CommscopeMaterializeOptions options = {}) {
  return createCommscopeMaterialize(options);
}
inline std::unique_ptr<::mlir::Pass> create_verify_pass() { return createCommscopeVerify(); }

/// Registers the passes with MLIR's pass registry (for mlir-opt style drivers), so that
/// they can be named on the command line and in --pass-pipeline.
void register_passes();

} // namespace commscope::pld
