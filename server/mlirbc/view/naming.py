"""Value and block names as MLIR's printer gives them (its `SSANameState`), for the pretty view.

The root op's results are numbered first; then regions are numbered from a stack (the last pushed
first), each starting from the counters (next value number, next `%argN`, next conflict suffix) its
parent region had once all of the parent's blocks were numbered, so sibling regions restart from the same
numbers; names in use are scoped the same way.  In a region: the parent op may name its blocks'
arguments (getAsmBlockArgumentNames), each block is `^bbN` unless named, entry-block arguments are
`%argN`, other block arguments numbers, and each op's results a number unless the op names them
(getAsmResultNames, possibly in several groups: `%x, %y = ...`).  A name already in use gets `_N` from one
counter shared by all names.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence

from ..ir.operation import BlockArgument, Operation, OpResult, Region, Value

ResultNamesFn = Callable[[Operation], list[tuple[int, str]]]
BlockArgNamesFn = Callable[[Operation, Region], list[tuple[BlockArgument, str]]]


_PLAIN = re.compile(r"[A-Za-z$._-][A-Za-z0-9$._-]*")
"""A name sanitizeIdentifier leaves as it is (most names: checked at once, not character by character)."""


def sanitize(name: str) -> str:
    """sanitizeIdentifier: invalid characters become `_` (space) or their hex code; a leading digit
    gets a `_` before it."""
    if _PLAIN.fullmatch(name):
        return name

    def valid(c: str) -> bool:
        return (c.isascii() and c.isalnum()) or c in "$._-"

    if name[0].isdigit():
        return "_" + _copy(name, valid)
    if all(valid(c) for c in name):
        return name
    return _copy(name, valid)


def _copy(name: str, valid: Callable[[str], bool]) -> str:
    out = []
    for c in name:
        if valid(c):
            out.append(c)
        elif c == " ":
            out.append("_")
        else:
            out.extend(f"{b:X}" for b in c.encode("utf-8", "surrogateescape"))
    return "".join(out)


class Naming:
    """The names of one module's values and blocks (`%` and `^` included)."""

    def __init__(self, root: Operation, result_names: ResultNamesFn | None = None,
                 block_arg_names: BlockArgNamesFn | None = None) -> None:
        self._result_names = result_names
        self._block_arg_names = block_arg_names
        self.ids: dict[int, int | str] = {}
        """id(value) -> its number or its name (of the first value of each result group)."""
        self.groups: dict[int, list[int]] = {}
        """id(op) -> the result numbers that start its result groups (when there are several)."""
        self.block_names: dict[int, str] = {}
        self.block_order: dict[int, int] = {}
        self._next_value = 0
        self._next_arg = 0
        self._next_conflict = 0
        self._used: dict[str, int] = {}
        self._scopes: list[list[str]] = [[]]
        self.texts: dict[int, str] = {}
        """id(value) -> its full name, for the values whose name is a plain lookup (a printer's fast
        path: `texts.get(id(v)) or value(v)`)."""
        self._number(root)
        # The callbacks are only needed for numbering, and they often refer to a printer holding this
        # naming: a cycle that would keep the printer's garbage until a full collection.
        self._result_names = self._block_arg_names = None

    # -- numbering ----------------------------------------------------------------------------------
    def _number(self, root: Operation) -> None:
        # (region, next value, next arg, next conflict, depth of the parent scope)
        stack: list[tuple[Region, int, int, int, int]] = [
            (r, self._next_value, self._next_arg, self._next_conflict, 0) for r in root.regions]
        self._number_op(root)
        while stack:
            region, nv, na, nc, parent_depth = stack.pop()
            self._next_value, self._next_arg, self._next_conflict = nv, na, nc
            while len(self._scopes) > parent_depth + 1:
                for name in self._scopes.pop():
                    left = self._used[name] - 1
                    if left:
                        self._used[name] = left
                    else:
                        del self._used[name]
            self._scopes.append([])
            depth = len(self._scopes) - 1
            self._number_region(region)
            for block in region.blocks:
                for op in block.operations:
                    for nested in op.regions:
                        stack.append((nested, self._next_value, self._next_arg, self._next_conflict,
                                      depth))

    def _number_region(self, region: Region) -> None:
        parent = region.parent
        if parent is not None and self._block_arg_names is not None:
            for arg, name in self._block_arg_names(parent, region):
                if id(arg) not in self.ids:
                    self._set_name(arg, name)
        for bi, block in enumerate(region.blocks):
            self.block_names.setdefault(id(block), f"^bb{bi}")
            self.block_order[id(block)] = bi
            entry = bi == 0
            for arg in block.arguments:
                if id(arg) in self.ids:
                    continue
                if entry:
                    self._set_name(arg, f"arg{self._next_arg}")
                    self._next_arg += 1
                else:
                    self._set_name(arg, "")
            number_op = self._number_op
            for op in block.operations:
                number_op(op)

    def _number_op(self, op: Operation) -> None:
        results = op.results
        if not results:
            return
        groups = None
        names = self._result_names(op) if self._result_names is not None else None
        if names:
            groups = [0]
            for index, name in names:
                if not 0 <= index < len(results) or id(results[index]) in self.ids:
                    continue
                self._set_name(results[index], name)
                if index:
                    groups.append(index)
        first = id(results[0])
        ids = self.ids
        found = ids.get(first)
        if found is None:
            found = ids[first] = self._next_value
            self._next_value += 1
        if groups is not None and len(groups) > 1:
            self.groups[id(op)] = sorted(groups)
        elif len(results) == 1:
            self.texts[first] = "%" + str(found)  # what `value` would find (names are never renamed)

    def _set_name(self, value: Value, name: str) -> None:
        if not name:
            found: int | str = self._next_value
            self._next_value += 1
        else:
            found = self._unique(sanitize(name))
        self.ids[id(value)] = found
        if not isinstance(value, OpResult):
            self.texts[id(value)] = f"%{found}"

    def _unique(self, name: str) -> str:
        if name in self._used:
            while True:
                probe = f"{name}_{self._next_conflict}"
                self._next_conflict += 1
                if probe not in self._used:
                    name = probe
                    break
        self._used[name] = self._used.get(name, 0) + 1
        self._scopes[-1].append(name)
        return name

    def shadow(self, args: Sequence[BlockArgument], values: Sequence[Value]) -> None:
        """SSANameState::shadowRegionArgs: each argument takes the full name of its value (`%x#1`
        included), after numbering (the arguments' own `%argN` numbers stay used)."""
        for arg, value in zip(args, values, strict=False):
            text = self.value(value)
            self.ids[id(arg)] = text[1:]
            self.texts[id(arg)] = text

    # -- names ----------------------------------------------------------------------------------
    def value(self, v: Value, with_number: bool = True) -> str:
        """`%name`, `%3`, or `%x#1` for a result inside a group of several."""
        text = self.texts.get(id(v))
        if text is not None and (with_number or "#" not in text):
            return text
        head: Value = v
        number = -1
        if isinstance(v, OpResult):
            owner = v.owner
            n = len(owner.results)
            if n > 1:
                groups = self.groups.get(id(owner))
                if groups is None:
                    head = owner.results[0]
                    number = v.index
                else:
                    at = bisect_right(groups, v.index)
                    start = groups[at - 1]
                    end = groups[at] if at < len(groups) else n
                    head = owner.results[start]
                    if end - start != 1:
                        number = v.index - start
        found = self.ids.get(id(head))
        if found is None:
            return "%<<UNKNOWN SSA VALUE>>"
        text = f"%{found}"
        if number >= 0:
            return text + f"#{number}" if with_number else text
        self.texts[id(v)] = text
        return text

    def result_groups(self, op: Operation) -> list[tuple[int, int]]:
        """(first result, count) of each group the op's results print in (`%a, %b:2 = `)."""
        n = len(op.results)
        groups = self.groups.get(id(op))
        if groups is None:
            return [(0, n)] if n else []
        bounds = [*groups, n]
        return [(bounds[i], bounds[i + 1] - bounds[i]) for i in range(len(groups))]
