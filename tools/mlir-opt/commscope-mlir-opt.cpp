// commscope-mlir-opt: mlir-opt with the func, arith, scf, cf and pld dialects and the
// commscope passes; reads .mlir, runs the passes named on the command line, prints the
// module. Everything else (-verify-diagnostics, -split-input-file, ...) is MlirOptMain's.
#include <commscope/mlir/pass.hpp>

#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlow.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/Pass/PassRegistry.h>
#include <mlir/Tools/mlir-opt/MlirOptMain.h>

int main(int argc, char** argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                  mlir::cf::ControlFlowDialect,
                  commscope::pld::dialect>();
  mlir::registerPass(commscope::pld::create_materialize_pass);
  mlir::registerPass(commscope::pld::create_verify_pass);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "commscope MLIR driver\n", registry));
}
