// commscope-mlir-opt: mlir-opt with the dialects and upstream passes a commscope
// pipeline needs (func, arith, scf, affine, cf, ub, tensor, memref; canonicalize, cse
// and the other generic transforms) and the commscope passes, so that
//   --pass-pipeline='builtin.module(canonicalize, cse, commscope-materialize)'
//   --pass-pipeline='builtin.module(commscope-synthesize-signals, commscope-materialize)'
// works. Everything else (-verify-diagnostics, -split-input-file, ...) is MlirOptMain's.
#include <commscope/mlir/dialect.hpp>
#include <commscope/mlir/passes.hpp>

#include <mlir/Dialect/Affine/IR/AffineOps.h>
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlow.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/MemRef/IR/MemRef.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/Dialect/Tensor/IR/Tensor.h>
#include <mlir/Dialect/UB/IR/UBOps.h>
#include <mlir/Tools/mlir-opt/MlirOptMain.h>
#include <mlir/Transforms/Passes.h>

int main(int argc, char** argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                  mlir::cf::ControlFlowDialect, mlir::ub::UBDialect, mlir::affine::AffineDialect,
                  mlir::tensor::TensorDialect, mlir::memref::MemRefDialect>();
  commscope::pld::register_dialect(registry);
  mlir::registerTransformsPasses();
  commscope::pld::register_passes();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "commscope MLIR driver\n", registry));
}
