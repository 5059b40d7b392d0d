// Well-formed symbolic device sets in a hand-written materialized host function (for
// symbolic_dialect.mlir): ids, then progressions by step, residue, stop offset, start.
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  pld.comm_domain_scope "comm_d0" devices [0, 7, range(0, world_size - 2), range(1, world_size, 2), range(0, world_size, 3), range(5, world_size, 3)] slots [0] {
    %a = pld.alloc_window_buffer(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    pld.comm_domain_scope "comm_d1" devices [range(4, world_size - 3)] slots [1] {
      %b = pld.alloc_window_buffer(%c64) {name = "b", window_buffer = 1 : i64} : (index) -> i64
      pld.yield
    }
    pld.yield
  }
  return
}
