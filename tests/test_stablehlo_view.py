"""The StableHLO view of portable artifacts (`--form auto`), against jaxlib 0.10.2 (the oracle: test extra
`stablehlo`) on every artifact of the shared corpus (`vhlo/`, `jax/`).

* The conversion: our view in MLIR's generic form equals `deserialize_portable_artifact` printed generic
  (debug info, local scope); in custom forms it equals jaxlib's print line for line, with local scope and
  with aliases.
* Saving: the unchanged view reads back to the original bytes; a fresh artifact for every target jaxlib
  offers equals `serialize_portable_artifact` at that target, byte for byte, and what jaxlib refuses to
  write for a target we refuse too.
* Edits (change a constant, swap add for subtract, delete an op, add an op, rename a function), on a file
  of today's target and on a 0.9.0 one: jaxlib reads the saved file as the edited text, at the file's own
  target.  An edit the target cannot hold is refused at the op, naming the feature and the oldest target
  that has it, and nothing is written.
* A VHLO op the view does not know (a newer producer's) is shown as stored among the StableHLO ops, noted,
  and saved back byte for byte, also when another op is edited.
"""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from corpus import CORPUS, REPO
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.module import Module
from mlirbc.models.build import models
from mlirbc.models.registry import Registry
from mlirbc.models.views import ViewError
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.forms import Shown, print_form, shown, to_stored
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from stablehlo_oracle import SKIP_REASON, available, legalized_print, serialize_at, serialize_text, targets

FILES = sorted(f"{p.parent.name}/{p.name}" for folder in ("vhlo", "jax")
               for p in (CORPUS / folder).glob("*.mlirbc"))
needs_jaxlib = pytest.mark.skipif(not available(), reason=SKIP_REASON)


@cache
def registry() -> Registry:
    return models()


def _read(name: str) -> tuple[bytes, Module]:
    data = (CORPUS / name).read_bytes()
    return data, decode_bytecode(data, registry())


def _view(module: Module) -> Shown:
    v = shown(module, registry(), "auto")
    assert v.conversion is not None and v.module.view == "stablehlo"
    return v


def _text(v: Shown, local_scope: bool = True) -> str:
    """The view's text without its `// mlirbc:` lines (the header, stored use-list orders: what jaxlib's
    print has no line for)."""
    rules = None if local_scope else alias_rules(v.module, registry())
    return _without_notes(print_module(v.module, form=print_form("auto", v), registry=registry(),
                                       aliases=rules).text)


def _without_notes(text: str) -> str:
    return "\n".join(line for line in text.rstrip("\n").split("\n")
                     if not line.lstrip().startswith("// mlirbc:"))


def _save(text: str, v: Shown, template: Module) -> bytes:
    """`text` (the view, maybe edited) saved as the server and `encode --like` save it."""
    result = parse_module(text, template=v.module, registry=registry())
    assert result.module is not None, [f"{d.span}: {d.message}" for d in result.errors[:3]]
    stored = to_stored(result.module, registry(), v)
    return encode_bytecode(stored, template=template, registry=registry())


# -- what the view shows ---------------------------------------------------------------------------------

@needs_jaxlib
@pytest.mark.parametrize("name", FILES)
def test_the_conversion_is_jaxlibs_legalization(name: str) -> None:
    data, module = _read(name)
    ours = _without_notes(print_module(_view(module).module, header=False).text)
    assert ours == legalized_print(data, generic=True).rstrip("\n")


@needs_jaxlib
@pytest.mark.parametrize("local_scope", [True, False], ids=["local-scope", "aliases"])
@pytest.mark.parametrize("name", FILES)
def test_the_view_is_jaxlibs_print(name: str, local_scope: bool) -> None:
    data, module = _read(name)
    ours = _text(_view(module), local_scope).rstrip("\n").split("\n")
    theirs = legalized_print(data, local_scope=local_scope).rstrip("\n").split("\n")
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert a == b, f"line {i + 1}"


@pytest.mark.parametrize("name", FILES)
def test_the_unchanged_view_saves_the_original_bytes(name: str) -> None:
    data, module = _read(name)
    v = _view(module)
    for aliases in (False, True):
        text = print_module(v.module, form="pretty", registry=registry(),
                            aliases=alias_rules(v.module, registry()) if aliases else None).text
        assert _save(text, v, module) == data


# -- fresh artifacts for every target --------------------------------------------------------------------

@needs_jaxlib
@pytest.mark.parametrize("name", FILES)
def test_a_fresh_artifact_for_each_target_is_jaxlibs(name: str) -> None:
    data, module = _read(name)
    v = _view(module)
    assert v.view is not None
    written = refused = 0
    for target in targets():
        theirs = serialize_at(data, target)
        try:
            ours: bytes | None = encode_bytecode(v.view.fresh(v.module, target), registry=registry())
        except ViewError as exc:
            ours = None
            why = str(exc)
        if isinstance(theirs, str):
            assert ours is None, f"{target}: jaxlib refuses ({theirs}), we wrote"
            assert "is not in StableHLO" in why or "does not exist" in why, why
            refused += 1
            continue
        assert ours is not None, f"{target}: jaxlib writes, we refuse: {why}"
        assert ours == theirs, f"{target}: differs at byte " \
            f"{next(i for i, (a, b) in enumerate(zip(ours + b'?', theirs, strict=False)) if a != b)}"
        written += 1
    assert written >= 1


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mlirbc.cli", *args], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(REPO / "server"), "PATH": ""})


@needs_jaxlib
def test_encode_target_writes_jaxlibs_artifact(tmp_path: Path) -> None:
    src = CORPUS / "vhlo" / "dot_algorithms.mlirbc"  # dot algorithms exist from StableHLO 1.6.0 on
    view = tmp_path / "view.mlir"
    assert _cli("decode", str(src), "-o", str(view)).returncode == 0
    for target in ("1.6.0", "1.9.0", "1.17.0"):
        out = tmp_path / f"at-{target}.mlirbc"
        proc = _cli("encode", str(view), "--target", target, "-o", str(out))
        assert proc.returncode == 0, proc.stderr
        # what jaxlib writes for the same text (the text says less than the file: without the original,
        # empty argument dictionaries are not there)
        assert out.read_bytes() == serialize_text(view.read_text(), target)
    # a target older than the file's ops can be: refused, located at the op, nothing written
    out = tmp_path / "at-1.5.0.mlirbc"
    proc = _cli("encode", str(view), "--target", "1.5.0", "-o", str(out))
    assert proc.returncode == 1 and not out.exists()
    assert isinstance(serialize_text(view.read_text(), "1.5.0"), str)
    assert re.search(r"view\.mlir:\d+:\d+: error: stablehlo\.dot_general: .*algorithm.* is not in StableHLO "
                     r"1\.5\.0 \(the oldest target that has it is 1\.6\.0\)", proc.stderr), proc.stderr


# -- edits ----------------------------------------------------------------------------------------------

def _relu_edits() -> dict[str, tuple[str, str]]:
    """Edits of the `@relu` function of an MLP export: (pattern, replacement) on the view's text."""
    return {
        "change a constant": (r"stablehlo\.constant dense<0\.000000e\+00> : tensor<f32>",
                              "stablehlo.constant dense<1.500000e+00> : tensor<f32>"),
        "swap add for subtract": (r"stablehlo\.add (%\w+, %\w+ : tensor<8x256xf32>)",
                                  r"stablehlo.subtract \1"),
        "delete an op": (r"\n( *)%1 = stablehlo\.maximum %arg0, %0 : tensor<8x256xf32>[^\n]*\n( *)"
                         r"return %1 :", r"\n\2return %0 :"),
        "add an op": (r"(= stablehlo\.maximum %arg0, %0 : tensor<8x256xf32>[^\n]*)\n( *)return %1 : ",
                      r'\1\n\2%neg = stablehlo.negate %1 : tensor<8x256xf32> loc("neg")\n\2return %neg : '),
        "rename a function": (r"@relu\b", "@rectify"),
    }


EDITED = ["jax/mlp2.mlirbc", "vhlo/mlp_f32.mlirbc", "vhlo/mlp_f32.v0_9_0.mlirbc",
          "vhlo/mlp_f32.v1_5_0.mlirbc"]


@needs_jaxlib
@pytest.mark.parametrize("name", EDITED)
@pytest.mark.parametrize("edit", sorted(_relu_edits()))
def test_an_edit_reads_back_in_jaxlib_at_the_files_target(name: str, edit: str) -> None:
    data, module = _read(name)
    v = _view(module)
    text = print_module(v.module, form="pretty", registry=registry()).text
    pattern, repl = _relu_edits()[edit]
    edited, n = re.subn(pattern, repl, text, count=0 if edit == "rename a function" else 1)
    assert n >= 1, f"{edit}: the pattern is not in {name}'s view"
    saved = _save(edited, v, module)
    after = decode_bytecode(saved, registry())
    assert after.error is None and not after.fallbacks
    assert (after.producer, after.version) == (module.producer, module.version)
    # jaxlib reads the saved artifact as it reads the edited text itself (same ops, types and locations).
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]

    from stablehlo_oracle import context

    body = "\n".join(line for line in edited.split("\n") if not line.startswith("// mlirbc:"))
    with context():
        expected = ir.Module.parse(body).operation.get_asm(enable_debug_info=True, use_local_scope=True)
    assert legalized_print(saved) == expected
    # Opened again, the saved file shows what jaxlib shows for it.
    assert _text(_view(after)).rstrip("\n") == expected.rstrip("\n")


def _refused(tmp_path: Path, name: str, edit: tuple[str, str]) -> subprocess.CompletedProcess[str]:
    src = CORPUS / name
    path = tmp_path / src.name
    path.write_bytes(src.read_bytes())
    view = tmp_path / "view.mlir"
    assert _cli("decode", str(path), "-o", str(view)).returncode == 0
    text = view.read_text()
    edited, n = re.subn(edit[0], edit[1], text, count=1)
    assert n == 1
    view.write_text(edited)
    proc = _cli("encode", str(view), "-o", str(path), "--like", str(path))
    assert proc.returncode == 1
    assert path.read_bytes() == src.read_bytes()  # nothing written
    return proc


def test_a_feature_newer_than_the_target_is_refused(tmp_path: Path) -> None:
    # result_accuracy came with exponential_v2 (1.9.0); the file's target is 1.5.0
    proc = _refused(tmp_path, "vhlo/mlp_f32.v1_5_0.mlirbc", (
        r"stablehlo\.exponential (%\w+) : ",
        r"stablehlo.exponential \1 {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, "
        r"ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : "))
    assert re.search(r"view\.mlir:\d+:\d+: error: stablehlo\.exponential: .*result_accuracy.* is not in "
                     r"StableHLO 1\.5\.0 \(the oldest target that has it is 1\.9\.0\)", proc.stderr), \
        proc.stderr


def test_an_op_newer_than_the_target_is_refused(tmp_path: Path) -> None:
    # stablehlo.tan exists from 1.2.0 on (vhlo.tan_v1); the file's target is 0.9.0
    proc = _refused(tmp_path, "vhlo/mlp_f32.v0_9_0.mlirbc", (
        r"stablehlo\.maximum (%\w+), (%\w+) : ", r"stablehlo.tan \1 : "))
    assert re.search(r"view\.mlir:\d+:\d+: error: stablehlo\.tan.* is not in StableHLO 0\.9\.0 \(the oldest "
                     r"target that has it is 1\.\d+\.0\)", proc.stderr), proc.stderr


# -- an op the view does not know ------------------------------------------------------------------------

def _newer_producer(tmp_path: Path) -> Path:
    """mlp2 as a newer producer might write it: `vhlo.maximum_v9`, a version this model does not know."""
    data = (CORPUS / "jax" / "mlp2.mlirbc").read_bytes()
    assert data.count(b"maximum_v1\0") == 1
    path = tmp_path / "newer.mlirbc"
    path.write_bytes(data.replace(b"maximum_v1\0", b"maximum_v9\0"))
    return path


def test_an_unknown_vhlo_op_is_shown_as_stored_and_saved_back(tmp_path: Path) -> None:
    path = _newer_producer(tmp_path)
    data = path.read_bytes()
    module = decode_bytecode(data, registry())
    v = _view(module)
    assert v.conversion is not None
    kept = v.conversion.notes()
    assert len(kept) == 3 and all(op.name == "vhlo.maximum_v9" for op, _ in kept)
    assert all("not an op this model knows" in why for _, why in kept)
    text = print_module(v.module, form="pretty", registry=registry()).text
    assert '"vhlo.maximum_v9"(' in text and "stablehlo.dot_general" in text
    assert "builtin.unrealized_conversion_cast" in text
    assert _save(text, v, module) == data
    # another op edited: the kept ops are still the file's own
    edited = text.replace("stablehlo.add %5, %7", "stablehlo.subtract %5, %7", 1)
    assert edited != text
    saved = _save(edited, v, module)
    assert saved.count(b"maximum_v9\0") == 1 and saved != data
    again = _view(decode_bytecode(saved, registry()))
    assert "stablehlo.subtract %5, %7" in _text(again)
    assert [op.name for op, _ in again.conversion.notes()] == ["vhlo.maximum_v9"] * 3  # type: ignore[union-attr]
    proc = _cli("check", str(path))
    assert proc.returncode == 0
    assert proc.stderr.count("note: vhlo.maximum_v9 shown as stored in the stablehlo view") == 3
    assert re.search(r"newer\.mlirbc: byte \d+: note", proc.stderr)
