#!/usr/bin/env bash
# Editor tooling for CI, called by .ci/run after the Python environment exists (.venv).
set -euo pipefail
cd "$(dirname "$0")/.."

# --- VS Code extension: npm ci, typecheck, unit + contract tests (against .venv's server), .vsix ---
export MLIRBC_PYTHON="$PWD/.venv/bin/python" MLIRBC_CONTRACT_REQUIRED=1
bash vscode-extension/scripts/ci.sh
# --- end VS Code extension ---
