#!/usr/bin/env bash
# The package as users get it: build the sdist and the wheel, install the wheel into a fresh virtual
# environment outside the source tree and run the CLI and the language server from a folder outside the
# tree; then install the sdist with no index at all (its build backend from a local wheelhouse).
#
#   bash .ci/wheel.sh [PYTHON]    PYTHON: an interpreter with `build` and hatchling (default .venv's)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
py="${1:-$repo/.venv/bin/python}"
unset PYTHONPATH  # the installed package, never the tree's server/
work="$(mktemp -d "${TMPDIR:-/tmp}/mlirbc-wheel.XXXXXX")"
trap 'rm -rf "$work"' EXIT
example="$repo/docs/examples/mlp2.mlirbc"
quiet() { grep -v '^WARNING: Location' || true; }  # pip's notes on this machine's optional local indexes

# hatchling from $py's environment: the build itself needs no network.
"$py" -m build --no-isolation --outdir "$work/dist" "$repo" >"$work/build.log" 2>&1 || {
  cat "$work/build.log"; exit 1; }
wheel=("$work"/dist/mlirbc-*.whl)
sdist=("$work"/dist/mlirbc-*.tar.gz)
printf 'built %s (%s bytes), %s (%s bytes)\n' "$(basename "${wheel[0]}")" "$(stat -c %s "${wheel[0]}")" \
  "$(basename "${sdist[0]}")" "$(stat -c %s "${sdist[0]}")"

# Every file of the package (model data, plugins, the graph schema) is in the wheel.
"$py" - "$repo" "${wheel[0]}" <<'EOF'
import subprocess, sys, zipfile
repo, wheel = sys.argv[1], sys.argv[2]
tracked = subprocess.run(["git", "-C", repo, "ls-files", "server/mlirbc"], capture_output=True, text=True,
                         check=True).stdout.split()
want = {p.removeprefix("server/") for p in tracked}
names = set(zipfile.ZipFile(wheel).namelist())
missing = sorted(want - names)
if missing:
    sys.exit(f"the wheel lacks {len(missing)} package files: {missing[:10]}")
data = sorted(n for n in names if n.startswith("mlirbc/") and not n.endswith(".py"))
print(f"wheel holds all {len(want)} package files ({len(data)} data files)")
EOF

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "${wheel[0]}" 2>&1 | quiet
cd "$work"  # outside the tree: nothing can come from server/
where="$("$work/venv/bin/python" -c 'import mlirbc; print(mlirbc.__file__)')"
case "$where" in "$work/venv/"*) ;; *) echo "mlirbc imported from $where, not the venv" >&2; exit 1 ;; esac

bin="$work/venv/bin"
"$bin/mlirbc" decode "$example" >mlp2.txt
grep -q ' = stablehlo.dot_general ' mlp2.txt || { echo "decode: no stablehlo.dot_general in the view" >&2; exit 1; }
"$bin/mlirbc" encode mlp2.txt --like "$example" -o mlp2.mlirbc
cmp "$example" mlp2.mlirbc
test "$("$bin/mlirbc" roundtrip "$example")" = identical
"$bin/mlirbc" info "$example" | grep -q 'plugin mlirbc:stablehlo'
echo "mlirbc decode, encode --like, roundtrip, info: ok ($(wc -l <mlp2.txt) view lines, bytes identical)"
"$bin/python" "$repo/tests/wheel_smoke.py" "$example" --server "$bin/mlirbc-lsp"

# The repository's core corpus (every dialect's model data), when present: each file its manifests list decodes
# with the installed package's models, all in one process.
if [ -d "$repo/tests/corpus" ]; then
  "$bin/python" - "$repo/tests/corpus" <<'EOF'
import contextlib, csv, io, pathlib, sys
from mlirbc.cli.main import main
root = pathlib.Path(sys.argv[1])
def listed(manifest):  # the valid files are the ones the manifests list (examples/ holds damaged ones too)
    with open(manifest, newline="") as f:
        return [manifest.parent / row["path"] for row in csv.DictReader(f, delimiter="\t")]
files = sorted(listed(root / "MANIFEST.tsv") + listed(root / "vhlo" / "MANIFEST.tsv"))
bad = []
for f in files:
    with contextlib.redirect_stdout(io.StringIO()):
        if main(["decode", str(f)]) != 0:
            bad.append(f.name)
if bad or not files:
    sys.exit(f"installed mlirbc failed to decode {len(bad)} of {len(files)} corpus files: {bad[:10]}")
print(f"installed mlirbc decodes all {len(files)} files of tests/corpus")
EOF
fi

# The sdist installs with no index: pip builds it in isolation with hatchling from a wheelhouse.
"$py" -m pip download -q -d "$work/wheelhouse" hatchling pygls lsprotocol 2>&1 | quiet
python3 -m venv "$work/venv-sdist"
"$work/venv-sdist/bin/pip" install -q --no-index --find-links "$work/wheelhouse" "${sdist[0]}" 2>&1 | quiet
test "$("$work/venv-sdist/bin/mlirbc" roundtrip "$example")" = identical
echo "sdist: installed with --no-index, roundtrip identical"
