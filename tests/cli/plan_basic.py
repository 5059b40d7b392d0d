# The example of docs/commscope-opt.md, "The JSON plan": one allocation, view and world dispatch.
# RUN: %commscope-opt --format=json %s | %FileCheck %s
# RUN: %commscope-opt --format=json --emit=plan %s | %FileCheck %s
# RUN: %commscope-opt --format=json %s 2> %t.err; test $? -eq 0 && test ! -s %t.err
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_orch(self, data: pld.DistributedTensor[[256], pl.FP32]):
        return data

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
        data = pld.window(buf, [256], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip_orch(data, device=r)
        return 0

# CHECK:      {
# CHECK-NEXT:   "programs": [
# CHECK-NEXT:     {
# CHECK-NEXT:       "name": "P",
# CHECK-NEXT:       "line": 8,
# CHECK-NEXT:       "functions": [
# CHECK-NEXT:         {
# CHECK-NEXT:           "name": "host_orch",
# CHECK-NEXT:           "scopes": [
# CHECK-NEXT:             {
# CHECK-NEXT:               "name": "comm_d0",
# CHECK-NEXT:               "devices": "all",
# CHECK-NEXT:               "slots": [
# CHECK-NEXT:                 {
# CHECK-NEXT:                   "name": "buf",
# CHECK-NEXT:                   "size": "256 * 4"
# CHECK-NEXT:                 }
# CHECK-NEXT:               ]
# CHECK-NEXT:             }
# CHECK-NEXT:           ],
# CHECK-NEXT:           "views": [
# CHECK-NEXT:             {
# CHECK-NEXT:               "name": "data",
# CHECK-NEXT:               "window_buffer": "buf"
# CHECK-NEXT:             }
# CHECK-NEXT:           ]
# CHECK-NEXT:         }
# CHECK-NEXT:       ]
# CHECK-NEXT:     }
# CHECK-NEXT:   ],
# CHECK-NEXT:   "diagnostics": []
# CHECK-NEXT: }
# CHECK-EMPTY:
