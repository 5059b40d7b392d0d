# --emit=dot: the plan as a Graphviz picture (docs/commscope-opt.md, "Pictures"). The built-in
# example: a cluster per domain with its allocations and views, an edge from each dispatch to
# what it covers, and the allreduce passing coverage on from its data to its signal.
# RUN: %commscope-opt --emit=dot | %FileCheck --check-prefix=BUILTIN %s
# BUILTIN:      digraph commscope {
# BUILTIN:        subgraph "cluster_p0" {
# BUILTIN-NEXT:     label="program Example (line 5)";
# BUILTIN:          subgraph "cluster_p0_f0" {
# BUILTIN-NEXT:       label="host_orch";
# BUILTIN:            subgraph "cluster_p0_f0_d0" {
# BUILTIN-NEXT:         label="comm_d0\ndevices: all";
# BUILTIN:              "[[BUF:p0_f0_a0]]" [shape=box, {{.*}}label="buf\n256 * 4 = 1,024 B"];
# BUILTIN-NEXT:         "[[DATA:p0_f0_v0]]" [shape=ellipse, label="data"];
# BUILTIN-NEXT:         "[[DATA]]" -> "[[BUF]]" [style=dotted
# BUILTIN:              "[[SIG:p0_f0_a1]]" [shape=box, {{.*}}label="signal\npld.world_size() * 4"];
# BUILTIN:            subgraph "cluster_p0_f0_d1" {
# BUILTIN-NEXT:         label="comm_d1\ndevices: [0, 1]";
# BUILTIN:              "[[STAGE:p0_f0_a2]]" [shape=box, {{.*}}label="staging\n64 * 2 = 128 B"];
# BUILTIN:            "[[X0:p0_f0_x0]]" [shape=cds, {{.*}}label="chip_orch\ndevices: all\nline 25"];
# BUILTIN-NEXT:       "[[X0]]" -> "[[BUF]]";
# BUILTIN-NEXT:       "[[C:p0_f0_c1]]" [shape=hexagon, {{.*}}label="allreduce\nline 26"];
# BUILTIN-NEXT:       "[[BUF]]" -> "[[C]]" [style=dashed];
# BUILTIN-NEXT:       "[[C]]" -> "[[SIG]]" [style=dashed, label="inherits"];
# BUILTIN-NEXT:       "[[X2:p0_f0_x2]]" [shape=cds, {{.*}}label="chip_orch\ndevices: [0, 1]\nline 28"];
# BUILTIN-NEXT:       "[[X2]]" -> "[[STAGE]]";
# BUILTIN:      }
#
# This file: names that need escaping; a domain of three slots in source order, two of
# them covered by one dispatch (an edge each) and the third by another; a domain of four
# slots all covered by one dispatch (one edge, to the cluster); a host orchestrator
# without allocations; and rejected programs drawn with their allocations, views and
# calls, each diagnostic a red note pointing at its place.
# RUN: %commscope-opt --emit=dot %s > %t.dot 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=FILE %s < %t.dot
# FILE:      graph [label="{{.*}}emit_dot.py",
# FILE:      label="program Pictured (line {{[0-9]+}})";
# FILE:      label="host";
# FILE:      subgraph "[[D0:cluster_p0_f0_d0]]" {
# FILE-NEXT: label="comm_d0\ndevices: [0, 1, 2, 3]";
# FILE:      "[[Q:p0_f0_a0]]" [shape=box, {{.*}}label="say \"hi\" \\ there\n8 B"];
# FILE-NEXT: "[[VQ:p0_f0_v0]]" [shape=ellipse, label="vq"];
# FILE-NEXT: "[[VQ]]" -> "[[Q]]" [style=dotted
# FILE-NEXT: "[[P:p0_f0_a1]]" [shape=box, {{.*}}label="plain\n16 B"];
# FILE:      "[[R:p0_f0_a2]]" [shape=box, {{.*}}label="rest\n4 * 2 = 8 B"];
# FILE:      }
# Not every slot of the domain: an edge to each allocation covered.
# FILE:      "[[X:p0_f0_x0]]" [shape=cds, {{.*}}label="chip\ndevices: [0, 1, 2, 3]\nline {{[0-9]+}}"];
# FILE-NEXT: "[[X]]" -> "[[Q]]";
# FILE-NEXT: "[[X]]" -> "[[P]]";
# FILE-NEXT: "[[Y:p0_f0_x1]]" [shape=cds, {{.*}}label="chip\ndevices: [0, 1, 2, 3]\nline {{[0-9]+}}"];
# FILE-NEXT: "[[Y]]" -> "[[R]]";
# Every slot of the domain: one edge, to the cluster.
# FILE:      label="wide";
# FILE:      subgraph "[[W:cluster_p0_f1_d0]]" {
# FILE:      "[[W1:p0_f1_a0]]" [shape=box, {{.*}}label="w1\n{{.*}}"];
# FILE:      "p0_f1_a1" [shape=box, {{.*}}label="w2\n{{.*}}"];
# FILE:      "p0_f1_a2" [shape=box, {{.*}}label="w3\n{{.*}}"];
# FILE:      "p0_f1_a3" [shape=box, {{.*}}label="w4\n{{.*}}"];
# FILE:      "[[XW:p0_f1_x0]]" [shape=cds,
# FILE-NEXT: "[[XW]]" -> "[[W1]]" [lhead="[[W]]"];
# FILE-NOT:  "[[XW]]" ->
# FILE:      label="idle";
# FILE:      [shape=plaintext, label="no allocations"];
# The analysis rejects it: its allocations in a neutral cluster, its view and dispatch,
# the diagnostic at the allocation it is about.
# FILE:      label="program broken (line {{[0-9]+}})";
# FILE-NEXT: style=rounded;
# FILE:      label="lonely_host";
# FILE:      subgraph "cluster_p1_f0_unplanned" {
# FILE-NEXT: label="allocations\n(no domains: rejected)";
# FILE:      "[[L:p1_f0_a0]]" [shape=box, {{.*}}label="lonely\n4 B"];
# FILE-NEXT: "[[U:p1_f0_a1]]" [shape=box, {{.*}}label="used\n32 B"];
# FILE-NEXT: "p1_f0_v0" [shape=ellipse, label="vu"];
# FILE:      "[[BX:p1_f0_x0]]" [shape=cds, {{.*}}label="lonely_chip\ndevices: [0]\nline {{[0-9]+}}"];
# FILE-NEXT: "[[BX]]" -> "[[U]]";
# FILE:      color=red;
# FILE:      "[[E:p1_e0]]" [shape=note, color=red, fontcolor=red, label="{{[0-9]+}}:9: allocation 'lonely' has no window view [dead-alloc]\l"];
# FILE-NEXT: "[[E]]" -> "[[L]]" [color=red];
# The front end rejects it: drawn as far as the analysis reads it all the same; its
# diagnostic is at no node drawn (the call is no allocation), so it stands alone.
# FILE:      label="program shapeless (line {{[0-9]+}})";
# FILE:      "p2_f0_a0" [shape=box, {{.*}}label="good\n16 B"];
# FILE:      "p2_f0_x0" [shape=cds,
# FILE:      "[[SE:p2_e0]]" [shape=note, color=red, fontcolor=red, label="{{[0-9]+}}:{{[0-9]+}}: allocation by shape needs {{.*}} [malformed-op]\l"];
# FILE-NOT:  "[[SE]]" ->
# FILE:      }
# The diagnostics still go to standard error as usual, and only they.
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# RUN: test $(grep -c error: %t.err) -eq 2
# ERR: emit_dot.py:{{[0-9]+}}:9: error: allocation 'lonely' has no window view [dead-alloc]
# ERR: emit_dot.py:{{[0-9]+}}:{{[0-9]+}}: error: allocation by shape needs
# And the picture renders.
# RUN: dot -Tsvg %t.dot > %t.svg
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Pictured:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a, b):
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip4(self, a, b, c, d):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        q = pld.alloc_window_buffer(8, name='say "hi" \\ there')
        p = pld.alloc_window_buffer(16, name="plain")
        r = pld.alloc_window_buffer(4 * 2, name="rest")
        vq = pld.window(q, [2], dtype=pl.FP32)
        vp = pld.window(p, [4], dtype=pl.FP32)
        vr = pld.window(r, [2], dtype=pl.FP32)
        for k in pl.range(4):
            self.chip(vq, vp, device=k)
        for k in pl.range(4):
            self.chip(vr, vr, device=k)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def wide(self):
        w1 = pld.alloc_window_buffer(64, name="w1")
        w2 = pld.alloc_window_buffer(64, name="w2")
        w3 = pld.alloc_window_buffer(64, name="w3")
        w4 = pld.alloc_window_buffer(64, name="w4")
        v1 = pld.window(w1, [16], dtype=pl.FP32)
        v2 = pld.window(w2, [16], dtype=pl.FP32)
        v3 = pld.window(w3, [16], dtype=pl.FP32)
        v4 = pld.window(w4, [16], dtype=pl.FP32)
        for k in pl.range(8):
            self.chip4(v1, v2, v3, v4, device=k)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def idle(self):
        return 0


def broken():
    @pl.jit
    def lonely_chip(x):
        return x

    @pl.jit.host
    def lonely_host():
        lonely = pld.alloc_window_buffer(4)
        used = pld.alloc_window_buffer(32, name="used")
        vu = pld.window(used, [8], dtype=pl.FP32)
        lonely_chip(vu, device=0)
        return 0

    return lonely_host


@pl.program
class shapeless:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        good = pld.alloc_window_buffer(16, name="good")
        shaped = pld.alloc_window_buffer([4, 8], dtype=pl.NOPE)
        vg = pld.window(good, [4], dtype=pl.FP32)
        self.chip(vg, device=0)
        return 0
