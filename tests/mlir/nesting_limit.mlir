// One nested pld.comm_domain_scope per domain: MLIR's printer recurses per level and
// overflows its stack at some thousands (10,000 domains crash it while printing).
// The adapter declares a scope-nesting limit of 512; one domain more is a
// located error at the first allocation beyond it, and nothing changes.
// RUN: bash %S/inputs/domains.sh 513 > %t.over.mlir
// RUN: %not %opt %t.over.mlir --commscope-materialize 2>&1 | %FileCheck %s --check-prefix=OVER
// OVER:      over.mlir:2053:11: error: allocation 'a512' would open nested scope 513, beyond the limit of 512 nested comm-domain scopes [scope-nesting-limit]
// OVER-NOT:  error:
// At the limit the module is rewritten, printed and verified.
// RUN: bash %S/inputs/domains.sh 512 > %t.at.mlir
// RUN: %opt %t.at.mlir --commscope-materialize --commscope-verify | %FileCheck %s --check-prefix=AT
// AT: pld.comm_domain_scope "comm_d511"
// AT-NOT: comm_d512
