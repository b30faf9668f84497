"""torch-mlir's `torch` dialect models (the `torch` plugin): files of torch-mlir's FX importer
(tests/data/torch/README.md) decode without fallbacks, print as iree-opt (which registers torch-mlir's
dialects) prints them, and every view reads back to the file's bytes.

Without the `iree` extra, the files' own checks still run; with it, iree-opt decides every question of text:
both pretty modes and the generic form line for line, the result names of float constants, and the bytes of
an edit made in our view.
"""

from __future__ import annotations

import random
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from iree_support import iree_opt, iree_opt_path
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.errors import DecodeError
from mlirbc.models.build import models
from mlirbc.models.torch.asm_names import float_name
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module

DATA = Path(__file__).resolve().parent / "data" / "torch"
FILES = sorted(p.name for p in DATA.glob("*.mlirbc"))
TOOLS = Path(__file__).resolve().parent.parent / "server" / "tools"
needs_iree_opt = pytest.mark.skipif(iree_opt_path() is None,
                                    reason="iree-opt (the `iree` test extra) is not installed")


def _view(module: object, form: str, aliased: bool) -> str:
    reg = models()
    return print_module(module, form=form, registry=reg, with_map=False,  # type: ignore[arg-type]
                        aliases=alias_rules(module, reg) if aliased else None).text  # type: ignore[arg-type]


def _ops_text(text: str) -> list[str]:
    """The lines of a print up to its resource section, without the view's own `// mlirbc:` lines."""
    lines = [line for line in text.split("{-#")[0].splitlines() if not line.startswith("// mlirbc:")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def test_the_shipped_files_are_there() -> None:
    assert FILES == ["attention_params.mlirbc", "conv.mlirbc", "forms.mlirbc", "misc.mlirbc", "mlp.mlirbc"]


@needs_iree_opt
def test_the_forms_file_is_what_iree_opt_writes() -> None:
    """`forms.mlirbc` holds the C++ forms torch-mlir's own tests use (prim.If, bind_symbolic_shape,
    initialize.global_slots, onnx.rotary_embedding, a class type's visibility), the TMTensor and
    TorchConversion dialects and an indirect call: iree-opt's bytes for `forms.mlir`."""
    proc = subprocess.run([str(iree_opt_path()), "--emit-bytecode", "forms.mlir", "-o", "-"], cwd=DATA,
                          capture_output=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout == (DATA / "forms.mlirbc").read_bytes()


@pytest.mark.parametrize("name", FILES)
def test_torch_ops_decode_print_custom_and_every_byte_comes_back(name: str) -> None:
    data = (DATA / name).read_bytes()
    reg = models()
    module = decode_bytecode(data, reg)
    assert module.error is None and module.producer == "MLIR24.0.0git"
    assert module.fallbacks == []
    assert encode_bytecode(module, template=module, registry=reg) == data
    for form, aliased in (("pretty", True), ("pretty", False), ("generic", False)):
        text = _view(module, form, aliased)
        if form == "pretty":
            assert re.search(r"= torch\.aten\.[\w.]+ %", text) and '"torch.' not in text
        back = parse_module(text, template=module, registry=reg, with_map=False)
        assert back.module is not None, back.errors[:2]
        assert encode_bytecode(back.module, template=module, registry=reg) == data, (form, aliased)


def test_info_says_which_model_prints_a_torch_op() -> None:
    reg = models()
    assert "printDefaultTorchOp" in str(reg.op_syntax("torch.aten.linear").model.kind)
    assert "declarative" in str(reg.op_syntax("torch.constant.float").model.kind)
    assert "ConstantIntOp" in str(reg.op_syntax("torch.constant.int").model.kind)


def test_a_default_form_with_the_wrong_operand_count_is_a_located_error() -> None:
    data = (DATA / "mlp.mlirbc").read_bytes()
    reg = models()
    module = decode_bytecode(data, reg)
    text = _view(module, "pretty", False)
    bad = re.sub(r"torch\.aten\.relu (%\d+) :", r"torch.aten.relu \1, \1 :", text, count=1)
    assert bad != text
    line = next(i for i, t in enumerate(bad.splitlines()) if "torch.aten.relu" in t)
    back = parse_module(bad, template=module, registry=reg, with_map=False)
    assert back.module is None and back.errors
    assert back.errors[0].span.start_line == line and "expected 1 operands" in back.errors[0].message


def test_damaged_torch_bytes_and_text_give_located_errors() -> None:
    """Truncated bytes of a file with every torch form: a DecodeError naming the byte, or a partial module
    saying where it stopped; its pretty view cut or damaged: a module or located errors, never an
    exception."""
    data = (DATA / "forms.mlirbc").read_bytes()
    reg = models()
    rng = random.Random(38)
    for cut in sorted({rng.randrange(len(data)) for _ in range(40)}):
        try:
            module = decode_bytecode(data[:cut], reg)
        except DecodeError as exc:
            assert "byte" in str(exc)
            continue
        assert module.error is None or "byte" in str(module.error)
    module = decode_bytecode(data, reg)
    text = _view(module, "pretty", False)
    variants = [text[:rng.randrange(len(text))] for _ in range(30)]
    for _ in range(30):
        at = rng.randrange(len(text))
        variants.append(text[:at] + rng.choice(["", "%", ",", "]", "[", "->", ":"]) + text[at + 1:])
    errors = 0
    for bad in variants:
        back = parse_module(bad, template=module, registry=reg, with_map=False)
        if back.module is None:
            errors += 1
            assert back.errors and all(e.span.start_line >= 0 for e in back.errors)
    assert errors > len(variants) // 2


@needs_iree_opt
@pytest.mark.parametrize("name", FILES)
def test_views_equal_iree_opts_print(name: str) -> None:
    data = (DATA / name).read_bytes()
    module = decode_bytecode(data, models())
    for flags, form, aliased in ((["--mlir-print-local-scope"], "pretty", False), ([], "pretty", True),
                                 (["--mlir-print-local-scope", "--mlir-print-op-generic"], "generic", False)):
        theirs = iree_opt(["--mlir-print-debuginfo", *flags], data).decode()
        assert _ops_text(_view(module, form, aliased)) == _ops_text(theirs), (form, aliased)


@needs_iree_opt
def test_an_edited_constant_is_saved_as_iree_opt_saves_it() -> None:
    data = (DATA / "misc.mlirbc").read_bytes()
    reg = models()
    module = decode_bytecode(data, reg)
    text = _view(module, "pretty", False)
    edited = text.replace("torch.constant.int 6 ", "torch.constant.int 7 ", 1)
    assert edited != text
    back = parse_module(edited, template=module, registry=reg, with_map=False)
    assert back.module is not None, back.errors[:2]
    saved = encode_bytecode(back.module, template=module, registry=reg)
    flags = ["--mlir-print-debuginfo", "--mlir-print-local-scope"]
    before = _ops_text(iree_opt(flags, data).decode())
    after = _ops_text(iree_opt(flags, saved).decode())
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    # the constant's line and its one use: the value, and the name iree-opt gives the result (`%int7`)
    assert len(changed) == 2 and "%int6 = torch.constant.int 6 " in changed[0][0] and \
        "%int7 = torch.constant.int 7 " in changed[0][1]
    restored = [b.replace("int7", "int6").replace("int 7 ", "int 6 ") for _, b in changed]
    assert restored == [a for a, _ in changed]


@needs_iree_opt
def test_float_constant_names_are_iree_opts() -> None:
    rng = random.Random(7)
    patterns = [0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1, 0x000FFFFFFFFFFFFF,
                0x7FEFFFFFFFFFFFFF]
    for v in (0.5, 1.0, 0.1, 1 / 3, 2 / 3, 9.9999995e-7, 999999.5, 123456789.0, 1e100, 1e-300, 0.1234565):
        patterns.append(struct.unpack("<Q", struct.pack("<d", v))[0])
        patterns.append(struct.unpack("<Q", struct.pack("<d", -v))[0])
    patterns += [rng.getrandbits(64) for _ in range(150)]
    body = "\n".join(f"  %{i} = torch.constant.float 0x{b:016X}" for i, b in enumerate(patterns))
    out = iree_opt([], f"func.func @f() {{\n{body}\n  return\n}}\n".encode()).decode()
    names = re.findall(r"^\s+%([^ ]+) = torch\.constant\.float", out, re.M)
    assert len(names) == len(patterns)
    # iree-opt numbers a repeated name (`_0`); each pattern's own name is the head
    seen: dict[str, int] = {}
    for got, bits in zip(names, patterns, strict=True):
        want = float_name(bits)
        assert got == want or (got.startswith(want + "_") and want in seen), (hex(bits), got, want)
        seen[want] = 1


def test_generator_reproduces_the_torch_data() -> None:
    proc = subprocess.run([sys.executable, str(TOOLS / "gen_torch_models.py"), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
