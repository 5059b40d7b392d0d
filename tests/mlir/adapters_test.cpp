// The same programs through both adapters (the reference IR's text form and MLIR) give
// the same domains and the same diagnostics; and the MLIR rewrite, read back, gives the
// plan it was made from.
#include <commscope/commscope.hpp>
#include <commscope/mlir/traits.hpp>
#include <commscope/reference/parser.hpp>
#include <commscope/reference/traits.hpp>

#include <mlir/IR/Verifier.h>
#include <mlir/Parser/Parser.h>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace {

using mlir_traits = commscope::ir_traits<mlir::ModuleOp>;
static_assert(commscope::materializable_ir<mlir_traits>);

// mlir::Location has no empty state, so it cannot be a handle: the contract says so.
struct location_without_empty_state : mlir_traits {
  using location = mlir::Location;
};
static_assert(!commscope::regular_handles<location_without_empty_state>);
static_assert(!commscope::analysable_ir<location_without_empty_state>);

/// "host: [all]{buf,signal} [0,1]{staging}" per host orchestrator, then the error codes.
template <class Traits>
std::string summary(const commscope::plan<Traits>& pl) {
  std::string s;
  for (const auto& fp : pl.functions) {
    s += std::string(fp.name) + ":";
    for (const auto& dom : fp.domains) {
      s += " [";
      if (dom.devices.is_all())
        s += "all";
      dom.devices.for_each([&](commscope::device_id id) { s += std::to_string(id) + ","; });
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
  auto parsed = commscope::reference::parse(text);
  REQUIRE(parsed);
  return summary(commscope::analyze(parsed.program));
}

struct mlir_program {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  explicit mlir_program(std::string_view text) {
    context.loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                        mlir::scf::SCFDialect, commscope::pld::dialect>();
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
        for r in pl.range(1, pld.world_size()):
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
  scf.for %r = %c1 to %n step %c1 {
    "pld.dispatch"(%r, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
})",
     "host:\ndead-alloc negative-device collective-arg-not-window partial-world-range "},
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

TEST_CASE("a module with an error is left exactly as it was") {
  mlir_program m(std::string(mlir_chip) + std::string(programs[2].mlir));
  std::string before, after;
  llvm::raw_string_ostream(before) << m.get();
  auto module = m.get();
  CHECK_FALSE(commscope::run(module).empty());
  llvm::raw_string_ostream(after) << m.get();
  CHECK(before == after);
}
