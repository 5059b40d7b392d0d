// The commscope passes for MLIR, declared in ODS: names, options and statistics.
// mlir-tblgen generates their base classes and registration (passes.hpp includes them).
#ifndef COMMSCOPE_PASSES_TD
#define COMMSCOPE_PASSES_TD

include "mlir/Pass/PassBase.td"

def CommscopeMaterialize : Pass<"commscope-materialize", "::mlir::ModuleOp"> {
  let summary = "Materialize communication-domain scopes around host orchestrator bodies";
  let description = [{
    Runs the analysis of pass.md on every host orchestrator of the module (func.func with
    pld.level = "host" and pld.role = "orchestrator") and, when there is nothing to
    report, gives each allocation and its views a window_buffer id and wraps the body in
    one nested pld.comm_domain_scope per domain. All or nothing: any error, and no
    function changes. Runs on nested modules too (`builtin.module(builtin.module(...))`).
  }];
  let options = [
    Option<"deviceLimit", "device-limit", "std::int64_t", "0",
           "Devices at or above this id are device-out-of-range (0: the adapter's 1048576; "
           "only lower values take effect)">,
    Option<"nestingLimit", "nesting-limit", "std::int64_t", "0",
           "More nested scopes than this is scope-nesting-limit (0: the adapter's 512; "
           "only lower values take effect)">,
  ];
  let statistics = [
    Statistic<"allocations", "allocations", "Window-buffer allocations analysed">,
    Statistic<"domains", "domains", "Communication domains (scopes) materialized">,
    Statistic<"dispatches", "dispatches", "Dispatches of chip orchestrators">,
  ];
  let dependentDialects = ["::commscope::pld::PldDialect"];
}

def CommscopeVerify : Pass<"commscope-verify", "::mlir::ModuleOp"> {
  let summary = "Check the property 'comm-domain scopes materialized'";
}

#endif // COMMSCOPE_PASSES_TD
