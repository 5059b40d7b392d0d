// The commscope passes for MLIR, declared in ODS: names, options and statistics.
// mlir-tblgen generates their declarations (passes.hpp includes them), base classes and
// registration (lib/passes.cpp).
#ifndef COMMSCOPE_PASSES_TD
#define COMMSCOPE_PASSES_TD

include "mlir/Pass/PassBase.td"

def CommscopeSynthesizeSignals : Pass<"commscope-synthesize-signals", "::mlir::ModuleOp"> {
  let summary = "Give every pld.allreduce without a signal its own signal window";
  let description = [{
    The companion pass of commscope-materialize (docs/semantics.md, "The companion pass:
    signal synthesis"), run just before it:
    `builtin.module(commscope-synthesize-signals, commscope-materialize)`. In every host
    orchestrator, a pld.allreduce with one operand (data) gets, immediately before it,
    pld.world_size, the size `world_size * core_num * 4` in arith ops, a
    pld.alloc_window_buffer named `__allreduce_signal_buf_N` and a pld.window of it
    (`dtype = i32`, shape world_size x core_num), which becomes its second operand;
    `core_num` is the allreduce's attribute (default 1). N counts the synthesized signals
    of the module, skipping any N whose names the module already uses. Errors: a
    signal-less allreduce inside scf.for or scf.while (collective-in-loop), a core_num
    that is no positive integer, another number of operands (malformed-op). All or
    nothing: any error, and nothing changes. A second run changes nothing.
  }];
  let statistics = [
    Statistic<"signals", "signals", "Signal windows synthesized">,
  ];
  let dependentDialects = ["::commscope::pld::PldDialect", "::mlir::arith::ArithDialect"];
}

def CommscopeMaterialize : Pass<"commscope-materialize", "::mlir::ModuleOp"> {
  let summary = "Materialize communication-domain scopes around host orchestrator bodies";
  let description = [{
    Runs the analysis of docs/semantics.md on every host orchestrator of the module
    (func.func with pld.level = "host" and pld.role = "orchestrator") and, when there is
    nothing to report, gives each allocation and its views a window_buffer id and wraps
    the body in one nested pld.comm_domain_scope per domain. All or nothing: any error,
    and no function changes. Runs on nested modules too
    (`builtin.module(builtin.module(...))`).
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
    Statistic<"allocations", "allocations", "Window-buffer allocations analyzed">,
    Statistic<"domains", "domains", "Communication domains (scopes) materialized">,
    Statistic<"dispatches", "dispatches", "Dispatches of chip orchestrators">,
  ];
  let dependentDialects = ["::commscope::pld::PldDialect"];
}

def CommscopeVerify : Pass<"commscope-verify", "::mlir::ModuleOp"> {
  let summary = "Check the property 'comm-domain scopes materialized'";
}

#endif // COMMSCOPE_PASSES_TD
