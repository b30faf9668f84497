"""The StableHLO view against jaxlib 0.10.2 (the oracle: test extra `stablehlo`).

* For every corpus artifact, jaxlib given our view prints the same module (generic form, debug info, local
  scope) as it prints for the original file.  The one documented deviation: StableHLO's parser rejects its
  own spelling of an empty tuple, `!vhlo.tuple_v1<>`, which we print and read; for the files that have one,
  jaxlib's parse error is checked to be exactly that, and the bytes our text encodes to are compared instead.
* Edits made in the view (rename a function, change a constant, delete an op, add an op of the same version)
  are read by jaxlib's `deserialize_portable_artifact` and mean what the edit says.
* An op newer (or older) than the file's target is refused on save, and the file stays untouched.
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
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from stablehlo_oracle import SKIP_REASON, available, deserialize, generic_print

pytestmark = pytest.mark.skipif(not available(), reason=SKIP_REASON)

FILES = sorted(f"{p.parent.name}/{p.name}" for folder in ("vhlo", "jax")
               for p in (CORPUS / folder).glob("*.mlirbc"))
EMPTY_TUPLE = "!vhlo.tuple_v1<>"


@cache
def registry() -> Registry:
    return models()


def _read(name: str) -> tuple[bytes, Module]:
    data = (CORPUS / name).read_bytes()
    return data, decode_bytecode(data, registry())


def _encode(text: str, template: Module) -> bytes:
    result = parse_module(text, template=template, registry=registry())
    assert result.module is not None, [f"{d.span}: {d.message}" for d in result.errors[:3]]
    return encode_bytecode(result.module, template=template, registry=registry())


@pytest.mark.parametrize("name", FILES)
def test_jaxlib_prints_our_view_as_the_original(name: str) -> None:
    data, module = _read(name)
    view = print_module(module).text
    expected = generic_print(data)
    if EMPTY_TUPLE in view:
        # Documented deviation: StableHLO cannot parse its own empty-tuple spelling.
        with pytest.raises(Exception, match="expected non-function type"):
            generic_print(view)
        line, col = (int(x) for x in re.search(r'"-":(\d+):(\d+)', _parse_error(view)).groups())  # type: ignore[union-attr]
        assert view.splitlines()[line - 1][col - 1:].startswith(">"), "the error is not at an empty tuple"
        assert view.splitlines()[line - 1][:col - 1].endswith("!vhlo.tuple_v1<")
        # What our text means is what the original means: jaxlib reads the bytes it encodes to.
        assert generic_print(_encode(view, module)) == expected
        fresh = parse_module(view, registry=registry()).module
        assert fresh is not None
        assert generic_print(encode_bytecode(fresh, registry=registry())) == expected
        return
    assert generic_print(view) == expected


def _parse_error(text: str) -> str:
    try:
        generic_print(text)
    except Exception as exc:
        return str(exc)
    return ""


def test_the_deviation_is_only_the_empty_tuple() -> None:
    with_tuple = [n for n in FILES if EMPTY_TUPLE in print_module(_read(n)[1]).text]
    assert with_tuple == ["vhlo/synth_misc_attrs.v1_14_0.mlirbc", "vhlo/synth_misc_attrs.v1_17_0.mlirbc"]


# -- edits read by jaxlib ----------------------------------------------------------------------------------

def _edited(name: str, edit: object) -> tuple[str, str, bytes]:
    """(StableHLO before, StableHLO after, new bytes) of an edit (a function view -> view)."""
    data, module = _read(name)
    view = print_module(module).text
    assert callable(edit)
    new_view = edit(view)
    assert new_view != view
    out = _encode(new_view, module)
    return deserialize(data), deserialize(out), out


def test_rename_a_function() -> None:
    def edit(view: str) -> str:
        return view.replace('#vhlo.string_v1<"tril">', '#vhlo.string_v1<"lower_triangle">')

    before, after, _ = _edited("vhlo/attention_dpa.mlirbc", edit)
    assert "@tril" in before and "@tril" not in after
    assert re.search(r"func\.func private @lower_triangle\(", after)
    assert re.search(r"call @lower_triangle\(", after)


def test_change_a_constant() -> None:
    def edit(view: str) -> str:
        return view.replace("#vhlo.tensor_v1<dense<2.500000e-01> : tensor<f32>>",
                            "#vhlo.tensor_v1<dense<1.250000e-01> : tensor<f32>>", 1)

    before, after, _ = _edited("vhlo/attention_dpa.mlirbc", edit)
    assert "dense<2.500000e-01> : tensor<f32>" in before
    assert "dense<1.250000e-01> : tensor<f32>" in after
    assert "dense<2.500000e-01>" not in after


def test_delete_an_op() -> None:
    def edit(view: str) -> str:
        m = re.search(r'^ *(%\w+) = "vhlo\.maximum_v1"\((%\w+), (%\w+)\).*\n', view, re.M)
        assert m is not None
        result, operand = m.group(1), m.group(2)
        rest = view[m.end():]
        rest = re.sub(rf"{re.escape(result)}(?![\w$.#])", operand, rest)
        return view[:m.start()] + rest

    before, after, _ = _edited("vhlo/mlp_f32.v1_5_0.mlirbc", edit)
    assert after.count("stablehlo.maximum") == before.count("stablehlo.maximum") - 1


def test_add_an_op_of_the_same_version() -> None:
    def edit(view: str) -> str:
        m = re.search(r'^( *)(%\w+) = "vhlo\.add_v1"\((%\w+), (%\w+)\)( : .*?) loc\(.*\n', view, re.M)
        assert m is not None
        indent, result, types = m.group(1), m.group(2), m.group(5)
        added = f'{indent}%added = "vhlo.add_v1"({result}, {result}){types} loc(unknown)\n'
        rest = re.sub(rf"{re.escape(result)}(?![\w$.#])", "%added", view[m.end():])
        return view[:m.end()] + added + rest

    before, after, _ = _edited("vhlo/mlp_f32.v1_5_0.mlirbc", edit)
    assert after.count("stablehlo.add ") == before.count("stablehlo.add ") + 1
    assert re.search(r"(%\d+) = stablehlo\.add (%\d+), \2 ", after)


# -- versions ----------------------------------------------------------------------------------------------

def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mlirbc.cli", *args], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(REPO / "server"), "PATH": ""})


def test_an_op_newer_than_the_target_is_refused(tmp_path: Path) -> None:
    src = CORPUS / "vhlo" / "mlp_f32.v1_5_0.mlirbc"
    path = tmp_path / src.name
    path.write_bytes(src.read_bytes())
    view = tmp_path / "view.mlir"
    assert _cli("decode", "--form", "generic", str(path), "-o", str(view)).returncode == 0
    text = view.read_text()
    accuracy = ("#vhlo.result_accuracy_v1<atol = 0.000000e+00, rtol = 0.000000e+00, ulps = 0, "
                "mode = #vhlo<result_accuracy_mode_v1 DEFAULT>>")
    edited = re.sub(r'"vhlo\.exponential_v1"\((%\w+)\)',
                    rf'"vhlo.exponential_v2"(\1) <{{result_accuracy = {accuracy}}}>', text, count=1)
    assert edited != text
    view.write_text(edited)
    proc = _cli("encode", str(view), "-o", str(path), "--like", str(path))
    assert proc.returncode == 1
    assert "op vhlo.exponential_v2 does not exist at the file's target StableHLO 1.5.0 (it exists from " \
        "1.9.0)" in proc.stderr
    assert "#vhlo.result_accuracy_v1" in proc.stderr
    assert path.read_bytes() == src.read_bytes()
    # The unedited view still saves, to the identical file.
    view.write_text(text)
    assert _cli("encode", str(view), "-o", str(path), "--like", str(path)).returncode == 0
    assert path.read_bytes() == src.read_bytes()


def test_an_op_older_than_the_target_is_refused() -> None:
    data, module = _read("vhlo/mlp_f32.mlirbc")  # target 1.15.0
    view = print_module(module).text
    edited = view.replace('"vhlo.exponential_v2"', '"vhlo.exponential_v1"', 1)
    edited = re.sub(r'"vhlo\.exponential_v1"\((%\w+)\) <\{result_accuracy = [^}]*\}>',
                    r'"vhlo.exponential_v1"(\1)', edited, count=1)
    assert '"vhlo.exponential_v1"' in edited
    result = parse_module(edited, template=module, registry=registry())
    assert result.module is not None
    from mlirbc.errors import EncodeError

    with pytest.raises(EncodeError, match=r"op vhlo\.exponential_v1 does not exist at the file's target "
                                          r"StableHLO 1\.15\.0 \(it exists up to 1\.8\.0\)"):
        encode_bytecode(result.module, template=module, registry=registry())
    assert deserialize(data)  # the original is fine
