// An mlir-opt style tool that only knows the installed package: upstream dialects, the
// pld dialect and the commscope passes, through their registration functions.
#include <commscope/mlir/dialect.hpp>
#include <commscope/mlir/passes.hpp>

#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/IR/DialectRegistry.h>
#include <mlir/Tools/mlir-opt/MlirOptMain.h>

int main(int argc, char** argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect>();
  commscope::pld::register_dialect(registry);
  commscope::pld::register_passes();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "pld-opt\n", registry));
}
