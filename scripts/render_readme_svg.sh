#!/usr/bin/env bash
# Regenerates docs/builtin.svg, the README's picture of the built-in example's plan:
# `commscope-opt --emit=dot` rendered by Graphviz (`dot`, Debian's graphviz).
#
#   scripts/render_readme_svg.sh [build/tools/commscope-opt]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opt="${1:-$root/build/tools/commscope-opt}"
"$opt" --emit=dot | dot -Tsvg -o "$root/docs/builtin.svg"
echo "wrote $root/docs/builtin.svg"
