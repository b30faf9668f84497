#!/usr/bin/env bash
# CI for the VS Code extension on a fresh machine (Node 20, npm 11): clean install from package-lock.json,
# typecheck + unit tests + contract test against the repo's Python server, then the .vsix.
#   bash vscode-extension/scripts/ci.sh
# The contract test uses <repo>/.venv/bin/python when it exists (MLIRBC_PYTHON / MLIRBC_LSP override) and
# skips when the server cannot start, unless MLIRBC_CONTRACT_REQUIRED=1.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund --loglevel=error
npm test
npm run -s package
ls -l mlirbc.vsix
