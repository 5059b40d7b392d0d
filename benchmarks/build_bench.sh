# shellcheck shell=bash
# Sourced by the benchmark scripts: build_bench BUILD_DIR TARGET configures BUILD_DIR
# (Release) and builds TARGET in it.
build_bench() {
  local src build=$1 target=$2
  src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local generator=()
  if [[ ! -f $build/CMakeCache.txt ]]; then
    command -v ninja >/dev/null && generator=(-G Ninja)
  fi
  # The default preset's flags (-O2, as users build), not CMake's Release default (-O3);
  # passed every time, so that an existing build directory is brought to them too.
  cmake -S "$src" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
  cmake --build "$build" -j2 --target "$target" >/dev/null
}
