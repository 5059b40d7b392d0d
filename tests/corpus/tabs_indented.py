# Corpus: indentation with tabs only (one tab per level, as Python counts it: to the
# next multiple of 8), a @pl.program nested in a builder function, comments indented
# with tabs, and a multi-line call inside the host body continued with tabs.
"""Tab-indented module."""

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 512


def build_tabbed(nr):
	"""The builder's docstring."""

	@pl.program
	class Tabbed:
		@pl.function(type=pl.FunctionType.Orchestration)
		def per_rank(self, a, b):
			return a

		@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
		def host(self, x: pl.Tensor[[nr, SIZE], pl.FP32]):
			# two buffers, one on every device, one on devices 1 and 3
			big_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
			small_buf = pld.alloc_window_buffer(
				SIZE // 4,
			)
			big = pld.window(big_buf, [SIZE], dtype=pl.FP32)
			small = pld.window(small_buf, [SIZE // 16], dtype=pl.FP32)
			for r in pl.range(pld.world_size()):
				if r == 0:
					# rank 0 also gets the small buffer
					self.per_rank(big, x, device=r)
				else:
					self.per_rank(
						big,
						x,
						device=r,
					)
			for d in pl.range(1, 5, 2):
				self.per_rank(small, x, device=d)
			return x

	return Tabbed


if __name__ == "__main__":
	print(build_tabbed(2))
