"""What a verification says (`Finding`) and what a check sees of one op (`OpContext`), shared by the generic
checks and the hand-written verifiers of `verifier.dialects`.

Messages are worded as MLIR words them: `ctx.fail("requires one region")` gives `'scf.for' op requires one
region`, as upstream's `emitOpError`; `ctx.error(...)` gives the text alone, as `emitError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ir.attributes import Attribute
from ..ir.operation import PROPS_DECODED, PROPS_FALLBACK, Block, Operation, Value
from ..ir.types import Type
from ..syntax.attr_printer import print_attribute, print_type

if TYPE_CHECKING:
    from ..models.constraints import OpConstraints
    from .engine import Verifier

ERROR = "error"
INFORMATION = "information"


@dataclass(frozen=True)
class Related:
    """Another op a finding points at (a callee's definition, the parent op), with what it is."""

    op: Operation
    message: str


@dataclass
class Finding:
    """One fault, located on `op` (or on a part of it: `("attribute", name)`, `("operand", i)`, `("result",
    i)`, `("region", i)`, `("block", i)` for the i-th block argument list)."""

    op: Operation
    message: str
    severity: str = ERROR
    part: tuple[str, int | str] | None = None
    related: tuple[Related, ...] = ()
    check: str = ""
    """Which check said it (`ods`, `trait:SameOperandsAndResultType`, `func.return`, ...), for statistics
    and for switching a check off."""


class Unknown:
    """The answer of a lookup that cannot be made (an op whose properties are kept verbatim)."""


UNKNOWN = Unknown()


def type_text(t: Type) -> str:
    return print_type(t)


def attr_text(a: Attribute) -> str:
    return print_attribute(a)


def inherent(op: Operation, name: str) -> Attribute | None | Unknown:
    """An op's inherent attribute (from its properties, else its attribute dictionary, as upstream reads
    `getAttr`); UNKNOWN when the properties are kept verbatim (a fallback)."""
    props = op.properties
    if props is not None:
        if props.kind == PROPS_DECODED:
            hit = props.values.get(name)
            if hit is not None:
                return hit
        elif props.kind == PROPS_FALLBACK:
            return UNKNOWN
    if op.attributes is not None:
        return op.attributes.lookup(name)
    return None


def attr_of(op: Operation, name: str) -> Attribute | None:
    """`inherent`, with UNKNOWN read as absent (for checks that stay silent when they cannot know)."""
    a = inherent(op, name)
    return a if isinstance(a, Attribute) else None


class OpContext:
    """One op being verified, with where it stands: `parent` is the op whose region holds it (found by the
    walk, never from `op.parent`, which shared top-level ops may point elsewhere)."""

    __slots__ = ("op", "parent", "block", "verifier", "name", "constraints", "ancestors", "legalized")

    def __init__(self, op: Operation, parent: Operation | None, block: Block | None, verifier: Verifier,
                 constraints: OpConstraints | None, ancestors: Sequence[Operation] = (),
                 name: str | None = None, legalized: bool = False) -> None:
        self.op = op
        self.parent = parent
        self.block = block
        """The block holding the op (None for the root)."""
        self.verifier = verifier
        self.name = name if name is not None else op.name
        """The op's name in messages (the StableHLO op a VHLO op is legalized to, for that op's checks)."""
        self.constraints = constraints
        self.ancestors = ancestors
        """The ops enclosing this one, outermost first (only valid while the check runs)."""
        self.legalized = legalized
        """Checks of the op's legalized form: types are seen as their builtin twins (`t`)."""

    def t(self, v: Value) -> Type:
        """A value's type, as the checks see it (a VHLO type as its builtin twin when legalized)."""
        return self.verifier.canon(v.type) if self.legalized else v.type

    def ty(self, t: Type) -> Type:
        return self.verifier.canon(t) if self.legalized else t

    def fail(self, text: str, part: tuple[str, int | str] | None = None, related: tuple[Related, ...] = (),
             check: str = "") -> Finding:
        """`'<op>' op <text>`, as upstream's `emitOpError`."""
        return Finding(self.op, f"'{self.name}' op {text}", part=part, related=related, check=check)

    def error(self, text: str, op: Operation | None = None, check: str = "") -> Finding:
        """The text alone, as upstream's `emitError` (located on `op`, by default this op)."""
        return Finding(op if op is not None else self.op, text, check=check)

    def attr(self, name: str) -> Attribute | None:
        return attr_of(self.op, name)

    def parent_failed(self) -> bool:
        """Whether the parent op failed its own checks (a check that compares this op with its parent
        stays silent then: one fault, one diagnostic)."""
        return self.parent is not None and self.verifier.failed(self.parent)

    def model_of(self, op: Operation) -> OpConstraints | None:
        return self.verifier.constraints_of(op)


CheckFn = Callable[[OpContext], "Finding | None"]

VERIFY = "verify"
"""Runs with the op's own checks (upstream's `verify()`)."""
REGIONS = "regions"
"""Runs after the ops inside the op's regions (upstream's `verifyRegions()`)."""
SYMBOLS = "symbols"
"""Runs when the enclosing symbol table is complete (upstream's `verifySymbolUses`); the context's
`verifier.symbols` resolves references."""


@dataclass(frozen=True)
class OpVerifier:
    """A hand-written verifier: one op's (registered by op name) or an interface's."""

    check: CheckFn
    phase: str = VERIFY
    label: str = ""
    """What it checks, for `mlirbc check --explain`."""
