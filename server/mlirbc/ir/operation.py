"""Operations, blocks, regions and SSA values: the mutable part of the IR.

Values carry the use-list order read from bytecode (`use_order`), so that a faithful writer can put it back.
Properties come in three forms: decoded by a model into named attributes, an unregistered op's attribute,
or a fallback that keeps the exact payload bytes and says why it could not be decoded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, NoReturn, SupportsIndex, TypeVar

from .attributes import Attribute, DictionaryAttr, UnknownLoc
from .types import Type

_T = TypeVar("_T")


class FrozenEmptyList(list[_T]):
    """An empty list that refuses to grow.

    Ops read from a file share one per kind of part they lack (most have no successors and no regions;
    a list is 56 bytes, and a large file has a million ops): give an op a list of its own to add parts.
    """

    __slots__ = ()

    def _refuse(self) -> NoReturn:
        raise TypeError("this empty list is shared by IR objects read from a file: assign a new list "
                        "instead of adding to it")

    def append(self, item: _T) -> None:
        self._refuse()

    def extend(self, items: Iterable[_T]) -> None:
        self._refuse()

    def insert(self, index: SupportsIndex, item: _T) -> None:
        self._refuse()

    def __setitem__(self, index: Any, item: Any) -> None:
        self._refuse()

    def __iadd__(self, items: Iterable[_T]) -> NoReturn:  # type: ignore[misc,override]
        self._refuse()

    def __imul__(self, n: SupportsIndex) -> NoReturn:
        self._refuse()


class Value:
    """An SSA value. `use_order` is the stored use-list order (pair form?, entries), if any."""

    __slots__ = ("type", "use_order")

    def __init__(self, type: Type) -> None:
        self.type = type
        self.use_order: tuple[bool, tuple[int, ...]] | None = None


class OpResult(Value):
    __slots__ = ("owner", "index")

    def __init__(self, type: Type, owner: Operation, index: int) -> None:
        # The fields of Value set here directly: one call per result instead of two.
        self.type = type
        self.use_order = None
        self.owner = owner
        self.index = index


class BlockArgument(Value):
    __slots__ = ("owner", "index", "location")

    def __init__(self, type: Type, owner: Block, index: int, location: Attribute) -> None:
        self.type = type
        self.use_order = None
        self.owner = owner
        self.index = index
        self.location = location


@dataclass(frozen=True)
class OpName:
    """An op name as the dialect section stores it: dialect, name without prefix, registered flag."""

    dialect: str
    name: str
    registered: bool = True

    @cached_property
    def full(self) -> str:
        # (Cached: a program walking a large module asks every op its name.)
        return f"{self.dialect}.{self.name}" if self.name else self.dialect


# Kinds of op properties.
class PropsKind(StrEnum):
    """The three forms of an op's properties (see `Properties`)."""

    DECODED = "decoded"
    ATTRIBUTE = "attribute"
    FALLBACK = "fallback"


PROPS_DECODED = PropsKind.DECODED
PROPS_ATTRIBUTE = PropsKind.ATTRIBUTE
PROPS_FALLBACK = PropsKind.FALLBACK


@dataclass(slots=True)
class Properties:
    """An op's properties.

    * `decoded`: `values` holds the named fields a model decoded (in print order), `model` says which.
    * `attribute`: an unregistered op's properties attribute, in `attribute`.
    * `fallback`: nothing could decode the payload; `reason` says why.

    `raw` is the payload as read (None for properties created from text); a writer reuses it when the
    decoded values are unchanged, so a model's quirks can never alter bytes nobody touched.

    A file stores each distinct payload once; the ops read with the same payload (and op name) share one
    record, as they share uniqued attributes.  To change an op's properties, give it a new record (or a
    copy, `dataclasses.replace`): changing a shared record in place would change all of those ops.
    """

    kind: PropsKind
    values: dict[str, Attribute] = field(default_factory=dict)
    attribute: Attribute | None = None
    raw: bytes | memoryview | None = None
    model: str = ""
    reason: str = ""
    offset: int = -1
    """Absolute file offset of the payload, -1 when not read from a file."""


class Operation:
    __slots__ = (
        "op_name", "operands", "results", "successors", "regions", "attributes",
        "properties", "location", "parent", "offset",
    )

    def __init__(
        self,
        op_name: OpName,
        location: Attribute | None = None,
        result_types: tuple[Type, ...] = (),
        operands: list[Value] | None = None,
        attributes: DictionaryAttr | None = None,
        properties: Properties | None = None,
    ) -> None:
        self.op_name = op_name
        self.location: Attribute = location if location is not None else UnknownLoc.get()
        self.results: list[OpResult] = [OpResult(t, self, i) for i, t in enumerate(result_types)]
        self.operands: list[Value] = operands if operands is not None else []
        self.successors: list[Block] = []
        self.regions: list[Region] = []
        self.attributes: DictionaryAttr | None = attributes
        self.properties: Properties | None = properties
        self.parent: Block | None = None
        self.offset = -1
        """Absolute file offset where the op was read, -1 when not read from a file."""

    @property
    def name(self) -> str:
        return self.op_name.full

    @property
    def is_fallback(self) -> bool:
        return self.properties is not None and self.properties.kind == PROPS_FALLBACK

    def add_region(self) -> Region:
        region = Region(self)
        if type(self.regions) is FrozenEmptyList:
            self.regions = []
        self.regions.append(region)
        return region

    def walk(self) -> Iterator[Operation]:
        """Pre-order walk of this op and everything nested in it, without recursion."""
        stack: list[Operation] = [self]
        while stack:
            op = stack.pop()
            yield op
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend(reversed(block.operations))

    def __repr__(self) -> str:
        return f"<Operation {self.name}>"


class Block:
    __slots__ = ("arguments", "operations", "parent")

    def __init__(self, parent: Region | None = None) -> None:
        self.arguments: list[BlockArgument] = []
        self.operations: list[Operation] = []
        self.parent = parent

    def add_argument(self, type: Type, location: Attribute) -> BlockArgument:
        arg = BlockArgument(type, self, len(self.arguments), location)
        self.arguments.append(arg)
        return arg

    def append(self, op: Operation) -> None:
        op.parent = self
        self.operations.append(op)


class Region:
    __slots__ = ("blocks", "parent")

    def __init__(self, parent: Operation | None = None) -> None:
        self.blocks: list[Block] = []
        self.parent = parent

    def add_block(self) -> Block:
        block = Block(self)
        self.blocks.append(block)
        return block
