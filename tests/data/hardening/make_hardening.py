"""Writes the hardening regression inputs of this folder (run from the repository root:
`python tests/data/hardening/make_hardening.py`).

Each input is the smallest form of one bug class of issue 15 (see README.md here).  Bytecode inputs are built
from IR with the project's own writer (which writes what the IR says, even where the reader must refuse it,
so the damage is exact); a few are fuzzing finds kept as found (`found_*`, listed in README.md), since they
come from real files.  Text inputs are written out here.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO / "server"))

from mlirbc.bytecode import numbering  # noqa: E402
from mlirbc.bytecode.numbering import Numbering  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode  # noqa: E402
from mlirbc.ir.attributes import (  # noqa: E402
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseStringElementsAttr,
    DialectAttr,
    DictionaryAttr,
    FloatAttr,
    FusedLoc,
    IntegerAttr,
    NameLoc,
    StringAttr,
    UnitAttr,
    UnknownLoc,
)
from mlirbc.ir.module import Module  # noqa: E402
from mlirbc.ir.operation import PROPS_ATTRIBUTE, PROPS_DECODED, Operation, OpName, Properties  # noqa: E402
from mlirbc.ir.types import (  # noqa: E402
    DialectType,
    FloatType,
    IndexType,
    IntegerType,
    RankedTensorType,
    Type,
)
from mlirbc.models import layout  # noqa: E402


def _module(*ops: Operation) -> Module:
    root = Operation(OpName("builtin", "module", True))
    block = root.add_region().add_block()
    for op in ops:
        block.append(op)
    return Module(root)


def _op(name: str = "test.op", attrs: dict[str, Attribute] | None = None, results: tuple[Type, ...] = (),
        location: Attribute | None = None, registered: bool = False) -> Operation:
    dialect, _, short = name.partition(".")
    d = DictionaryAttr.get(tuple((StringAttr.get(k), v) for k, v in (attrs or {}).items())) if attrs \
        else None
    return Operation(OpName(dialect, short, registered), location, results, attributes=d)


def _write(name: str, module: Module) -> None:
    (HERE / name).write_bytes(encode_bytecode(module, template=None))


def bytecode_inputs() -> None:
    i32 = IntegerType.get(32)
    _write("integer_signedness_3.mlirbc", _module(_op(results=(IntegerType.get(32, 3),))))
    _write("integer_width_2p24.mlirbc", _module(_op(results=(IntegerType.get(1 << 24),))))
    # Dictionaries as the IR gives them: a repeated name, an empty name, names out of order.
    _write("dict_repeated_name.mlirbc", _module(_dict_op(((StringAttr.get("a"), UnitAttr.get()),
                                                            (StringAttr.get("a"), StringAttr.get("x"))))))
    _write("dict_empty_name.mlirbc", _module(_dict_op(((StringAttr.get(""), UnitAttr.get()),))))
    _write("dict_unsorted.mlirbc", _module(_dict_op(((StringAttr.get("b"), UnitAttr.get()),
                                                       (StringAttr.get("a"), UnitAttr.get())))))
    # A dense blob of 7 bytes for four i32 elements.
    tensor = RankedTensorType.get((4,), i32)
    _write("dense_wrong_size.mlirbc",
           _module(_op(attrs={"value": DenseElementsAttr.get(tensor, b"\x01" * 7)})))
    # Dense blobs upstream's storage makes splats (all elements equal, i1 packed all true), and i1 blobs
    # with padding bits set (no element spelling says them; upstream keeps them).
    i1 = IntegerType.get(1)
    _write("dense_all_equal_and_padding_bits.mlirbc", _module(_op(attrs={
        "a": DenseElementsAttr.get(RankedTensorType.get((4,), i1), b"\x1f"),
        "b": DenseElementsAttr.get(RankedTensorType.get((2,), i32), b"\x01\0\0\0" * 2),
        "c": DenseElementsAttr.get(RankedTensorType.get((12,), i1), b"\xff\x0f"),
        "d": DenseElementsAttr.get(RankedTensorType.get((2,), FloatType.get("f32")), b"\0\0\x80\x3f" * 2),
        "e": DenseElementsAttr.get(RankedTensorType.get((4,), i1), b"\x10"),
    })))
    # Dense strings stored one by one where upstream's storage makes a splat (equal strings, one string);
    # strings of a number type (mlir-opt prints them, then asserts reading its own text).
    text_type = DialectType.get("test", "!test.str")
    _write("dense_strings_splat_as_stored.mlirbc", _module(_op(attrs={
        "a": DenseStringElementsAttr.get(RankedTensorType.get((2,), text_type), False, (b"x", b"x")),
        "b": DenseStringElementsAttr.get(RankedTensorType.get((1,), text_type), False, (b"y",)),
    })))
    _write("dense_strings_number_type.mlirbc", _module(_op(attrs={
        "c": DenseStringElementsAttr.get(RankedTensorType.get((2,), i32), False, (b"a", b"b"))})))
    # Dense arrays: an index element type (not integer or float), and 3 bytes for two i16 elements.
    _write("dense_array_index_elements.mlirbc",
           _module(_op(attrs={"a": DenseArrayAttr.get(IndexType.get(), 1, b"\0" * 8)})))
    _write("dense_array_wrong_size.mlirbc",
           _module(_op(attrs={"a": DenseArrayAttr.get(IntegerType.get(16), 2, b"\0" * 3)})))
    # A float attribute whose type is an integer type.
    _write("float_attr_integer_type.mlirbc", _module(_op(attrs={"f": FloatAttr.get(i32, 0)})))
    # Locations: a name location whose child is an array; an op located by a builtin affine map.
    _write("location_child_not_a_location.mlirbc",
           _module(_op(location=NameLoc.get(StringAttr.get("n"), ArrayAttr.get(())))))
    _write("location_affine_map.mlirbc",
           _module(_op(location=DialectAttr.get("builtin", "affine_map<(d0) -> (d0)>"))))
    # An op with an empty name (no dialect, no name): no text can name it.
    with _unchecked():
        _write("op_name_empty.mlirbc", _module(_op("", results=(i32,))))
    # An op name listed both as registered and as unregistered.
    _write("op_name_registered_and_not.mlirbc",
           _module(_op("test.op", registered=True), _op("test.op", registered=False)))
    # Unregistered ops whose properties are not dictionaries (upstream prints and reads `<"x">`).
    string_props = _op("hal.thing")
    string_props.properties = Properties(PROPS_ATTRIBUTE, attribute=StringAttr.get("input0"))
    loc_props = _op("hal.other")
    loc_props.properties = Properties(PROPS_ATTRIBUTE, attribute=UnknownLoc.get())
    _write("props_not_a_dictionary.mlirbc", _module(string_props, loc_props))
    # Fused locations as the IR gives them.  With metadata, upstream's reader keeps them as stored (empty,
    # holding `unknown`, nested); without metadata it rewrites them to FusedLoc::get's canonical form, and
    # aborts when that is a single location.
    a, b, x = (NameLoc.get(StringAttr.get(n), UnknownLoc.get()) for n in "abx")
    meta = StringAttr.get("m")
    _write("fused_loc_metadata_as_stored.mlirbc", _module(
        _op(location=FusedLoc.get((), meta)),
        _op(location=FusedLoc.get((UnknownLoc.get(), a, a), meta)),
        _op(location=FusedLoc.get((FusedLoc.get((a, b), meta), x), meta)),
        _op(location=FusedLoc.get((a, FusedLoc.get((), StringAttr.get("n"))), None))))
    _write("fused_loc_single.mlirbc", _module(_op(location=FusedLoc.get((a,), None))))
    # A nested builtin.module (IsolatedFromAbove) stored as not isolated: using a value of the outer
    # module, and using nothing from outside (upstream's writer stores both isolated).
    outer = _op(results=(i32,))
    inner = Operation(OpName("builtin", "module", True))
    inner.add_region().add_block().append(Operation(OpName("test", "use", False), None, (),
                                                    [outer.results[0]]))
    with _stored_not_isolated():
        _write("isolated_op_uses_outer_value.mlirbc", _module(outer, inner))
        inner = Operation(OpName("builtin", "module", True))
        inner.add_region().add_block().append(_op())
        _write("isolated_op_stored_not_isolated.mlirbc", _module(inner))
    # The same use inside an op stored as unregistered, whose name has an isolated model: no trait.
    unregistered = Operation(OpName("func", "func", False))
    unregistered.add_region().add_block().append(Operation(OpName("test", "use", False), None, (),
                                                           [outer.results[0]]))
    _write("isolated_name_unregistered_uses_outer_value.mlirbc", _module(outer, unregistered))
    _write("fused_loc_not_canonical.mlirbc", _module(_op(location=FusedLoc.get((a, UnknownLoc.get(), b),
                                                                                None))))
    # Properties of another kind than the op stores (upstream reads each as its ODS storage class): a
    # location as pdl.result's IntegerAttr `index`; an i32 as arith.cmpi's i64 enum `predicate`; an
    # overflow flag as arith.addf's `#arith.fastmath`.
    with _unchecked_storage():
        _write("property_kind_location.mlirbc", _module(_with_props("pdl.result", index=UnknownLoc.get())))
        _write("property_kind_enum_width.mlirbc",
               _module(_with_props("arith.cmpi", predicate=IntegerAttr.get(i32, 2))))
        _write("property_kind_dialect_mnemonic.mlirbc",
               _module(_with_props("arith.addf", fastmath=DialectAttr.get("arith", "#arith.overflow<none>"))))


def _with_props(name: str, **values: Attribute) -> Operation:
    dialect, _, short = name.partition(".")
    op = Operation(OpName(dialect, short, True))
    op.properties = Properties(PROPS_DECODED, values=dict(sorted(values.items())))
    return op


@contextmanager
def _unchecked_storage() -> Iterator[None]:
    """The writer writes properties whatever their kind (what upstream's writer never does)."""
    check = layout.storage_problem
    layout.storage_problem = lambda name, spec, a: None
    try:
        yield
    finally:
        layout.storage_problem = check


@contextmanager
def _unchecked() -> Iterator[None]:
    """The writer without its structural checks (it refuses what the reader would refuse)."""
    from mlirbc.bytecode import writer

    checks = writer.structural_problems
    writer.structural_problems = lambda *args, **kwargs: iter(())  # type: ignore[assignment]
    try:
        yield
    finally:
        writer.structural_problems = checks


@contextmanager
def _stored_not_isolated() -> Iterator[None]:
    """The writer stores every builtin.module below the root as not isolated (and lets it use outer
    values): what the IR would need to say, but upstream's writer never writes."""
    trait, analyze = Numbering.has_isolated_trait, numbering.analyze

    def forced(root: Operation, *args: Any, **kwargs: Any) -> Any:
        result = analyze(root, *args, **kwargs)
        for op in result.isolated:
            if op.name == "builtin.module" and op.parent is not None:
                result.isolated[op] = False
        return result

    Numbering.has_isolated_trait = lambda self, op: False  # type: ignore[method-assign]
    numbering.analyze = forced  # type: ignore[assignment]
    try:
        yield
    finally:
        Numbering.has_isolated_trait = trait  # type: ignore[method-assign]
        numbering.analyze = analyze


def _dict_op(entries: tuple[tuple[StringAttr, Attribute], ...]) -> Operation:
    op = Operation(OpName("test", "op", False))
    op.attributes = DictionaryAttr.get(entries)
    return op


def text_inputs() -> None:
    head = '// mlirbc: {"producer": "MLIR22.1.8", "version": 6}\n'
    module = '"builtin.module"() ({\n%s}) : () -> () loc(unknown)\n'

    def put(name: str, text: str) -> None:
        (HERE / name).write_bytes(text.encode("utf-8", "surrogatepass"))

    put("string_lone_surrogate.mlir",
        head + module % '  "test.op"() {s = "x\ud800"} : () -> () loc(unknown)\n')
    put("int_literal_5000_digits.mlir",
        head + module % f'  "test.op"() {{v = {"9" * 5000} : i32}} : () -> () loc(unknown)\n')
    put("int_literal_30000_digits.mlir",
        head + module % f'  "test.op"() {{v = 1{"0" * 30000} : i32}} : () -> () loc(unknown)\n')
    put("loc_line_5000_digits.mlir",
        head + module % f'  "test.op"() : () -> () loc("a.mlir":{"9" * 5000}:1)\n')
    put("result_count_huge.mlir",
        head + module % ('  %0:99999999999999999999 = "test.op"() : () -> i32 loc(unknown)\n'
                         '  "test.use"(%0#5) : (i32) -> () loc(unknown)\n'))
    put("result_count_broken_op.mlir",
        head + module % ('  %0:2147483647 = "test.op"() : i32 loc(unknown)\n'
                         '  "test.use"(%0#5) : (i32) -> () loc(unknown)\n'))
    put("func_signature_mismatch.mlir",
        head + module % ('  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({\n'
                         '  ^bb0(%arg0: i64 loc(unknown)):\n'
                         '    "func.return"() : () -> () loc(unknown)\n'
                         '  }) : () -> () loc(unknown)\n'))
    put("missing_required_property.mlir",
        head + module % ('  "func.func"() ({\n'
                         '    "func.return"() : () -> () loc(unknown)\n'
                         '  }) : () -> () loc(unknown)\n'))
    put("header_producer_surrogate.mlir",
        '// mlirbc: {"producer": "MLIR\\ud800", "version": 6}\n'
        + module % '  "test.op"() : () -> () loc(unknown)\n')
    put("header_dialect_version_edit.mlir",
        '// mlirbc: {"producer": "MLIR22.1.8", "version": 6, "dialect_versions": {"func": "01"}}\n'
        + module % ('  "func.func"() <{function_type = () -> (), sym_name = "f"}> ({\n'
                    '    "func.return"() : () -> () loc(unknown)\n'
                    '  }) : () -> () loc(unknown)\n'))
    put("regions_nested_600.mlir",
        head + module % ('  "t.r"() ({\n' * 600 + '  }) : () -> () loc(unknown)\n' * 600))
    put("unbalanced_1000.mlir", unbalanced_view())


def unbalanced_view() -> str:
    """A 17.5 KB view of 240 ops, with 1,000 unbalanced parentheses and brackets inserted at fixed
    (seeded) places: about a thousand errors to recover from."""
    rng = random.Random(15)
    lines = ['// mlirbc: {"producer": "MLIR22.1.8", "version": 6}', '"builtin.module"() ({']
    for i in range(240):
        lines.append(f'  %{i} = "arith.constant"() <{{value = {i} : i32}}> : () -> i32 loc("f":{i}:1)')
    lines.append('}) : () -> () loc(unknown)')
    text = "\n".join(lines) + "\n"
    spots = sorted(rng.sample([m.start() for m in re.finditer(r"[(){}<>]", text)], 1000))
    chars = list(text)
    for at in reversed(spots):
        chars.insert(at, rng.choice(")]}"))
    return "".join(chars)


def main() -> None:
    bytecode_inputs()
    text_inputs()
    print(json.dumps(sorted(p.name for p in HERE.iterdir() if p.suffix in (".mlirbc", ".mlir"))))


if __name__ == "__main__":
    main()
