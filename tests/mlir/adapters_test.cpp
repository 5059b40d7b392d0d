// The same programs through both adapters (the reference IR's text form and MLIR) give
// the same domains and the same diagnostics (with the same notes); signal synthesis gives
// both the same signal windows; and the MLIR rewrite, read back, gives the plan it was
// made from.
#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/mlir/traits.hpp>
#include <commscope/reference/traits.hpp>

#include <mlir/Dialect/Affine/IR/AffineOps.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlowOps.h>
#include <mlir/Dialect/MemRef/IR/MemRef.h>
#include <mlir/Dialect/Tensor/IR/Tensor.h>
#include <mlir/IR/Verifier.h>
#include <mlir/Parser/Parser.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mlir_traits = commscope::ir_traits<mlir::ModuleOp>;
using reference_traits = commscope::ir_traits<commscope::reference::program_ptr>;
static_assert(commscope::materializable_ir<mlir_traits>);
static_assert(commscope::signal_synthesizable_ir<mlir_traits>);
static_assert(commscope::provides<mlir_traits, commscope::contract::core_num_of>);
static_assert(commscope::contract::symbolic_device_sets::of<mlir_traits>());
static_assert(commscope::provides<mlir_traits, commscope::contract::symbolic_device_sets>);

// mlir::Location has no empty state, so it cannot be a handle: the contract says so.
struct location_without_empty_state : mlir_traits {
  using location = mlir::Location;
};
static_assert(!commscope::provides<location_without_empty_state, commscope::contract::location>);
static_assert(!commscope::analyzable_ir<location_without_empty_state>);

/// "host: [all]{buf,signal} [0,1]{staging} [0,range(1,ws-1,2)]{x}" per host orchestrator,
/// then the error codes.
template <class Traits> std::string summary(const commscope::plan<Traits>& pl) {
  std::string s;
  for (const auto& fp : pl.functions) {
    s += std::string(fp.name) + ":";
    for (const auto& dom : fp.domains) {
      s += " [";
      if (dom.devices.is_all())
        s += "all";
      dom.devices.for_each([&](commscope::device_id id) { s += std::to_string(id) + ","; });
      if (dom.devices.has_progressions())
        for (const commscope::device_progression p : dom.devices.progressions())
          s += "range(" + std::to_string(p.start) + ",ws" +
               (p.stop_offset ? "-" + std::to_string(p.stop_offset) : "") + "," +
               std::to_string(p.step) + "),";
      s += "]{";
      for (auto a : dom.slots)
        s += std::string(fp.allocations[a].name) + ",";
      s += "}";
    }
    s += "\n";
  }
  for (const auto& d : pl.diagnostics)
    s += std::string(commscope::code_name(d.code)) + " ";
  return s;
}

std::string reference_summary(std::string_view text) {
  auto parsed = commscope::frontend::parse(text);
  REQUIRE(parsed);
  return summary(commscope::analyze(parsed.program));
}

struct mlir_program {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  explicit mlir_program(std::string_view text) {
    context.loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                        mlir::cf::ControlFlowDialect, mlir::affine::AffineDialect,
                        mlir::tensor::TensorDialect, mlir::memref::MemRefDialect,
                        commscope::pld::dialect>();
    context.allowUnregisteredDialects(); // ops of no dialect: what may have side effects
    module = mlir::parseSourceString<mlir::ModuleOp>(llvm::StringRef(text.data(), text.size()),
                                                     &context);
    REQUIRE(module);
  }
  mlir::ModuleOp get() { return *module; }
};

constexpr std::string_view header = R"(import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class P:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, x):
        return x

)";

constexpr std::string_view mlir_chip =
    "func.func private @chip(tensor<64xf32>) attributes {pld.level = \"chip\", "
    "pld.role = \"orchestrator\"}\n";

struct pair {
  std::string_view reference; ///< the host function, after `header`
  std::string_view mlir;      ///< the host function, after `mlir_chip`
  std::string_view expected;
};

// tests/cli/builtin.py's program, and a few rows of the descriptor table.
constexpr pair programs[] = {
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(1024)
        signal = pld.alloc_window_buffer(pld.world_size() * 4)
        stage = pld.alloc_window_buffer(128, name="staging")
        data = pld.window(buf, [256], dtype=pl.FP32)
        sig = pld.window(signal, [pld.world_size()], dtype=pl.INT32)
        part = pld.window(stage, [64], dtype=pl.FP16)
        for r in pl.range(pld.world_size()):
            self.chip(data, device=r)
        data = pld.tensor.allreduce(data, sig, op="sum")
        for d in pl.range(0, 2):
            self.chip(part, device=d)
        return 0
)",
     R"(func.func @host() -> index attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  %n = "pld.world_size"() : () -> index
  %buf = "pld.alloc_window_buffer"(%c1024) {name = "buf"} : (index) -> i64
  %signal = "pld.alloc_window_buffer"(%n) {name = "signal"} : (index) -> i64
  %stage = "pld.alloc_window_buffer"(%c128) {name = "staging"} : (index) -> i64
  %data = "pld.window"(%buf, %c64) : (i64, index) -> tensor<64xf32>
  %sig = "pld.window"(%signal, %n) : (i64, index) -> tensor<64xf32>
  %part = "pld.window"(%stage, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r, %data) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  %sum = "pld.allreduce"(%data, %sig) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  scf.for %d = %c0 to %c2 step %c1 {
    "pld.dispatch"(%d, %part) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return %c0 : index
})",
     "host: [all]{buf,signal,} [0,1,]{staging,}\n"},
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, flag):
        a = pld.alloc_window_buffer(64)
        b = pld.alloc_window_buffer(64)
        c = pld.alloc_window_buffer(64)
        va = pld.window(a, [16], dtype=pl.FP32)
        vb = pld.window(b, [16], dtype=pl.FP32)
        vc = pld.window(c, [16], dtype=pl.FP32)
        self.chip(va, device=2)
        for r in pl.range(0, 7, 3):
            self.chip(vb, device=r)
        if flag:
            self.chip(vc, device=3)
        while flag:
            self.chip(vc, device=6)
            self.chip(va, device=2)
        return 0
)",
     R"(func.func @host(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64
  %b = "pld.alloc_window_buffer"(%c64) {name = "b"} : (index) -> i64
  %c = "pld.alloc_window_buffer"(%c64) {name = "c"} : (index) -> i64
  %va = "pld.window"(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = "pld.window"(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = "pld.window"(%c, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c2, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
  scf.for %r = %c0 to %c7 step %c3 {
    "pld.dispatch"(%r, %vb) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  scf.if %flag {
    "pld.dispatch"(%c3, %vc) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  scf.while : () -> () {
    scf.condition(%flag)
  } do {
    "pld.dispatch"(%c6, %vc) {callee = @chip} : (index, tensor<64xf32>) -> ()
    "pld.dispatch"(%c2, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
    scf.yield
  }
  return
})",
     "host: [2,]{a,} [0,3,6,]{b,} [3,6,]{c,}\n"},
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, t):
        a = pld.alloc_window_buffer(64)
        d = pld.alloc_window_buffer(64)
        va = pld.window(a, [16], dtype=pl.FP32)
        self.chip(va, device=-1)
        pld.tensor.allreduce(va, t)
        for r in pl.range(-1, pld.world_size()):
            self.chip(va, device=r)
        return 0
)",
     R"(func.func @host(%t: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %cm1 = arith.constant -1 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64
  %d = "pld.alloc_window_buffer"(%c64) {name = "d"} : (index) -> i64
  %va = "pld.window"(%a, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%cm1, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.allreduce"(%va, %t) : (tensor<64xf32>, tensor<64xf32>) -> ()
  %n = "pld.world_size"() : () -> index
  scf.for %r = %cm1 to %n step %c1 {
    "pld.dispatch"(%r, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
})",
     "host:\ndead-alloc negative-device collective-arg-not-window partial-world-range "},
    // Symbolic device sets: {0} and range(1, world_size) are all devices; the stop
    // world_size - 1 through a temporary.
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        x = pld.alloc_window_buffer(64)
        y = pld.alloc_window_buffer(64)
        vx = pld.window(x, [16], dtype=pl.FP32)
        vy = pld.window(y, [16], dtype=pl.FP32)
        n = pld.world_size()
        m = n - 1
        self.chip(vx, device=0)
        for r in pl.range(1, pld.world_size()):
            self.chip(vx, device=r)
        for r in pl.range(1, m, 2):
            self.chip(vy, device=r)
        self.chip(vy, device=0)
        return 0
)",
     R"(func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  %n = pld.world_size() : () -> index
  %m = arith.subi %n, %c1 : index
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c1 to %n step %c1 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  scf.for %r = %c1 to %m step %c2 {
    pld.dispatch @chip(%r, %vy) : (index, tensor<64xf32>) -> ()
  }
  pld.dispatch @chip(%c0, %vy) : (index, tensor<64xf32>) -> ()
  return
})",
     "host: [all]{x,} [0,range(1,ws-1,2),]{y,}\n"},
    // A stop of a parameter minus a constant is no world-relative one.
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, k):
        x = pld.alloc_window_buffer(64)
        vx = pld.window(x, [16], dtype=pl.FP32)
        j = k - 1
        for r in pl.range(0, j):
            self.chip(vx, device=r)
        return 0
)",
     R"(func.func @host(%k: index) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %j = arith.subi %k, %c1 : index
  scf.for %r = %c0 to %j step %c1 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  return
})",
     "host:\nunsupported-device "},
};

} // namespace

TEST_CASE("the same program through both adapters gives the same plan") {
  for (const auto& p : programs) {
    CAPTURE(p.expected);
    const auto ref = reference_summary(std::string(header) + std::string(p.reference));
    mlir_program m(std::string(mlir_chip) + std::string(p.mlir));
    const auto got = summary(commscope::analyze(m.get()));
    CHECK(ref == p.expected);
    CHECK(got == p.expected);
  }
}

TEST_CASE("the MLIR rewrite is valid MLIR, verifies, and reads back as the same plan") {
  for (const auto& p : programs) {
    mlir_program m(std::string(mlir_chip) + std::string(p.mlir));
    const auto before = commscope::analyze(m.get());
    auto module = m.get();
    const auto diagnostics = commscope::run(module);
    CHECK(diagnostics.empty() == before.ok());
    CHECK(mlir::succeeded(mlir::verify(m.get())));
    CHECK(commscope::verify(m.get()).empty());
    if (before.ok()) {
      const auto after = commscope::analyze(m.get());
      REQUIRE(after.functions.size() == 1);
      CHECK(after.functions[0].status ==
            commscope::function_plan<mlir_traits>::state::already_materialized);
      CHECK(summary(after) == summary(before));
      CHECK(after.functions[0].views.size() == before.functions[0].views.size());
    }
  }
}

TEST_CASE("the MLIR rewrite writes a symbolic set's progressions beside its ids") {
  mlir_program m(std::string(mlir_chip) + R"(
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %n = pld.world_size() : () -> index
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c2 to %n step %c2 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  scf.for %r = %c1 to %n step %c2 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  return
})");
  auto module = m.get();
  REQUIRE(commscope::run(module).empty());
  CHECK(mlir::succeeded(mlir::verify(module)));
  CHECK(commscope::verify(module).empty());
  // {0}, range(2, ws, 2) and range(1, ws, 2): all devices, no progression left.
  std::string text;
  llvm::raw_string_ostream(text) << module;
  CHECK(text.find("devices [] slots [0]") != std::string::npos);

  // Through a temporary: range(1, world_size - 1, 3) beside {0}, read back as written.
  mlir_program offset(std::string(mlir_chip) + R"(
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %n = pld.world_size() : () -> index
  %m = arith.subi %n, %c1 : index
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c1 to %m step %c3 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  return
})");
  auto rewritten = offset.get();
  REQUIRE(commscope::run(rewritten).empty());
  auto scopes = llvm::to_vector(rewritten.getOps<mlir::func::FuncOp>());
  REQUIRE(scopes.size() == 2);
  auto scope = *scopes[1].getBody().front().getOps<commscope::pld::comm_domain_scope>().begin();
  CHECK(scope.getDevices() == llvm::ArrayRef<std::int64_t>{0});
  REQUIRE(scope.getProgressionsAttr());
  const auto progressions = mlir_traits::scope_progressions(scope.getOperation());
  REQUIRE(progressions.size() == 1);
  CHECK(progressions[0] == commscope::device_progression{1, 3, 1});
  CHECK(commscope::verify(rewritten).empty());
}

TEST_CASE("a module with an error is left exactly as it was") {
  mlir_program m(std::string(mlir_chip) + std::string(programs[2].mlir));
  std::string before, after;
  llvm::raw_string_ostream(before) << m.get();
  auto module = m.get();
  CHECK_FALSE(commscope::run(module).empty());
  llvm::raw_string_ostream(after) << m.get();
  CHECK(before == after);
}

namespace {

// ---- signal synthesis

/// The domains' device sets only: "[all] [0,1,]".
template <class Traits> std::string devices(const commscope::plan<Traits>& pl) {
  std::string s;
  for (const auto& fp : pl.functions)
    for (const auto& dom : fp.domains) {
      s += "[";
      if (dom.devices.is_all())
        s += "all";
      dom.devices.for_each([&](commscope::device_id id) { s += std::to_string(id) + ","; });
      if (dom.devices.has_progressions())
        for (const commscope::device_progression p : dom.devices.progressions())
          s += "range(" + std::to_string(p.start) + ",ws" +
               (p.stop_offset ? "-" + std::to_string(p.stop_offset) : "") + "," +
               std::to_string(p.step) + "),";
      s += "] ";
    }
  return s;
}

/// programs[0] with its allreduce's signal left out, and a second signal-less allreduce
/// of the other domain's buffer (with core_num).
constexpr pair without_signals = {
    R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(1024)
        stage = pld.alloc_window_buffer(128, name="staging")
        data = pld.window(buf, [256], dtype=pl.FP32)
        part = pld.window(stage, [64], dtype=pl.FP16)
        for r in pl.range(pld.world_size()):
            self.chip(data, device=r)
        data = pld.tensor.allreduce(data, op="sum")
        for d in pl.range(0, 2):
            self.chip(part, device=d)
        pld.tensor.allreduce(part, core_num=2)
        return 0
)",
    R"(func.func @host() -> index attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  %n = "pld.world_size"() : () -> index
  %buf = "pld.alloc_window_buffer"(%c1024) {name = "buf"} : (index) -> i64
  %stage = "pld.alloc_window_buffer"(%c128) {name = "staging"} : (index) -> i64
  %data = "pld.window"(%buf, %c64) : (i64, index) -> tensor<64xf32>
  %part = "pld.window"(%stage, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r, %data) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  %sum = "pld.allreduce"(%data) {op = "sum"} : (tensor<64xf32>) -> tensor<64xf32>
  scf.for %d = %c0 to %c2 step %c1 {
    "pld.dispatch"(%d, %part) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  "pld.allreduce"(%part) {core_num = 2 : i64} : (tensor<64xf32>) -> ()
  return %c0 : index
})",
    "host: [all]{buf,__allreduce_signal_buf_0,} [0,1,]{staging,__allreduce_signal_buf_1,}\n"};

} // namespace

TEST_CASE("signal-less allreduces give the domains of hand-written signals, in both adapters") {
  auto parsed =
      commscope::frontend::parse(std::string(header) + std::string(without_signals.reference));
  REQUIRE(parsed);
  const reference_traits rt{};
  CHECK(commscope::synthesize_signals(parsed.program, rt).empty());
  const auto ref = commscope::analyze(parsed.program);

  mlir_program m(std::string(mlir_chip) + std::string(without_signals.mlir));
  auto module = m.get();
  const mlir::SymbolTable symbols(module);
  const mlir_traits mt{&symbols};
  CHECK(commscope::synthesize_signals(module, mt).empty());
  CHECK(mlir::succeeded(mlir::verify(module)));
  const auto got = commscope::analyze(module, mt);

  CHECK(summary(ref) == without_signals.expected);
  CHECK(summary(got) == without_signals.expected);
  // The same device sets as programs[0], whose allreduce has its signal written out.
  mlir_program written(std::string(mlir_chip) + std::string(programs[0].mlir));
  CHECK(devices(got) == devices(commscope::analyze(written.get())));
  CHECK(devices(got) == "[all] [0,1,] ");

  // Idempotent: every allreduce has its signal now.
  const auto again = commscope::plan_signals(module, mt);
  CHECK(again.ok());
  CHECK(again.sites.empty());
  CHECK(commscope::synthesize(module, again, mt) == commscope::rewrite_result::unchanged);
}

TEST_CASE("the MLIR pipeline: synthesis, then the pass, read back, the same plan") {
  mlir_program m(std::string(mlir_chip) + std::string(without_signals.mlir));
  auto module = m.get();
  CHECK(commscope::run(module, mlir_traits{}, commscope::with_signal_synthesis).empty());
  CHECK(mlir::succeeded(mlir::verify(module)));
  CHECK(commscope::verify(module).empty());
  const auto after = commscope::analyze(module);
  REQUIRE(after.functions.size() == 1);
  CHECK(after.functions[0].status ==
        commscope::function_plan<mlir_traits>::state::already_materialized);
  CHECK(summary(after) == without_signals.expected);
}

TEST_CASE("the synthesis' errors are the same in both adapters, with their notes") {
  constexpr pair in_loop = {
      R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, t):
        for i in pl.range(2):
            t = pld.tensor.allreduce(t)
        pld.tensor.allreduce(t, core_num=0)
        pld.tensor.allreduce(t, t, t)
        return 0
)",
      R"(func.func @host(%t: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %u = "pld.allreduce"(%t) : (tensor<64xf32>) -> tensor<64xf32>
  }
  "pld.allreduce"(%t) {core_num = 0 : i64} : (tensor<64xf32>) -> ()
  "pld.allreduce"(%t, %t, %t) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  return
})",
      "collective-in-loop malformed-op malformed-op "};
  auto parsed = commscope::frontend::parse(std::string(header) + std::string(in_loop.reference));
  REQUIRE(parsed);
  const auto ref = commscope::plan_signals(parsed.program, reference_traits{});
  mlir_program m(std::string(mlir_chip) + std::string(in_loop.mlir));
  const auto got = commscope::plan_signals(m.get(), mlir_traits{});
  const auto codes = [](const auto& diagnostics) {
    std::string s;
    for (const auto& d : diagnostics)
      s += std::string(commscope::code_name(d.code)) + " ";
    return s;
  };
  CHECK(codes(ref.diagnostics) == in_loop.expected);
  CHECK(codes(got.diagnostics) == in_loop.expected);
  REQUIRE(ref.diagnostics.size() == 3);
  REQUIRE(got.diagnostics.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(ref.diagnostics[i].message() == got.diagnostics[i].message());
    CHECK(ref.diagnostics[i].notes.size() == got.diagnostics[i].notes.size());
  }
  // The loop's note: at the scf.for.
  REQUIRE(got.diagnostics[0].notes.size() == 1);
  CHECK(got.diagnostics[0].notes[0].what == commscope::note_kind::enclosing_loop);
  mlir::Operation* loop = nullptr;
  m.get().walk([&](mlir::scf::ForOp f) { loop = f; });
  REQUIRE(loop);
  CHECK(got.diagnostics[0].notes[0].where == mlir_traits::location(loop->getLoc()));
  CHECK(ref.diagnostics[1].why == commscope::reason::bad_core_num);
  CHECK(got.diagnostics[1].why == commscope::reason::bad_core_num);
}

// ---- collective-aliased-windows

namespace {

/// A host orchestrator whose allocation x has two views a and b; i, t and s have one each
/// (vi, vt, vs); every view is dispatched; then `collective(arguments)`. The statements
/// are in the same order, one a line, in both forms.
std::string aliased_reference(std::string_view collective, std::string_view arguments) {
  std::string s = R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        x = pld.alloc_window_buffer(64)
        i = pld.alloc_window_buffer(64)
        t = pld.alloc_window_buffer(64)
        s = pld.alloc_window_buffer(64)
        a = pld.window(x, [16], dtype=pl.FP32)
        b = pld.window(x, [16], dtype=pl.FP32)
        vi = pld.window(i, [16], dtype=pl.FP32)
        vt = pld.window(t, [16], dtype=pl.FP32)
        vs = pld.window(s, [16], dtype=pl.FP32)
        self.chip(a, device=0)
        self.chip(vi, device=0)
        self.chip(vt, device=0)
        self.chip(vs, device=0)
)";
  s += "        pld.tensor." + std::string(collective) + "(" + std::string(arguments) + ")\n";
  s += "        return 0\n";
  return std::string(header) + s;
}

std::string aliased_mlir(std::string_view collective, std::string_view arguments,
                         std::size_t count) {
  std::string s = R"(func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %i = "pld.alloc_window_buffer"(%c64) {name = "i"} : (index) -> i64
  %t = "pld.alloc_window_buffer"(%c64) {name = "t"} : (index) -> i64
  %s = "pld.alloc_window_buffer"(%c64) {name = "s"} : (index) -> i64
  %a = "pld.window"(%x, %c16) : (i64, index) -> tensor<64xf32>
  %b = "pld.window"(%x, %c16) : (i64, index) -> tensor<64xf32>
  %vi = "pld.window"(%i, %c16) : (i64, index) -> tensor<64xf32>
  %vt = "pld.window"(%t, %c16) : (i64, index) -> tensor<64xf32>
  %vs = "pld.window"(%s, %c16) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %a) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c0, %vi) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c0, %vt) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c0, %vs) {callee = @chip} : (index, tensor<64xf32>) -> ()
)";
  std::string types;
  for (std::size_t k = 0; k < count; ++k)
    types += k ? ", tensor<64xf32>" : "tensor<64xf32>";
  s += "  \"pld." + std::string(collective) + "\"(" + std::string(arguments) + ") : (" + types +
       ") -> ()\n  return\n}\n";
  return std::string(mlir_chip) + s;
}

struct aliasing {
  std::string_view collective;
  std::string_view arguments; ///< reference spelling; MLIR's adds '%'
  std::size_t count;
  std::string_view message; ///< empty: no error
  std::string_view first, second;
};

constexpr aliasing aliasings[] = {
    {"allreduce", "a, b", 2,
     "the data and the signal of collective 'allreduce' are views of the same allocation 'x'",
     "data", "signal"},
    {"broadcast", "a, b", 2,
     "the data and the signal of collective 'broadcast' are views of the same allocation 'x'",
     "data", "signal"},
    {"reduce_scatter", "a, b", 2,
     "the data and the signal of collective 'reduce_scatter' are views of the same "
     "allocation 'x'",
     "data", "signal"},
    {"barrier", "a", 1, "", "", ""},
    {"allgather", "vi, a, b", 3,
     "the target and the signal of collective 'allgather' are views of the same allocation 'x'",
     "target", "signal"},
    {"all_to_all", "a, vt, b", 3,
     "the input and the signal of collective 'all_to_all' are views of the same allocation 'x'",
     "input", "signal"},
    {"all_to_all_v", "vi, vt, vs, a, b", 5,
     "the send_counts and the recv_counts of collective 'all_to_all_v' are views of the same "
     "allocation 'x'",
     "send_counts", "recv_counts"},
};

std::string mlir_arguments(std::string_view reference) {
  std::string r = "%";
  for (char c : reference) {
    r += c;
    if (c == ' ')
      r += '%';
  }
  return r;
}

/// The line of a location, in either adapter.
unsigned line_of(commscope::reference::source_location l) { return l.line; }
unsigned line_of(mlir::LocationAttr l) {
  auto f = mlir::dyn_cast_or_null<mlir::FileLineColLoc>(l);
  return f ? f.getLine() : 0;
}

} // namespace

TEST_CASE("collective-aliased-windows for every collective, the same in both adapters") {
  for (const auto& c : aliasings) {
    CAPTURE(c.collective);
    auto parsed = commscope::frontend::parse(aliased_reference(c.collective, c.arguments));
    REQUIRE(parsed);
    const auto ref = commscope::analyze(parsed.program);
    mlir_program m(aliased_mlir(c.collective, mlir_arguments(c.arguments), c.count));
    const auto got = commscope::analyze(m.get());
    if (c.message.empty()) { // a barrier: one argument, nothing to alias
      CHECK(ref.diagnostics.empty());
      CHECK(got.diagnostics.empty());
      continue;
    }
    REQUIRE(ref.diagnostics.size() == 1);
    REQUIRE(got.diagnostics.size() == 1);
    const auto& r = ref.diagnostics[0];
    const auto& g = got.diagnostics[0];
    CHECK(r.code == commscope::error_code::collective_aliased_windows);
    CHECK(g.code == commscope::error_code::collective_aliased_windows);
    CHECK(r.message() == c.message);
    CHECK(g.message() == c.message);
    CHECK(g.object == "x");
    CHECK(line_of(g.where) > 0);
    // Notes: the allocation, then the views of the two roles, in argument order.
    REQUIRE(r.notes.size() == 3);
    REQUIRE(g.notes.size() == 3);
    using commscope::note_kind;
    const note_kind kinds[] = {note_kind::shared_allocation, note_kind::aliased_view,
                               note_kind::aliased_view};
    const std::string_view subjects[] = {"x", c.first, c.second};
    for (std::size_t k = 0; k < 3; ++k) {
      CHECK(r.notes[k].what == kinds[k]);
      CHECK(g.notes[k].what == kinds[k]);
      CHECK(r.notes[k].subject == subjects[k]);
      CHECK(g.notes[k].subject == subjects[k]);
      CHECK(r.notes[k].message() == g.notes[k].message());
      // The same places, counted back from the collective (one statement a line).
      CHECK(line_of(r.where) - line_of(r.notes[k].where) ==
            line_of(g.where) - line_of(g.notes[k].where));
    }
    // In MLIR: the allocation op and the two pld.window ops of x.
    llvm::SmallVector<mlir::Operation*, 3> ops;
    m.get().walk([&](mlir::Operation* op) {
      if (commscope::pld::string_attr(op, "name") == "x")
        ops.push_back(op);
      else if (mlir::isa<commscope::pld::window>(op) && !ops.empty() &&
               op->getOperand(0) == ops.front()->getResult(0))
        ops.push_back(op);
    });
    REQUIRE(ops.size() == 3);
    CHECK(g.notes[0].where == mlir_traits::location(ops[0]->getLoc()));
    CHECK(g.notes[1].where == mlir_traits::location(ops[1]->getLoc()));
    CHECK(g.notes[2].where == mlir_traits::location(ops[2]->getLoc()));
  }
}

// ---- control flow: alternatives, loops and region results

static_assert(commscope::provides<mlir_traits, commscope::contract::control_of>);
static_assert(commscope::provides<mlir_traits, commscope::contract::branches>);
static_assert(commscope::provides<mlir_traits, commscope::contract::values>);

namespace {

/// The ops of type Op in the module, in order.
template <class Op> std::vector<mlir::Operation*> ops_of(mlir::ModuleOp m) {
  std::vector<mlir::Operation*> r;
  m.walk<mlir::WalkOrder::PreOrder>([&](Op op) { r.push_back(op); });
  return r;
}

std::vector<mlir::Value> as_vector(const llvm::SmallVector<mlir::Value, 4>& vs) {
  return {vs.begin(), vs.end()};
}

/// The variables of values(s), which are all operands.
std::vector<mlir::Value> values_of(mlir_traits::statement s) {
  std::vector<mlir::Value> r;
  for (const auto& e : mlir_traits::values(s)) {
    CHECK(mlir_traits::expression_kind_of(e) == commscope::expression_kind::variable);
    r.push_back(mlir_traits::variable_of(e));
  }
  return r;
}

using statement = mlir_traits::statement;
using statement_list = std::vector<statement>;

template <class Range> statement_list listed(const Range& r) {
  statement_list ops;
  for (statement s : r)
    ops.push_back(s);
  return ops;
}

constexpr std::string_view regions_program = R"(
func.func @host(%flag: i1, %i: index, %va: tensor<64xf32>, %vb: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = scf.if %flag -> (tensor<64xf32>) {
    %k = arith.constant 1 : index
    scf.yield %va : tensor<64xf32>
  } else {
    scf.yield %vb : tensor<64xf32>
  }
  scf.if %flag {
    "pld.dispatch"(%c0, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  %w = scf.index_switch %i -> tensor<64xf32>
  case 3 {
    scf.yield %vb : tensor<64xf32>
  }
  default {
    scf.yield %va : tensor<64xf32>
  }
  %r:2 = scf.for %j = %c0 to %c4 step %c1 iter_args(%x = %va, %y = %vb) -> (tensor<64xf32>, tensor<64xf32>) {
    scf.yield %y, %x : tensor<64xf32>, tensor<64xf32>
  }
  %q = scf.while (%b = %va) : (tensor<64xf32>) -> tensor<64xf32> {
    scf.condition(%flag) %b : tensor<64xf32>
  } do {
  ^bb0(%a: tensor<64xf32>):
    scf.yield %vb : tensor<64xf32>
  }
  %e = scf.execute_region -> tensor<64xf32> {
    scf.yield %va : tensor<64xf32>
  }
  return
}
)";

} // namespace

TEST_CASE("the MLIR adapter: scf.if and scf.index_switch are alternatives") {
  mlir_program m(std::string(mlir_chip) + std::string(regions_program));
  const auto ifs = ops_of<mlir::scf::IfOp>(m.get());
  REQUIRE(ifs.size() == 2);
  for (auto* s : ifs) {
    CHECK(mlir_traits::statement_kind_of(s) == commscope::statement_kind::other);
    CHECK(mlir_traits::control_of(s) == commscope::control_flow::alternatives);
    CHECK(mlir_traits::targets(s).empty()); // the results are the yields' targets
  }
  // then (a constant and the yield), else (the yield); a missing else is empty.
  const auto with_results = mlir_traits::branches(ifs[0]);
  REQUIRE(with_results.size() == 2);
  CHECK(listed(with_results[0]).size() == 2);
  CHECK(listed(with_results[1]).size() == 1);
  const auto without_else = mlir_traits::branches(ifs[1]);
  REQUIRE(without_else.size() == 2);
  CHECK(listed(without_else[0]).size() == 1); // the dispatch: a yield without values is none
  CHECK(listed(without_else[1]).empty());

  // The regions RegionBranchOpInterface says it may enter, in source order: the cases,
  // then default (the op's region 0, written last).
  auto sw = mlir::cast<mlir::scf::IndexSwitchOp>(ops_of<mlir::scf::IndexSwitchOp>(m.get())[0]);
  CHECK(mlir_traits::control_of(sw.getOperation()) == commscope::control_flow::alternatives);
  const auto cases = mlir_traits::branches(sw.getOperation());
  REQUIRE(cases.size() == 2);
  CHECK(listed(cases[0]) == statement_list{sw.getCaseBlock(0).getTerminator()});
  CHECK(listed(cases[1]) == statement_list{sw.getDefaultBlock().getTerminator()});

  auto region = ops_of<mlir::scf::ExecuteRegionOp>(m.get())[0];
  CHECK(mlir_traits::control_of(region) == commscope::control_flow::block);
}

TEST_CASE("the MLIR adapter: a yield is the parallel assignment of what it defines") {
  mlir_program m(std::string(mlir_chip) + std::string(regions_program));
  auto f = m.get().lookupSymbol<mlir::func::FuncOp>("host");
  for (auto* y : ops_of<mlir::scf::YieldOp>(m.get())) {
    if (y->getNumOperands() == 0)
      continue;
    CAPTURE(y->getParentOp()->getName().getStringRef().str());
    CHECK(mlir_traits::statement_kind_of(y) == commscope::statement_kind::assignment);
    CHECK(mlir_traits::targets(y).size() == mlir_traits::values(y).size());
    // Each is the last statement of its region.
    auto* parent = y->getParentOp();
    const auto inside = listed(mlir_traits::children(parent));
    CHECK(std::find(inside.begin(), inside.end(), statement(y)) != inside.end());
  }
  // scf.if: its results, each bound to what the branch yields; one value is a copy.
  auto if_op = mlir::cast<mlir::scf::IfOp>(ops_of<mlir::scf::IfOp>(m.get())[0]);
  mlir::Operation* then_yield = if_op.thenYield();
  CHECK(as_vector(mlir_traits::targets(then_yield)) ==
        std::vector<mlir::Value>{if_op.getResult(0)});
  CHECK(values_of(then_yield) == std::vector<mlir::Value>{f.getArgument(2)});
  const auto copy = mlir_traits::value(then_yield);
  CHECK(mlir_traits::expression_kind_of(copy) == commscope::expression_kind::variable);
  CHECK(mlir_traits::variable_of(copy) == f.getArgument(2));

  // scf.for: the loop binds the iter_args and the results to the inits before the first
  // iteration; the swapping yield binds both to (y, x), all read before any is bound.
  auto loop = mlir::cast<mlir::scf::ForOp>(ops_of<mlir::scf::ForOp>(m.get())[0]);
  const mlir::Value x = loop.getRegionIterArgs()[0], y = loop.getRegionIterArgs()[1];
  const std::vector<mlir::Value> carried{x, y, loop.getResult(0), loop.getResult(1)};
  CHECK(mlir_traits::statement_kind_of(loop.getOperation()) == commscope::statement_kind::for_loop);
  CHECK(as_vector(mlir_traits::targets(loop.getOperation())) == carried);
  const mlir::Value va = f.getArgument(2), vb = f.getArgument(3);
  CHECK(values_of(loop.getOperation()) == std::vector<mlir::Value>{va, vb, va, vb});
  mlir::Operation* swap = loop.getBody()->getTerminator();
  CHECK(as_vector(mlir_traits::targets(swap)) == carried);
  CHECK(values_of(swap) == std::vector<mlir::Value>{y, x, y, x});
  CHECK(listed(mlir_traits::children(loop.getOperation())) == statement_list{swap});

  // scf.while: entry binds the before region's arguments; scf.condition the after
  // region's arguments and the results; the after region's yield the before arguments.
  auto w = mlir::cast<mlir::scf::WhileOp>(ops_of<mlir::scf::WhileOp>(m.get())[0]);
  const mlir::Value before = w.getBeforeArguments()[0], after = w.getAfterArguments()[0];
  CHECK(mlir_traits::statement_kind_of(w.getOperation()) == commscope::statement_kind::while_loop);
  CHECK(as_vector(mlir_traits::targets(w.getOperation())) == std::vector<mlir::Value>{before});
  CHECK(values_of(w.getOperation()) == std::vector<mlir::Value>{va});
  mlir::Operation* condition = w.getConditionOp();
  CHECK(mlir_traits::statement_kind_of(condition) == commscope::statement_kind::assignment);
  CHECK(as_vector(mlir_traits::targets(condition)) ==
        std::vector<mlir::Value>{w.getResult(0), after});
  CHECK(values_of(condition) == std::vector<mlir::Value>{before, before});
  mlir::Operation* back = w.getAfter().front().getTerminator();
  CHECK(as_vector(mlir_traits::targets(back)) == std::vector<mlir::Value>{before});
  CHECK(values_of(back) == std::vector<mlir::Value>{vb});
  CHECK(listed(mlir_traits::children(w.getOperation())) == statement_list{condition, back});

  // An op binds its results to itself: no per-target values.
  auto constant = ops_of<mlir::arith::ConstantOp>(m.get())[0];
  CHECK(mlir_traits::values(constant).empty());
  CHECK(as_vector(mlir_traits::targets(constant)) ==
        std::vector<mlir::Value>{constant->getResult(0)});
}

constexpr std::string_view cfg_program = R"(
func.func @host(%flag: i1, %va: tensor<64xf32>, %vb: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %v = scf.execute_region -> tensor<64xf32> {
    cf.cond_br %flag, ^a, ^b(%va, %vb : tensor<64xf32>, tensor<64xf32>)
  ^a:
    scf.yield %va : tensor<64xf32>
  ^b(%x: tensor<64xf32>, %y: tensor<64xf32>):
    "pld.dispatch"(%c0, %x) {callee = @chip} : (index, tensor<64xf32>) -> ()
    cf.br ^b(%y, %x : tensor<64xf32>, tensor<64xf32>)
  }
  return
}
)";

TEST_CASE(
    "the MLIR adapter: a CFG's blocks in reverse post-order, those that may not run guarded") {
  mlir_program m(std::string(mlir_chip) + std::string(cfg_program));
  auto f = m.get().lookupSymbol<mlir::func::FuncOp>("host");
  auto region_op = ops_of<mlir::scf::ExecuteRegionOp>(m.get())[0];
  // ^b branches back to itself: the region is a loop.
  CHECK(mlir_traits::control_of(region_op) == commscope::control_flow::repeat);
  mlir::Region& cfg = region_op->getRegion(0);
  auto blocks = cfg.getBlocks().begin();
  mlir::Block& entry_block = *blocks;
  mlir::Block& a = *++blocks;
  mlir::Block& b = *++blocks;
  // The entry's ops (its branch, which passes values: the alternatives of its edges),
  // then ^b and ^a, in reverse post-order; neither post-dominates the entry, so each is a
  // statement that may not run, holding its ops.
  mlir::Operation* cond_br = entry_block.getTerminator();
  mlir::Operation* dispatch = &b.front();
  mlir::Operation* back = b.getTerminator();
  CHECK(listed(mlir_traits::children(region_op)) == statement_list{cond_br, &b, &a});
  for (statement block : {statement(&a), statement(&b)}) {
    CHECK(mlir_traits::statement_kind_of(block) == commscope::statement_kind::other);
    CHECK(mlir_traits::control_of(block) == commscope::control_flow::may_skip);
    CHECK(mlir_traits::targets(block).empty());
  }
  CHECK(listed(mlir_traits::children(&b)) == statement_list{dispatch, back});
  CHECK(listed(mlir_traits::children(&a)) == statement_list{a.getTerminator()});
  for (statement branch : {statement(cond_br), statement(back)}) {
    CHECK(mlir_traits::statement_kind_of(branch) == commscope::statement_kind::other);
    CHECK(mlir_traits::control_of(branch) == commscope::control_flow::alternatives);
    CHECK(listed(mlir_traits::children(branch)).empty());
  }
  // The edges that pass values, then none (an edge that passes nothing): cond_br's edge
  // into ^b (^a takes nothing), ^b's edge back.
  const auto first = mlir_traits::branches(cond_br);
  REQUIRE(first.size() == 2);
  CHECK(listed(first[0]) == statement_list{&cond_br->getBlockOperands()[1]});
  CHECK(listed(first[1]).empty());
  const auto again = mlir_traits::branches(back);
  REQUIRE(again.size() == 2);
  CHECK(listed(again[0]) == statement_list{&back->getBlockOperands()[0]});

  const statement entry = &cond_br->getBlockOperands()[1], loop = &back->getBlockOperands()[0];
  const std::vector<mlir::Value> args{b.getArgument(0), b.getArgument(1)};
  CHECK(mlir_traits::statement_kind_of(entry) == commscope::statement_kind::assignment);
  CHECK(mlir_traits::control_of(entry) == commscope::control_flow::block);
  CHECK(listed(mlir_traits::children(entry)).empty());
  CHECK(as_vector(mlir_traits::targets(entry)) == args);
  CHECK(values_of(entry) == std::vector<mlir::Value>{f.getArgument(1), f.getArgument(2)});
  CHECK(as_vector(mlir_traits::targets(loop)) == args);
  CHECK(values_of(loop) == std::vector<mlir::Value>{args[1], args[0]});
  CHECK(mlir_traits::location_of(loop) == mlir_traits::location(back->getLoc()));
  // The yield binds the results, as in a region of one block.
  CHECK(mlir_traits::statement_kind_of(a.getTerminator()) == commscope::statement_kind::assignment);
  CHECK(as_vector(mlir_traits::targets(a.getTerminator())) ==
        std::vector<mlir::Value>{region_op->getResult(0)});
}

TEST_CASE("the MLIR adapter: a CFG's loops are its cycles, not its text order") {
  mlir_program m(std::string(mlir_chip) + R"(
func.func @host(%flag: i1, %va: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  scf.execute_region {
    %c0 = arith.constant 0 : index
    cf.br ^a
  ^b:
    %c2 = arith.constant 2 : index
    scf.yield
  ^a:
    %c1 = arith.constant 1 : index
    cf.br ^b
  }
  return
}
func.func @loop(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  cf.br ^a
^a:
  cf.cond_br %flag, ^a, ^b
^b:
  return
})");
  auto region_op = ops_of<mlir::scf::ExecuteRegionOp>(m.get())[0];
  CHECK(mlir_traits::control_of(region_op) == commscope::control_flow::block);
  // ^b after ^a, which reaches it; both post-dominate the entry: no block is guarded.
  mlir::Region& cfg = region_op->getRegion(0);
  auto blocks = cfg.getBlocks().begin();
  mlir::Block& entry_block = *blocks;
  mlir::Block& b = *++blocks;
  mlir::Block& a = *++blocks;
  CHECK(listed(mlir_traits::children(region_op)) ==
        statement_list{&entry_block.front(), &a.front(), &b.front()});
  // A function whose body is a loop: the function op itself, a statement that repeats it.
  auto loop = m.get().lookupSymbol<mlir::func::FuncOp>("loop");
  const auto body = listed(mlir_traits::body(loop));
  REQUIRE(body.size() == 1);
  CHECK(body[0] == statement(loop.getOperation()));
  CHECK(mlir_traits::control_of(body[0]) == commscope::control_flow::repeat);
  CHECK(mlir_traits::expressions(body[0]).empty());
}

TEST_CASE("the MLIR adapter: a CFG whose edges all lead forward runs once") {
  mlir_program m(std::string(mlir_chip) + R"(
func.func @host(%flag: i1, %va: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %v = scf.execute_region -> tensor<64xf32> {
    cf.cond_br %flag, ^a, ^b(%va : tensor<64xf32>)
  ^a:
    scf.yield %va : tensor<64xf32>
  ^b(%x: tensor<64xf32>):
    scf.yield %x : tensor<64xf32>
  }
  return
})");
  auto region_op = ops_of<mlir::scf::ExecuteRegionOp>(m.get())[0];
  CHECK(mlir_traits::control_of(region_op) == commscope::control_flow::block);
}

TEST_CASE("the MLIR adapter: arith.select is the alternatives of its two choices") {
  mlir_program m(std::string(mlir_chip) + R"(
func.func @host(%flag: i1, %va: tensor<64xf32>, %vb: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %v = arith.select %flag, %va, %vb : tensor<64xf32>
  return
})");
  auto select = ops_of<mlir::arith::SelectOp>(m.get())[0];
  CHECK(mlir_traits::statement_kind_of(select) == commscope::statement_kind::other);
  CHECK(mlir_traits::control_of(select) == commscope::control_flow::alternatives);
  CHECK(listed(mlir_traits::children(select)).empty());
  const auto choices = mlir_traits::branches(select);
  REQUIRE(choices.size() == 2);
  for (unsigned i : {1u, 2u}) {
    const statement choice = &select->getOpOperand(i);
    CHECK(listed(choices[i - 1]) == statement_list{choice});
    CHECK(mlir_traits::statement_kind_of(choice) == commscope::statement_kind::assignment);
    CHECK(as_vector(mlir_traits::targets(choice)) ==
          std::vector<mlir::Value>{select->getResult(0)});
    CHECK(values_of(choice) == std::vector<mlir::Value>{select->getOperand(i)});
    CHECK(mlir_traits::variable_of(mlir_traits::value(choice)) == select->getOperand(i));
  }
}

namespace {

// Rebinding in the reference IR, region results in MLIR: the same plans
// (docs/semantics.md, "Rebinding and control flow": an IR that renames each binding gets
// the same results as one that rebinds).
constexpr pair control_flow_programs[] = {
    // A branch rebinds: after it, either view.
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, flag):
        a = pld.alloc_window_buffer(64)
        b = pld.alloc_window_buffer(64)
        va = pld.window(a, [16], dtype=pl.FP32)
        vb = pld.window(b, [16], dtype=pl.FP32)
        v = va
        if flag:
            v = vb
        self.chip(v, device=3)
        self.chip(va, device=1)
        return 0
)",
     R"(func.func @host(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64
  %b = "pld.alloc_window_buffer"(%c64) {name = "b"} : (index) -> i64
  %va = "pld.window"(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = "pld.window"(%b, %c64) : (i64, index) -> tensor<64xf32>
  %v = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %vb : tensor<64xf32>
  } else {
    scf.yield %va : tensor<64xf32>
  }
  "pld.dispatch"(%c3, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c1, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
  return
})",
     "host: [1,3,]{a,} [3,]{b,}\n"},
    // Both branches bind: the view from before the if is gone.
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, flag):
        a = pld.alloc_window_buffer(64)
        b = pld.alloc_window_buffer(64)
        c = pld.alloc_window_buffer(64)
        va = pld.window(a, [16], dtype=pl.FP32)
        vb = pld.window(b, [16], dtype=pl.FP32)
        vc = pld.window(c, [16], dtype=pl.FP32)
        v = vc
        self.chip(v, device=0)
        if flag:
            v = va
        else:
            v = vb
        self.chip(v, device=2)
        return 0
)",
     R"(func.func @host(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64
  %b = "pld.alloc_window_buffer"(%c64) {name = "b"} : (index) -> i64
  %c = "pld.alloc_window_buffer"(%c64) {name = "c"} : (index) -> i64
  %va = "pld.window"(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = "pld.window"(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = "pld.window"(%c, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %vc) {callee = @chip} : (index, tensor<64xf32>) -> ()
  %v = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %va : tensor<64xf32>
  } else {
    scf.yield %vb : tensor<64xf32>
  }
  "pld.dispatch"(%c2, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  return
})",
     "host: [2,]{a,b,} [0,]{c,}\n"},
    // A loop swaps two views: inside and after it, each may be either.
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        a = pld.alloc_window_buffer(64)
        b = pld.alloc_window_buffer(64)
        x = pld.window(a, [16], dtype=pl.FP32)
        y = pld.window(b, [16], dtype=pl.FP32)
        for i in pl.range(0, 4):
            self.chip(y, device=2)
            x, y = y, x
        self.chip(x, device=5)
        return 0
)",
     R"(func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64
  %b = "pld.alloc_window_buffer"(%c64) {name = "b"} : (index) -> i64
  %va = "pld.window"(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = "pld.window"(%b, %c64) : (i64, index) -> tensor<64xf32>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %va, %y = %vb) -> (tensor<64xf32>, tensor<64xf32>) {
    "pld.dispatch"(%c2, %y) {callee = @chip} : (index, tensor<64xf32>) -> ()
    scf.yield %y, %x : tensor<64xf32>, tensor<64xf32>
  }
  "pld.dispatch"(%c5, %r#0) {callee = @chip} : (index, tensor<64xf32>) -> ()
  return
})",
     "host: [2,5,]{a,b,}\n"},
    // A while loop rebinds: its body sees the view from before and its own.
    {R"(    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, flag):
        a = pld.alloc_window_buffer(64)
        b = pld.alloc_window_buffer(64)
        c = pld.alloc_window_buffer(64)
        va = pld.window(a, [16], dtype=pl.FP32)
        vb = pld.window(b, [16], dtype=pl.FP32)
        vc = pld.window(c, [16], dtype=pl.FP32)
        v = va
        while flag:
            self.chip(v, device=1)
            v = vb
        self.chip(v, device=4)
        self.chip(vc, device=4)
        return 0
)",
     R"(func.func @host(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64
  %b = "pld.alloc_window_buffer"(%c64) {name = "b"} : (index) -> i64
  %c = "pld.alloc_window_buffer"(%c64) {name = "c"} : (index) -> i64
  %va = "pld.window"(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = "pld.window"(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = "pld.window"(%c, %c64) : (i64, index) -> tensor<64xf32>
  %r = scf.while (%x = %va) : (tensor<64xf32>) -> tensor<64xf32> {
    scf.condition(%flag) %x : tensor<64xf32>
  } do {
  ^bb0(%y: tensor<64xf32>):
    "pld.dispatch"(%c1, %y) {callee = @chip} : (index, tensor<64xf32>) -> ()
    scf.yield %vb : tensor<64xf32>
  }
  "pld.dispatch"(%c4, %r) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c4, %vc) {callee = @chip} : (index, tensor<64xf32>) -> ()
  return
})",
     "host: [1,4,]{a,b,} [4,]{c,}\n"},
};

} // namespace

TEST_CASE("rebinding through branches and loops: the same plan through both adapters") {
  for (const auto& p : control_flow_programs) {
    CAPTURE(p.expected);
    const auto ref = reference_summary(std::string(header) + std::string(p.reference));
    mlir_program m(std::string(mlir_chip) + std::string(p.mlir));
    const auto got = summary(commscope::analyze(m.get()));
    CHECK(ref == p.expected);
    CHECK(got == p.expected);
  }
}

TEST_CASE("region results: the MLIR rewrite verifies and reads back as the same plan") {
  for (const auto& p : control_flow_programs) {
    CAPTURE(p.expected);
    mlir_program m(std::string(mlir_chip) + std::string(p.mlir));
    const auto before = commscope::analyze(m.get());
    REQUIRE(before.ok());
    auto module = m.get();
    CHECK(commscope::run(module).empty());
    CHECK(mlir::succeeded(mlir::verify(m.get())));
    CHECK(commscope::verify(m.get()).empty());
    const auto after = commscope::analyze(m.get());
    REQUIRE(after.functions.size() == 1);
    CHECK(after.functions[0].status ==
          commscope::function_plan<mlir_traits>::state::already_materialized);
    CHECK(summary(after) == summary(before));
  }
}

// ---- every use of a view is followed or refused: flow_of

TEST_CASE("the MLIR adapter: flow_of, what an op does with the views among its operands") {
  mlir_program m(std::string(mlir_chip) + R"(
func.func private @helper(tensor<64xf32>)
func.func @inlinable(%a: tensor<64xf32>) {
  return
}
func.func @host(%va: tensor<64xf32>, %vb: tensor<64xf32>, %p: i64, %m: memref<4xi64>, %flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %cast = tensor.cast %va {n = "derived"} : tensor<64xf32> to tensor<?xf32>
  %slice = "tensor.extract_slice"(%va) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 32>, static_strides = array<i64: 1>}> {n = "derived"} : (tensor<64xf32>) -> tensor<32xf32>
  %u = "builtin.unrealized_conversion_cast"(%p) {n = "derived"} : (i64) -> index
  %eq = arith.cmpi eq, %p, %p {n = "derived"} : i64
  %r = scf.if %flag -> tensor<64xf32> {
    scf.yield %va : tensor<64xf32>
  } else {
    scf.yield %vb : tensor<64xf32>
  } {n = "derived"}
  func.call @helper(%va) {n = "helper", call, external} : (tensor<64xf32>) -> ()
  func.call @inlinable(%va) {n = "inlinable", call} : (tensor<64xf32>) -> ()
  func.call @chip(%va) {n = "derived"} : (tensor<64xf32>) -> ()
  "pld.dispatch"(%c0, %va) {callee = @helper, n = "helper", call} : (index, tensor<64xf32>) -> ()
  %f = func.constant @helper : (tensor<64xf32>) -> ()
  func.call_indirect %f(%va) {n = "func.call_indirect"} : (tensor<64xf32>) -> ()
  memref.store %p, %m[%c0] {n = "memref.store"} : memref<4xi64>
  "test.sink"(%va) {n = "test.sink"} : (tensor<64xf32>) -> ()
  "test.region"(%va) ({
  ^bb0(%a: tensor<64xf32>):
    "test.end"() : () -> ()
  }) {n = "test.region"} : (tensor<64xf32>) -> ()
  %w = "test.wrap"() ({
    "test.yield"(%va) {n = "test.yield"} : (tensor<64xf32>) -> ()
  }) : () -> tensor<64xf32>
  return
})");
  int judged = 0;
  m.get().walk([&](mlir::Operation* op) {
    const auto n = commscope::pld::string_attr(op, "n");
    if (n.empty())
      return;
    CAPTURE(op->getName().getStringRef().str());
    const auto flow = mlir_traits{}.flow_of({op, {}});
    ++judged;
    if (n == "derived") {
      CHECK(flow.what == commscope::operand_flow::derived);
      return;
    }
    CHECK(flow.what == commscope::operand_flow::escapes);
    CHECK(flow.name == n);
    CHECK(flow.call == op->hasAttr("call"));
    // A declaration has no body to inline: the message says so.
    CHECK(flow.external == op->hasAttr("external"));
  });
  CHECK(judged == 14);

  auto host = m.get().lookupSymbol<mlir::func::FuncOp>("host");
  mlir::Operation* region_op = nullptr;
  mlir::Operation* wrap = nullptr;
  host.walk([&](mlir::Operation* op) {
    if (op->getName().getStringRef() == "test.region")
      region_op = op;
    if (op->getName().getStringRef() == "test.wrap")
      wrap = op;
  });
  REQUIRE(region_op);
  REQUIRE(wrap);
  // An op with regions the pass does not follow is its own expression, which flow_of
  // judges: its operands (here the view its region's argument receives) reach an escape.
  const auto exprs = mlir_traits::expressions(region_op);
  REQUIRE(exprs.size() == 1);
  CHECK(exprs[0].op == region_op);
  CHECK(!exprs[0].value);
  // A terminator that passes a view where no interface says is a statement (an
  // evaluation of itself), so that flow_of is asked.
  mlir::Operation* yield = &wrap->getRegion(0).front().back();
  CHECK(listed(mlir_traits::children(wrap)) == statement_list{yield});
  CHECK(mlir_traits::statement_kind_of(yield) == commscope::statement_kind::evaluation);
  CHECK(mlir_traits::value(yield).op == yield);
  // Operands and constants are derived.
  CHECK(mlir_traits{}.flow_of({region_op, region_op->getOperand(0)}).what ==
        commscope::operand_flow::derived);
}

TEST_CASE("the MLIR adapter: affine.for with constant bounds is a counted loop") {
  mlir_program m(std::string(mlir_chip) + R"(
func.func @host(%n: index) attributes {pld.level = "host", pld.role = "orchestrator"} {
  affine.for %i = 2 to 9 step 3 {
  }
  affine.for %i = 0 to %n {
  }
  return
})");
  const auto loops = ops_of<mlir::affine::AffineForOp>(m.get());
  REQUIRE(loops.size() == 2);
  CHECK(mlir_traits::statement_kind_of(loops[0]) == commscope::statement_kind::for_loop);
  CHECK(mlir_traits::loop_variable(loops[0]) ==
        mlir::cast<mlir::affine::AffineForOp>(loops[0]).getInductionVar());
  const auto b = mlir_traits::loop_bounds(loops[0]);
  for (const auto& [e, v] : {std::pair{b.start, 2}, std::pair{b.stop, 9}, std::pair{b.step, 3}}) {
    CHECK(mlir_traits::expression_kind_of(e) == commscope::expression_kind::integer);
    CHECK(mlir_traits::integer_value(e) == v);
    CHECK(mlir_traits::subexpressions(e).empty());
  }
  // A bound that is no constant: a loop of unknown devices.
  CHECK(mlir_traits::statement_kind_of(loops[1]) == commscope::statement_kind::while_loop);
}

TEST_CASE("the MLIR adapter: a materialized view's allocation is found through casts of its "
          "pointer") {
  mlir_program m(std::string(mlir_chip) + R"(
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x", window_buffer = 0 : i64} : (index) -> i64
  %p = builtin.unrealized_conversion_cast %x : i64 to i64
  %v = pld.window(%p, %c64) {window_buffer = 0 : i64} : (i64, index) -> tensor<64xf32>
  %w = pld.window(%p, %c64) {window_buffer = 1 : i64} : (i64, index) -> tensor<64xf32>
  return
})");
  const auto windows = ops_of<commscope::pld::window>(m.get());
  const auto allocs = ops_of<commscope::pld::alloc_window_buffer>(m.get());
  REQUIRE(windows.size() == 2);
  REQUIRE(allocs.size() == 1);
  CHECK(mlir_traits::view_window_buffer({}, windows[0]->getResult(0)) == allocs[0]);
  CHECK(mlir_traits::view_window_buffer({}, windows[1]->getResult(0)) == nullptr);
}
