"""What an op's syntax model speaks to: the op printer and op parser the view offers (MLIR's OpAsmPrinter
and OpAsmParser), and what a syntax model offers the view.

`models/` never imports `view/`: the view implements `AsmPrinter` and `AsmParser`, and calls a model's
`print_op(op, printer)` / `parse_op(parser, state)`.  A model either prints the op completely or raises
`SyntaxModelError` before the view commits anything (the view then prints that op generic and says
why); parsing errors are the parser's located `TextError`s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

from ...ir.attributes import Attribute, DictionaryAttr
from ...ir.operation import Block, BlockArgument, Operation, Region, Value
from ...ir.types import Type


class SyntaxModelError(Exception):
    """A syntax model cannot print (or knows it could not read back) this op: the view prints it generic."""


class AsmPrinter(Protocol):
    """The op printer a syntax model writes through (the view's `OpAsmPrinter`)."""

    def write(self, text: str) -> None:
        """Raw text (punctuation, keywords, spaces)."""

    def operand(self, value: Value) -> None:
        """A value's name (`%0`, `%arg1`, `%c0`, `%x#1`)."""

    def value_name(self, value: Value) -> str:
        """The name `operand` would print."""

    def type(self, t: Type) -> None: ...

    def attribute(self, a: Attribute, slot: str | None = None) -> None:
        """An attribute in full; `slot` names the op's attribute it is (elision of large values)."""

    def attribute_without_type(self, a: Attribute, slot: str | None = None) -> None:
        """`printAttributeWithoutType`: a number, string or elements literal without its `: type`."""

    def optional_attr_dict(self, entries: Sequence[tuple[str, Attribute]], elided: Sequence[str] = (),
                           with_keyword: bool = False) -> None:
        """` {name = value, ...}` (` attributes {...}` with the keyword) of the entries not elided;
        nothing when none remains."""

    def region(self, region: Region, print_entry_block_args: bool = True,
               print_block_terminators: bool = True, print_empty_block: bool = False) -> None:
        """`{`, the region's blocks, `}` (the caller writes the space before it)."""

    def successor(self, block: Block) -> None: ...

    def symbol_name(self, name: bytes) -> None:
        """`@name` (quoted when it is not a bare identifier)."""

    def keyword_or_string(self, text: bytes) -> None: ...

    def region_argument(self, arg: BlockArgument, attrs: DictionaryAttr | None = None,
                        omit_type: bool = False) -> None:
        """`%arg: type {attrs} loc(...)` of a region's entry argument (function signatures)."""

    def shadow_region_args(self, region: Region, values: Sequence[Value]) -> None:
        """`shadowRegionArgs`: the entry block's arguments print as the names of `values` (an op whose
        region reads its operands under their own names, the parser reading it with name shadowing)."""

    def newline(self) -> None:
        """A line break at the current indentation."""

    def indent(self) -> None: ...

    def dedent(self) -> None: ...


class OperandRef(Protocol):
    """An operand as the text names it (`%x`, `%y#1`), resolved once its type is known."""

    name: str


class BlockRef(Protocol):
    """A successor as the text names it (`^bb1`)."""

    name: str


@dataclass
class Argument:
    """A region argument declared in an op's own syntax (`%iv` of `scf.for`, a function's `%arg0: i32`)."""

    ref: OperandRef
    type: Type | None = None
    attrs: DictionaryAttr | None = None
    location: Attribute | None = None


@dataclass
class OpState:
    """What parsing an op's text gives (MLIR's OperationState): filled by the syntax model through the
    parser, turned into the op by the view."""

    name: str
    operands: list[Value] = field(default_factory=list)
    result_types: list[Type] = field(default_factory=list)
    attributes: dict[str, Attribute] = field(default_factory=dict)
    """Inherent and discardable attributes by name; the view sorts them into properties and the
    attribute dictionary as the op's model says."""
    regions: list[Region] = field(default_factory=list)
    successors: list[Block] = field(default_factory=list)


class AsmParser(Protocol):
    """The op parser a syntax model reads through (the view's `OpAsmParser`).  `parse_*` raise a located
    TextError when the text is not what they read; `parse_optional_*` return None (or False) and consume
    nothing."""

    def error(self, message: str) -> Exception:
        """A located error at the current token, for the model to raise."""

    def peek_text(self) -> str:
        """The current token's text."""

    def parse_keyword(self, word: str) -> None: ...

    def parse_optional_keyword(self, word: str) -> bool: ...

    def parse_optional_any_keyword(self) -> str | None:
        """Any bare identifier (a keyword), consumed."""

    def parse_punct(self, punct: str) -> None:
        """`(`, `)`, `[`, `]`, `{`, `}`, `<`, `>`, `,`, `:`, `=`, `->`, `?`, `+`, `*`, `...`"""

    def parse_optional_punct(self, punct: str) -> bool: ...

    def parse_operand(self) -> OperandRef: ...

    def parse_optional_operand(self) -> OperandRef | None: ...

    def parse_type(self) -> Type: ...

    def parse_optional_type(self) -> Type | None: ...

    def parse_attribute(self, type: Type | None = None) -> Attribute:
        """An attribute; with `type`, a literal without `: type` gets that type."""

    def parse_optional_attribute(self, type: Type | None = None) -> Attribute | None: ...

    def parse_stripped(self, prefix: str) -> Attribute | Type:
        """A dialect attribute or type printed without its `#dialect.mnemonic` / `!dialect.mnemonic`
        prefix (or with it: `parseCustomAttributeWithFallback`)."""

    def parse_dimension_list(self) -> list[int]:
        """Dimensions joined by `x` with no trailing one (`2x?x4`; dynamic: ShapedType::kDynamic)."""

    def parse_affine_map_text(self) -> str:
        """The text of a bare affine map (`(d0, d1)[s0] -> (d1, d0 + s0)`, `parseAffineMap`)."""

    def parse_optional_attr_dict(self) -> DictionaryAttr | None: ...

    def parse_optional_attr_dict_with_keyword(self) -> DictionaryAttr | None: ...

    def parse_symbol_name(self) -> bytes: ...

    def parse_optional_symbol_name(self) -> bytes | None: ...

    def parse_keyword_or_string(self) -> bytes: ...

    def parse_optional_string(self) -> bytes | None: ...

    def parse_integer(self) -> int: ...

    def parse_optional_integer(self) -> int | None: ...

    def parse_region(self, arguments: Sequence[Argument] = (), enable_name_shadowing: bool = False
                     ) -> Region:
        """A region `{...}` whose entry block has `arguments` (declared by the op's syntax)."""

    def parse_optional_region(self, arguments: Sequence[Argument] = ()) -> Region | None: ...

    def parse_argument(self, allow_type: bool = True, allow_attrs: bool = False) -> Argument:
        """`%name` (`: type`) (`{attrs}`) (`loc(...)`): a region argument declared in the op's syntax."""

    def parse_optional_argument(self, allow_type: bool = True, allow_attrs: bool = False
                                ) -> Argument | None: ...

    def parse_successor(self) -> BlockRef: ...

    def parse_optional_successor(self) -> BlockRef | None: ...

    def parse_optional_location(self) -> Attribute | None:
        """`loc(...)`, as a trailing location of an argument."""

    def resolve_operands(self, refs: Sequence[OperandRef], types: Sequence[Type],
                         state: OpState) -> None:
        """Add the values `refs` name, of types `types`, to `state.operands` (in ODS order)."""

    def resolve_successors(self, refs: Sequence[BlockRef], state: OpState) -> None: ...

    def declares_attribute(self, name: str) -> bool:
        """Whether the op being read declares the inherent attribute `name` in the file's model set (an
        attribute one MLIR keeps discardable and a later one inherent: gpu.func's `kernel`, MLIR 23)."""
        return False

    def parse_optional_value_name(self) -> str | None:
        """A `%name` that names no value (vm.import's argument names): its text; nothing recorded."""

    def mention(self, ref: OperandRef) -> None:
        """A name the text repeats without making it another operand (an affine map's dimension used
        twice): where it is points at the value, as the printer records it."""

    def elided_body(self, region: Region) -> None:
        """`region` is a body the op's form leaves out of the text (a named linalg op's): the original's
        body takes its place, else what the model built in it stands (an empty one is an error)."""

    def ensure_terminator(self, region: Region, name: str, regions: int = 0) -> None:
        """Add the implicit terminator `name` (no operands; `regions` regions of one empty block each)
        where the text leaves it out (ops with `SingleBlockImplicitTerminator`)."""

    def value_type(self, ref: OperandRef) -> Type | None:
        """The type of an already defined value (None: not defined yet)."""

    def mark_implicit(self, item: Operation | BlockArgument) -> None:
        """`item` (an op or a region argument the model built) stands for what the text leaves out: it
        takes the op's location, and an unchanged view takes the original's (`view.reconcile`)."""


@runtime_checkable
class OpSyntax(Protocol):
    """One op's custom assembly form."""

    name: str
    """The full op name (`scf.for`)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        """Everything after the op name; raise SyntaxModelError to have the op printed generic."""

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        """Everything after the op name, into `state`."""


class SyntaxBase:
    """Defaults for the optional parts of a syntax model (OpAsmOpInterface): no result names, no block
    argument names, no default dialect."""

    name = ""

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        """(result number, name) of the results the op names (getAsmResultNames)."""
        return []

    def block_arg_names(self, op: Operation, region: Region) -> list[tuple[BlockArgument, str]]:
        """Names of the arguments of the region's blocks (getAsmBlockArgumentNames)."""
        return []

    def default_dialect(self, op: Operation) -> str:
        """The dialect whose prefix may be left out of op names in the op's regions."""
        return ""

    def can_print(self, op: Operation) -> bool:
        """Whether this model prints `op` (cheap checks; `print_op` may still refuse)."""
        return True


def result_names(model: object, op: Operation) -> list[tuple[int, str]]:
    f = getattr(model, "result_names", None)
    return f(op) if callable(f) else []


def names_no_results(model: object) -> bool:
    """Whether the model names no op's results (`result_names` and `ods_result_names` always empty);
    False when it cannot tell."""
    f = getattr(model, "names_no_results", None)
    return bool(f()) if callable(f) else False


def ods_result_names(model: object, op: Operation) -> list[tuple[int, str]]:
    """The names mlir-opt gives the results of an op of several fixed results its OpAsmOpInterface does
    not name (declarative models only: their results' ODS names)."""
    f = getattr(model, "ods_result_names", None)
    return f(op) if callable(f) else []


def block_arg_names(model: object, op: Operation, region: Region) -> list[tuple[BlockArgument, str]]:
    f = getattr(model, "block_arg_names", None)
    return f(op, region) if callable(f) else []


def default_dialect(model: object, op: Operation) -> str:
    f = getattr(model, "default_dialect", None)
    return str(f(op)) if callable(f) else ""


def describe(model: object) -> str:
    """What kind of syntax model this is, for people (`mlirbc info`, hover): "declarative format",
    "hand-written (ScfForOp)", or the class name of a plugin's model."""
    if model is None:
        return "generic form (no syntax model)"
    kind = getattr(model, "kind", None)
    if isinstance(kind, str) and kind:
        return kind
    return f"{type(model).__name__}"


def expected_keywords(model: object) -> list[str]:
    """The keywords an op's custom form may contain after its name (completion offers them)."""
    words = getattr(model, "keywords", None)
    if callable(words):
        try:
            return [str(w) for w in words()]
        except Exception:  # a model's bug only costs completion items
            return []
    return []


_T = TypeVar("_T")


def comma_list(p: AsmParser, first: _T | None, more: Callable[[], _T]) -> list[_T]:
    """`first, more, more, ...`: nothing when the optional first item was not there."""
    if first is None:
        return []
    out = [first]
    while p.parse_optional_punct(","):
        out.append(more())
    return out


def interleave_comma(p: AsmPrinter, items: Iterable[_T], print_one: Callable[[_T], object]) -> None:
    """Each item through `print_one`, with `, ` between (MLIR's `interleaveComma`)."""
    for i, item in enumerate(items):
        if i:
            p.write(", ")
        print_one(item)


def has_terminator_trait(model: object) -> bool:
    """Whether an op's syntax model says the op is a terminator (its ODS traits, or a port's flag)."""
    data = getattr(model, "data", None)
    if isinstance(data, dict):
        return "Terminator" in data.get("traits", ())
    return bool(getattr(model, "is_terminator", False))
