"""What the public API keeps beside the IR: one state per module, and the one face of each IR object.

The API's objects are thin faces over the IR's own objects: an `Operation` face holds the IR operation
and nothing else, so there is one IR, read by the reader and written by the writer, whatever a program
does through the API.  Faces are cached (weakly) by the IR object they show, so the same op is the same
Python object however it was reached (`is` holds, as in MLIR's bindings).

The IR is mutated in place by the API, and four things are kept up to date by the API's own mutations:

* **what was touched**: the ops whose regions hold a change (an op inserted, erased, moved or modified
  somewhere inside them).  An isolated op the reader read from a nested section and that was not touched
  is declared unchanged to the writer, which copies its section from the original bytes: an unchanged
  save is byte-identical and costs what the changes cost;
* **the use index**: which ops use each value, built on first need (a walk of the module) and kept by
  every API mutation (MLIR keeps use lists on values; the IR does not);
* **the state before the first edit**: what the writer compares an edited module with (the payloads an
  edit may leave unused, the write checks' findings, the opaque payloads the file itself held), and the
  top-level ops as read with their symbol names;
* **which top-level ops changed**: those holding a change or changed themselves (a rename), so that a
  save verifies what the program changed and the symbol uses a change can break, not the whole module
  (`verification_scope`).

A value's uses are kept in the index of the module its defining op (or block) belongs to; values of ops
not in any module (created detached) have theirs in one shared index.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..bytecode.template import template_of
from ..bytecode.unused import remember_template
from ..ir.attributes import FallbackAttr
from ..ir.module import Module as IRModule
from ..ir.operation import (
    PROPS_FALLBACK,
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Properties,
    Region,
    Value,
)
from ..ir.types import FallbackType
from ..ir.walk import held_values, op_values
from ..models.registry import Registry
from ..verifier.symbols import symbol_name

_F = TypeVar("_F")

# -- faces ------------------------------------------------------------------------------------------------


class _FaceRef(weakref.ref[Any]):
    """A weak reference to a face that knows the IR object it shows (its key in `_FACES`)."""

    __slots__ = ("key",)
    key: object


_FACES: dict[object, _FaceRef] = {}
_new = object.__new__


def _forget(ref: _FaceRef) -> None:
    if _FACES.get(ref.key) is ref:
        del _FACES[ref.key]


def face(obj: object, cls: type[_F], keep: object = None) -> _F:
    """The one face of IR object `obj` (created as `cls` the first time).  `keep` is what the face keeps
    alive: the state of the module it was reached through, so that a program holding only ops of a
    module still sees that module's state."""
    ref = _FACES.get(obj)
    if ref is not None:
        f = ref()
        if f is not None:
            return f  # type: ignore[no-any-return]
    f = _new(cls)
    f._o = obj  # type: ignore[attr-defined]
    f._k = keep  # type: ignore[attr-defined]
    r = _FaceRef(f, _forget)
    r.key = obj
    _FACES[obj] = r
    return f


# -- module states ------------------------------------------------------------------------------------------


class ModuleState:
    """What the API keeps for one module (see the module docstring)."""

    __slots__ = ("module", "registry", "context", "path", "touched", "edited", "_uses",
                 "original_problems", "_own", "foreign", "generation", "_printer", "tops_as_read",
                 "changed_tops", "root_changed", "__weakref__")

    def __init__(self, module: IRModule, registry: Registry, context: object, path: str | None) -> None:
        self.module = module
        self.registry = registry
        """The registry bound to the module's model set (what its ops' models are)."""
        self.context = context
        self.path = path
        self.touched: set[Operation] = set()
        """Ops with a change somewhere in their regions."""
        self.edited = False
        self._uses: dict[Value, list[Operation]] | None = None
        self.original_problems: list[str] = []
        """The write checks' findings on the module as read (an edit may not add to them)."""
        self._own: dict[int, Properties] | None = None
        """The opaque properties records of the module as read, by id (computed when first needed)."""
        self.foreign: dict[Operation, None] = {}
        """Ops moved into the module carrying opaque parts of another file (or, in a module not read
        from a file, any opaque part): a save refuses them while they are in the module."""
        self.generation = 0
        """Counts changes: what is derived from the IR (the view's value names) is kept per generation."""
        self._printer: tuple[int, Callable[[Operation], str]] | None = None
        self.tops_as_read: dict[Operation, str | None] | None = None
        """The top-level ops before the first edit, with their symbol names (a module read from a file)."""
        self.changed_tops: set[Operation] = set()
        """Top-level ops that held a change or changed themselves (wherever they are now)."""
        self.root_changed = False
        """Whether the top-level op's own attributes or location changed."""
        root = module.root
        if root is not None:
            _STATES[id(root)] = weakref.ref(self, _state_gone(id(root)))

    # -- edits ------------------------------------------------------------------------------------
    def begin_edit(self) -> None:
        """Called before every change: the first one records what the module was as read."""
        if self.edited:
            return
        self.edited = True
        src = template_of(self.module)
        if src is None or self.module.root is None:
            return
        remember_template(src, self.module)
        self.tops_as_read = {op: symbol_name(op) for op in top_level_ops(self.module.root)}
        reg = self.registry
        self.original_problems = reg.write_problems(self.module, self.module.producer, self.module.version)
        self.own_records()

    def own_records(self) -> dict[int, Properties]:
        """The module's opaque properties records as read (taken before its first edit)."""
        if self._own is None:
            own: dict[int, Properties] = {}
            root = self.module.root
            if root is not None and template_of(self.module) is not None and any(
                    n.kind == "op" for n in self.module.fallbacks):
                for op in root.walk():
                    p = op.properties
                    if p is not None and p.kind == PROPS_FALLBACK:
                        own[id(p)] = p
            self._own = own
        return self._own

    def verification_scope(self) -> tuple[list[Operation], set[str]] | None:
        """What a save verifies of the module: the top-level ops to verify in full (those changed and
        those added, in their order) and the symbol names whose definitions changed (the names those ops
        and the ops taken out of the top level had as read and have now: a use of one of them anywhere may
        resolve differently).  None when the whole module must be verified: it was not read from a file,
        its top-level op changed, or a changed top-level op has results (other top-level ops may use
        them)."""
        before = self.tops_as_read
        root = self.module.root
        if before is None or root is None or self.root_changed:
            return None
        changed = self.changed_tops
        ops: list[Operation] = []
        names: set[str] = set()
        now: set[Operation] = set()
        for op in top_level_ops(root):
            now.add(op)
            if op not in changed and op in before:
                continue
            if op.results:
                return None
            ops.append(op)
            name = symbol_name(op)
            if name is not None:
                names.add(name)
            old = before.get(op)
            if old is not None:
                names.add(old)
        for op, old in before.items():
            if op not in now:  # taken out of the top level: erased, or moved inside another op
                if op.results:
                    return None
                if old is not None:
                    names.add(old)
        return ops, names

    # -- the use index ----------------------------------------------------------------------------
    def uses(self) -> dict[Value, list[Operation]]:
        """The use index of the module's values (built on first need)."""
        index = self._uses
        if index is None:
            index = {}
            root = self.module.root
            if root is not None:
                for op in root.walk():
                    for v in op.operands:
                        lst = index.get(v)
                        if lst is None:
                            index[v] = [op]
                        else:
                            lst.append(op)
            self._uses = index
        return index

    def op_text(self, op: Operation) -> str:
        """The op in the pretty form, as MLIR prints an op on its own (values named as in the module's
        view)."""
        from ..view.pretty import pretty_op_printer

        root = self.module.root
        assert root is not None
        cached = self._printer
        if cached is None or cached[0] != self.generation:
            cached = self._printer = (self.generation, pretty_op_printer(root, self.registry))
        return cached[1](op)

    def block_text(self, block: Block) -> str:
        """The view's text of a block of this module: its label line, then its ops one level in."""
        from ..view.pretty import pretty_block_text

        root = self.module.root
        assert root is not None
        return pretty_block_text(block, root, self.registry)

    @property
    def has_index(self) -> bool:
        return self._uses is not None


_STATES: dict[int, weakref.ref[ModuleState]] = {}
_lock = threading.Lock()


def _state_gone(key: int) -> Any:
    def gone(ref: weakref.ref[ModuleState]) -> None:
        with _lock:
            if _STATES.get(key) is ref:
                del _STATES[key]
    return gone


def top_level_ops(root: Operation) -> list[Operation]:
    """The ops directly in the regions of a module's top-level op."""
    return [op for region in root.regions for block in region.blocks for op in block.operations]


def placed(op: Operation) -> tuple[Operation | None, Operation | None]:
    """(`root_of(op)`, the top-level op holding `op` or `op` itself, None when `op` is the outermost op)."""
    o, below = op, None
    while True:
        b = o.parent
        if b is None:
            return o, below
        r = b.parent
        if r is None:
            return o, below  # a top-level op: the reader keeps a module's root in a block of its own
        p = r.parent
        if p is None:
            return None, None
        o, below = p, o


def root_of(op: Operation) -> Operation | None:
    """The outermost op above `op` (itself when it has no parent); None when a region on the way is not
    attached to anything."""
    o = op
    while True:
        b = o.parent
        if b is None:
            return o
        r = b.parent
        if r is None:
            return o  # a top-level op: the reader keeps a module's root in a block of its own
        p = r.parent
        if p is None:
            return None
        o = p


def state_of_root(root: Operation | None) -> ModuleState | None:
    if root is None:
        return None
    ref = _STATES.get(id(root))
    s = ref() if ref is not None else None
    return s if s is not None and s.module.root is root else None


def state_of(op: Operation) -> ModuleState | None:
    """The state of the module `op` is in (None: not in a module)."""
    return state_of_root(root_of(op))


def owner_op(v: Value) -> Operation | None:
    """The op defining `v` (the op holding the block of a block argument), None for a detached block."""
    if isinstance(v, OpResult):
        return v.owner
    if isinstance(v, BlockArgument):
        r = v.owner.parent
        return r.parent if r is not None else None
    return None


def home_of(v: Value) -> ModuleState | None:
    o = owner_op(v)
    return state_of(o) if o is not None else None


def ancestors(op: Operation) -> Iterator[Operation]:
    """The ops whose regions hold `op`, innermost first."""
    b = op.parent
    while b is not None:
        r = b.parent
        if r is None:
            return
        p = r.parent
        if p is None:
            return
        yield p
        b = p.parent


def begin(op: Operation) -> ModuleState | None:
    """Before changing `op` (or what is directly in its regions): the state of its module, told that an
    edit starts."""
    root, top = placed(op)
    s = state_of_root(root)
    if s is not None:
        s.begin_edit()
        if top is not None:
            s.changed_tops.add(top)
    return s


def touched(op: Operation, inside: bool = False) -> None:
    """After a change of `op` itself (its encoding in its parent block), or with `inside` of what its
    regions hold: the ops around the change are no longer as read."""
    root, top = placed(op)
    s = state_of_root(root)
    if s is None:
        return
    s.begin_edit()
    s.generation += 1
    if top is not None:
        s.changed_tops.add(top)
    elif not inside:
        s.root_changed = True
    t = s.touched
    if inside:
        t.add(op)
    for a in ancestors(op):
        if a in t:
            break  # marked before, and every op above it with it
        t.add(a)


# -- uses -------------------------------------------------------------------------------------------------

_POOL: dict[Value, list[Operation]] = {}
"""Uses of the values of ops that are not in any module."""


def index_of(v: Value, build: bool = True) -> dict[Value, list[Operation]] | None:
    """The index holding `v`'s uses (None when its module's index is not built and `build` is False)."""
    s = home_of(v)
    if s is None:
        return _POOL
    if s.has_index or build:
        return s.uses()
    return None


def uses_of(v: Value) -> list[Operation]:
    """The ops using `v`, once per use."""
    index = index_of(v)
    assert index is not None
    return index.get(v, [])


def add_use(v: Value, user: Operation) -> None:
    s = home_of(v)
    if s is None:
        _POOL.setdefault(v, []).append(user)
        return
    if not s.has_index and state_of(user) is s:
        return  # the index, when built, finds it by walking the module
    s.uses().setdefault(v, []).append(user)


def remove_use(v: Value, user: Operation) -> None:
    index = index_of(v, build=False)
    if index is None:
        return
    lst = index.get(v)
    if lst is None:
        return
    for i in range(len(lst) - 1, -1, -1):
        if lst[i] is user:
            del lst[i]
            break
    if not lst:
        del index[v]


def defined_values(op: Operation) -> Iterator[Value]:
    """Every value defined in `op`'s subtree: its results and those of the ops in its regions, and the
    arguments of their blocks."""
    for o in op.walk():
        yield from o.results
        for r in o.regions:
            for b in r.blocks:
                yield from b.arguments


def within(op: Operation, top: Operation) -> bool:
    """Whether `op` is `top` or nested in it."""
    if op is top:
        return True
    return any(a is top for a in ancestors(op))


def rehome(top: Operation, before: ModuleState | None, link: Any) -> None:
    """Move `top`'s subtree from the module of state `before` (None: detached) to wherever `link()`
    attaches it, keeping the use index right across the move."""
    after_root_state = None
    if before is not None and not before.has_index:
        # The subtree's uses of values of the module it leaves are found by walking that module: once
        # the subtree is gone the walk would miss them.
        before.uses()
    values = list(defined_values(top))
    moved: dict[Value, list[Operation]] = {}
    old_index = _POOL if before is None else before._uses
    for v in values:
        lst = old_index.pop(v, None) if old_index is not None else None
        if lst:
            moved[v] = lst
    link()
    after_root_state = state_of(top)
    if after_root_state is None:
        for v, lst in moved.items():
            _POOL[v] = lst
        return
    if after_root_state.has_index:
        index = after_root_state.uses()
        for v, lst in moved.items():
            index[v] = lst
        return
    if any(state_of(u) is not after_root_state for lst in moved.values() for u in lst):
        index = after_root_state.uses()  # built now, with the subtree in place; add what it cannot see
        for v, lst in moved.items():
            seen = index.setdefault(v, [])
            for u in lst:
                if state_of(u) is not after_root_state:
                    seen.append(u)


# -- opaque payloads ---------------------------------------------------------------------------------------


def arrived(top: Operation, state: ModuleState) -> None:
    """`top`'s subtree was moved into the module of `state` from elsewhere (another module, or detached):
    remember its ops holding opaque parts that are not this module's own (a save refuses them)."""
    from_file = template_of(state.module) is not None
    own = state.own_records() if from_file else {}
    for op in top.walk():
        p = op.properties
        if p is not None and p.kind == PROPS_FALLBACK and id(p) not in own:
            state.foreign[op] = None
        elif not from_file and _holds_opaque(op):
            state.foreign[op] = None


def foreign_opaque(state: ModuleState) -> Operation | None:
    """The first op of the module holding an opaque payload it cannot write (see `arrived`)."""
    for op in list(state.foreign):
        if state_of(op) is state:
            return op
        del state.foreign[op]
    return None


def _holds_opaque(op: Operation) -> bool:
    stack: list[object] = list(op_values(op))
    seen: set[int] = set()
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, FallbackAttr | FallbackType):
            return True
        stack.extend(held_values(v))
    return False


__all__ = ["ModuleState", "face", "state_of", "begin", "touched", "uses_of", "add_use", "remove_use",
           "rehome", "within", "ancestors", "root_of", "Block", "Region"]
