#!/usr/bin/env bash
# Editor tooling for CI, called by .ci/run after the Python environment exists (.venv).
set -euo pipefail
cd "$(dirname "$0")/.."

# --- VS Code extension: npm ci, typecheck, unit + contract tests (against .venv's server), .vsix (bundling
# the server) and its check: size, contents, the bundled server run by a bare python3 venv ---
export MLIRBC_PYTHON="$PWD/.venv/bin/python" MLIRBC_CONTRACT_REQUIRED=1
bash vscode-extension/scripts/ci.sh
# --- end VS Code extension ---

# --- Graphviz: tests/test_graph.py checks that `dot -Tsvg` accepts the DOT of every corpus file ---
if ! command -v dot >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null
fi
dot -V
# --- end Graphviz ---

# --- Neovim: tests/test_neovim_e2e.py drives a headless nvim (0.7+, Debian's package) ---
if ! command -v nvim >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null
fi
nvim --version | head -1
# --- end Neovim ---
