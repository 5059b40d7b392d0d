# --emit=dot: the plan as a Graphviz picture (cli.md). The built-in example: a cluster
# per domain with its allocations and views, an edge from each dispatch to what it
# covers, and the allreduce passing coverage on from its data to its signal.
# RUN: %commscope-opt --format=json --emit=dot | %FileCheck --check-prefix=BUILTIN %s
# BUILTIN:      digraph commscope {
# BUILTIN:        subgraph "cluster_p0" {
# BUILTIN-NEXT:     label="program Example (line 5)";
# BUILTIN:          subgraph "cluster_p0_f0" {
# BUILTIN-NEXT:       label="host_orch";
# BUILTIN:            subgraph "cluster_p0_f0_d0" {
# BUILTIN-NEXT:         label="comm_d0\ndevices: all";
# BUILTIN:              "[[BUF:p0_f0_a0]]" [shape=box, {{.*}}label="buf\n256 * 4"];
# BUILTIN-NEXT:         "[[DATA:p0_f0_v0]]" [shape=ellipse, label="data"];
# BUILTIN-NEXT:         "[[DATA]]" -> "[[BUF]]" [style=dotted
# BUILTIN:              "[[SIG:p0_f0_a1]]" [shape=box, {{.*}}label="signal\npld.world_size() * 4"];
# BUILTIN:            subgraph "cluster_p0_f0_d1" {
# BUILTIN-NEXT:         label="comm_d1\ndevices: [0, 1]";
# BUILTIN:              "[[STAGE:p0_f0_a2]]" [shape=box, {{.*}}label="staging\n64 * 2"];
# BUILTIN:            "[[X0:p0_f0_x0]]" [shape=cds, {{.*}}label="chip_orch\ndevices: all\nline 25"];
# BUILTIN-NEXT:       "[[X0]]" -> "[[BUF]]";
# BUILTIN-NEXT:       "[[C:p0_f0_c1]]" [shape=hexagon, {{.*}}label="allreduce\nline 26"];
# BUILTIN-NEXT:       "[[BUF]]" -> "[[C]]" [style=dashed];
# BUILTIN-NEXT:       "[[C]]" -> "[[SIG]]" [style=dashed, label="inherits"];
# BUILTIN-NEXT:       "[[X2:p0_f0_x2]]" [shape=cds, {{.*}}label="chip_orch\ndevices: [0, 1]\nline 28"];
# BUILTIN-NEXT:       "[[X2]]" -> "[[STAGE]]";
# BUILTIN:      }
#
# This file: names that need escaping, one call covering two allocations, a host
# orchestrator without allocations, and a rejected program drawn with its diagnostics.
# RUN: %commscope-opt --format=json --emit=dot %s > %t.dot 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=FILE %s < %t.dot
# FILE:      graph [label="{{.*}}emit_dot.py",
# FILE:      label="program Pictured (line {{[0-9]+}})";
# FILE:      label="host";
# FILE:      label="comm_d0\ndevices: [0, 1, 2, 3]";
# FILE:      "[[Q:p0_f0_a0]]" [shape=box, {{.*}}label="say \"hi\" \\ there\n8"];
# FILE:      "[[P:p0_f0_a1]]" [shape=box, {{.*}}label="plain\n16"];
# FILE:      "[[X:p0_f0_x0]]" [shape=cds, {{.*}}label="chip\ndevices: [0, 1, 2, 3]\nline 67"];
# FILE-NEXT: "[[X]]" -> "[[Q]]";
# FILE-NEXT: "[[X]]" -> "[[P]]";
# FILE:      label="idle";
# FILE:      [shape=plaintext, label="no allocations"];
# FILE:      label="program broken (line {{[0-9]+}})";
# FILE-NEXT: style=rounded;
# FILE-NEXT: "p1_rejected" [shape=note, color=red, fontcolor=red, label="rejected\l{{[0-9]+}}:9: allocation 'lonely' has no window view [dead-alloc]\l"];
# FILE:      }
# The diagnostics still go to standard error as usual.
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# ERR: emit_dot.py:{{[0-9]+}}:9: error: allocation 'lonely' has no window view [dead-alloc]
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Pictured:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a, b):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        q = pld.alloc_window_buffer(8, name='say "hi" \\ there')
        p = pld.alloc_window_buffer(16, name="plain")
        vq = pld.window(q, [2], dtype=pl.FP32)
        vp = pld.window(p, [4], dtype=pl.FP32)
        for r in pl.range(4):
            self.chip(vq, vp, device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def idle(self):
        return 0


def broken():
    @pl.jit.host
    def lonely_host():
        lonely = pld.alloc_window_buffer(4)
        return 0

    return lonely_host
