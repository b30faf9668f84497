"""An op seen through its ODS declaration: operands and results by group, attributes by name.

MLIR's generated accessors in Python: an ODS operand that is variadic or optional covers a run of the op's
operands, whose length comes from `operandSegmentSizes` (AttrSizedOperandSegments), from the only
variadic group taking the rest, or from an equal split (several variadic groups without segment sizes);
results alike.  Inherent attributes live in the op's decoded properties (bytecode 5 and later) or, in
older files, in its attribute dictionary: `attr(name)` finds them in either place, and `discardable()`
leaves them out.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from ...errors import TextError
from ...ir.attributes import Attribute, DenseArrayAttr, DialectAttr, DictionaryAttr, StringAttr, TypeAttr
from ...ir.operation import PROPS_DECODED, Operation, OpResult, Value
from ...ir.types import Type
from ...syntax.aliases import skip_body
from ...syntax.attr_parser import parse_type_text
from .api import SyntaxModelError


def segment_sizes(attr: Attribute | None) -> list[int] | None:
    """The values of an `array<i32: ...>` segment-size attribute."""
    if not isinstance(attr, DenseArrayAttr) or attr.count * 4 != len(attr.data):
        return None
    return list(struct.unpack(f"<{attr.count}i", bytes(attr.data)))


def split_groups(values: list[Any], kinds: list[str], sizes: list[int] | None, what: str) -> list[list[Any]]:
    """`values` cut into one list per ODS declaration of kind `single`, `optional`, `variadic`, `vov:...`."""
    n = len(kinds)
    if sizes is not None:
        if len(sizes) != n or sum(sizes) != len(values) or any(s < 0 for s in sizes):
            raise SyntaxModelError(f"{what} segment sizes {sizes} do not fit {len(values)} {what}s")
        out: list[list[Any]] = []
        at = 0
        for s in sizes:
            out.append(values[at:at + s])
            at += s
        return out
    variable = [i for i, k in enumerate(kinds) if k != "single"]
    if not variable:
        if len(values) != n:
            raise SyntaxModelError(f"expected {n} {what}s, found {len(values)}")
        return [[v] for v in values]
    fixed = n - len(variable)
    rest = len(values) - fixed
    if rest < 0 or rest % len(variable):
        raise SyntaxModelError(f"cannot split {len(values)} {what}s into the op's groups")
    each = rest // len(variable)
    out = []
    at = 0
    for k in kinds:
        size = 1 if k == "single" else each
        out.append(values[at:at + size])
        at += size
    for k, group in zip(kinds, out, strict=True):
        if k == "optional" and len(group) > 1:
            raise SyntaxModelError(f"an optional {what} group holds {len(group)} values")
    return out


class _Shape:
    """What one kind's syntax data says about every op of that kind, worked out once per process (not
    per op printed): inherent attribute names, operand and result declarations."""

    __slots__ = ("data", "inherent", "operand_names", "operand_kinds", "operand_sizes", "result_names",
                 "result_kinds", "result_sizes")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data  # keeps the id this shape is cached under valid
        names = set(data.get("attrs", {})) | set(data.get("props", {}))
        traits = data.get("traits", [])
        if "AttrSizedOperandSegments" in traits:
            names.add("operandSegmentSizes")
        if "AttrSizedResultSegments" in traits:
            names.add("resultSegmentSizes")
        for _, kind, _ in data.get("operands", []):
            if kind.startswith("vov:"):
                names.add(kind[4:])
        self.inherent = frozenset(names)
        operands = data.get("operands", [])
        results = data.get("results", [])
        self.operand_names = [n for n, _, _ in operands]
        self.operand_sizes = "AttrSizedOperandSegments" in traits
        self.operand_kinds: list[str] | None = [k for _, k, _ in operands]
        if not self.operand_sizes and all(k == "single" for k in self.operand_kinds):
            self.operand_kinds = None
        self.result_names = [n for n, _, _ in results]
        self.result_sizes = "AttrSizedResultSegments" in traits
        self.result_kinds: list[str] | None = [k for _, k, _ in results]
        if not self.result_sizes and all(k == "single" for k in self.result_kinds):
            self.result_kinds = None


_SHAPES: dict[int, _Shape] = {}
"""id(syntax data) -> its shape (syntax data lives as long as its model: the process)."""


def _shape(data: dict[str, Any]) -> _Shape:
    found = _SHAPES.get(id(data))
    if found is None or found.data is not data:
        found = _SHAPES[id(data)] = _Shape(data)
    return found


def _groups(values: Sequence[Any], names: list[str], kinds: list[str] | None, sizes: list[int] | None,
            what: str) -> dict[str, list[Any]]:
    """The values by declaration; `kinds` None: every declaration is a single value."""
    if kinds is None:
        return _singles(values, names, what)
    return dict(zip(names, split_groups(list(values), kinds, sizes, what), strict=True))


def _singles(values: Sequence[Any], names: list[str], what: str) -> dict[str, list[Any]]:
    """The values of declarations that are each one value (most ops; most of those declare one or none)."""
    n = len(names)
    if len(values) != n:
        raise SyntaxModelError(f"expected {n} {what}s, found {len(values)}")
    if n == 1:
        return {names[0]: [values[0]]}
    if not n:
        return {}
    return {name: [v] for name, v in zip(names, values, strict=True)}


class OpView:
    """One op with the syntax data of its kind (`derive.derive_syntax` output)."""

    __slots__ = ("op", "data", "_operands", "_results", "_shape")

    def __init__(self, op: Operation, data: dict[str, Any]) -> None:
        self.op = op
        self.data = data
        self._operands: dict[str, list[Value]] | None = None
        self._results: dict[str, list[OpResult]] | None = None
        self._shape = _shape(data)

    # -- names ----------------------------------------------------------------------------------
    def inherent_names(self) -> frozenset[str]:
        return self._shape.inherent

    # -- attributes -------------------------------------------------------------------------------
    def attr(self, name: str) -> Attribute | None:
        p = self.op.properties
        if p is not None and p.kind == PROPS_DECODED:
            v = p.values.get(name)
            if v is not None:
                return v
        if self.op.attributes is not None:
            return self.op.attributes.lookup(name)
        return None

    def inherent(self, skip: AbstractSet[str] = frozenset()) -> list[tuple[str, Attribute]]:
        """The op's inherent attributes that are set, sorted by name; those named in `skip` are left out
        before sorting (a format's printer leaves most out)."""
        return self._sorted(skip, True)

    def discardable(self) -> list[tuple[str, Attribute]]:
        """The attribute dictionary without inherent attributes (an old file keeps both there)."""
        attrs = self.op.attributes
        if attrs is None:
            return []
        names = self.inherent_names()
        return [(k.text, v) for k, v in attrs.entries if k.text not in names]

    def all_attrs(self, skip: AbstractSet[str] = frozenset()) -> list[tuple[str, Attribute]]:
        """Inherent and discardable attributes in one sorted list (`Operation::getAttrs`); those named in
        `skip` are left out before sorting."""
        return self._sorted(skip, False)

    def _sorted(self, skip: AbstractSet[str], inherent_only: bool) -> list[tuple[str, Attribute]]:
        """The properties, then the dictionary's attributes (inherent ones only, or all) of names not seen
        yet, without those in `skip`, sorted by name."""
        p = self.op.properties
        if p is not None and p.kind == PROPS_DECODED and self.op.attributes is None and \
                p.values.keys() <= skip:
            return []  # (most ops: their format prints every property)
        out: dict[str, Attribute] = {}
        if p is not None and p.kind == PROPS_DECODED:
            if not skip:
                out.update(p.values)
            else:
                for k, v in p.values.items():
                    if k not in skip:
                        out[k] = v
        if self.op.attributes is not None:
            names = self.inherent_names() if inherent_only else None
            for key, v in self.op.attributes.entries:
                k = key.text
                if (names is None or k in names) and k not in skip and k not in out:
                    out[k] = v
        return sorted(out.items(), key=by_name) if len(out) > 1 else list(out.items())

    # -- operands and results ---------------------------------------------------------------------
    def operand_groups(self) -> dict[str, list[Value]]:
        if self._operands is None:
            shape = self._shape
            sizes = None
            if shape.operand_sizes:
                sizes = segment_sizes(self.attr("operandSegmentSizes"))
                if sizes is None:
                    raise SyntaxModelError("the op has no valid operandSegmentSizes")
            self._operands = _groups(self.op.operands, shape.operand_names, shape.operand_kinds, sizes,
                                     "operand")
        return self._operands

    def result_groups(self) -> dict[str, list[OpResult]]:
        if self._results is None:
            shape = self._shape
            sizes = None
            if shape.result_sizes:
                sizes = segment_sizes(self.attr("resultSegmentSizes"))
                if sizes is None:
                    raise SyntaxModelError("the op has no valid resultSegmentSizes")
            self._results = _groups(self.op.results, shape.result_names, shape.result_kinds, sizes,
                                    "result")
        return self._results

    def operands(self, name: str) -> list[Value]:
        return self.operand_groups()[name]

    def results(self, name: str) -> list[OpResult]:
        return self.result_groups()[name]

    def vov_groups(self, name: str) -> list[list[Value]]:
        """A variadic-of-variadic operand's values, cut by its segment attribute."""
        kind = next(k for n, k, _ in self.data["operands"] if n == name)
        sizes = segment_sizes(self.attr(kind[4:]))
        values = self.operands(name)
        if sizes is None or sum(sizes) != len(values):
            raise SyntaxModelError(f"{name}: invalid {kind[4:]}")
        out, at = [], 0
        for s in sizes:
            out.append(values[at:at + s])
            at += s
        return out


def by_name(entry: tuple[str, Attribute]) -> bytes:
    """The sort key of named attributes: the name's bytes (MLIR orders a dictionary so)."""
    return entry[0].encode("utf-8", "surrogateescape")


def dict_attr(entries: list[tuple[str, Attribute]]) -> DictionaryAttr:
    return DictionaryAttr.get(tuple((StringAttr.get(k), v) for k, v in entries))


def attr_type(a: Attribute | None) -> Type | None:
    """The type an attribute gives a format's type resolution (`TypeAttr`'s type, a typed attribute's)."""
    if a is None:
        return None
    if isinstance(a, TypeAttr):
        return a.type
    if isinstance(a, DialectAttr):
        return _dialect_attr_type(a)
    t = getattr(a, "type", None)
    return t if isinstance(t, Type) else None


_DIALECT_HEAD = re.compile(r"#[A-Za-z_][A-Za-z0-9_$.]*")


def _dialect_attr_type(a: DialectAttr) -> Type | None:
    """The type a dialect attribute kept as text carries after its body (`#flow.parameter.named<...> :
    tensor<20xf32>`, a TypedAttrInterface value), None when it carries none."""
    text = a.text
    m = _DIALECT_HEAD.match(text)
    if m is None:
        return None
    end = m.end()
    if text.startswith("<", end):
        end = skip_body(text, end)
    if end < 0 or not text.startswith(" : ", end):
        return None
    try:
        return parse_type_text(text[end + 3:])
    except (TextError, ValueError):
        return None
