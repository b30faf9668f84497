"""`nvvm.mma.sync` (NVVMDialect.cpp's MmaOp print/parse):

    nvvm.mma.sync A[%a0, %a1]  B[%b0]  C[%c0, %c1]  {attrs} : (tA, tB, tC) -> tRes

(MLIR 24: `C[%c0, %c1]  shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col {attrs}`.)

Each operand group prints with the type of its first operand only, so the form holds only groups whose
operands share one type.  The PTX types of the multiplicands (`multiplicandAPtxType`/`BPtxType`) are left
out of the dictionary when one can be inferred from the *first group's* type as a multiplicand (f16,
vector<2xf16>, f32 as tf32, f64, an LLVM struct by its first field); the parser then infers each of them
from its own group's type taken as an accumulator (f32 as f32, integers as s32).  The two inferences
differ, so an op whose stored PTX types the parser would not give back prints generic (mlir-opt prints it
in the custom form and reads it back as another op), as does an op with an empty group (upstream's
printer reads the first operand of each group).
"""

from __future__ import annotations

from ....ir.attributes import Attribute
from ....ir.operation import Operation, Value
from ....ir.types import FloatType, FunctionType, IntegerType, Type
from ....syntax.attr_parser import parse_attribute_text, parse_type_text
from ....syntax.attr_printer import plain_attribute_text
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError, comma_list
from ..directives_upstream import llvm_struct_fields
from .base import Port, attr_entries

_GROUPS = (("A", "operandA"), ("B", "operandB"), ("C", "operandC"))
_PTX_ATTRS = ("multiplicandAPtxType", "multiplicandBPtxType")


def infer_mma_type(t: Type, accumulator: bool) -> str | None:
    """MmaOp::inferOperandMMAType: the PTX type name of a fragment of type `t`, or None."""
    if isinstance(t, FloatType):
        if t.name in ("f64", "f16"):
            return t.name
        if t.name == "f32":
            return "f32" if accumulator else "tf32"
        return None
    if t is parse_type_text("vector<2xf16>"):
        return "f16"
    if isinstance(t, IntegerType):
        return "s32" if accumulator else None
    fields = llvm_struct_fields(t)
    if fields:
        return infer_mma_type(fields[0], accumulator)
    return None


def _ptx_attr(name: str) -> Attribute:
    return parse_attribute_text(f"#nvvm.mma_type<{name}>")


class MmaSyncOp(Port):
    keywords_list = ("A", "B", "C")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        groups = [view.operands(name) for _, name in _GROUPS]
        if len(op.results) != 1 or isinstance(op.results[0].type, FunctionType):
            raise SyntaxModelError("nvvm.mma.sync has one result, not of a function type")
        types = []
        for (word, _), values in zip(_GROUPS, groups, strict=True):
            if not values:
                raise SyntaxModelError(f"nvvm.mma.sync: the {word} group is empty")
            if any(v.type is not values[0].type for v in values):
                raise SyntaxModelError(f"nvvm.mma.sync: the {word} operands do not share one type")
            types.append(values[0].type)
        # the printer's inference (the first group's type as a multiplicand) decides what it leaves out
        elide = infer_mma_type(types[0], False) is not None
        for name, t in zip(_PTX_ATTRS, types, strict=False):
            # absent, the parser would infer one (or fail); left out, it must infer the stored one
            stored = view.attr(name)
            inferred = infer_mma_type(t, True) if elide else None
            if stored is None or (elide and (inferred is None or _ptx_attr(inferred) is not stored)):
                raise SyntaxModelError(f"nvvm.mma.sync: {name} would not read back as stored")
        for (word, _), values in zip(_GROUPS, groups, strict=True):
            p.write(f" {word}[")
            _print_operands(p, values)
            p.write("] ")
        elided = {"operandSegmentSizes", *(_PTX_ATTRS if elide else ())}
        if getattr(p, "keyvalue_props", False):
            _print_mlir24_properties(p, view.all_attrs(), elided)
        p.optional_attr_dict(attr_entries(view, elided))
        p.write(" : (")
        for i, t in enumerate(types):
            if i:
                p.write(", ")
            p.type(t)
        p.write(") -> ")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array

        refs: list[list[OperandRef]] = []
        for word, _ in _GROUPS:
            p.parse_keyword(word)
            group: list[OperandRef] = []
            if p.parse_optional_punct("["):
                group = comma_list(p, p.parse_optional_operand(), p.parse_operand)
                p.parse_punct("]")
            if not group:
                raise p.error(f"expected the {word} operands")
            refs.append(group)
        named: dict[str, Attribute] = {}
        if getattr(p, "keyvalue_props", False):
            named.update(_parse_mlir24_properties(p))
        d = p.parse_optional_attr_dict()
        for k, v in d.entries if d is not None else ():
            if k.text in named:
                raise p.error(f"{k.text} is given twice")
            named[k.text] = v
        p.parse_punct(":")
        p.parse_punct("(")
        types = comma_list(p, p.parse_type(), p.parse_type)
        p.parse_punct(")")
        if len(types) != 3:
            raise p.error(f"expected one type for each operand segment but got {len(types)} types")
        for group, t in zip(refs, types, strict=True):
            p.resolve_operands(group, [t] * len(group), state)
        p.parse_punct("->")
        state.result_types.append(p.parse_type())
        for name, t in zip(_PTX_ATTRS, types, strict=False):
            if name in named:
                continue
            inferred = infer_mma_type(t, True)
            if inferred is None:
                raise p.error(f"attribute {name} is not provided explicitly and cannot be inferred")
            state.attributes[name] = _ptx_attr(inferred)
        state.attributes.update(named)
        state.attributes["operandSegmentSizes"] = i32_array([len(g) for g in refs])


_MLIR24_KEYS = {"shape": ("shape", "#nvvm.shape"), "b1Op": ("b1_op", "#nvvm.mma_b1op"),
                "intOverflowBehavior": ("int_overflow", "#nvvm.mma_int_overflow"),
                "layoutA": ("layout_a", "#nvvm.mma_layout"), "layoutB": ("layout_b", "#nvvm.mma_layout"),
                "multiplicandAPtxType": ("multiplicand_a_ptx_type", "#nvvm.mma_type"),
                "multiplicandBPtxType": ("multiplicand_b_ptx_type", "#nvvm.mma_type")}
"""MLIR 24's form: the properties as `key = value` after the operand groups, `shape` first, the rest in name
order (`shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col`), each value without its prefix;
other attributes in a dictionary after them (checked with iree-opt 3.13 on every case of
`tests/data/pretty_ports/nvvm_mma.mlir`)."""
_BY_KEY = {key: (name, prefix) for name, (key, prefix) in _MLIR24_KEYS.items()}


def _print_mlir24_properties(p: AsmPrinter, entries: list[tuple[str, Attribute]], elided: set[str]) -> None:
    values = dict(entries)
    names = [n for n in ("shape", *sorted(n for n in _MLIR24_KEYS if n != "shape"))
             if n in values and n not in elided]
    if "shape" not in names:
        raise SyntaxModelError("nvvm.mma.sync without a shape")
    for i, name in enumerate(names):
        key, prefix = _MLIR24_KEYS[name]
        text = plain_attribute_text(values[name])
        if not text.startswith(prefix + "<") or not text.endswith(">"):
            raise SyntaxModelError(f"nvvm.mma.sync: {name} is not a {prefix}")
        body = text[len(prefix):] if name == "shape" else text[len(prefix) + 1:-1]
        p.write(f"{', ' if i else ' '}{key} = {body}")
        elided.add(name)


def _parse_mlir24_properties(p: AsmParser) -> dict[str, Attribute]:
    found: dict[str, Attribute] = {}
    while True:
        key = p.parse_optional_any_keyword()
        if key is None:
            break
        if key not in _BY_KEY:
            raise p.error(f"unknown nvvm.mma.sync property {key}")
        name, prefix = _BY_KEY[key]
        if name in found:
            raise p.error(f"{key} is given twice")
        p.parse_punct("=")
        if name == "shape":
            value = p.parse_stripped(prefix)
            if not isinstance(value, Attribute):
                raise p.error("expected a shape")
        else:
            word = p.parse_optional_any_keyword()
            if word is None:
                raise p.error(f"expected a {prefix} case")
            value = parse_attribute_text(f"{prefix}<{word}>")
        found[name] = value
        if not p.parse_optional_punct(","):
            break
    if "shape" not in found:
        raise p.error("expected shape = <m = M, n = N, k = K>")
    return found


def _print_operands(p: AsmPrinter, values: list[Value]) -> None:
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)


MODELS: list[OpSyntax] = [MmaSyncOp("nvvm.mma.sync")]
