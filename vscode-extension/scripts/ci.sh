#!/usr/bin/env bash
# CI for the VS Code extension on a fresh machine (Node 20, npm 11): clean install from package-lock.json,
# typecheck + unit tests + contract test against the repo's Python server, then the .vsix (which bundles the
# server) and its check on a bare Python.
#   bash vscode-extension/scripts/ci.sh
# The contract test uses <repo>/.venv/bin/python when it exists (MLIRBC_PYTHON / MLIRBC_LSP override) and
# skips when the server cannot start, unless MLIRBC_CONTRACT_REQUIRED=1. The .vsix check runs the bundled
# server with a fresh venv of MLIRBC_BARE_PYTHON (default python3, 3.11+) that has nothing installed.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund --loglevel=error
npm test
rm -f mlirbc.vsix
npm run -s package
ls -l mlirbc.vsix
bare="$(mktemp -d "${TMPDIR:-/tmp}/mlirbc-bare-python.XXXXXX")"
trap 'rm -rf "$bare"' EXIT
"${MLIRBC_BARE_PYTHON:-python3}" -m venv --without-pip "$bare"
"$bare/bin/python" scripts/check_vsix.py mlirbc.vsix
