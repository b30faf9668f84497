"""Symbol tables and symbol uses, as upstream's `SymbolTable` trait verifies them: unique names per table,
and every symbol user (a `func.call`, a `memref.get_global`, ...) checked against the table it resolves in.

A table is the single block of an op with the `SymbolTable` trait; a symbol is any op directly in it with a
string `sym_name` (upstream reads the attribute, whatever the op).  References resolve from the nearest
enclosing table, nested references through nested tables, as `SymbolTable::lookupNearestSymbolFrom`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..ir.attributes import Attribute, FlatSymbolRefAttr, StringAttr, SymbolRefAttr
from ..ir.operation import Operation
from ..ir.structured import StructuredAttr
from .core import Finding, Related, attr_of


def builtin_twin(a: Attribute | None) -> Attribute | None:
    """An attribute as its dialect becomes once legalized (a VHLO string is a string): the twin its
    kind gives, else the attribute itself."""
    if isinstance(a, StructuredAttr):
        twin = getattr(a.kind, "builtin_twin", None)
        found = twin(a) if callable(twin) else None
        if isinstance(found, Attribute):
            return found
    return a


def symbol_name(op: Operation) -> str | None:
    a = builtin_twin(attr_of(op, "sym_name"))
    return a.text if isinstance(a, StringAttr) else None


class SymbolTables:
    """The symbols of each table op, indexed once per verification (by table identity)."""

    def __init__(self, is_table: object) -> None:
        self._is_table = is_table
        self._index: dict[int, tuple[Operation, dict[str, Operation]]] = {}

    def is_table(self, op: Operation) -> bool:
        check = self._is_table
        return bool(check(op)) if callable(check) else False

    def symbols(self, table: Operation) -> dict[str, Operation]:
        hit = self._index.get(id(table))
        if hit is not None and hit[0] is table:
            return hit[1]
        names: dict[str, Operation] = {}
        if len(table.regions) == 1 and len(table.regions[0].blocks) == 1:
            for op in table.regions[0].blocks[0].operations:
                name = symbol_name(op)
                if name is not None:
                    names.setdefault(name, op)
        self._index[id(table)] = (table, names)
        return names

    def forget(self, table: Operation) -> None:
        self._index.pop(id(table), None)

    def resolve(self, ancestors: Sequence[Operation], ref: object) -> Operation | None:
        """What `ref` (a symbol reference) names, seen from an op whose ancestors (innermost last) are
        given; None when nothing does."""
        nested: tuple[str, ...]
        if isinstance(ref, FlatSymbolRefAttr):
            root, nested = ref.root.text, ()
        elif isinstance(ref, SymbolRefAttr):
            root, nested = ref.root.text, tuple(n.root.text for n in ref.nested)
        else:
            return None
        table = next((a for a in reversed(ancestors) if self.is_table(a)), None)
        if table is None:
            return None
        found = self.symbols(table).get(root)
        name: str
        for name in nested:
            if found is None or not self.is_table(found):
                return None
            found = self.symbols(found).get(name)
        return found


def table_problems(table: Operation, tables: SymbolTables) -> Iterator[Finding]:
    """The table's own faults: its shape, and every name defined twice (located on the second)."""
    name = table.name
    if len(table.regions) != 1:
        yield Finding(table, f"'{name}' op Operations with a 'SymbolTable' must have exactly one region",
                      check="trait:SymbolTable")
        return
    if len(table.regions[0].blocks) != 1:
        yield Finding(table, f"'{name}' op Operations with a 'SymbolTable' must have exactly one block",
                      check="trait:SymbolTable")
        return
    seen: dict[str, Operation] = {}
    for op in table.regions[0].blocks[0].operations:
        sym = symbol_name(op)
        if sym is None:
            continue
        first = seen.get(sym)
        if first is None:
            seen[sym] = op
            continue
        yield Finding(op, f"redefinition of symbol named '{sym}'", part=("attribute", "sym_name"),
                      related=(Related(first,
                                       "see existing symbol definition here"),), check="trait:SymbolTable")
