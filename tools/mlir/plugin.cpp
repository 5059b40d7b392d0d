// The pld dialect and the commscope passes as plugins of the stock mlir-opt:
//   mlir-opt-19 --load-dialect-plugin=PLUGIN --load-pass-plugin=PLUGIN
//               --pass-pipeline='builtin.module(commscope-materialize)'
// One shared object carries both entry points; it links no MLIR library (mlir-opt
// exports MLIR's symbols), so there is one MLIR in the process.
#include <commscope/mlir/dialect.hpp>
#include <commscope/mlir/passes.hpp>

#include <mlir/Dialect/Affine/IR/AffineOps.h>
#include <mlir/Tools/Plugins/DialectPlugin.h>
#include <mlir/Tools/Plugins/PassPlugin.h>

#include <llvm/Config/llvm-config.h>

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "pld", LLVM_VERSION_STRING, [](mlir::DialectRegistry* registry) {
            // affine.for and affine.if are host control flow the pass follows.
            registry->insert<mlir::affine::AffineDialect>();
            commscope::pld::register_dialect(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "commscope", LLVM_VERSION_STRING,
          [] { commscope::pld::register_passes(); }};
}
