// The companion pass through the library API on the reference IR (docs/semantics.md, "The
// companion pass: signal synthesis"), the pipeline form of `run`, and what the main pass
// gained beside it: collective-aliased-windows, notes, evidence.
#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

namespace ref = commscope::reference;
namespace fe = commscope::frontend;
using traits = commscope::ir_traits<ref::program_ptr>;

constexpr std::string_view header = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
)"; // the host body starts on line 13

ref::program_ptr parse(std::string_view body) {
  const std::string text = std::string(header) + std::string(body);
  auto m = fe::parse_module(text, {});
  REQUIRE_MESSAGE(!m.error, (m.error ? m.error->message : std::string()));
  REQUIRE(m.programs.size() == 1);
  return m.programs[0].program;
}

std::string host_text(const ref::program_ptr& p) {
  std::string out;
  fe::print_statements(out, *p, p->functions.back()->body, "", "\n");
  return out;
}

/// "code line:column" per diagnostic, each followed by " | note line:column" per note.
template <class Diagnostics> std::string render(const Diagnostics& ds) {
  std::string out;
  for (const auto& d : ds) {
    if (!out.empty())
      out += '\n';
    out += std::string(commscope::code_name(d.code)) + " " + std::to_string(d.where.line) + ":" +
           std::to_string(d.where.column);
    for (const auto& n : d.notes)
      out += " | " + n.message() + " " + std::to_string(n.where.line) + ":" +
             std::to_string(n.where.column);
  }
  return out;
}

std::string domains(const commscope::plan<traits>& pl) {
  std::string out;
  for (const auto& fp : pl.functions)
    for (std::size_t d = 0; d < fp.domains.size(); ++d) {
      out += out.empty() ? "" : "; ";
      std::string devices;
      if (fp.domains[d].devices.is_all())
        devices = "all";
      else
        fp.domains[d].devices.for_each([&](commscope::device_id id) {
          devices += (devices.empty() ? "" : ",") + std::to_string(id);
        });
      out += "[" + devices + "]";
      for (auto a : fp.domains[d].slots)
        out += " " + std::string(fp.allocations[a].name);
    }
  return out;
}

} // namespace

TEST_SUITE("signal synthesis") {

  TEST_CASE("signal-less allreduces give the domains of hand-written signals") {
    auto synthesized = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip(d, device=r)
        d = pld.tensor.allreduce(d, op=pld.ReduceOp.Sum)
        part_buf = pld.alloc_window_buffer(64)
        part = pld.window(part_buf, [16], dtype=pl.FP32)
        for k in pl.range(2):
            self.chip(part, device=k)
        pld.tensor.allreduce(part, core_num=2)
)");
    auto written = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip(d, device=r)
        __allreduce_signal_world_size_0 = pld.system.world_size()
        __allreduce_signal_buf_0 = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * 1 * pl.INT32.get_byte())
        __allreduce_signal_0 = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
        d = pld.tensor.allreduce(d, __allreduce_signal_0, op=pld.ReduceOp.Sum)
        part_buf = pld.alloc_window_buffer(64)
        part = pld.window(part_buf, [16], dtype=pl.FP32)
        for k in pl.range(2):
            self.chip(part, device=k)
        __allreduce_signal_world_size_1 = pld.system.world_size()
        __allreduce_signal_buf_1 = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_1 * 2 * pl.INT32.get_byte())
        __allreduce_signal_1 = pld.tensor.window(__allreduce_signal_buf_1, [__allreduce_signal_world_size_1, 2], dtype=pl.INT32)
        pld.tensor.allreduce(part, __allreduce_signal_1, core_num=2)
)");
    const traits t;
    // Without synthesis the main pass refuses the signal-less calls.
    CHECK(render(commscope::analyze(synthesized, t).diagnostics) ==
          "malformed-op 17:13\nmalformed-op 22:9");

    const auto before = synthesized;
    CHECK(commscope::synthesize_signals(synthesized, t).empty());
    CHECK(synthesized != before); // rebuilt, the original left as it was
    CHECK(render(commscope::analyze(before, t).diagnostics) ==
          "malformed-op 17:13\nmalformed-op 22:9");

    const auto a = commscope::analyze(synthesized, t);
    const auto b = commscope::analyze(written, t);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(domains(a) ==
          "[all] buf __allreduce_signal_buf_0; [0,1] part_buf __allreduce_signal_buf_1");
    CHECK(domains(a) == domains(b));
    for (std::size_t i = 0; i < a.functions[0].allocations.size(); ++i)
      CHECK(fe::print_expression(*a.functions[0].allocations[i].size) ==
            fe::print_expression(*b.functions[0].allocations[i].size));

    // The second run finds every allreduce with its signal: nothing changes.
    const auto once = synthesized;
    CHECK(commscope::synthesize_signals(synthesized, t).empty());
    CHECK(synthesized == once);
    CHECK(commscope::synthesize_signals(written, t).empty());
  }

  TEST_CASE("the pipeline form of run: synthesis, then the main pass") {
    auto p = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        self.chip(d, device=3)
        return pld.tensor.allreduce(d)
)");
    const traits t;
    CHECK(commscope::run(p, t, commscope::with_signal_synthesis).empty());
    const std::string text = host_text(p);
    CHECK(text.find("with pld.comm_domain(\"comm_d0\", devices=[3], slots=[buf, "
                    "__allreduce_signal_buf_0]):") != std::string::npos);
    CHECK(text.find("return pld.tensor.allreduce(d, __allreduce_signal_0)") != std::string::npos);
    CHECK(commscope::verify(p, t).empty());
    // A program the synthesis rejects goes no further: the main pass reports nothing more.
    auto q = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(2):
            d = pld.tensor.allreduce(d)
)");
    const auto before = q;
    CHECK(render(commscope::run(q, t, commscope::with_signal_synthesis)) ==
          "collective-in-loop 16:17 | inside this loop 15:9");
    CHECK(q == before);
  }

  TEST_CASE("a signal synthesized inside a materialized body is no slot: reported, not skipped") {
    auto p = parse(R"(        with pld.comm_domain("comm_d0", devices=[0], slots=[buf]):
            buf = pld.alloc_window_buffer(64)
            d = pld.window(buf, [16], dtype=pl.FP32) # window_buffer=buf
            self.chip(d, device=0)
            pld.tensor.allreduce(d)
)");
    const traits t;
    const auto ds = commscope::run(p, t, commscope::with_signal_synthesis);
    REQUIRE(ds.size() == 1);
    CHECK(commscope::code_name(ds[0].code) == "malformed-op");
    CHECK(ds[0].why == commscope::reason::alloc_outside_scope);
    CHECK(ds[0].subject == "__allreduce_signal_buf_0");
  }

  TEST_CASE("bindings go before the statement in whatever block holds it, the rest is shared") {
    auto p = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        self.chip(d, device=0)
        if d:
            pass
        elif d:
            d = pld.tensor.allreduce(d)
        try:
            pld.tensor.allreduce(d)  # kept
        except Exception:
            pass
        self.chip(d, device=0)
)");
    const auto before = p;
    CHECK(commscope::synthesize_signals(p, traits{}).empty());
    const auto& old_body = before->functions.back()->body;
    const auto& body = p->functions.back()->body;
    REQUIRE(body.size() == old_body.size());
    CHECK(body[0] == old_body[0]); // untouched statements are the very same nodes
    CHECK(body[3] != old_body[3]); // the if and the try are copied along the path
    CHECK(body[4] != old_body[4]);
    CHECK(body[5] == old_body[5]);
    const std::string text = host_text(p);
    CHECK(text.find("elif d:\n"
                    "    __allreduce_signal_world_size_0 = pld.system.world_size()\n") !=
          std::string::npos);
    CHECK(text.find("    pld.tensor.allreduce(d, __allreduce_signal_1)  # kept") !=
          std::string::npos);
    // A tuple of returned values is an expression: its allreduce is nested.
    auto q = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        self.chip(d, device=0)
        return d, pld.tensor.allreduce(d)
)");
    CHECK(render(commscope::synthesize_signals(q, traits{})) == "malformed-op 16:19");
  }

  TEST_CASE("fresh names skip every suffix whose names the program uses") {
    auto p = parse(R"(        __allreduce_signal_0 = 1
        __allreduce_signal_buf_1 = 2
        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        self.chip(d, device=0)
        pld.tensor.allreduce(d)
        pld.tensor.allreduce(d)
)");
    const traits t;
    const auto pl = commscope::plan_signals(p, t);
    REQUIRE(pl.sites.size() == 2);
    CHECK(pl.sites[0].index == 2);
    CHECK(pl.sites[1].index == 3);
    CHECK(commscope::synthesize_signals(p, t).empty());
    const std::string text = host_text(p);
    CHECK(text.find("pld.tensor.allreduce(d, __allreduce_signal_2)") != std::string::npos);
    CHECK(text.find("pld.tensor.allreduce(d, __allreduce_signal_3)") != std::string::npos);
  }

  TEST_CASE("core_num= is a positive integer constant, also through a name of the file") {
    const std::string module = R"(import pypto.language as pl
import pypto.language.distributed as pld

CORES = 4


@pl.jit
def chip(a):
    return a


@pl.jit.host
def host():
    buf = pld.alloc_window_buffer(64)
    d = pld.window(buf, [16], dtype=pl.FP32)
    chip(d, device=0)
    pld.tensor.allreduce(d, core_num=CORES)
)";
    auto m = fe::parse_module(module, {});
    REQUIRE(m.programs.size() == 1);
    const auto pl = commscope::plan_signals(m.programs[0].program, traits{});
    REQUIRE(pl.ok());
    REQUIRE(pl.sites.size() == 1);
    CHECK(pl.sites[0].cores == 4);

    auto bad = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        c = 2
        self.chip(d, device=0)
        pld.tensor.allreduce(d, core_num=0)
        pld.tensor.allreduce(d, core_num=c)
)");
    const auto before = bad;
    auto ds = commscope::synthesize_signals(bad, traits{});
    CHECK(render(ds) == "malformed-op 17:9\nmalformed-op 18:9");
    CHECK(ds[0].message().find("core_num=") != std::string::npos);
    CHECK(bad == before);
  }

  TEST_CASE("errors: nested, augmented, in a loop, wrong arity, all of them, nothing changed") {
    auto p = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        self.chip(d, device=0)
        pld.tensor.allreduce(d)
        x = f(pld.tensor.allreduce(d))
        x += pld.tensor.allreduce(d)
        while x:
            for r in pl.range(2):
                pld.tensor.allreduce(d)
        pld.tensor.allreduce()
        pld.tensor.allreduce(d, d, d)
)");
    const auto before = p;
    const auto ds = commscope::synthesize_signals(p, traits{});
    CHECK(render(ds) == "malformed-op 17:15\n"
                        "malformed-op 18:14\n"
                        "collective-in-loop 21:17 | inside this loop 20:13\n"
                        "malformed-op 22:9\n"
                        "malformed-op 23:9");
    CHECK(ds[0].message().find("whole value") != std::string::npos);
    CHECK(ds[3].message() == "operation 'allreduce' takes 2 positional arguments, got 0");
    CHECK(p == before); // the valid allreduce of line 16 got no signal either
  }

  TEST_CASE("an allreduce with its signal nested in an expression is malformed-op too") {
    auto p = parse(R"(        buf = pld.alloc_window_buffer(64)
        d = pld.window(buf, [16], dtype=pl.FP32)
        sbuf = pld.alloc_window_buffer(64)
        s = pld.window(sbuf, [16], dtype=pl.INT32)
        self.chip(d, device=0)
        wrapped = (pld.tensor.allreduce(d, s, op=pld.ReduceOp.SUM),)
        total = 1
        total += pld.tensor.allreduce(d, s)
        d = pld.tensor.allreduce(d, s)
)");
    const auto before = p;
    const auto ds = commscope::synthesize_signals(p, traits{});
    CHECK(render(ds) == "malformed-op 18:20\n"
                        "malformed-op 20:18");
    CHECK(ds[0].message().find("never nested in an expression") != std::string::npos);
    CHECK(p == before);
  }

  TEST_CASE(
      "collective-aliased-windows for every collective, both roles and the allocation named") {
    struct scenario {
      std::string_view call;
      std::string_view message;
    };
    const std::vector<scenario> scenarios{
        {"pld.tensor.allreduce(v, w)",
         "the data and the signal of collective 'allreduce' are views "
         "of the same allocation 'buf'"},
        {"pld.tensor.broadcast(v, v)",
         "the data and the signal of collective 'broadcast' are views "
         "of the same allocation 'buf'"},
        {"pld.tensor.reduce_scatter(w, v)",
         "the data and the signal of collective "
         "'reduce_scatter' are views of the same allocation 'buf'"},
        {"pld.tensor.allgather(v, t, w)", "the input and the signal of collective 'allgather' are "
                                          "views of the same allocation 'buf'"},
        {"pld.tensor.all_to_all(t, v, w)", "the target and the signal of collective 'all_to_all' "
                                           "are views of the same allocation 'buf'"},
        {"pld.tensor.all_to_all_v(t, s, c, v, w)", "the send_counts and the recv_counts of "
                                                   "collective 'all_to_all_v' are views of the "
                                                   "same allocation 'buf'"},
    };
    for (const auto& sc : scenarios) {
      CAPTURE(sc.call);
      auto p = parse(std::string(R"(        buf = pld.alloc_window_buffer(64)
        v = pld.window(buf, [16], dtype=pl.FP32)
        w = pld.window(buf, [16], dtype=pl.FP32)
        tbuf = pld.alloc_window_buffer(64)
        t = pld.window(tbuf, [16], dtype=pl.FP32)
        sbuf = pld.alloc_window_buffer(64)
        s = pld.window(sbuf, [16], dtype=pl.FP32)
        cbuf = pld.alloc_window_buffer(64)
        c = pld.window(cbuf, [16], dtype=pl.FP32)
        self.chip(v, t, s, c, device=0)
        )") + std::string(sc.call) +
                     "\n");
      const auto pl = commscope::analyze(p, traits{});
      REQUIRE(pl.diagnostics.size() == 1);
      const auto& d = pl.diagnostics[0];
      CHECK(commscope::code_name(d.code) == "collective-aliased-windows");
      CHECK(d.message() == sc.message);
      REQUIRE(d.notes.size() == 3);
      CHECK(d.notes[0].message() == "allocation 'buf' is here");
      CHECK(d.notes[0].where.line == 13);
      CHECK(d.notes[1].message().ends_with("is a view of it taken here"));
      CHECK(d.notes[2].message().ends_with("is a view of it taken here"));
    }
    // A barrier has one window: it never aliases.
    auto p = parse(R"(        buf = pld.alloc_window_buffer(64)
        v = pld.window(buf, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        pld.tensor.barrier(v)
)");
    CHECK(commscope::analyze(p, traits{}).ok());
  }

  TEST_CASE("notes: the related places of each diagnostic docs/semantics.md lists") {
    auto p = parse(R"(        a = pld.alloc_window_buffer(64, name="x")
        va = pld.window(a, [16], dtype=pl.FP32)
        b = pld.alloc_window_buffer(64, name="x")
        vb = pld.window(b, [16], dtype=pl.FP32)
        self.chip(va, device=0)
        self.chip(vb, device=0)
        u = pld.alloc_window_buffer(64)
        u1 = pld.window(u, [16], dtype=pl.FP32)
        u2 = pld.window(u, [16], dtype=pl.FP32)
        e = pld.alloc_window_buffer(64)
        ve = pld.window(e, [16], dtype=pl.FP32)
        for r in pl.range(-1, 2):
            self.chip(ve, device=r)
        for q in pl.range(1, pld.world_size(), -1):
            self.chip(ve, device=q)
)");
    CHECK(render(commscope::analyze(p, traits{}).diagnostics) ==
          "duplicate-name 15:9 | the first allocation named 'x' is here 13:9\n"
          "unconsumed-alloc 19:9 | a view of it is taken here 20:9 | a view of it is taken here "
          "21:9\n"
          "negative-device 25:13 | the devices come from this loop 24:9\n"
          "partial-world-range 27:13 | the devices come from this loop 26:9");
  }

  TEST_CASE("evidence: recorded on request, one entry per contribution in source order") {
    auto p = parse(R"(        a = pld.alloc_window_buffer(64)
        va = pld.window(a, [16], dtype=pl.FP32)
        b = pld.alloc_window_buffer(64)
        vb = pld.window(b, [16], dtype=pl.FP32)
        s = pld.alloc_window_buffer(4)
        vs = pld.window(s, [1], dtype=pl.INT32)
        self.chip(va, device=5)
        for k in pl.range(1, 4, 2):
            self.chip(vb, device=k)
        self.chip(vb, device=0)
        pld.tensor.allreduce(vb, vs)
)");
    const traits t;
    CHECK(commscope::analyze(p, t).functions[0].evidence.empty()); // off: nothing recorded
    const auto pl = commscope::analyze(p, t, commscope::with_evidence);
    REQUIRE(pl.ok());
    const auto& fp = pl.functions[0];
    using kind = commscope::contribution<traits>::kind;

    const auto a = fp.evidence_of(0); // dispatch only
    REQUIRE(a.size() == 1);
    CHECK(a[0].what == kind::dispatch);
    CHECK(a[0].callee == "chip");
    CHECK(a[0].where.line == 19);
    CHECK(a[0].devices.contains(5));
    CHECK(!a[0].from_loop);
    CHECK(fp.views[a[0].passed_view].variable->name == "va");

    const auto b = fp.evidence_of(1); // a subset of devices from a loop, then a constant
    REQUIRE(b.size() == 2);
    CHECK(b[0].from_loop);
    CHECK(b[0].loop.line == 20);
    CHECK(b[0].devices.size() == 2);
    CHECK(b[0].devices.contains(1));
    CHECK(b[0].devices.contains(3));
    CHECK(!b[1].from_loop);
    CHECK(b[1].where.line == 22);

    const auto s = fp.evidence_of(2); // coverage inherited through the allreduce
    REQUIRE(s.size() == 1);
    CHECK(s[0].what == kind::inherited);
    CHECK(s[0].from == 1);
    CHECK(s[0].callee == "allreduce");
    CHECK(s[0].where.line == 23);
  }

} // TEST_SUITE
