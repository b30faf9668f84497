"""Untouched ops of a pretty view keep what the original file stored.

A custom form says less than the bytes: an attribute that holds its default value, an empty
`arg_attrs = [{}, {}]`, an absent `sym_visibility` printed `public`, the location of an implicit
terminator the text leaves out.  Reading such text gives the op as mlir-opt would build it, which is
right for an op the user edited; for an op whose text is what the original printed, the original's
properties, attributes and implicit terminators are taken instead, so an unchanged view saves to the
original bytes.

The parsed module is walked beside the original (ops of each block aligned by name); an op "is what the
original printed" when its name, operand and result types, location, region and successor counts are the
same and its syntax model prints both to the same text (values, regions and successors left out).
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from ..ir.attributes import Attribute, DictionaryAttr
from ..ir.operation import Block, BlockArgument, Operation, Region, Value
from ..ir.types import Type
from ..models.asm import api as asm
from ..models.registry import Registry
from ..syntax.attr_printer import print_attribute, print_location_inline, print_type
from ..syntax.elision import payload_size


class _Facts:
    """What the comparison needs from the view: the syntax models, the ops the parser added."""

    def __init__(self, registry: Registry, implicit: set[int], custom: set[int]) -> None:
        self.registry = registry
        self.implicit = implicit
        self.custom = custom
        self._models: dict[str, asm.OpSyntax | None] = {}

    def model(self, op: Operation) -> asm.OpSyntax | None:
        name = op.op_name.full
        if name not in self._models:
            self._models[name] = self.registry.op_syntax(name).model
        return self._models[name]


def reconcile(parsed: Operation, original: Operation, registry: Registry, implicit: set[int],
              custom: set[int], elided: dict[int, Region] | None = None) -> int:
    """Give the parsed ops that read back as the original's ops the original's stored form; returns how
    many ops took it.  Only ops read in a custom form (`custom`: their ids) can: the generic form says
    everything an op stores.  `implicit`: ids of what the text left out and the parser made up (implicit
    terminators, locations of region arguments), which the original's take the place of; `elided`: the
    bodies the text leaves out (by id), which a copy of the original's replaces."""
    facts = _Facts(registry, implicit, custom)
    count = 0
    stack = [(parsed, original)]
    while stack:
        y, x = stack.pop()
        if not _same_shape(y, x):
            continue
        if id(y) in custom:
            # Uniqued attribute dictionaries (versions before properties) can be the original's already.
            same = y.properties is x.properties and y.attributes is x.attributes
            if not same and _same_text(y, x, facts):
                y.properties = x.properties
                y.attributes = x.attributes
                y.op_name = x.op_name
                count += 1
                same = True
            if same and elided:
                _take_bodies(y, x, elided)
            # An op whose own text changed (an attribute edited) may hold ops that did not: go on.
        if len(y.regions) != len(x.regions):
            continue
        for ry, rx in zip(y.regions, x.regions, strict=True):
            if len(ry.blocks) != len(rx.blocks):
                continue
            for by, bx in zip(ry.blocks, rx.blocks, strict=True):
                if not _same_arguments(by, bx):
                    continue
                for ay, ax in zip(by.arguments, bx.arguments, strict=True):
                    if id(ay) in implicit:  # a region argument whose location the text does not say
                        ay.location = ax.location
                for oy, ox in _align(by, bx):
                    if id(oy) in implicit and oy.op_name.full == ox.op_name.full and \
                            len(oy.operands) == len(ox.operands) and len(oy.results) == len(ox.results):
                        oy.location = ox.location  # an op the text left out (implicit terminators)
                    stack.append((oy, ox))
    return count


def _take_bodies(y: Operation, x: Operation, elided: dict[int, Region]) -> None:
    """The bodies of `y` its text left out become copies of the original's."""
    from ..ir.clone import clone_region

    for i, region in enumerate(y.regions):
        if id(region) in elided and i < len(x.regions):
            copy = clone_region(x.regions[i], y)
            region.blocks = copy.blocks
            for b in region.blocks:
                b.parent = region


def _align(by: Block, bx: Block) -> list[tuple[Operation, Operation]]:
    ys, xs = by.operations, bx.operations
    if len(ys) == len(xs) and all(a.op_name.full == b.op_name.full for a, b in zip(ys, xs, strict=True)):
        return list(zip(ys, xs, strict=True))
    matcher = SequenceMatcher(None, [o.op_name.full for o in ys], [o.op_name.full for o in xs],
                              autojunk=False)
    out: list[tuple[Operation, Operation]] = []
    for a, b, n in matcher.get_matching_blocks():
        out.extend(zip(ys[a:a + n], xs[b:b + n], strict=True))
    return out


def _same_arguments(by: Block, bx: Block) -> bool:
    if len(by.arguments) != len(bx.arguments):
        return False
    return all(a.type is b.type for a, b in zip(by.arguments, bx.arguments, strict=True))


def _same_shape(y: Operation, x: Operation) -> bool:
    """The same op in the same place: name, location, operand and result types, region and successor
    counts (what any form of its text says)."""
    if y.op_name.full != x.op_name.full or y.location is not x.location:
        return False
    if len(y.operands) != len(x.operands) or len(y.results) != len(x.results) or \
            len(y.regions) != len(x.regions) or len(y.successors) != len(x.successors):
        return False
    if any(a.type is not b.type for a, b in zip(y.operands, x.operands, strict=True)):
        return False
    return all(a.type is b.type for a, b in zip(y.results, x.results, strict=True))


def _same_text(y: Operation, x: Operation, facts: _Facts) -> bool:
    """Whether the op's syntax model prints both to the same text: the custom form cannot tell them
    apart, so the text of `y` is what the original printed for `x`."""
    model = facts.model(y)
    if model is None:
        return False
    try:
        return _text(model, y) == _text(model, x)
    except Exception:  # a model that cannot print one of them: they are not the same text
        return False


def _text(model: asm.OpSyntax, op: Operation) -> str:
    w = _TextOnly()
    model.print_op(op, w)
    return "".join(w.out)


_BIG = 4096
"""Attributes with a payload over this many bytes stand for themselves in the comparison (by identity):
printing a weight in full to compare it would cost its size twice over, and the parser gives an elided
value back as the original's own object."""


def _attr_text(a: Attribute) -> str:
    if payload_size(a) > _BIG:
        return f"<{type(a).__name__}@{id(a):x}>"
    return print_attribute(a)


class _TextOnly:
    """An op printer that keeps only what an op's text says about its attributes and types."""

    def __init__(self) -> None:
        self.out: list[str] = []

    def write(self, text: str) -> None:
        self.out.append(text)

    def operand(self, value: Value) -> None:
        self.out.append("%")

    def value_name(self, value: Value) -> str:
        # What a model compares names with (util.func's `%argN`): a stable name that says nothing.
        return f"%arg{value.index}" if isinstance(value, BlockArgument) else "%"

    def type(self, t: Type) -> None:
        self.out.append(print_type(t))

    def attribute(self, a: Attribute, slot: str | None = None) -> None:
        self.out.append(_attr_text(a))

    def attribute_without_type(self, a: Attribute, slot: str | None = None) -> None:
        from .pretty import attribute_without_type

        self.out.append(attribute_without_type(a) if payload_size(a) <= _BIG else _attr_text(a))

    def stripped(self, value: Attribute | Type, prefix: str, lead_space: bool = True) -> None:
        self.out.append(print_type(value) if isinstance(value, Type) else _attr_text(value))

    def optional_attr_dict(self, entries: Sequence[tuple[str, Attribute]], elided: Sequence[str] = (),
                           with_keyword: bool = False) -> None:
        skip = set(elided)
        kept = [(k, v) for k, v in entries if k not in skip]
        if kept:  # as the view prints it: an empty dictionary says nothing
            self.out.append("{" + ", ".join(f"{k} = {_attr_text(v)}" for k, v in kept) + "}")

    def region(self, region: Region, *flags: bool) -> None:
        self.out.append("{}")

    def successor(self, block: Block) -> None:
        self.out.append("^")

    def symbol_name(self, name: bytes) -> None:
        self.out.append("@" + name.decode("utf-8", "surrogateescape"))

    def keyword_or_string(self, text: bytes) -> None:
        self.out.append(text.decode("utf-8", "surrogateescape"))

    def region_argument(self, arg: BlockArgument, attrs: DictionaryAttr | None = None,
                        omit_type: bool = False) -> None:
        self.out.append(f"%: {print_type(arg.type)} ")
        if attrs is not None and attrs.entries:  # as the view prints it: an empty dictionary says nothing
            self.out.append(print_attribute(attrs))
        self.out.append(print_location_inline(arg.location))

    def shadow_region_args(self, region: Region, values: Sequence[Value]) -> None:
        return

    def newline(self) -> None:
        self.out.append("\n")

    def indent(self) -> None:
        return

    def dedent(self) -> None:
        return
