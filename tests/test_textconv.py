"""`mlirbc decode` as git's textconv driver (README, "Bytecode in git"): a real `git diff` of two versions
of a bytecode file shows the changed op as text, and the command behaves as a driver must (the view of a
path without the `.mlirbc` suffix on stdout; one line on stderr and exit 1 for a damaged file, which git
turns into a failed diff rather than a wrong one).
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from corpus import CORPUS
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.cli.main import main
from mlirbc.errors import DecodeError

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "docs" / "examples" / "mlp2.mlirbc"  # a real JAX export (also jax/mlp2 in the corpus)
MLIRBC = [sys.executable, "-m", "mlirbc.cli"]
# The same driver as the README's `mlirbc decode`, through this interpreter (the test environment's
# `mlirbc` script may belong to another install).
TEXTCONV = shlex.join([*MLIRBC, "decode"])
OLD = 'dense<0.000000e+00> : tensor<f32>'
NEW = 'dense<1.000000e+00> : tensor<f32>'

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _mlirbc(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MLIRBC, *map(str, args)], capture_output=True, text=True, timeout=300)


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", HOME=str(repo.parent), GIT_PAGER="cat", LC_ALL="C")
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env,
                          timeout=300)


def _edited(tmp: Path) -> tuple[Path, str, str]:
    """A second version of the example made with mlirbc itself: its view with one op's constant changed
    (ReLU's zero becomes one), encoded with the original as template.  Returns it, the old and new line."""
    view = _mlirbc("decode", EXAMPLE)
    assert view.returncode == 0, view.stderr
    lines = view.stdout.splitlines(keepends=True)
    at = next(i for i, s in enumerate(lines) if "stablehlo.constant " in s and OLD in s)
    old = lines[at].rstrip("\n")
    lines[at] = lines[at].replace(OLD, NEW)
    (tmp / "edited.txt").write_text("".join(lines))
    out = tmp / "edited.mlirbc"
    enc = _mlirbc("encode", tmp / "edited.txt", "--like", EXAMPLE, "-o", out)
    assert enc.returncode == 0, enc.stderr
    assert out.read_bytes() != EXAMPLE.read_bytes()
    return out, old, old.replace(OLD, NEW)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    for args in (("init", "-q"), ("config", "user.name", "t"), ("config", "user.email", "t@example.org"),
                 ("config", "diff.mlirbc.textconv", TEXTCONV)):
        assert _git(root, *args).returncode == 0
    (root / ".gitattributes").write_text("*.mlirbc diff=mlirbc\n")
    shutil.copyfile(EXAMPLE, root / "model.mlirbc")
    assert _git(root, "add", ".").returncode == 0
    assert _git(root, "commit", "-qm", "export").returncode == 0
    return root


def _changed(diff: str) -> tuple[list[str], list[str]]:
    body = [s for s in diff.splitlines() if not s.startswith(("---", "+++"))]
    return [s[1:] for s in body if s.startswith("-")], [s[1:] for s in body if s.startswith("+")]


def test_git_diff_shows_the_changed_op(repo: Path, tmp_path: Path) -> None:
    edited, old, new = _edited(tmp_path)
    shutil.copyfile(edited, repo / "model.mlirbc")
    # Working tree against the index: git converts the blob (a temporary file) and the file itself.
    diff = _git(repo, "diff")
    assert diff.returncode == 0, diff.stderr
    assert "Binary files" not in diff.stdout
    assert _changed(diff.stdout) == ([old], [new])
    # Two commits: both sides are blobs git writes to temporary files.
    assert _git(repo, "commit", "-qam", "relu at one").returncode == 0
    log = _git(repo, "log", "-p", "-1", "--format=%s")
    assert log.returncode == 0, log.stderr
    assert _changed(log.stdout) == ([old], [new])
    # Without the attribute git has nothing to show but "binary".
    raw = _git(repo, "diff", "--no-textconv", "HEAD~1", "HEAD")
    assert "Binary files a/model.mlirbc and b/model.mlirbc differ" in raw.stdout


def test_a_damaged_version_fails_the_diff_with_one_line(repo: Path) -> None:
    data = EXAMPLE.read_bytes()
    (repo / "model.mlirbc").write_bytes(data[: len(data) // 2])
    diff = _git(repo, "diff")
    assert diff.returncode != 0 and diff.stdout == ""
    errors = [s for s in diff.stderr.splitlines() if s.startswith("model.mlirbc: error: ")]
    assert len(errors) == 1 and "byte" in errors[0]
    assert "Traceback" not in diff.stderr


def test_decode_reads_a_path_without_the_suffix(tmp_path: Path) -> None:
    # git names its temporary copies as it likes; the producer, not the name, chooses the models.
    plain = tmp_path / "blob"
    shutil.copyfile(EXAMPLE, plain)
    named, unnamed = _mlirbc("decode", EXAMPLE), _mlirbc("decode", plain)
    assert unnamed.returncode == 0 and unnamed.stderr == ""
    assert unnamed.stdout == named.stdout and "func.func public @main" in unnamed.stdout


@pytest.mark.parametrize("damage", ["truncated", "empty", "text", "flipped magic"])
def test_decode_of_a_damaged_file_is_one_line_and_exit_1(tmp_path: Path, damage: str) -> None:
    data = EXAMPLE.read_bytes()
    bad = {"truncated": data[: len(data) * 3 // 4], "empty": b"", "text": b"module {}\n",
           "flipped magic": b"ML\xefS" + data[4:]}[damage]
    path = tmp_path / "damaged"
    path.write_bytes(bad)
    proc = _mlirbc("decode", path)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: error: "), proc.stderr
    assert "byte" in lines[0]


def test_every_damaged_corpus_file_gives_one_line_or_a_view() -> None:
    # In process (a process per file would take a minute): what git would get from the driver for each of
    # the corpus' damaged files.  A file the reader rejects gives exit 1 and one located line; damage the
    # format cannot see (a flipped byte inside a value) gives a view and nothing on stderr.
    files = sorted((CORPUS / "invalid").glob("*.mlirbc"))
    assert files
    for path in files:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(["decode", str(path)])
        try:
            rejected = decode_bytecode(path.read_bytes()).error is not None
        except DecodeError:
            rejected = True
        lines = err.getvalue().splitlines()
        if not rejected:
            assert (rc, lines) == (0, []), path.name
            assert out.getvalue().startswith("// mlirbc: {"), path.name
        else:
            assert rc == 1 and len(lines) == 1, (path.name, lines)
            assert lines[0].startswith(f"{path}: error: ") and " byte " in lines[0], lines[0]
            assert "Traceback" not in err.getvalue()
