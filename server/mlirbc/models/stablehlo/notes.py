"""What the editor says about a vhlo op (a note hook, `models.hooks`): its StableHLO name and summary, its
attributes by name with their values spelled plainly, the StableHLO types of its operands and results, a
StableHLO spelling for an inlay hint, and the function name a `vhlo.func_v1` keeps in its properties (for the
outline).  The text view itself stays exact VHLO; this is commentary beside it.

For an op of the StableHLO view (`describe_view_op`): its summary, and the VHLO op it is stored as.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.attributes import Attribute, DictionaryAttr
from ...ir.operation import PROPS_DECODED, Operation
from ...ir.structured import StructuredAttr
from ...ir.types import Type
from ...syntax.attr_printer import print_attribute, print_type
from ..api import ModelError
from ..hooks import OpNote
from ..kinds import field_attr, field_bytes, field_int, field_tuple, field_type
from .ops import VhloOps, stablehlo_docs
from .vhlo_attrs import EnumKind, TensorKind
from .vhlo_types import to_builtin

if TYPE_CHECKING:
    from .view import StablehloConversion, StablehloView

MAX_VALUE = 160
"""Characters of one attribute value shown in a hover."""


def stablehlo_type(t: Type) -> str:
    """A VHLO type in StableHLO spelling (`tensor<8x16xf32>`), or its own text if it has none."""
    try:
        return print_type(to_builtin(t, stablehlo=True))
    except (ModelError, TypeError, ValueError):
        return print_type(t)


def plain_value(a: Attribute) -> str:
    """An attribute's value spelled plainly: `1`, `true`, `"main"`, `EQ`, `[0, 1]`, `tensor<2xf32>`."""
    if not isinstance(a, StructuredAttr) or a.kind.dialect != "vhlo":
        return print_attribute(a)
    kind = a.kind
    f = a.fields
    try:
        if isinstance(kind, EnumKind):
            return kind.cases[field_int(f[0], kind.name)]
        name = kind.name
        if name == "integer_v1":
            text = print_attribute(a)  # `#vhlo.integer_v1<1 : i64>`
            return text[len("#vhlo.integer_v1<"):-1]
        if name == "bool_v1":
            return "true" if f[0] else "false"
        if name == "string_v1":
            return '"' + field_bytes(f[0], "string").decode("utf-8", "replace") + '"'
        if name == "type_v1":
            return stablehlo_type(field_type(f[0], "type"))
        if name == "array_v1":
            items = [plain_value(field_attr(x, "element")) for x in field_tuple(f[0], "array")]
            return "[" + ", ".join(items) + "]"
        if name == "dict_v1":
            entries = []
            for pair in field_tuple(f[0], "dict"):
                k, v = field_tuple(pair, "entry")
                entries.append(f"{plain_value(field_attr(k, 'key'))} = {plain_value(field_attr(v, 'value'))}")
            return "{" + ", ".join(entries) + "}"
        if name == "tensor_v1" and isinstance(kind, TensorKind):
            text = print_attribute(a)  # `#vhlo.tensor_v1<dense<...> : tensor<...>>`
            return text[len("#vhlo.tensor_v1<"):-1]
    except (ModelError, IndexError, ValueError):
        pass
    return print_attribute(a)


def _short(s: str) -> str:
    s = s.replace("`", "'")
    return s if len(s) <= MAX_VALUE else s[:MAX_VALUE - 1] + "…"


def _attributes(op: Operation) -> dict[str, Attribute]:
    props = op.properties
    if props is not None and props.kind == PROPS_DECODED:
        return dict(props.values)
    if isinstance(op.attributes, DictionaryAttr):  # files older than bytecode v5 keep them here
        return {k.text: v for k, v in op.attributes.entries}
    return {}


class VhloNotes:
    """The note hook registered for the `vhlo` dialect."""

    def __init__(self, ops: VhloOps) -> None:
        self.ops = ops

    def __call__(self, op: Operation) -> OpNote | None:
        name = op.name
        shlo = self.ops.stablehlo_name(name)
        if shlo is None:
            return None
        if shlo == "func.return" and not _in_function(op):
            shlo = "stablehlo.return"
        attrs = _attributes(op)
        note = OpNote()
        doc = stablehlo_docs().get(shlo, {})
        head = f"**StableHLO** `{shlo}`"
        if doc.get("summary"):
            head += f": {doc['summary']}"
        note.lines.append(head)
        versions = self.ops.versions(name)
        if versions is not None:
            lo, hi = versions
            span = f"{'.'.join(map(str, lo))} to {'.'.join(map(str, hi)) if hi else 'current'}"
            note.lines.append(f"`{name}` exists in StableHLO {span}")
        if attrs:
            note.lines.append("Attributes:\n" + "\n".join(
                f"- `{k}` = `{_short(plain_value(v))}`" for k, v in sorted(attrs.items())))
        if op.operands:
            note.lines.append("Operands: " + ", ".join(f"`{stablehlo_type(v.type)}`" for v in op.operands))
        if op.results:
            note.lines.append("Results: " + ", ".join(f"`{stablehlo_type(v.type)}`" for v in op.results))
        symbol = attrs.get("sym_name")
        if name.startswith("vhlo.func_v") and isinstance(symbol, StructuredAttr) and \
                symbol.kind.name == "string_v1":
            note.symbol = field_bytes(symbol.fields[0], "sym_name").decode("utf-8", "replace")
            note.spelling = f"{shlo} @{note.symbol}"
        elif op.results:
            note.spelling = f"{shlo} : " + ", ".join(stablehlo_type(v.type) for v in op.results)
        else:
            note.spelling = shlo
        return note


def _in_function(op: Operation) -> bool:
    block = op.parent
    region = block.parent if block is not None else None
    parent = region.parent if region is not None else None
    return parent is not None and parent.name.startswith("vhlo.func_v")


def describe_view_op(view: StablehloView, conversion: StablehloConversion, op: Operation) -> list[str]:
    """Hover paragraphs for an op of the StableHLO view: the StableHLO op's summary, then the VHLO op it is
    stored as (or will be, for an op the file does not have yet), that op's versions and the file's
    target."""
    from .versioning import opset
    from .versions import version_text

    lines: list[str] = []
    target = version_text(conversion.target)
    kept = next((reason for k, reason in conversion.notes() if k is op), None)
    if kept is not None:
        lines.append(f"Shown as stored (VHLO): {kept}")
        return lines
    doc = stablehlo_docs().get(op.name, {})
    if doc.get("summary"):
        lines.append(f"**{op.name}**: {doc['summary']}")
    stored = conversion.stored_op(op)
    table = view.table
    if stored is not None and stored.op_name.dialect == "vhlo":
        version = table.get(stored.name)
        span = ""
        if version is not None:
            span = f" (exists in StableHLO {version_text(version.since)} to " \
                   f"{version_text(version.until) if version.until else 'current'})"
        lines.append(f"Stored as `{stored.name}`{span}; the file's target is StableHLO {target}")
        return lines
    base = table.base_of_view(op.name)
    if base is not None:
        at = table.at(base, opset(conversion.target))
        if at is not None:
            lines.append(f"Not in the file yet: saved as `{at.name}`, the version for the file's target, "
                         f"StableHLO {target}")
        else:
            first = table.family(base)[0].since if table.family(base) else None
            since = f" (it exists from {version_text(first)})" if first is not None else ""
            lines.append(f"Not in the file yet, and StableHLO {target} (the file's target) has no "
                         f"`{op.name}`{since}: saving refuses it")
    return lines
