# The rewritten file spells its scopes with a name the file binds, so that they resolve
# where the DSL resolves them: its name for pypto.language.distributed, else a path to it
# (`pl.distributed`, `pypto.language.distributed`), else, for a file that only imports
# names from it, a binding of `pld` added at the end of its first top-level import (no
# line moves). The operations are recognized through the same paths. Each output reads
# back to the same plan and prints again unchanged; a stand-in for the DSL's packages
# checks that every spelling of the scopes resolves.
#
# RUN: rm -rf %t.d && mkdir %t.d
# RUN: %commscope-opt --format=json %S/module_names/from_names.py > %t.names.plan1
# RUN: %commscope-opt --format=json --emit=ir %S/module_names/from_names.py > %t.d/from_names.py
# RUN: %commscope-opt --format=json %t.d/from_names.py > %t.names.plan2
# RUN: diff %t.names.plan1 %t.names.plan2
# RUN: %commscope-opt --format=json --emit=ir %t.d/from_names.py | diff %t.d/from_names.py -
# RUN: %FileCheck --check-prefix=NAMES %s < %t.d/from_names.py
# RUN: %python %S/scripts/run_with_stub_dsl.py %t.d/from_names.py | %FileCheck --check-prefix=RESOLVED-PLD %s
# NAMES:      from pypto.language import jit, FP32; import pypto.language.distributed as pld
# NAMES-NEXT: from pypto.language.distributed import alloc_window_buffer, window, world_size
# NAMES:      with pld.comm_domain("comm_d0", devices="all", slots=[buf]):
# NAMES-NEXT:     with pld.comm_domain("comm_d1", devices=[range(1, pld.world_size())], slots=[part]):
# RESOLVED-PLD:      RESOLVED pld.comm_domain -> pypto.language.distributed.comm_domain
# RESOLVED-PLD-NEXT: RESOLVED pld.comm_domain -> pypto.language.distributed.comm_domain
# RESOLVED-PLD-NEXT: RESOLVED pld.world_size -> pypto.language.distributed.world_size
# RESOLVED-PLD-NOT:  UNRESOLVED
#
# RUN: %commscope-opt --format=json %S/module_names/dsl_path.py > %t.path.plan1
# RUN: %FileCheck --check-prefix=PLAN %s < %t.path.plan1
# RUN: %commscope-opt --format=json --emit=ir %S/module_names/dsl_path.py > %t.d/dsl_path.py
# RUN: %commscope-opt --format=json %t.d/dsl_path.py > %t.path.plan2
# RUN: diff %t.path.plan1 %t.path.plan2
# RUN: %commscope-opt --format=json --emit=ir %t.d/dsl_path.py | diff %t.d/dsl_path.py -
# RUN: %FileCheck --check-prefix=PATH %s < %t.d/dsl_path.py
# RUN: %python %S/scripts/run_with_stub_dsl.py %t.d/dsl_path.py | %FileCheck --check-prefix=RESOLVED-PATH %s
# PLAN:      "name": "comm_d0",
# PLAN-NEXT: "devices": "all",
# PLAN:      "name": "buf",
# PLAN:      "name": "comm_d1",
# PLAN:      "name": "part",
# PATH-NOT:  import pypto.language.distributed as pld
# PATH:      with pl.distributed.comm_domain("comm_d0", devices="all", slots=[buf]):
# PATH-NEXT:     with pl.distributed.comm_domain("comm_d1", devices=[range(1, pl.distributed.world_size())], slots=[part]):
# RESOLVED-PATH:     RESOLVED pl.distributed.comm_domain -> pypto.language.distributed.comm_domain
# RESOLVED-PATH-NOT: UNRESOLVED
#
# RUN: %commscope-opt --format=json %S/module_names/package_root.py > %t.root.plan1
# RUN: %FileCheck --check-prefix=PLAN %s < %t.root.plan1
# RUN: %commscope-opt --format=json --emit=ir %S/module_names/package_root.py > %t.d/package_root.py
# RUN: %commscope-opt --format=json %t.d/package_root.py > %t.root.plan2
# RUN: diff %t.root.plan1 %t.root.plan2
# RUN: %FileCheck --check-prefix=ROOT %s < %t.d/package_root.py
# RUN: %python %S/scripts/run_with_stub_dsl.py %t.d/package_root.py | %FileCheck --check-prefix=RESOLVED-ROOT %s
# ROOT: with pypto.language.distributed.comm_domain("comm_d0", devices="all", slots=[buf]):
# RESOLVED-ROOT:     RESOLVED pypto.language.distributed.comm_domain -> pypto.language.distributed.comm_domain
# RESOLVED-ROOT-NOT: UNRESOLVED
#
# A file whose `pld` is another module (or whose variables spell `pld_`) binds the DSL's
# module to a name it spells nowhere.
# RUN: %commscope-opt --format=json %S/module_names/foreign_pld.py > %t.foreign.plan1
# RUN: %FileCheck --check-prefix=FOREIGN-PLAN %s < %t.foreign.plan1
# RUN: %commscope-opt --format=json --emit=ir %S/module_names/foreign_pld.py > %t.d/foreign_pld.py
# RUN: %commscope-opt --format=json %t.d/foreign_pld.py > %t.foreign.plan2
# RUN: diff %t.foreign.plan1 %t.foreign.plan2
# RUN: %commscope-opt --format=json --emit=ir %t.d/foreign_pld.py | diff %t.d/foreign_pld.py -
# RUN: %FileCheck --check-prefix=FOREIGN %s < %t.d/foreign_pld.py
# RUN: %python %S/scripts/run_with_stub_dsl.py %t.d/foreign_pld.py | %FileCheck --check-prefix=RESOLVED-FOREIGN %s
# FOREIGN-PLAN:      "name": "comm_d0",
# FOREIGN-PLAN-NEXT: "devices": "all",
# FOREIGN:      import math as pld; import pypto.language.distributed as pld__
# FOREIGN:      with pld__.comm_domain("comm_d0", devices="all", slots=[buf]):
# FOREIGN-NEXT:     pld_ = pld.floor(2.5)
# RESOLVED-FOREIGN:     RESOLVED pld__.comm_domain -> pypto.language.distributed.comm_domain
# RESOLVED-FOREIGN-NOT: UNRESOLVED
#
# A file that imports nothing on a line of its own binds the module where it imports the
# DSL's names, inside its `try:`.
# RUN: %commscope-opt --format=json %S/module_names/try_import.py > %t.try.plan1
# RUN: %FileCheck --check-prefix=FOREIGN-PLAN %s < %t.try.plan1
# RUN: %commscope-opt --format=json --emit=ir %S/module_names/try_import.py > %t.d/try_import.py
# RUN: %commscope-opt --format=json %t.d/try_import.py > %t.try.plan2
# RUN: diff %t.try.plan1 %t.try.plan2
# RUN: %commscope-opt --format=json --emit=ir %t.d/try_import.py | diff %t.d/try_import.py -
# RUN: %FileCheck --check-prefix=TRY %s < %t.d/try_import.py
# RUN: %python %S/scripts/run_with_stub_dsl.py %t.d/try_import.py | %FileCheck --check-prefix=RESOLVED-TRY %s
# TRY:      try:
# TRY-NEXT:     from pypto.language import jit, FP32
# TRY-NEXT:     from pypto.language.distributed import alloc_window_buffer, window, world_size; import pypto.language.distributed as pld
# TRY:      with pld.comm_domain("comm_d0", devices="all", slots=[buf]):
# RESOLVED-TRY:     RESOLVED pld.comm_domain -> pypto.language.distributed.comm_domain
# RESOLVED-TRY-NOT: UNRESOLVED
#
# A module of the DSL bound by an assignment at the module's level (`L = pypto.language`,
# `dist = L.distributed`) is spelled through that name, as an import's alias is.
# RUN: %commscope-opt --format=json %S/module_names/assigned_alias.py > %t.alias.plan1
# RUN: %FileCheck --check-prefix=ALIAS-PLAN %s < %t.alias.plan1
# RUN: %commscope-opt --format=json --emit=ir %S/module_names/assigned_alias.py > %t.d/assigned_alias.py
# RUN: %commscope-opt --format=json %t.d/assigned_alias.py > %t.alias.plan2
# RUN: diff %t.alias.plan1 %t.alias.plan2
# RUN: %python %S/scripts/run_with_stub_dsl.py %t.d/assigned_alias.py | %FileCheck --check-prefix=RESOLVED-ALIAS %s
# ALIAS-PLAN:      "name": "comm_d0",
# ALIAS-PLAN-NEXT: "devices": [
# ALIAS-PLAN-NEXT:   1
# ALIAS-PLAN:      "name": "buf",
# RESOLVED-ALIAS:     RESOLVED dist.comm_domain -> pypto.language.distributed.comm_domain
# RESOLVED-ALIAS-NOT: UNRESOLVED
#
# The stand-in finds a spelling the file does not bind: the check can fail.
# RUN: sed 's/; import pypto.language.distributed as pld//' %t.d/from_names.py > %t.d/unbound.py
# RUN: %python %S/scripts/run_with_stub_dsl.py %t.d/unbound.py | %FileCheck --check-prefix=UNBOUND %s
# UNBOUND: UNRESOLVED pld.comm_domain: NameError: name 'pld' is not defined
