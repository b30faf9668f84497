"""The distribution: the wheel holds every file of the package, the sdist builds the same wheel with no
network, the metadata is complete and points at files that exist, the shipped graph schema is the
documented one, and the stdlib-only LSP smoke test (`wheel_smoke.py`, which `.ci/wheel.sh` runs against
the installed wheel) passes against the development install.

Builds run `python -m build --no-isolation`: hatchling comes from the test environment (the `test` extra).
"""

from __future__ import annotations

import email
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.message import Message
from pathlib import Path

import pytest
from trove_classifiers import classifiers as known_classifiers
from trove_classifiers import deprecated_classifiers

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
PACKAGE = REPO / "server" / "mlirbc"
DIST_INFO = f"mlirbc-{PYPROJECT['project']['version']}.dist-info"


def _package_files() -> set[str]:
    """Paths (relative to server/) of the package's files: git's list in a clone, else the folder."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "--cached", "--others",
                             "--exclude-standard", "server/mlirbc"], capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout.strip():
        return {p.removeprefix("server/") for p in listed.stdout.split()
                if (REPO / p).is_file()}
    return {str(p.relative_to(REPO / "server")) for p in PACKAGE.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def _build(kind: str, source: Path, out: Path) -> Path:
    proc = subprocess.run([sys.executable, "-m", "build", "--no-isolation", f"--{kind}", "--outdir",
                           str(out), str(source)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (built,) = out.glob("*.whl" if kind == "wheel" else "*.tar.gz")
    return built


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("dist")
    return _build("wheel", REPO, out), _build("sdist", REPO, out)


def _metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as z:
        (name,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(z.read(name))


def test_the_wheel_holds_every_file_of_the_package(dists: tuple[Path, Path]) -> None:
    wheel, _ = dists
    names = set(zipfile.ZipFile(wheel).namelist())
    files = _package_files()
    assert files - names == set()
    # The data the package reads at run time, by kind: each is there (not only "some file").
    for must in ("mlirbc/models/data/func.json.gz", "mlirbc/models/data/stablehlo",
                 "mlirbc/models/data_mlir24", "mlirbc/models/iree/data", "mlirbc/graph/schema.json",
                 "mlirbc/py.typed"):
        assert any(n == must or n.startswith(must + "/") for n in names), must
    extra = {n for n in names if not n.startswith("mlirbc-")} - files
    assert extra == set(), "the wheel holds files the package does not"


def test_the_wheel_metadata(dists: tuple[Path, Path]) -> None:
    meta = _metadata(dists[0])
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta["License-File"] == "docs/LICENSE"
    assert meta["Author"] == "mlirbc developers"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert str(meta.get_payload()).startswith("# mlirbc")
    classifiers = meta.get_all("Classifier") or []
    assert {c for c in classifiers if c not in known_classifiers or c in deprecated_classifiers} == set()
    assert not [c for c in classifiers if c.startswith("License ::")]  # PEP 639: the expression says it
    for kind in ("Development Status", "Environment", "Intended Audience", "Programming Language",
                 "Topic"):
        assert any(c.startswith(kind + " ::") for c in classifiers), kind
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert urls == PYPROJECT["project"]["urls"] and len(urls) >= 3
    with zipfile.ZipFile(dists[0]) as z:
        licence = z.read(f"{DIST_INFO}/licenses/docs/LICENSE")
    assert licence == (REPO / "docs" / "LICENSE").read_bytes()
    scripts = zipfile.ZipFile(dists[0]).read(f"{DIST_INFO}/entry_points.txt").decode()
    for line in ("mlirbc = mlirbc.cli.main:run", "mlirbc-lsp = mlirbc.lsp.__main__:main",
                 "stablehlo = mlirbc.models.stablehlo:register", "iree = mlirbc.models.iree:register"):
        assert line in scripts


def test_project_urls_and_licence_files_exist() -> None:
    # Relative links, resolved against the repository (and the sdist, which carries docs/).
    for label, url in PYPROJECT["project"]["urls"].items():
        assert (REPO / url).is_file(), (label, url)
    for path in PYPROJECT["project"]["license-files"]:
        assert "Apache License" in (REPO / path).read_text()
    # The VS Code extension ships the same licence text.
    assert (REPO / "docs" / "LICENSE").read_bytes() == (REPO / "vscode-extension" / "LICENSE").read_bytes()


def test_the_shipped_graph_schema_is_the_documented_one() -> None:
    shipped = (PACKAGE / "graph" / "schema.json").read_bytes()
    assert shipped == (REPO / "docs" / "graph-schema.json").read_bytes()


def test_the_sdist_builds_the_same_wheel_offline(dists: tuple[Path, Path], tmp_path: Path) -> None:
    wheel, sdist = dists
    with tarfile.open(sdist) as tar:
        members = [m.name for m in tar.getmembers() if m.isfile()]
        tar.extractall(tmp_path, filter="data")
    top = sdist.name.removesuffix(".tar.gz")
    inside = {m.removeprefix(top + "/") for m in members}
    docs = {str(p.relative_to(REPO)) for p in (REPO / "docs").rglob("*") if p.is_file()}
    rest = {m for m in inside if not m.startswith("server/mlirbc/")}
    assert rest == {"PKG-INFO", "pyproject.toml", "README.md", ".gitignore"} | docs
    # Built from the unpacked sdist alone, with no index: the same files, byte for byte.
    rebuilt = _build("wheel", tmp_path / top, tmp_path / "out")
    ours, theirs = zipfile.ZipFile(wheel), zipfile.ZipFile(rebuilt)
    assert sorted(ours.namelist()) == sorted(theirs.namelist())
    differ = [n for n in ours.namelist() if not n.endswith("RECORD") and ours.read(n) != theirs.read(n)]
    assert differ == []


def test_the_lsp_smoke_script_against_the_development_install() -> None:
    # The same script .ci/wheel.sh runs against the installed wheel's `mlirbc-lsp`.
    example = REPO / "docs" / "examples" / "mlp2.mlirbc"
    size = example.stat().st_size
    proc = subprocess.run([sys.executable, str(REPO / "tests" / "wheel_smoke.py"), str(example),
                           "--server", f"'{sys.executable}' -m mlirbc.lsp"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert f"ok  convertToBytecode: {size} bytes, identical" in lines
    assert f"ok  mlirbc/save: {size} bytes written, identical" in lines
    assert any(s.startswith("ok  hover stablehlo.") and "Model: plugin mlirbc:stablehlo" in s for s in lines)
