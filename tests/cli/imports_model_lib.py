# Programs across modules (docs/commscope-opt.md): host programs of the model library in
# model_lib/ calling chip orchestrators imported plainly, relatively, through `import ... as`,
# through the package's re-export and past an import cycle; integer constants imported from
# config.py (`from config import N`, `C.N`). Each plan was worked out by hand.

# RUN: %commscope-opt --format=json %S/model_lib/host_plain.py > %t.plain 2> %t.plain.err
# RUN: test ! -s %t.plain.err
# RUN: %python %S/scripts/plan_summary.py < %t.plain | %FileCheck --check-prefix=PLAIN --match-full-lines %s
# PLAIN:      PROGRAM host_plain line 10
# PLAIN-NEXT:   FUNCTION lm_head_host
# PLAIN-NEXT:     SCOPE comm_d0 all: logits_buf=1 * 64 * 4
# PLAIN-NEXT:     VIEW logits -> logits_buf
# PLAIN-NEXT: PROGRAM test_lm_head_first_ranks line 20
# PLAIN-NEXT:   FUNCTION lm_head_first
# PLAIN-NEXT:     SCOPE comm_d0 [0, 1]: part_buf=64 * 4
# PLAIN-NEXT:     VIEW part -> part_buf
# PLAIN-NEXT: END

# RUN: %commscope-opt --format=json %S/model_lib/host_relative.py | %python %S/scripts/plan_summary.py | %FileCheck --check-prefix=RELATIVE --match-full-lines %s
# RELATIVE:      PROGRAM host_relative line 8
# RELATIVE-NEXT:   FUNCTION moe_host
# RELATIVE-NEXT:     SCOPE comm_d0 [0]: routed_buf=8 * 256 * 2, signal_buf=1 * 4
# RELATIVE-NEXT:     VIEW routed -> routed_buf
# RELATIVE-NEXT:     VIEW signal -> signal_buf
# RELATIVE-NEXT: END

# RUN: %commscope-opt --format=json %S/model_lib/host_alias.py | %python %S/scripts/plan_summary.py | %FileCheck --check-prefix=ALIAS --match-full-lines %s
# ALIAS:      PROGRAM host_alias line 8
# ALIAS-NEXT:   FUNCTION attention_host
# ALIAS-NEXT:     SCOPE comm_d0 all: kv_buf=8 * 256 * 4, sig_buf=4 * 4
# ALIAS-NEXT:     VIEW kv -> kv_buf
# ALIAS-NEXT:     VIEW sig -> sig_buf
# ALIAS-NEXT: END

# RUN: %commscope-opt --format=json %S/model_lib/host_reexport.py | %python %S/scripts/plan_summary.py | %FileCheck --check-prefix=REEXPORT --match-full-lines %s
# REEXPORT:      PROGRAM host_reexport line 7
# REEXPORT-NEXT:   FUNCTION reexport_host
# REEXPORT-NEXT:     SCOPE comm_d0 [0, 1]: out_buf=256 * 2
# REEXPORT-NEXT:     VIEW out -> out_buf
# REEXPORT-NEXT: END

# The cycle: b_chip is found past it; ghost_chip, which the two modules import from each
# other, is not, and its view is not reported again as unconsumed-alloc.
# RUN: %commscope-opt --format=json %S/model_lib/host_cycle.py > %t.cycle 2> %t.cycle.err; test $? -eq 1
# RUN: %python %S/scripts/plan_summary.py < %t.cycle | %FileCheck --check-prefix=CYCLE --match-full-lines %s
# RUN: %FileCheck --check-prefix=CYCLE-ERR --match-full-lines %s < %t.cycle.err
# RUN: test $(wc -l < %t.cycle.err) -eq 1
# CYCLE:      PROGRAM host_cycle line 8
# CYCLE-NEXT:   FUNCTION cycle_host
# CYCLE-NEXT:     SCOPE comm_d0 [0, 1]: buf=64
# CYCLE-NEXT:     VIEW view -> buf
# CYCLE-NEXT: PROGRAM test_ghost line 18
# CYCLE-NEXT: DIAG malformed-op 22:9 call of unknown function 'ghost_chip': 'ghost_chip' is imported from module 'cycle_b', but the search through {{.*}}model_lib/cycle_b.py ended at an import cycle or a chain of more than 16 modules (searched {{.*}}model_lib; add a directory with -I DIR)
# CYCLE-NEXT: END
# CYCLE-ERR: {{.*}}model_lib/host_cycle.py:22:9: error: call of unknown function 'ghost_chip': {{.*}} [malformed-op]

# The same run from inside the library, as a user would: paths as given.
# RUN: cd %S/model_lib && { %commscope-opt --format=json host_cycle.py > /dev/null 2> %t.here; test $? -eq 1; }
# RUN: %FileCheck --check-prefix=CYCLE-HERE --match-full-lines %s < %t.here
# CYCLE-HERE: host_cycle.py:22:9: error: call of unknown function 'ghost_chip': 'ghost_chip' is imported from module 'cycle_b', but the search through cycle_b.py ended at an import cycle or a chain of more than 16 modules (searched .; add a directory with -I DIR) [malformed-op]
