"""The pretty view: every op in its custom assembly form where a syntax model knows it, as mlir-opt prints.

The text is what `mlir-opt --mlir-print-debuginfo --mlir-print-local-scope` prints: values and blocks
named as MLIR names them (`naming`), each op through the syntax model the registry gives it (declarative
formats, hand-written ports) and generic where there is none, the op is not registered in the file, its
properties are a fallback, or the model refuses it (an `Information` note says why).  Entry blocks and
implicit terminators are left out where the op's form leaves them out, op names inside a region drop the
default dialect of the op that holds the region.

This module is the view's op printer (`models.asm.api.AsmPrinter`): a model prints one op into a
`_OpWriter`, which keeps the op's text and, in order, the regions to print inside it; the text is
committed only when the model succeeded, so a refused op leaves nothing behind and prints generic.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, cast

from ..ir.attributes import (
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    SparseElementsAttr,
    StringAttr,
    UnitAttr,
)
from ..ir.gcpause import building
from ..ir.module import Module
from ..ir.operation import (
    PROPS_DECODED,
    PROPS_FALLBACK,
    Block,
    BlockArgument,
    Operation,
    OpName,
    Region,
    Value,
)
from ..ir.types import FloatType, NoneType, Type
from ..models.asm import api as asm
from ..models.asm.api import SyntaxModelError
from ..models.asm.declarative import ods_result_names
from ..models.build import default_registry
from ..models.registry import Registry
from ..models.sets import SETS
from ..syntax.aliases import AliasCollector, AliasRules, AliasScope
from ..syntax.attr_printer import (
    keyword_or_string,
    print_attribute,
    print_location,
    print_location_inline,
    print_type,
    render_with_elision,
    symbol_ref,
)
from ..syntax.elision import Elider
from ..syntax.floats import print_float_bits
from .naming import Naming
from .printer import USELIST_PREFIX, _order_text, _Printer, outermost, symbol_of
from .sourcemap import PART_USELIST, PIECE_ATTRIBUTES, PIECE_LOCATION


class PrettyNote(NamedTuple):
    """An op printed generic although a syntax model exists for it, and why."""

    op: Operation
    message: str


class _RegionMark:
    __slots__ = ("region", "entry_args", "terminators", "empty_block", "extra_indent")

    def __init__(self, region: Region, entry_args: bool, terminators: bool, empty_block: bool,
                 extra_indent: int = 0) -> None:
        self.region = region
        self.entry_args = entry_args
        self.terminators = terminators
        self.empty_block = empty_block
        self.extra_indent = extra_indent
        """Indents the op's printer added before the region (`increaseIndent`): its body goes deeper."""


class _OpWriter:
    """The op printer a syntax model prints one op into (text between regions, and the regions)."""

    # one per op printed (two with aliases): slots make them cheaper to make and to use
    __slots__ = ("pp", "op", "indent_level", "base_indent", "chunks", "buf", "length", "elided", "uses",
                 "succs", "attr_dict", "cacheable")

    def __init__(self, pp: _PrettyPrinter, op: Operation, indent: int) -> None:
        self.pp = pp
        self.op = op
        self.indent_level = indent
        self.base_indent = indent
        self.chunks: list[str | _RegionMark] = []
        self.buf: list[str] = []
        self.length = 0
        """Characters written since the last region (the position in the current text chunk)."""
        self.elided = 0
        """Placeholders in the op's text (counted when the text is committed, however often it is)."""
        self.uses: list[tuple[int, int, int, Value]] = []
        """(chunk number, offset in chunk, length, value) of each operand printed."""
        self.succs: list[tuple[int, int, int, Block]] = []
        self.attr_dict: tuple[int, int, int] | None = None
        self.cacheable = True
        """Whether the op's text is a function of its kind, attributes and types alone (no regions, no
        names read back by the model): then ops of the same shape reuse it (`_Template`)."""

    @property
    def mlir_version(self) -> int:
        """The MLIR major version the view's model set models (a model's spelling may differ by it)."""
        return self.pp.mlir_version

    @property
    def keyvalue_props(self) -> bool:
        return self.pp.keyvalue_props

    # -- raw ----------------------------------------------------------------------------------
    def write(self, text: str) -> None:
        self.buf.append(text)
        self.length += len(text)

    def _chunk(self) -> int:
        return len(self.chunks)

    # -- AsmPrinter ------------------------------------------------------------------------------
    def value_name(self, value: Value) -> str:
        self.cacheable = False
        return self.pp.naming.value(value)

    def operand(self, value: Value) -> None:
        naming = self.pp.naming
        text = naming.texts.get(id(value)) or naming.value(value)
        length = len(text)
        if type(value) is BlockArgument:
            region = value.owner.parent
            if region is not None and region.parent is self.op:
                # An argument of the op's own region printed in its head (`scf.for %iv = ...`,
                # `gpu.launch blocks(%bx, ...)`): where the text defines it, as the parser reads it.
                length = -length
        at = self.length
        self.uses.append((len(self.chunks), at, length, value))
        self.buf.append(text)  # `write`, spelled out (one call per operand less)
        self.length = at + len(text)

    def type(self, t: Type) -> None:
        self.write(print_type(t))

    def attribute(self, a: Attribute, slot: str | None = None) -> None:
        self.write(render_with_elision(self.pp.elider_for(self.op, slot), print_attribute, a))

    def attribute_without_type(self, a: Attribute, slot: str | None = None) -> None:
        self.write(render_with_elision(self.pp.elider_for(self.op, slot), attribute_without_type, a))

    def stripped(self, value: Attribute | Type, prefix: str, lead_space: bool = True) -> None:
        scope = self.pp.alias_scope
        if scope is not None:
            name = scope.alias_of(value)
            if name is not None:  # printStrippedAttrOrType prints an alias when there is one
                self.write(name)
                return
        if isinstance(value, DenseArrayAttr):
            if prefix != "array":
                raise SyntaxModelError(f"a dense array where {prefix} is expected")
            text = dense_array_stripped(value)
            if text is None:
                raise SyntaxModelError("a dense array that cannot be printed stripped")
            self.write(text)
            return
        text = print_type(value) if isinstance(value, Type) else print_attribute(value)
        dialect, _, mnemonic = prefix[1:].partition(".")
        pretty = f"{prefix[:1]}{dialect}<{mnemonic}"
        if mnemonic and text.startswith(pretty) and text.endswith(">") and len(text) > len(pretty) + 1 \
                and not (text[len(pretty)].isalnum() or text[len(pretty)] in "_.") \
                and _one_piece(text[len(pretty):-1].lstrip(" ")):
            # `#dialect<mnemonic body>` (an enum's `#gpu<dim x>`, Shardy's `#sdy<manual_axes{"i"}>`):
            # stripped, the body (with the space the attribute's printer writes before it, or not), when
            # the view's parser can tell where it ends (one token or one bracketed group)
            body = text[len(pretty):-1]
            self.write(body[1:] if body.startswith(" ") and not (lead_space and self.pp.enum_lead_space)
                       else body)
            return
        if not text.startswith(prefix) or (len(text) > len(prefix) and text[len(prefix)] not in "<"):
            # Not of the class the format names (dyn_cast fails): printed in full.
            if isinstance(value, Type):
                self.write(text)
                return
            raise SyntaxModelError(f"attribute {text[:60]} is not a {prefix}")
        rest = text[len(prefix):]
        self.write(rest if rest else text)

    def optional_attr_dict(self, entries: Sequence[tuple[str, Attribute]], elided: Sequence[str] = (),
                           with_keyword: bool = False) -> None:
        if not entries:  # most ops: nothing to print
            return
        skip = set(elided)
        kept = [(k, v) for k, v in entries if k not in skip]
        if not kept:
            return
        if with_keyword:
            self.write(" attributes")
        self.write(" ")
        start = (self._chunk(), self.length)
        parts = []
        for k, v in kept:
            key = keyword_or_string(k.encode("utf-8", "surrogateescape"))
            if isinstance(v, UnitAttr):
                parts.append(key)
            else:
                text = render_with_elision(self.pp.elider_for(self.op, k), print_attribute, v)
                parts.append(f"{key} = {text}")
        text = "{" + ", ".join(parts) + "}"
        self.write(text)
        if start[0] == self._chunk():
            self.attr_dict = (start[0], start[1], start[1] + len(text))

    def region(self, region: Region, print_entry_block_args: bool = True,
               print_block_terminators: bool = True, print_empty_block: bool = False) -> None:
        self.cacheable = False
        self.chunks.append("".join(self.buf))
        self.buf = []
        self.length = 0
        self.chunks.append(_RegionMark(region, print_entry_block_args, print_block_terminators,
                                       print_empty_block, max(0, self.indent_level - self.base_indent)))

    def successor(self, block: Block) -> None:
        text = self.pp.block_names.get(id(block), "^INVALIDBLOCK")
        self.succs.append((self._chunk(), self.length, len(text), block))
        self.write(text)

    def symbol_name(self, name: bytes) -> None:
        self.write(symbol_ref(name))

    def keyword_or_string(self, text: bytes) -> None:
        self.write(keyword_or_string(text))

    def region_argument(self, arg: BlockArgument, attrs: DictionaryAttr | None = None,
                        omit_type: bool = False) -> None:
        self.operand_def(arg)
        if not omit_type:
            self.write(": ")
            self.write(print_type(arg.type))
        if attrs is not None and attrs.entries:
            # the argument's dictionary, not the op's: the op's attribute piece stays where it is
            op_dict = self.attr_dict
            self.optional_attr_dict([(k.text, v) for k, v in attrs.entries])
            self.attr_dict = op_dict
        self.write(" loc(" + print_location_inline(arg.location) + ")")

    def shadow_region_args(self, region: Region, values: Sequence[Value]) -> None:
        self.cacheable = False
        if region.blocks:
            self.pp.naming.shadow(region.blocks[0].arguments, values)

    def operand_def(self, value: Value) -> None:
        """A value's name where the op's text defines it (a region argument in its signature)."""
        self.cacheable = False
        text = self.pp.naming.value(value)
        self.uses.append((self._chunk(), self.length, -len(text), value))
        self.write(text)

    def newline(self) -> None:
        self.cacheable = False  # the text is indented for this op's depth
        self.write("\n" + "  " * self.indent_level)

    def indent(self) -> None:
        self.indent_level += 1

    def dedent(self) -> None:
        self.indent_level -= 1

    def finish(self) -> list[str | _RegionMark]:
        self.chunks.append("".join(self.buf))
        self.buf = []
        return self.chunks


_ATTR, _TYPE, _ARG, _REGION = range(4)
Event = tuple[int, object, bool]


_S_TYPE, _S_ATTR, _S_BARE, _S_STRIPPED, _S_DICT, _S_LOC = range(6)
Spot = tuple[int, int, int, int, tuple[object, ...], tuple[object, ...]]
"""Where the alias pass's text printed a value: (chunk, start, end, how it was printed, the printing call's
arguments (the value first), the values of a dictionary whose aliases may change it)."""


class _Recorder(_OpWriter):
    """An op writer that also records, in order, what aliases are made of: attributes and types printed,
    region arguments printed in a signature, regions (the alias pass of `_PrettyPrinter.collect`); and where
    in its text each value was printed (`spots`), so the print pass can put aliases in without running the
    op's model again (`_PrettyPrinter._with_aliases`)."""

    __slots__ = ("events", "spots", "broke_lines", "breaks", "plain")

    def __init__(self, pp: _PrettyPrinter, op: Operation, indent: int) -> None:
        super().__init__(pp, op, indent)
        self.events: list[Event] = []
        self.spots: list[Spot] = []
        self.broke_lines = False
        """Whether the text has line breaks (indented for the depth it was printed at)."""
        self.breaks: list[tuple[int, int]] = []
        """(chunk, offset) of each line break the op's printer wrote (`newline`)."""
        self.plain = False
        """Set by the alias pass when nothing the op printed is or holds an alias: its text stands."""

    def _spot(self, before: int, kind: int, args: tuple[object, ...], values: tuple[object, ...]) -> None:
        # Each recorded call writes its value's text last, in one piece.
        if self.length != before:
            end = self.length
            self.spots.append((len(self.chunks), end - len(self.buf[-1]), end, kind, args, values))

    def _put(self, text: str, kind: int, args: tuple[object, ...]) -> None:
        """Write a value's text and where it is (the hot path of the alias pass: one call per value)."""
        start = self.length
        end = start + len(text)
        self.spots.append((len(self.chunks), start, end, kind, args, ()))
        self.buf.append(text)
        self.length = end

    def newline(self) -> None:
        self.broke_lines = True
        self.breaks.append((len(self.chunks), self.length))
        super().newline()

    def type(self, t: Type) -> None:
        self.events.append((_TYPE, t, False))
        text = print_type(t)  # `_put`, spelled out: the most frequent value an op prints
        start = self.length
        self.length = end = start + len(text)
        self.spots.append((len(self.chunks), start, end, _S_TYPE, (t,), ()))
        self.buf.append(text)

    def attribute(self, a: Attribute, slot: str | None = None) -> None:
        self.events.append((_ATTR, a, False))
        text = render_with_elision(self.pp.elider_for(self.op, slot), print_attribute, a)
        self._put(text, _S_ATTR, (a, slot))

    def attribute_without_type(self, a: Attribute, slot: str | None = None) -> None:
        self.events.append((_ATTR, a, True))
        text = render_with_elision(self.pp.elider_for(self.op, slot), attribute_without_type, a)
        self._put(text, _S_BARE, (a, slot))

    def stripped(self, value: Attribute | Type, prefix: str, lead_space: bool = True) -> None:
        self.events.append((_TYPE if isinstance(value, Type) else _ATTR, value, False))
        before = self.length
        super().stripped(value, prefix, lead_space)
        self._spot(before, _S_STRIPPED, (value, prefix, lead_space), (value,))

    def optional_attr_dict(self, entries: Sequence[tuple[str, Attribute]], elided: Sequence[str] = (),
                           with_keyword: bool = False) -> None:
        if not entries:
            return
        skip = set(elided)
        values = tuple(v for k, v in entries if k not in skip)
        self.events.extend((_ATTR, v, False) for v in values)
        before = self.length
        super().optional_attr_dict(entries, elided, with_keyword)
        self._spot(before, _S_DICT, (entries, elided), values)

    def region(self, region: Region, print_entry_block_args: bool = True,
               print_block_terminators: bool = True, print_empty_block: bool = False) -> None:
        super().region(region, print_entry_block_args, print_block_terminators, print_empty_block)
        self.events.append((_REGION, self.chunks[-1], False))

    def region_argument(self, arg: BlockArgument, attrs: DictionaryAttr | None = None,
                        omit_type: bool = False) -> None:
        # The alias pass sees a signature's argument's type and location (then what its dictionary holds).
        self.events.append((_ARG, arg, False))
        self.operand_def(arg)
        if not omit_type:
            self.write(": ")
            before = self.length
            self.write(print_type(arg.type))
            self._spot(before, _S_TYPE, (arg.type,), (arg.type,))
        if attrs is not None and attrs.entries:
            op_dict = self.attr_dict
            self.optional_attr_dict([(k.text, v) for k, v in attrs.entries])
            self.attr_dict = op_dict
        before = self.length
        self.write(" loc(" + print_location_inline(arg.location) + ")")
        self._spot(before, _S_LOC, (arg.location,), (arg.location,))


def _replay(w: _OpWriter, kind: int, args: tuple[object, ...]) -> str:
    """The text one recorded call prints now (into a scratch writer `w`)."""
    w.buf = []
    w.length = 0
    if kind == _S_TYPE:
        w.type(args[0])  # type: ignore[arg-type]
    elif kind == _S_ATTR:
        w.attribute(args[0], args[1])  # type: ignore[arg-type]
    elif kind == _S_BARE:
        w.attribute_without_type(args[0], args[1])  # type: ignore[arg-type]
    elif kind == _S_STRIPPED:
        w.stripped(args[0], args[1], args[2])  # type: ignore[arg-type]
    elif kind == _S_DICT:
        w.optional_attr_dict(args[0], args[1])  # type: ignore[arg-type]
    else:
        w.write(" loc(" + print_location_inline(args[0]) + ")")  # type: ignore[arg-type]
    return w.buf[-1]


def attribute_without_type(a: Attribute) -> str:
    """printAttributeWithoutType (AttrTypeElision::Must)."""
    if isinstance(a, IntegerAttr):
        text = print_attribute(a)
        if a.type is not None and " : " in text:
            return text.rsplit(" : ", 1)[0]
        return text
    if isinstance(a, FloatAttr):
        if isinstance(a.type, FloatType):
            return print_float_bits(a.bits, a.type.name)
    if isinstance(a, StringAttr | DenseElementsAttr | DenseStringElementsAttr):
        text = print_attribute(a)
        if isinstance(a, StringAttr):
            if isinstance(a.type, NoneType):
                return text
        head, sep, _ = text.rpartition(" : ")
        return head if sep else text
    if isinstance(a, DenseResourceElementsAttr | SparseElementsAttr):
        text = print_attribute(a)
        suffix = " : " + print_type(a.type)
        return text[:-len(suffix)] if text.endswith(suffix) else text
    return print_attribute(a)


def dense_array_stripped(a: DenseArrayAttr) -> str | None:
    """`[1, 2]` for `array<i64: 1, 2>` (DenseArrayAttr::print)."""
    text = print_attribute(a)
    if not text.startswith("array<"):
        return None
    colon = text.find(": ")
    if colon < 0:
        return "[]"
    return "[" + text[colon + 2:-1] + "]"


_UNKNOWN = object()
_Namer = Callable[[Operation], list[tuple[int, str]]]
_ArgNamer = Callable[[Operation, Region], list[tuple[BlockArgument, str]]]


def _offset(name: tuple[int, int, int, object]) -> int:
    return name[0]


_PADS = tuple("  " * i for i in range(64))
_NPADS = len(_PADS)


def _template_key(op: Operation) -> tuple[object, ...]:
    """What an op's text is a function of, besides the names of its operands and successors.
    Attributes and types are uniqued (`ir.uniquer`: equal is identical), so identities say it: a tuple
    of integers hashes faster than the types themselves.  Where an operand or successor repeats, which
    ones repeat is part of it (a template's slots are by position)."""
    operands = op.operands
    n = len(operands)
    results = op.results
    if n <= 2 and len(results) == 1 and not op.successors:  # most ops: spelled out, no lists made
        if n == 2:
            a, b = operands
            if a is not b:
                return (id(op.op_name), id(op.properties), id(op.attributes), 2, 0, 0, id(a.type),
                        id(b.type), id(results[0].type))
        elif n == 1:
            return (id(op.op_name), id(op.properties), id(op.attributes), 1, 0, 0, id(operands[0].type),
                    id(results[0].type))
        else:
            return (id(op.op_name), id(op.properties), id(op.attributes), 0, 0, 0, id(results[0].type))
    same: object = 0
    if n > 1 and (operands[0] is operands[1] if n == 2 else len({id(v) for v in operands}) != n):
        first: dict[int, int] = {}
        same = tuple([first.setdefault(id(v), i) for i, v in enumerate(operands)])
    succ = op.successors
    ns = len(succ)
    if ns > 1 and len({id(b) for b in succ}) != ns:
        firsts: dict[int, int] = {}
        same = (same, tuple([firsts.setdefault(id(b), i) for i, b in enumerate(succ)]))
    return (id(op.op_name), id(op.properties), id(op.attributes), n, ns, same,
            *[id(v.type) for v in operands], *[id(r.type) for r in results])


class _Template:
    """The text of an op without regions with holes for its operand and successor names."""

    __slots__ = ("pieces", "slots", "attr_dict", "symbol", "dialect", "name", "elided")

    def __init__(self, pieces: list[str], slots: list[tuple[bool, int]],
                 attr_dict: tuple[int, int, int] | None, symbol: str | None = None) -> None:
        self.pieces = pieces
        self.slots = slots
        """(is a successor, index) of each hole, in text order."""
        self.attr_dict = attr_dict
        """(piece, start, end) of the attribute dictionary."""
        self.symbol = symbol
        """The ops' `sym_name` (a function of their attributes and properties, which the key holds)."""
        self.dialect: str | None = None
        self.name = ""
        """The op name as printed under the default dialect `dialect` (the last one it was printed
        under: ops of one template mostly follow each other in one region)."""
        self.elided = 0
        """Placeholders in the text (counted for each op printed with it)."""

    @classmethod
    def of(cls, op: Operation, w: _OpWriter, text: str) -> _Template | None:
        holes: list[tuple[int, int, bool, int]] = []
        uses = w.uses
        if uses:
            operands = op.operands
            index: dict[int, int] | None = None
            for k, (_, off, length, v) in enumerate(uses):
                if length < 0:
                    return None
                if k < len(operands) and operands[k] is v and index is None:
                    holes.append((off, length, False, k))  # (most formats print operands in order)
                    continue
                if index is None:
                    index = {id(u): i for i, u in enumerate(operands)}
                i = index.get(id(v))
                if i is None:
                    return None
                holes.append((off, length, False, i))
        if w.succs:
            bindex = {id(b): i for i, b in enumerate(op.successors)}
            for _, off, length, b in w.succs:
                i = bindex.get(id(b))
                if i is None:
                    return None
                holes.append((off, length, True, i))
        holes.sort()
        pieces: list[str] = []
        slots: list[tuple[bool, int]] = []
        at = 0
        attr_dict = None
        for off, length, is_succ, i in holes:
            if off < at:
                return None
            pieces.append(text[at:off])
            slots.append((is_succ, i))
            at = off + length
        pieces.append(text[at:])
        if w.attr_dict is not None:
            _, start, end = w.attr_dict
            at = 0
            for k, (off, length, _, _) in enumerate([*holes, (len(text), 0, False, 0)]):
                if start >= at and end <= off:
                    attr_dict = (k, start - at, end - at)
                    break
                at = off + length
            else:
                return None
        return cls(pieces, slots, attr_dict, symbol_of(op))


class _Shape:
    """The ops of one template key as the alias pass found them (what their model prints, visited when the
    shape was made), and their template once the print pass made it (no hashing of the key per op)."""

    __slots__ = ("key", "events", "template", "first", "ops")

    def __init__(self, key: tuple[object, ...], events: list[Event], first: _Recorder) -> None:
        self.key = key
        self.events = events
        self.ops = 1
        """How many ops of the view have this shape (one: no template is made for it)."""
        self.template: _Template | None = None
        self.first: _Recorder | None = first
        """The alias pass's text of the first op of the shape: the print pass makes the template from
        it when no alias changes it (most shapes of a small module have one op: their model then runs
        once, not once per pass)."""


class _PrettyPrinter(_Printer):
    """The text view in pretty form; generic ops and the view's own parts as `_Printer` writes them."""

    def __init__(self, module: Module, registry: Registry, elider: Elider | None = None,
                 with_map: bool = True, sink: Callable[[str], object] | None = None) -> None:
        super().__init__(module, elider, with_map, sink)
        self.registry = registry
        self.alias_scope: AliasScope | None = None
        """The aliases of the view, once the alias pass found them (None: local scope)."""
        self.keyvalue_props = SETS.get(registry.model_set or "", 22) >= 24
        """MLIR 24's key-value properties (`<alignment = 4>`) where `attr-dict` and `prop-dict` are."""
        self.mlir_version = SETS.get(registry.model_set or "", 22)
        self.enum_lead_space = self.mlir_version < 23
        """Whether a `#dialect<mnemonic case>` printed stripped keeps the space before its case, as MLIR 22's
        generated printers write it (`gpu.thread_id  x`); MLIR 23 and 24 write none."""
        self.notes: list[PrettyNote] = []
        self.dialects: list[str] = ["builtin"]
        self._syntax: dict[int, asm.OpSyntax | None] = {}
        """id(op name) -> its model (the op names of a module are a few shared objects)."""
        self._names_kept: list[OpName] = []
        self._op_text: dict[tuple[int, str], str] = {}
        """(id(op name), default dialect) -> the name as printed."""
        self._templates: dict[tuple[object, ...], _Template] = {}
        self._keys: dict[int, _Shape] = {}
        """id(op) -> its template key's shape, found by the alias pass for the print pass."""
        self._written: dict[int, _Recorder] = {}
        """id(op) -> its text from the alias pass (ops with regions), for the print pass."""
        self._alias_pass: AliasCollector | None = None
        """What the alias pass found (the depth of each value it visited: 0 when no alias is in it)."""
        self.naming: Naming

    def close(self) -> None:
        """Drop the print's caches: the alias pass's writers refer back to the printer, a cycle that
        kept the print's garbage (an entry per op) until a full collection of the whole heap."""
        self._written.clear()
        self._keys.clear()
        self._templates.clear()
        self._alias_pass = None
        self.alias_scope = None

    # -- models ---------------------------------------------------------------------------------
    def syntax_of(self, op: Operation) -> asm.OpSyntax | None:
        name = op.op_name
        key = id(name)
        found = self._syntax.get(key, _UNKNOWN)
        if found is not _UNKNOWN:
            return found  # type: ignore[return-value]
        self._names_kept.append(name)
        if not name.registered:
            self._syntax[key] = None
            return None
        model = self.registry.op_syntax(name.full).model
        if model is not None and not self.registry.has_op(name.full):
            model = None  # an op mlirbc cannot decode is unregistered to it: generic
        self._syntax[key] = model
        return model

    def elider_for(self, op: Operation, slot: str | None) -> Elider | None:
        el = self.elider
        if el is None:
            return None
        if slot is None:
            return el
        return el.for_properties(op.op_name.dialect)(slot)

    # -- naming ---------------------------------------------------------------------------------
    def number(self, root: Operation) -> None:
        # id(op name) -> the functions naming its ops' results, tried in order (None: its model names
        # none): looked up once per kind, not per op
        namers: dict[int, tuple[_Namer, ...] | None] = {}

        def result_names(op: Operation) -> list[tuple[int, str]]:
            key = id(op.op_name)
            found = namers.get(key, _UNKNOWN)
            fns = self._namers(op) if found is _UNKNOWN else cast("tuple[_Namer, ...] | None", found)
            if found is _UNKNOWN:
                namers[key] = fns
            if fns is None:
                return []
            try:
                for f in fns:
                    names = f(op)
                    if names:
                        return names
            except Exception:  # a model that cannot name an op leaves it numbered
                pass
            return []

        arg_namers: dict[int, _ArgNamer | None] = {}  # id(op name) -> its model's, looked up once

        def block_arg_names(op: Operation, region: Region) -> list[tuple[BlockArgument, str]]:
            key = id(op.op_name)
            found = arg_namers.get(key, _UNKNOWN)
            if found is _UNKNOWN:
                model = self.syntax_of(op)
                f = None if model is None else getattr(model, "block_arg_names", None)
                found = arg_namers[key] = f if callable(f) else None
            if found is None:
                return []
            try:
                return cast("_ArgNamer", found)(op, region)
            except Exception:
                return []

        self.naming = Naming(root, result_names, block_arg_names)
        self.block_names = {k: v for k, v in self.naming.block_names.items()}
        self.block_order = self.naming.block_order
        # The generic printer reads names from `names`, which `_generic` fills for the ops it prints.

    def _namers(self, op: Operation) -> tuple[_Namer, ...] | None:
        """What names the results of ops of `op`'s kind: its model's `getAsmResultNames`, then the ODS
        names of its results; for an op without a model, the ODS names alone."""
        model = self.syntax_of(op)
        if model is None:
            return (self._generic_result_names,)
        try:
            if asm.names_no_results(model):
                return None
        except Exception:  # (cannot tell: the model is asked per op)
            pass
        found = [getattr(model, "result_names", None), getattr(model, "ods_result_names", None)]
        return tuple(f for f in found if callable(f))

    def _generic_result_names(self, op: Operation) -> list[tuple[int, str]]:
        """The ODS result names of a registered op with no model of its custom form (MLIR names the results
        of an op it prints generic as it names any other)."""
        name = op.op_name
        if not name.registered or not self.registry.has_op(name.full):
            return []
        provider = self.registry.syntax_provider(name.dialect, self.registry.model_set)
        data_of = getattr(provider, "data", None)
        data = data_of(name.full) if callable(data_of) else None
        if not isinstance(data, dict):
            return []
        try:
            return ods_result_names(data, op)
        except Exception:  # data that does not fit the op leaves it numbered
            return []

    # -- aliases --------------------------------------------------------------------------------------
    def collect_aliases(self, root: Operation, rules: AliasRules) -> AliasScope:
        """The aliases of the pretty view: MLIR's first print pass, in the order the custom forms print
        (`syntax.aliases` names and numbers them, as for the generic view)."""
        collector = AliasCollector(rules)
        if self.elider is None:
            self._collect(root, collector)
        else:
            with self.elider.uncounted():
                self._collect(root, collector)
        self._alias_pass = collector
        self.alias_scope = collector.finish()
        return self.alias_scope

    def _collect(self, root: Operation, c: AliasCollector) -> None:
        """Visit what printing `root` prints, in order (AliasInitializer's walk of the module)."""
        shapes: dict[tuple[object, ...], _Shape] = {}
        visit = c.visit
        keys = self._keys
        syntax = self._syntax
        # (0, op) | (1, region mark) | (2, event iterator) | (3, iterator over a block's ops)
        work: list[tuple[int, object]] = [(0, root)]
        while work:
            kind, item = work.pop()
            if kind == 3:
                # A block's ops: those of a template already visited add only their location (most ops
                # of a large module), visited here in bulk; the first of a template is printed and visited
                # here too; an op with regions or printed generic goes through (0, op).
                ops = item
                assert isinstance(ops, Iterator)
                locations: list[Attribute] = []
                for op in ops:
                    if not op.regions:
                        found = syntax.get(id(op.op_name), _UNKNOWN)
                        model = self.syntax_of(op) if found is _UNKNOWN else \
                            cast("asm.OpSyntax | None", found)
                        props = op.properties
                        if model is not None and (props is None or props.kind != PROPS_FALLBACK):
                            key = _template_key(op)
                            shape = shapes.get(key)
                            if shape is not None:  # (visited when it was made)
                                keys[id(op)] = shape
                                shape.ops += 1
                                locations.append(op.location)
                                continue
                            # The first op of its shape, here too (most ops of a small module): its
                            # location, then what its model prints.
                            if locations:
                                c.visit_op_locations(locations)
                                locations = []
                            visit(op.location, True)
                            if self._record(op, model, key, shapes, c):
                                continue
                            work.append((3, ops))
                            self._collect_generic(op, c, work)  # its model failed: it prints generic
                            break
                    work.append((3, ops))
                    work.append((0, op))
                    break
                c.visit_op_locations(locations)
            elif kind == 0:
                op = item
                assert isinstance(op, Operation)
                visit(op.location, True)
                events = self._events(op, shapes, c)
                if events is None:
                    self._collect_generic(op, c, work)
                elif op.regions:
                    work.append((2, iter(events)))
            elif kind == 1:
                assert isinstance(item, _RegionMark)
                self._collect_region(item, c, work)
            else:
                it = item
                assert isinstance(it, Iterator)
                for what, value, elide in it:
                    if what == _ATTR or what == _TYPE:
                        c.visit(value, False, elide)
                    elif what == _ARG:
                        assert isinstance(value, BlockArgument)
                        c.visit(value.type)
                        c.visit(value.location)
                    else:
                        work.append((2, it))
                        work.append((1, value))
                        break

    def _events(self, op: Operation, shapes: dict[tuple[object, ...], _Shape], c: AliasCollector) \
            -> list[Event] | None:
        """What the op's syntax model prints (None when the op prints generic); a region-free op's values are
        visited here, with its shape's (`_record`)."""
        model = self.syntax_of(op)
        props = op.properties
        if model is None or (props is not None and props.kind == PROPS_FALLBACK):
            return None
        if not op.regions:
            key = _template_key(op)
            found = shapes.get(key)
            if found is not None:
                self._keys[id(op)] = found
                found.ops += 1
                return found.events
            shape = self._record(op, model, key, shapes, c)
            return None if shape is None else shape.events
        rec = self._recorded(op, model)
        if rec is not None:
            self._written[id(op)] = rec  # the print pass reuses it when no alias changes its text
        return None if rec is None else rec.events

    def _recorded(self, op: Operation, model: asm.OpSyntax) -> _Recorder | None:
        """The op printed by its model for the alias pass (None: the model failed, the op prints generic
        and the print pass says why)."""
        rec = _Recorder(self, op, 0)
        try:
            self._model_print(model, op, rec)
        except Exception:
            return None
        return rec

    def _record(self, op: Operation, model: asm.OpSyntax, key: tuple[object, ...],
                shapes: dict[tuple[object, ...], _Shape], c: AliasCollector) -> _Shape | None:
        """The shape of a new template key, its first op printed by its model and what it printed visited
        (ops of one template print the same values: visiting them again would change nothing); None when
        the model failed."""
        rec = self._recorded(op, model)
        if rec is None:
            return None
        shape = shapes[key] = _Shape(key, rec.events, rec)
        self._keys[id(op)] = shape
        if not c.visit_printed(rec.events):  # type: ignore[arg-type]
            rec.plain = True
        return shape

    def _collect_generic(self, op: Operation, c: AliasCollector, work: list[tuple[int, object]]) -> None:
        tail: list[Event] = [(_TYPE, v.type, False) for v in op.operands]
        tail.extend((_TYPE, r.type, False) for r in op.results)
        if op.attributes is not None:
            tail.extend((_ATTR, v, False) for _, v in op.attributes.entries)
        work.append((2, iter(tail)))
        for region in reversed(op.regions):
            work.append((1, _RegionMark(region, True, True, False)))

    def _collect_region(self, mark: _RegionMark, c: AliasCollector, work: list[tuple[int, object]]) -> None:
        items: list[tuple[int, object]] = []
        for bi, block in enumerate(mark.region.blocks):
            if (bi or mark.entry_args) and block.arguments:
                items.append((2, iter([(_ARG, a, False) for a in block.arguments])))
            ops = block.operations
            if bi == 0 and not mark.terminators and ops and self._is_terminator(ops[-1]):
                ops = ops[:-1]
            if ops:
                items.append((3, iter(ops)))
        work.extend(reversed(items))

    # -- ops ----------------------------------------------------------------------------------------
    def op(self, op: Operation, indent: int) -> None:
        key = None
        if not op.regions:
            # A key from the alias pass: the op has a model and no fallback properties.
            keys = self._keys
            if keys:
                shape = keys.pop(id(op), None)
                if shape is not None:
                    first = shape.first
                    if first is not None and first.op is op:
                        # the first op of its shape (most ops of a small module): its text from the alias
                        # pass, the template of the others made from it (none when it is the only one)
                        shape.first = None
                        if self._with_aliases(first, indent):
                            if shape.ops != 1 or not self._commit_alone(op, first, indent):
                                found = cast("asm.OpSyntax", self.syntax_of(op))  # (it has one: a shape)
                                self._commit_written(op, found, first, shape.key, indent)
                            return
                    else:
                        tpl = shape.template
                        if tpl is None:
                            tpl = shape.template = self._templates.get(shape.key)
                        if tpl is not None:
                            self._commit_template(op, tpl, indent)
                            return
                    key = shape.key  # (printed below: its text from the alias pass could not be used)
        model = self.syntax_of(op)
        props = op.properties
        if model is None or (props is not None and props.kind == PROPS_FALLBACK):
            self._generic(op, indent)
            return
        if not op.regions and key is None:
            key = _template_key(op)
            tpl = self._templates.get(key)
            if tpl is not None:
                self._commit_template(op, tpl, indent)
                return
        if self._written:
            done = self._written.pop(id(op), None)
            if done is not None and self._with_aliases(done, indent):
                self._commit(op, model, done, done.chunks, indent)
                return
        writer = _OpWriter(self, op, indent)
        try:
            self._model_print(model, op, writer)
        except SyntaxModelError as exc:
            self.notes.append(PrettyNote(op, str(exc)))
            self._generic(op, indent)
            return
        except Exception as exc:  # a model's bug: this op prints generic, the view goes on
            self.notes.append(PrettyNote(op, f"{type(exc).__name__}: {exc}"))
            self._generic(op, indent)
            return
        self._commit_written(op, model, writer, key, indent)

    def _model_print(self, model: asm.OpSyntax, op: Operation, writer: _OpWriter) -> None:
        """The op's text by its model into `writer`; the placeholders it printed are counted in the
        writer, not yet in the view's count (a text may be committed once, never or again)."""
        el = self.elider
        if el is None:
            model.print_op(op, writer)
            writer.finish()
            return
        before = el.count
        try:
            model.print_op(op, writer)
            writer.finish()
        finally:
            writer.elided = el.count - before
            el.count = before

    def _commit_written(self, op: Operation, model: asm.OpSyntax, writer: _OpWriter,
                        key: tuple[object, ...] | None, indent: int) -> None:
        """An op its model printed: as the template of its key when its text can be one."""
        chunks = writer.chunks
        if key is not None and writer.cacheable and len(chunks) == 1 and isinstance(chunks[0], str):
            tpl = _Template.of(op, writer, chunks[0])
            if tpl is not None:
                tpl.elided = writer.elided
                self._templates[key] = tpl
                self._commit_template(op, tpl, indent)
                return
        self._commit(op, model, writer, chunks, indent)

    def _end_line(self, op: Operation, parts: list[str], n: int) -> tuple[int, int]:
        """Close an op's line whose `parts` end in ` loc(` at offset `n`: its location, then the line
        written; (where the location starts, where the op ends)."""
        loc = print_location(op.location)
        parts.append(loc)
        parts.append(")\n")
        self.out.append("".join(parts))
        loc_at = n + 1
        end = loc_at + len(loc) + 5
        self.pos = end + 1
        return loc_at, end

    def _commit_alone(self, op: Operation, w: _OpWriter, indent: int) -> bool:
        """The only op of its shape, committed as `_commit_template` would commit the template made of its
        text (without making one: most shapes of a small module have one op); False when its text would
        not make a template or the op takes the long way there (successors, several results)."""
        chunks = w.chunks
        results = op.results
        if not w.cacheable or len(chunks) != 1 or w.succs or op.successors or len(results) > 1:
            return False
        text = chunks[0]
        if not isinstance(text, str):
            return False
        operands = op.operands
        for k, (_, off, length, v) in enumerate(w.uses):
            # what `_Template.of` refuses: a value that is not an operand, a definition, a dictionary
            # that a value's name would cut
            if length < 0 or not (k < len(operands) and operands[k] is v or any(v is o for o in operands)):
                return False
            if w.attr_dict is not None and off < w.attr_dict[2] and off + length > w.attr_dict[1]:
                return False
        if w.elided:
            self.elider.count += w.elided  # type: ignore[union-attr]
        pad = _PADS[indent] if indent < _NPADS else "  " * indent
        if results and results[0].use_order is not None:
            self._uselist(op, pad)
        start = self.pos + len(pad)
        name = self._op_name_text(op, self.dialects[-1])
        if results:
            r0 = results[0]
            head = self.naming.texts.get(id(r0)) or self.naming.value(r0)
            results_end = start + len(head)
            name_at = results_end + 3
            parts = [pad, head, " = ", name, text, " loc("]
        else:
            results_end = name_at = start
            parts = [pad, name, text, " loc("]
        name_end = name_at + len(name)
        n = name_end + len(text)
        uses = [(name_end + off, name_end + off + length, v) for _, off, length, v in w.uses]
        dict_start = dict_end = -1
        if w.attr_dict is not None:
            dict_start, dict_end = name_end + w.attr_dict[1], name_end + w.attr_dict[2]
        loc_at, end = self._end_line(op, parts, n)
        self.map.leaf_op(op, start, end, name_at, name_end, dict_start, dict_end, loc_at, n, results,
                         results_end, uses, symbol_of(op))
        return True

    def _with_aliases(self, rec: _Recorder, indent: int) -> bool:
        """Make an op's text from the alias pass (printed before aliases were known) its text now: each
        value printed in it that has an alias or holds one printed again, in place, and its line breaks
        indented for the depth `indent` it is printed at.  False when that cannot be done (placeholders
        counted in a value that changes, a value the pass did not visit): the op's model then prints it
        again."""
        found = self._alias_pass
        if found is None or (rec.broke_lines and indent < rec.base_indent):
            return False
        depth_of = found.depth_of
        changed: list[Spot] = []
        for spot in () if rec.plain else rec.spots:
            if spot[3] != _S_DICT:
                depth = depth_of(spot[4][0])  # type: ignore[arg-type]
                if depth is None:
                    return False
                if depth:  # an alias, or one inside
                    changed.append(spot)
                continue
            for v in spot[5]:
                depth = depth_of(v)  # type: ignore[arg-type]
                if depth is None:
                    return False
                if depth:
                    changed.append(spot)
                    break
        if changed:
            if rec.elided:
                return False
            scratch = _OpWriter(self, rec.op, rec.base_indent)
            texts = [_replay(scratch, spot[3], spot[4]) for spot in changed]
        elif not rec.broke_lines or indent == rec.base_indent:
            return True  # (most ops: nothing in their text has an alias)
        else:
            texts = []
        if rec.broke_lines and indent != rec.base_indent:
            # its line breaks one level deeper per level the op is printed deeper (`newline`)
            pad = "\n" + "  " * (indent - rec.base_indent)
            for ci, off in rec.breaks:
                changed.append((ci, off, off + 1, _S_LOC, (), ()))
                texts.append(pad)
            rec.base_indent = indent
        if not changed:
            return True
        chunks = rec.chunks
        # Shifts per chunk: (end of a replaced span in the old text, what it and those before it added).
        shifts: dict[int, tuple[list[int], list[int]]] = {}
        changed_at = [0] if len(changed) == 1 else \
            sorted(range(len(changed)), key=lambda i: (changed[i][0], changed[i][1]))
        at_chunk = -1
        parts: list[str] = []
        at = 0
        old = ""
        for i in changed_at:
            ci, start, end = changed[i][0], changed[i][1], changed[i][2]
            if ci != at_chunk:
                if at_chunk >= 0:
                    parts.append(old[at:])
                    chunks[at_chunk] = "".join(parts)
                at_chunk, parts, at = ci, [], 0
                old = chunks[ci]  # type: ignore[assignment]
                shifts[ci] = ([], [])
            if start < at:
                return False  # spans that overlap: not one call's text each
            parts.append(old[at:start])
            parts.append(texts[i])
            at = end
            ends, deltas = shifts[ci]
            ends.append(end)
            deltas.append((deltas[-1] if deltas else 0) + len(texts[i]) - (end - start))
        parts.append(old[at:])
        chunks[at_chunk] = "".join(parts)

        def moved(ci: int, off: int) -> int:
            found_shift = shifts.get(ci)
            if found_shift is None:
                return off
            ends, deltas = found_shift
            k = bisect_right(ends, off)
            return off + (deltas[k - 1] if k else 0)

        rec.uses = [(ci, moved(ci, off), length, v) for ci, off, length, v in rec.uses]
        rec.succs = [(ci, moved(ci, off), length, b) for ci, off, length, b in rec.succs]
        if rec.attr_dict is not None:
            ci, start, end = rec.attr_dict
            rec.attr_dict = (ci, moved(ci, start), moved(ci, end))
        return True

    def _commit_template(self, op: Operation, tpl: _Template, indent: int) -> None:
        """An op whose text is a template's: its operand and successor names in the template's slots.

        Most ops of a large view print here: what `_head` and `_tail` do, in one line written at once,
        recorded in the map at once."""
        if tpl.elided:
            self.elider.count += tpl.elided  # type: ignore[union-attr]
        results = op.results
        pad = _PADS[indent] if indent < _NPADS else "  " * indent
        if results and (results[0].use_order is not None or
                        (len(results) > 1 and any(r.use_order is not None for r in results))):
            self._uselist(op, pad)
        m = self.map
        start = self.pos + len(pad)
        successors = op.successors
        if successors:
            m.open_op(start, op)
        naming = self.naming
        texts = naming.texts
        value = naming.value
        results_end = start
        if len(results) == 1:
            r0 = results[0]
            head = texts.get(id(r0)) or value(r0)
            results_end = start + len(head)
            if successors:
                m.results(results, start, results_end)
            parts = [pad, head, " = "]
            name_at = results_end + 3
        elif results:
            if not successors:
                m.open_op(start, op)  # recorded the long way (`_result_groups_text`)
            parts = [pad]
            name_at = start + self._result_groups_text(op, start, parts)
        else:
            parts = [pad]
            name_at = start
        dd = self.dialects[-1]
        if tpl.dialect is not dd:
            tpl.name = self._op_name_text(op, dd)
            tpl.dialect = dd
        name = tpl.name
        parts.append(name)
        name_end = name_at + len(name)
        operands = op.operands
        pieces = tpl.pieces
        piece = pieces[0]
        parts.append(piece)
        n = name_end + len(piece)
        uses: list[tuple[int, int, Value]] = []
        dict_piece = (-1, -1)
        attr_dict = tpl.attr_dict
        dict_at = -1 if attr_dict is None else attr_dict[0]
        if dict_at == 0:
            dict_piece = (name_end + attr_dict[1], name_end + attr_dict[2])  # type: ignore[index]
        for i, (is_succ, index) in enumerate(tpl.slots, 1):
            if is_succ:
                b = op.successors[index]
                text = self.block_names.get(id(b), "^INVALIDBLOCK")
                m.occurrence(b, n, n + len(text), False, True)
            else:
                v = operands[index]
                text = texts.get(id(v)) or value(v)
                uses.append((n, n + len(text), v))
            n += len(text)
            parts.append(text)
            if i == dict_at:
                dict_piece = (n + attr_dict[1], n + attr_dict[2])  # type: ignore[index]
            piece = pieces[i]
            parts.append(piece)
            n += len(piece)
        parts.append(" loc(")
        loc_at, end = self._end_line(op, parts, n)
        if not successors and len(results) <= 1:
            m.leaf_op(op, start, end, name_at, name_end, dict_piece[0], dict_piece[1], loc_at, n,
                      results, results_end, uses, tpl.symbol)
            return
        # (opened above: an op with successors or several results)
        if uses:
            m.value_uses(uses)
        if tpl.symbol is not None:
            m.symbol(tpl.symbol)
        m.close_op(end, pieces=(-1, -1, dict_piece[0], dict_piece[1], -1, -1, loc_at, end, name_end, n),
                   name=(name_at, name_end))

    def _result_groups_text(self, op: Operation, start: int, parts: list[str]) -> int:
        """The results of an op of several, by group (`%a, %b:2 = `), appended to `parts` and recorded
        in the map; returns their length."""
        naming = self.naming
        m = self.map
        n = start
        for i, (first, count) in enumerate(naming.result_groups(op)):
            if i:
                parts.append(", ")
                n += 2
            text = naming.value(op.results[first], with_number=False)
            m.results(op.results[first:first + count], n, n + len(text))
            suffix = f":{count}" if count > 1 else ""
            parts.append(text + suffix)
            n += len(text) + len(suffix)
        parts.append(" = ")
        return n + 3 - start

    def _op_name_text(self, op: Operation, dd: str) -> str:
        """The op's name as printed inside a region whose default dialect is `dd`."""
        name = self._op_text.get((id(op.op_name), dd))
        if name is None:
            name = op.op_name.full
            if dd and name.startswith(dd) and name[len(dd):len(dd) + 1] == "." and name.count(".") == 1:
                name = name[len(dd) + 1:]
            self._op_text[(id(op.op_name), dd)] = name
        return name

    def _generic(self, op: Operation, indent: int) -> None:
        # The generic printer reads the names of the values it prints from `names`.
        names, value = self.names, self.naming.value
        for v in op.operands:
            names[id(v)] = value(v)
        for r in op.results:
            names[id(r)] = value(r)
        self.dialects.append(self._default_dialect(op))
        try:
            super().op(op, indent)
        finally:
            self.dialects.pop()

    def _result_head(self, op: Operation, at: int) -> str:
        """The results of an op printed generic as MLIR names them: `%a, %b:2 = ` by result group."""
        groups = self.naming.result_groups(op)
        if len(groups) < 2:
            return super()._result_head(op, at)
        parts = []
        n = at
        for i, (first, count) in enumerate(groups):
            if i:
                parts.append(", ")
                n += 2
            text = self.naming.value(op.results[first], with_number=False)
            self.map.results(op.results[first:first + count], n, n + len(text))
            suffix = f":{count}" if count > 1 else ""
            parts.append(text + suffix)
            n += len(text) + len(suffix)
        parts.append(" = ")
        return "".join(parts)

    def _default_dialect(self, op: Operation) -> str:
        model = self.syntax_of(op)
        if model is None:
            return ""
        try:
            return asm.default_dialect(model, op)
        except Exception:
            return ""

    def _uselist(self, op: Operation, pad: str) -> None:
        orders = [f"{r.index}={_order_text(r.use_order)}" for r in op.results if r.use_order is not None]
        if orders:
            at = self.pos + len(pad)
            comment = USELIST_PREFIX + " ".join(orders)
            self.map.part(PART_USELIST, at, at + len(comment), None)
            self.line(pad + comment)

    def _head(self, op: Operation, indent: int) -> tuple[int, int]:
        """Use-list comment, result names and op name; returns where the name starts and ends."""
        pad = "  " * indent
        m = self.map
        results = op.results
        if results:
            for r in results:
                if r.use_order is not None:
                    self._uselist(op, pad)
                    break
        start = self.pos + len(pad)
        m.open_op(start, op)
        naming = self.naming
        parts = [pad]
        if len(results) == 1:
            text = naming.value(results[0])
            m.results(results, start, start + len(text))
            parts.append(text)
            parts.append(" = ")
            groups = None
        else:
            groups = naming.result_groups(op)
        if groups:
            n = start
            for i, (first, count) in enumerate(groups):
                if i:
                    parts.append(", ")
                    n += 2
                text = naming.value(op.results[first], with_number=False)
                group = op.results[first:first + count]
                m.results(group, n, n + len(text))
                suffix = f":{count}" if count > 1 else ""
                parts.append(text + suffix)
                n += len(text) + len(suffix)
            parts.append(" = ")
        dd = self.dialects[-1]
        name = self._op_text.get((id(op.op_name), dd))
        if name is None:
            name = op.op_name.full
            if dd and name.startswith(dd) and name[len(dd):len(dd) + 1] == "." and name.count(".") == 1:
                name = name[len(dd) + 1:]
            self._op_text[(id(op.op_name), dd)] = name
        self.emit("".join(parts))
        name_at = self.pos
        self.emit(name)
        return name_at, self.pos

    def _tail(self, op: Operation, name_at: int, name_end: int, dict_piece: tuple[int, int]) -> None:
        m = self.map
        sym = symbol_of(op) if op.regions or op.attributes is not None or op.properties is not None \
            else None
        if sym is not None:
            m.symbol(sym)
        loc = " loc(" + print_location(op.location) + ")"
        loc_at = self.pos + 1
        self.line(loc)
        end = loc_at + len(loc) - 1
        m.close_op(end, pieces=(-1, -1, dict_piece[0], dict_piece[1], -1, -1, loc_at, end, name_end,
                                loc_at - 1), name=(name_at, name_end))

    def _commit(self, op: Operation, model: asm.OpSyntax, w: _OpWriter,
                chunks: list[str | _RegionMark], indent: int) -> None:
        if w.elided:
            self.elider.count += w.elided  # type: ignore[union-attr]
        m = self.map
        name_at, name_end = self._head(op, indent)
        dict_piece = (-1, -1)
        # The names in each piece of text, recorded in text order as each piece is written (before the
        # ops of the region after it): the map's records then need no sorting.
        names: dict[int, list[tuple[int, int, int, Value | Block]]] = {}
        for ci, off, length, v in w.uses:
            names.setdefault(ci, []).append((off, length, 1 if length < 0 else 0, v))
        for ci, off, length, b in w.succs:
            names.setdefault(ci, []).append((off, length, 2, b))
        self.dialects.append(self._default_dialect(op))
        try:
            for ci, chunk in enumerate(chunks):
                if isinstance(chunk, _RegionMark):
                    open_at = self.pos
                    self._region(chunk, indent)
                    m.region(open_at, self.pos)
                    continue
                at = self.pos
                if w.attr_dict is not None and w.attr_dict[0] == ci:
                    dict_piece = (at + w.attr_dict[1], at + w.attr_dict[2])
                self.emit(chunk)
                found = names.get(ci)
                if found:
                    found.sort(key=_offset)
                    for off, length, kind, target in found:
                        s = at + off
                        if kind == 1:
                            m.occurrence(target, s, s - length, True, False)
                        else:
                            m.occurrence(target, s, s + length, False, kind == 2)
        finally:
            self.dialects.pop()
        self._tail(op, name_at, name_end, dict_piece)

    # -- regions and blocks -------------------------------------------------------------------------
    def block(self, block: Block, index: int, indent: int) -> None:
        """A block of a region of a generic op: its label always, unless it is a non-empty entry block
        without arguments; every op."""
        header = index > 0 or bool(block.arguments) or not block.operations
        self._pretty_block(block, index, indent, header, True)

    def _region(self, mark: _RegionMark, indent: int) -> None:
        region = mark.region
        indent += mark.extra_indent
        self.emit("{")
        self.emit("\n")
        if region.blocks:
            entry = region.blocks[0]
            header = (mark.empty_block and not entry.operations) or \
                (mark.entry_args and bool(entry.arguments))
            self._pretty_block(entry, 0, indent + 1, header, mark.terminators)
            for bi, block in enumerate(region.blocks[1:], 1):
                self._pretty_block(block, bi, indent + 1, True, True)
        self.emit("  " * indent + "}")

    def _pretty_block(self, block: Block, index: int, indent: int, header: bool, terminator: bool) -> None:
        if header:
            self._block_label(block, index, indent, self.naming.value)
        # The use-list orders of the block's arguments follow its label; an entry block whose label
        # the op's form leaves out (arguments in a signature) has them on its first line.
        self._block_uselist(block, indent)
        ops = block.operations
        if not terminator and ops and self._is_terminator(ops[-1]):
            ops = ops[:-1]
        self._block_ops(ops, indent)

    def _is_terminator(self, op: Operation) -> bool:
        return asm.has_terminator_trait(self.syntax_of(op))


@functools.cache
def _one_token() -> re.Pattern[str]:
    # compiled on first use, not at import (most views never print a stripped value this way)
    return re.compile(r'[A-Za-z_][\w$.]*|-?\d+|"[^"\\]*(?:\\.[^"\\]*)*"')
_CLOSERS = {"{": "}", "[": "]", "(": ")", "<": ">"}


def _one_piece(body: str) -> bool:
    """Whether a stripped body is one keyword, number or string, or one bracketed group: what the view's
    parser reads back without the attribute's own grammar (`syntax.attr_parser.Parser.parse_stripped`)."""
    if _one_token().fullmatch(body):
        return True
    if not body or body[0] not in _CLOSERS:
        return False
    depth = 0
    in_string = False
    i = 0
    while i < len(body):
        c = body[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in _CLOSERS:
            depth += 1
        elif c in "}])>" and not (c == ">" and i and body[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i == len(body) - 1
        i += 1
    return False


def pretty_printer(module: Module, registry: Registry | None = None, elider: Elider | None = None,
                   with_map: bool = True, sink: Callable[[str], object] | None = None) -> _PrettyPrinter:
    """A pretty printer for `module` (with the registry bound to the module's model set)."""
    reg = registry if registry is not None else default_registry()
    if reg.model_set is None and module.model_set is not None:
        reg = reg.with_set(module.model_set, module.model_set_note)
    return _PrettyPrinter(module, reg, elider, with_map, sink)


def pretty_op_printer(root: Operation, registry: Registry | None = None) -> Callable[[Operation], str]:
    """A function giving the pretty text of any op under `root` (with its regions) as MLIR prints an op
    on its own (`Operation::print` below the top level): custom forms, attributes inline (alias definitions
    belong to the top level), values and blocks named as in the pretty view of the whole IR under
    `root`.  The naming is done once (valid while the IR does not change)."""
    fresh = _named_printers(root, registry)

    def text(op: Operation) -> str:
        p = fresh()
        with building():
            p.op(op, 0)
        return "".join(p.done) + "".join(p.out)

    return text


def print_pretty_operation(op: Operation, root: Operation | None = None,
                           registry: Registry | None = None) -> str:
    """The pretty text of one op (`pretty_op_printer`; `root`: the outermost op, found when not given)."""
    return pretty_op_printer(root if root is not None else outermost(op), registry)(op)


def pretty_block_text(block: Block, root: Operation, registry: Registry | None = None) -> str:
    """The pretty text of one block of the IR under `root`: its label line (always, as MLIR prints a
    block on its own) and its ops one level in, named as in the pretty view of the whole IR."""
    p = _named_printers(root, registry)()
    region = block.parent
    index = region.blocks.index(block) if region is not None else 0
    with building():
        p.block(block, index, 1)
    text = "".join(p.done) + "".join(p.out)
    if index == 0 and not block.arguments and block.operations:  # the view leaves this label implicit
        text = p.block_names.get(id(block), "^bb0") + ":\n" + text
    return text


def _named_printers(root: Operation, registry: Registry | None) -> Callable[[], _PrettyPrinter]:
    """Printers of the IR under `root` that share one naming of it (and the syntax models found)."""
    module = Module(root)
    named = pretty_printer(module, registry, with_map=False)
    named.number(root)

    def fresh() -> _PrettyPrinter:
        p = _PrettyPrinter(module, named.registry, None, with_map=False)
        p.naming, p.block_names, p.block_order = named.naming, named.block_names, named.block_order
        p._syntax, p._names_kept = named._syntax, named._names_kept
        return p

    return fresh


__all__ = ["PrettyNote", "pretty_block_text", "pretty_op_printer", "pretty_printer", "print_pretty_operation",
           "PIECE_ATTRIBUTES", "PIECE_LOCATION", "PROPS_DECODED"]
