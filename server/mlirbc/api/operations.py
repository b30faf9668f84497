"""Operations, blocks, regions and values as MLIR's Python bindings show them, over the IR itself.

`Operation` (also `OpView`), `Block`, `Region`, `Value` (`OpResult`, `BlockArgument`) and `OpOperand` are
faces of the IR's own objects (one face per object, see `_state`).  Reading goes straight to the IR;
every change goes through the functions here, which keep the module's use index, mark what was touched
(so that the writer copies the rest from the original bytes) and copy what the IR shares instead of
changing it in place (an op's properties record, shared empty lists).

Fallback ops are ops like any other: they are moved, erased, cloned and rewired the same way, their
attribute dictionary is read and written the same way.  What they keep opaque (their properties payload)
is carried byte for byte; reading or changing it as if it were decoded raises `OpaqueError` naming the op.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from typing import IO, TYPE_CHECKING, Any, NoReturn, overload

from ..ir import attributes as A
from ..ir.operation import (
    PROPS_ATTRIBUTE,
    PROPS_DECODED,
    PROPS_FALLBACK,
    FrozenEmptyList,
    OpName,
    Properties,
)
from ..ir.operation import Block as IRBlock
from ..ir.operation import BlockArgument as IRBlockArgument
from ..ir.operation import Operation as IROp
from ..ir.operation import OpResult as IROpResult
from ..ir.operation import Region as IRRegion
from ..ir.operation import Value as IRValue
from ..models.api import OpModel
from ..models.registry import Registry
from . import _state as S
from .attributes import Attribute, Location, dictionary, ir_attr, wrap_attr
from .context import Context, default_context
from .errors import IRError, OpaqueError
from .types import Type, ir_type, wrap_type

if TYPE_CHECKING:
    from .insertion import InsertionPoint


# -- faces --------------------------------------------------------------------------------------------------


def op_face(o: IROp, keep: object = None) -> Operation:
    return S.face(o, Operation, keep)


def block_face(b: IRBlock, keep: object = None) -> Block:
    return S.face(b, Block, keep)


def region_face(r: IRRegion, keep: object = None) -> Region:
    return S.face(r, Region, keep)


def value_face(v: IRValue, keep: object = None) -> Value:
    return S.face(v, OpResult if isinstance(v, IROpResult) else BlockArgument, keep)


def ir_op(op: object, what: str = "operation") -> IROp:
    if isinstance(op, Operation):
        return op._o
    inner = getattr(op, "operation", None)
    if isinstance(inner, Operation):
        return inner._o
    raise TypeError(f"{what} must be an mlirbc Operation, not {type(op).__name__}")


def ir_value(v: object, what: str = "value") -> IRValue:
    if isinstance(v, Value):
        return v._o
    if isinstance(v, Operation) and len(v._o.results) == 1:  # an op of one result stands for it
        return v._o.results[0]
    raise TypeError(f"{what} must be an mlirbc Value, not {type(v).__name__}")


def ir_block(b: object, what: str = "block") -> IRBlock:
    if isinstance(b, Block):
        return b._o
    raise TypeError(f"{what} must be an mlirbc Block, not {type(b).__name__}")


def _own(obj: Any, attr: str) -> list[Any]:
    """`obj.attr` as a list of its own (the reader shares one frozen empty list between IR objects)."""
    lst = getattr(obj, attr)
    if type(lst) is FrozenEmptyList:
        lst = []
        setattr(obj, attr, lst)
    return lst  # type: ignore[no-any-return]


def _registry_of(o: IROp) -> Registry:
    s = S.state_of(o)
    if s is not None:
        return s.registry
    return default_context().registry


def _model(o: IROp) -> OpModel | None:
    if not o.op_name.registered:
        return None
    return _registry_of(o).op(o.name).model


def _field_names(model: OpModel | None) -> tuple[set[str], set[str]]:
    """(inherent attribute names, native property names) of an op model."""
    if model is None:
        return set(), set()
    return ({f.name for f in getattr(model, "attributes", ())},
            {f.name for f in getattr(model, "natives", ())})


def _forget_order(v: IRValue) -> None:
    """A value whose uses changed: its stored use-list order no longer describes them."""
    if v.use_order is not None:
        v.use_order = None
        owner = S.owner_op(v)
        if owner is not None:
            S.touched(owner, inside=isinstance(v, IRBlockArgument))


def _opaque_may_hold(o: IROp, name: str) -> bool:
    """Whether attribute `name` may be inside a fallback op's opaque properties: properties hold the op's
    inherent attributes, whose names are identifiers of its ODS; a name with a dot (`my.tag`,
    `llvm.emit_c_interface`) is a dialect's discardable attribute and never one of them."""
    p = o.properties
    return p is not None and p.kind == PROPS_FALLBACK and bool(p.raw) and "." not in name


def _opaque(o: IROp, what: str) -> NoReturn:
    p = o.properties
    reason = p.reason if p is not None and p.reason else "no model decodes them"
    size = len(p.raw or b"") if p is not None else 0
    raise OpaqueError(f"op '{o.name}' is a fallback op: its properties are kept as {size} opaque bytes "
                      f"({reason}), so {what}")


# -- values -------------------------------------------------------------------------------------------------


class Value:
    """An SSA value (MLIR's `Value`): an op's result (`OpResult`) or a block's argument
    (`BlockArgument`)."""

    __slots__ = ("_o", "_k", "__weakref__")
    _o: IRValue
    _k: Any

    def __new__(cls, value: Value) -> Value:
        if not isinstance(value, Value):
            raise TypeError(f"expected a Value, got {type(value).__name__}")
        return value

    @property
    def type(self) -> Type:
        return wrap_type(self._o.type)

    def set_type(self, type: Type) -> None:
        """Give the value another type (the ops around it are not checked: keep them consistent)."""
        t = ir_type(type)
        owner = S.owner_op(self._o)
        if owner is not None:
            S.begin(owner)
        self._o.type = t
        if owner is not None:
            S.touched(owner, inside=isinstance(self._o, IRBlockArgument))

    @property
    def owner(self) -> Any:
        raise NotImplementedError

    @property
    def location(self) -> Location:
        """Where the value is defined: its op's location (a block argument has its own)."""
        owner = S.owner_op(self._o)
        assert owner is not None
        return Location._of(owner.location)

    @property
    def context(self) -> Context:
        return default_context()

    @property
    def uses(self) -> Iterator[OpOperand]:
        """The uses of the value: one `OpOperand` (user op, operand number) per use."""
        v = self._o
        seen: set[int] = set()
        out: list[OpOperand] = []
        for user in S.uses_of(v):
            if id(user) in seen:
                continue
            seen.add(id(user))
            for i, x in enumerate(user.operands):
                if x is v:
                    out.append(OpOperand(op_face(user, self._k), i))
        return iter(out)

    @property
    def has_one_use(self) -> bool:
        return len(S.uses_of(self._o)) == 1

    @property
    def use_empty(self) -> bool:
        return not S.uses_of(self._o)

    def replace_all_uses_with(self, other: Value) -> None:
        """Every use of this value becomes a use of `other`."""
        replace_uses(self._o, ir_value(other, "replacement"), None)

    def replace_all_uses_except(self, with_: Value, exceptions: Operation | Sequence[Operation]) -> None:
        """Every use of this value, except by the ops in `exceptions`, becomes a use of `with_`."""
        ops = [exceptions] if isinstance(exceptions, Operation) else list(exceptions)
        replace_uses(self._o, ir_value(with_, "replacement"), {id(ir_op(o)) for o in ops})

    def get_name(self, use_local_scope: bool = False, use_name_loc_as_prefix: bool = False) -> str:
        """The value's name in the view (`%3`, `%arg0`)."""
        from ..view.printer import value_name

        owner = S.owner_op(self._o)
        if owner is None:
            return "%<<UNKNOWN SSA VALUE>>"
        root = S.root_of(owner)
        return value_name(self._o, root if root is not None else owner)

    def maybe_downcast(self) -> Value:
        return self

    def dump(self) -> None:
        print(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"


class OpResult(Value):
    """A result of an op: `owner` is the op, `result_number` its position."""

    __slots__ = ()
    _o: IROpResult

    @property
    def owner(self) -> Operation:
        return op_face(self._o.owner, self._k)

    @property
    def result_number(self) -> int:
        return self._o.index

    def __str__(self) -> str:
        return f"{self.get_name()} : {self.type} (result #{self._o.index} of '{self._o.owner.name}')"


class BlockArgument(Value):
    """An argument of a block: `owner` is the block, `arg_number` its position, `location` its own."""

    __slots__ = ()
    _o: IRBlockArgument

    @property
    def owner(self) -> Block:
        return block_face(self._o.owner, self._k)

    @property
    def arg_number(self) -> int:
        return self._o.index

    @property
    def location(self) -> Location:
        return Location._of(self._o.location)

    def set_location(self, loc: Location) -> None:
        b = self._o.owner
        holder = b.parent.parent if b.parent is not None else None
        if holder is not None:
            S.begin(holder)
        self._o.location = loc._a
        if holder is not None:
            S.touched(holder, inside=True)

    def __str__(self) -> str:
        return f"<block argument> of type '{self.type}' at index: {self._o.index}"


class OpOperand:
    """One use of a value: the op using it and the operand's position."""

    __slots__ = ("owner", "operand_number")

    def __init__(self, owner: Operation, operand_number: int) -> None:
        self.owner = owner
        self.operand_number = operand_number

    @property
    def value(self) -> Value:
        return value_face(self.owner._o.operands[self.operand_number], self.owner._k)

    def get(self) -> Value:
        return self.value

    def __repr__(self) -> str:
        return f"OpOperand(#{self.operand_number} of '{self.owner.name}')"


def check_same_module(user: IROp, v: IRValue, user_state: S.ModuleState | None = None) -> None:
    """Refuse (IRError naming the op) wiring a value of one module into an op of another: no save could
    write it (a module's values are its own)."""
    home = S.home_of(v)
    if home is None:
        return
    where = user_state if user_state is not None else S.state_of(user)
    if where is not None and where is not home:
        owner = S.owner_op(v)
        what = f"result #{v.index} of '{owner.name}'" if isinstance(v, IROpResult) and owner is not None \
            else f"block argument #{v.index}" if isinstance(v, IRBlockArgument) else "a value"
        raise IRError(f"op '{user.name}' cannot use {what}: that value belongs to another module "
                      "(clone or move its defining op into this module first)")


def set_operand(o: IROp, index: int, new: IRValue) -> None:
    old = o.operands[index]
    if old is new:
        return
    check_same_module(o, new)
    S.begin(o)
    operands = _own(o, "operands")
    operands[index] = new
    S.remove_use(old, o)
    S.add_use(new, o)
    _forget_order(old)
    _forget_order(new)
    S.touched(o)


def replace_uses(old: IRValue, new: IRValue, except_ids: set[int] | None) -> None:
    if old is new:
        return
    users = list(S.uses_of(old))
    if users:
        check_same_module(users[0], new, S.home_of(old) or S.state_of(users[0]))
    done: set[int] = set()
    for user in users:
        if id(user) in done or (except_ids is not None and id(user) in except_ids):
            continue
        done.add(id(user))
        S.begin(user)
        operands = _own(user, "operands")
        for i, x in enumerate(operands):
            if x is old:
                operands[i] = new
                S.remove_use(old, user)
                S.add_use(new, user)
        S.touched(user)
    if done:
        _forget_order(old)
        _forget_order(new)


# -- attributes of an op ------------------------------------------------------------------------------------


class OpAttributeMap:
    """`op.attributes`: the inherent attributes (properties) and discardable ones of an op together, as
    MLIR's bindings show them (sorted by name); setting an inherent name sets the property (checked
    against the op's model at once), other names are discardable attributes."""

    __slots__ = ("_op",)

    def __init__(self, op: Operation) -> None:
        self._op = op

    def _inherent(self) -> dict[str, A.Attribute]:
        o = self._op._o
        p = o.properties
        if p is None or p.kind == PROPS_FALLBACK:
            return {}
        if p.kind == PROPS_DECODED:
            _, natives = _field_names(_model(o)) if p.values else (set(), set())
            return {k: v for k, v in p.values.items() if k not in natives}
        return {}

    def _discardable(self) -> dict[str, A.Attribute]:
        d = self._op._o.attributes
        return {k.text: v for k, v in d.entries} if d is not None else {}

    def _unregistered_props(self) -> A.DictionaryAttr | None:
        p = self._op._o.properties
        if p is not None and p.kind == PROPS_ATTRIBUTE and isinstance(p.attribute, A.DictionaryAttr):
            return p.attribute
        return None

    def _all(self) -> dict[str, A.Attribute]:
        merged = self._inherent()
        merged.update(self._discardable())
        return dict(sorted(merged.items()))

    def _lookup(self, name: str) -> A.Attribute | None:
        o = self._op._o
        inherent = self._inherent()
        if name in inherent:
            return inherent[name]
        found = o.attributes.lookup(name) if o.attributes is not None else None
        if found is not None:
            return found
        props = self._unregistered_props()
        if props is not None:
            found = props.lookup(name)
            if found is not None:
                return found
        if _opaque_may_hold(o, name):
            _opaque(o, f"whether it has attribute '{name}' cannot be told (it may be among them)")
        return None

    # -- reading ---------------------------------------------------------------------------------------
    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._lookup(name) is not None

    @overload
    def __getitem__(self, key: str) -> Attribute: ...

    @overload
    def __getitem__(self, key: int) -> Any: ...

    def __getitem__(self, key: str | int) -> Any:
        if isinstance(key, int):
            name, value = list(self._all().items())[key]
            from .attributes import NamedAttribute

            return NamedAttribute(name, wrap_attr(value))
        found = self._lookup(key)
        if found is None:
            raise KeyError(f"attempt to access a non-existent attribute '{key}' of '{self._op.name}'")
        return wrap_attr(found)

    def get(self, key: str, default: Any = None) -> Any:
        found = self._lookup(key)
        return wrap_attr(found) if found is not None else default

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._all()))

    def keys(self) -> list[str]:
        return list(self._all())

    def values(self) -> list[Attribute]:
        return [wrap_attr(v) for v in self._all().values()]

    def items(self) -> list[tuple[str, Attribute]]:
        return [(k, wrap_attr(v)) for k, v in self._all().items()]

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{k}: {v}" for k, v in self.items()) + "}"

    # -- writing ---------------------------------------------------------------------------------------
    def __setitem__(self, name: str, attr: Attribute) -> None:
        if not isinstance(name, str) or not name:
            raise IRError(f"attribute names must be non-empty strings, not {name!r}")
        set_attribute(self._op._o, name, ir_attr(attr, f"attribute '{name}'"))

    def __delitem__(self, name: str) -> None:
        delete_attribute(self._op._o, name)


def _check_properties(o: IROp, values: dict[str, A.Attribute], what: str) -> None:
    """Refuse (IRError naming the op) property values the op's model cannot encode."""
    from ..bytecode.writable import PropertyCheck

    probe = IROp(o.op_name, o.location, (), [], None,
                 Properties(PROPS_DECODED, values=dict(values)))
    problem = PropertyCheck(_registry_of(o), 6).problem(probe)
    if problem is not None:
        raise IRError(f"{what}: {problem}")


def set_attribute(o: IROp, name: str, value: A.Attribute) -> None:
    p = o.properties
    model = _model(o)
    inherent, natives = _field_names(model)
    if p is not None and p.kind == PROPS_FALLBACK:
        if name in inherent or name in natives or name == "mlirbc.properties" or (
                _opaque_may_hold(o, name) and (o.attributes is None or o.attributes.lookup(name) is None)):
            _opaque(o, f"'{name}' cannot be set (it may be one of those properties; a discardable "
                       "attribute of its own needs a dialect prefix, e.g. 'my.tag')")
    elif p is not None and p.kind == PROPS_DECODED and name in inherent:
        values = dict(p.values)
        values[name] = value
        _check_properties(o, values, f"op '{o.name}': cannot set '{name}' to {wrap_attr(value)}")
        S.begin(o)
        o.properties = Properties(PROPS_DECODED, values=dict(sorted(values.items())), model=p.model)
        S.touched(o)
        return
    elif p is not None and p.kind == PROPS_ATTRIBUTE and isinstance(p.attribute, A.DictionaryAttr) \
            and p.attribute.lookup(name) is not None:
        entries = {k.text: v for k, v in p.attribute.entries}
        entries[name] = value
        S.begin(o)
        o.properties = Properties(PROPS_ATTRIBUTE, attribute=dictionary(entries))
        S.touched(o)
        return
    elif p is None and name in inherent:
        current = {k.text: v for k, v in o.attributes.entries} if o.attributes is not None else {}
        values = {k: v for k, v in current.items() if k in inherent}
        values[name] = value
        _check_properties(o, values, f"op '{o.name}': cannot set '{name}' to {wrap_attr(value)}")
    current = {k.text: v for k, v in o.attributes.entries} if o.attributes is not None else {}
    current[name] = value
    S.begin(o)
    o.attributes = dictionary(current)
    S.touched(o)


def delete_attribute(o: IROp, name: str) -> None:
    p = o.properties
    model = _model(o)
    inherent, _ = _field_names(model)
    if o.attributes is not None and o.attributes.lookup(name) is not None:
        current = {k.text: v for k, v in o.attributes.entries if k.text != name}
        if p is None and name in inherent:
            values = {k: v for k, v in current.items() if k in inherent}
            _check_properties(o, values, f"op '{o.name}': cannot remove '{name}'")
        S.begin(o)
        o.attributes = dictionary(current) if current else None
        S.touched(o)
        return
    if p is not None and p.kind == PROPS_DECODED and name in p.values and name in inherent:
        values = {k: v for k, v in p.values.items() if k != name}
        _check_properties(o, values, f"op '{o.name}': cannot remove '{name}'")
        S.begin(o)
        o.properties = Properties(PROPS_DECODED, values=values, model=p.model)
        S.touched(o)
        return
    if p is not None and p.kind == PROPS_ATTRIBUTE and isinstance(p.attribute, A.DictionaryAttr) \
            and p.attribute.lookup(name) is not None:
        entries = {k.text: v for k, v in p.attribute.entries if k.text != name}
        S.begin(o)
        o.properties = Properties(PROPS_ATTRIBUTE, attribute=dictionary(entries))
        S.touched(o)
        return
    if _opaque_may_hold(o, name):
        _opaque(o, f"'{name}' cannot be removed from them")
    raise KeyError(f"attempt to delete a non-existent attribute '{name}' of '{o.name}'")


# -- lists --------------------------------------------------------------------------------------------------


class _FaceList(Sequence[Any]):
    """A read-only sequence over an IR list, giving faces."""

    __slots__ = ("_owner",)

    def __init__(self, owner: Any) -> None:
        self._owner = owner

    def _items(self) -> list[Any]:
        raise NotImplementedError

    def _face(self, x: Any) -> Any:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._items())

    def __getitem__(self, index: Any) -> Any:
        items = self._items()
        if isinstance(index, slice):
            return [self._face(x) for x in items[index]]
        return self._face(items[index])

    def __iter__(self) -> Iterator[Any]:
        return iter([self._face(x) for x in self._items()])

    def __add__(self, other: Iterable[Any]) -> list[Any]:
        return [*self, *other]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class OpOperandList(_FaceList):
    """`op.operands`: the values an op uses; `op.operands[i] = v` rewires one."""

    def _items(self) -> list[Any]:
        return self._owner._o.operands  # type: ignore[no-any-return]

    def _face(self, x: Any) -> Value:
        return value_face(x, self._owner._k)

    def __setitem__(self, index: int, value: Value) -> None:
        o = self._owner._o
        n = len(o.operands)
        if not -n <= index < n:
            raise IndexError(index)
        set_operand(o, index % n, ir_value(value))

    @property
    def types(self) -> list[Type]:
        return [wrap_type(v.type) for v in self._items()]


class OpResultList(_FaceList):
    """`op.results`."""

    def _items(self) -> list[Any]:
        return self._owner._o.results  # type: ignore[no-any-return]

    def _face(self, x: Any) -> OpResult:
        return value_face(x, self._owner._k)  # type: ignore[return-value]

    @property
    def types(self) -> list[Type]:
        return [wrap_type(v.type) for v in self._items()]

    @property
    def owner(self) -> Operation:
        return self._owner  # type: ignore[no-any-return]


class RegionSequence(_FaceList):
    """`op.regions`."""

    def _items(self) -> list[Any]:
        return self._owner._o.regions  # type: ignore[no-any-return]

    def _face(self, x: Any) -> Region:
        return region_face(x, self._owner._k)


class OpSuccessors(_FaceList):
    """`op.successors`: the blocks a terminator may branch to."""

    def _items(self) -> list[Any]:
        return self._owner._o.successors  # type: ignore[no-any-return]

    def _face(self, x: Any) -> Block:
        return block_face(x, self._owner._k)

    def __setitem__(self, index: int, block: Block) -> None:
        o = self._owner._o
        S.begin(o)
        succ = _own(o, "successors")
        succ[index] = ir_block(block)
        S.touched(o)


class BlockArgumentList(_FaceList):
    """`block.arguments`."""

    def _items(self) -> list[Any]:
        return self._owner._o.arguments  # type: ignore[no-any-return]

    def _face(self, x: Any) -> BlockArgument:
        return value_face(x, self._owner._k)  # type: ignore[return-value]

    @property
    def types(self) -> list[Type]:
        return [wrap_type(v.type) for v in self._items()]


class OperationList(_FaceList):
    """`block.operations`."""

    def _items(self) -> list[Any]:
        return self._owner._o.operations  # type: ignore[no-any-return]

    def _face(self, x: Any) -> Operation:
        return op_face(x, self._owner._k)


class BlockList(_FaceList):
    """`region.blocks`; `append(*arg_types, arg_locs=None)` adds a block at the end."""

    def _items(self) -> list[Any]:
        return self._owner._o.blocks  # type: ignore[no-any-return]

    def _face(self, x: Any) -> Block:
        return block_face(x, self._owner._k)

    def append(self, *arg_types: Type, arg_locs: Sequence[Location] | None = None) -> Block:
        owner: Region = self._owner
        return owner._new_block(len(owner._o.blocks), arg_types, arg_locs)


# -- structure changes --------------------------------------------------------------------------------------


def _holder(block: IRBlock) -> IROp | None:
    r = block.parent
    return r.parent if r is not None else None


def _inside(block: IRBlock, o: IROp) -> bool:
    """Whether `block` is in `o`'s regions (at any depth)."""
    h = _holder(block)
    while h is not None:
        if h is o:
            return True
        b = h.parent
        if b is None:
            return False
        h = _holder(b)
    return False


def place(o: IROp, block: IRBlock, before: IROp | None) -> None:
    """Put `o` into `block` before `before` (None: at the end), taking it out of where it was."""
    if before is not None and before.parent is not block:
        raise IRError(f"cannot insert before '{before.name}': it is not in the block")
    if before is o:
        return
    if _inside(block, o):
        raise IRError(f"cannot move '{o.name}' into its own regions")
    if S.state_of_root(o) is not None:
        raise IRError(f"'{o.name}' is the top-level op of a module: it cannot be moved")
    was = S.state_of(o)
    holder = _holder(block)
    target = S.state_of(holder) if holder is not None else None
    if was is not None:
        was.begin_edit()
    if target is not None:
        target.begin_edit()

    def link() -> None:
        old = o.parent
        if old is not None:
            S.touched(o)
            old.operations.remove(o)
        ops = _own(block, "operations")
        if before is None:
            ops.append(o)
        else:
            ops.insert(ops.index(before), o)
        o.parent = block
        S.touched(o)

    if was is target and was is not None:
        link()
    else:
        S.rehome(o, was, link)
        if target is not None:
            S.arrived(o, target)


def erase(o: IROp) -> None:
    """Erase `o` and everything in its regions; refused while its results are used outside it."""
    if S.state_of_root(o) is not None:
        raise IRError(f"'{o.name}' is the top-level op of a module: it cannot be erased")
    for r in o.results:
        for user in S.uses_of(r):
            if not S.within(user, o):
                raise IRError(f"cannot erase '{o.name}': its result #{r.index} is still used by "
                              f"'{user.name}' (replace or erase that use first)")
    s = S.begin(o)
    if o.parent is not None:
        S.touched(o)
    inner = list(o.walk())
    for x in inner:
        for v in x.operands:
            S.remove_use(v, x)
            _forget_order(v)
    for v in S.defined_values(o):
        index = S.index_of(v, build=False)
        if index is not None:
            index.pop(v, None)
    if o.parent is not None:
        o.parent.operations.remove(o)
        o.parent = None
    del s


def detach(o: IROp) -> None:
    """Take `o` out of its block; it stays usable (insert it elsewhere)."""
    if S.state_of_root(o) is not None:
        raise IRError(f"'{o.name}' is the top-level op of a module: it cannot be detached")
    if o.parent is None:
        return
    was = S.state_of(o)

    def link() -> None:
        b = o.parent
        assert b is not None
        S.touched(o)
        b.operations.remove(o)
        o.parent = None

    S.rehome(o, was, link)


def clone_op(o: IROp) -> IROp:
    """A deep copy of `o` (not inserted anywhere); values and blocks defined inside it are its own."""
    values: dict[IRValue, IRValue] = {}
    blocks: dict[IRBlock, IRBlock] = {}

    def copy(src: IROp) -> IROp:
        new = IROp(src.op_name, src.location, tuple(r.type for r in src.results), None,
                   src.attributes, src.properties)
        for a, b in zip(src.results, new.results, strict=True):
            values[a] = b
        for region in src.regions:
            nr = new.add_region()
            for block in region.blocks:
                nb = nr.add_block()
                blocks[block] = nb
                for arg in block.arguments:
                    values[arg] = nb.add_argument(arg.type, arg.location)
        for region, nr in zip(src.regions, new.regions, strict=True):
            for block, nb in zip(region.blocks, nr.blocks, strict=True):
                for child in block.operations:
                    nb.append(copy(child))
        return new

    top = copy(o)
    for src, new in zip(o.walk(), top.walk(), strict=True):
        new.operands = [values.get(v, v) for v in src.operands]
        if src.successors:
            new.successors = [blocks.get(b, b) for b in src.successors]
    return top


# -- operations ---------------------------------------------------------------------------------------------


class WalkOrder(Enum):
    """The order `Operation.walk(callback, order)` visits ops in (MLIR's `WalkOrder`)."""

    PRE_ORDER = 0
    POST_ORDER = 1


class WalkResult(Enum):
    """What a walk callback returns: go on, stop the walk, or skip the regions of this op."""

    ADVANCE = 0
    INTERRUPT = 1
    SKIP = 2


def walk_ir(top: IROp) -> Iterator[IROp]:
    """Pre-order walk of `top` and everything nested in it that tolerates changes on the way: an op
    erased (or moved away) before it is reached is skipped, and so are the regions of an op erased
    while the walk stood at it."""
    stack: list[IROp] = [top]
    while stack:
        op = stack.pop()
        if op is not top and op.parent is None:
            continue
        yield op
        if op is not top and op.parent is None:
            continue
        regions = op.regions
        if regions:
            for region in reversed(regions):
                for block in reversed(region.blocks):
                    stack.extend(reversed(block.operations))


class Operation:
    """An operation (MLIR's `Operation` and `OpView` in one).

    Read: `name`, `attributes`, `operands`, `results`, `result`, `regions`, `successors`, `location`,
    `parent`, `block`; change: set `attributes[...]`, `operands[i]`, `location`, and `erase()`,
    `move_before(op)`, `move_after(op)`, `detach_from_parent()`, `clone()`; create with
    `Operation.create(...)`.  Fallback ops (`is_fallback`) are ops like any other, whose properties are
    kept as opaque bytes."""

    __slots__ = ("_o", "_k", "__weakref__")
    _o: IROp
    _k: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use Operation.create(...) to create an operation")

    # -- creation --------------------------------------------------------------------------------------
    @staticmethod
    def create(name: str, results: Sequence[Type] | None = None, operands: Sequence[Value] | None = None,
               attributes: dict[str, Attribute] | None = None, successors: Sequence[Block] | None = None,
               regions: int = 0, loc: Location | None = None, ip: InsertionPoint | None | bool = None,
               infer_type: bool = False) -> Operation:
        """A new op, inserted at `ip` (default: the current `with InsertionPoint(...)`, `ip=False`:
        none).  An op the models know is checked at once against its model (its properties' kinds, the
        required ones, its result count where the model fixes it), with its default-valued attributes
        filled in as upstream fills them; an op nobody models is created as given."""
        from .insertion import resolve

        if infer_type:
            raise IRError(f"Operation.create('{name}'): infer_type is not supported (give results=)")
        point = resolve(ip)
        holder = _holder(point.block._o) if point is not None else None
        state = S.state_of(holder) if holder is not None else None
        reg = state.registry if state is not None else default_context().registry
        location = loc if loc is not None else Location._current_or_none()
        if not isinstance(name, str) or not name or name.startswith(".") :
            raise IRError(f"invalid op name {name!r}")
        dialect, _, short = name.partition(".")
        lookup = reg.op(name)
        model = lookup.model
        result_types = tuple(ir_type(t, "result type") for t in (results or ()))
        ops = [ir_value(v, "operand") for v in (operands or ())]
        attrs = {k: ir_attr(v, f"attribute '{k}'") for k, v in (attributes or {}).items()}
        props: Properties | None = None
        if model is not None:
            _check_arity(name, model, len(result_types), len(ops), regions, len(successors or ()))
            props = _new_properties(name, model, lookup.origin, reg, attrs)
        o = IROp(OpName(dialect, short, model is not None),
                 location._a if location is not None else A.UnknownLoc.get(), result_types, ops,
                 dictionary(attrs) if attrs else None, props)
        if state is not None:
            for v in ops:
                check_same_module(o, v, state)
        for _ in range(int(regions)):
            o.add_region()
        if successors:
            o.successors = [ir_block(b, "successor") for b in successors]
        if point is not None:
            place(o, point.block._o, point._ref._o if point._ref is not None else None)
        for v in ops:
            S.add_use(v, o)
        return op_face(o, state)

    # -- reading -----------------------------------------------------------------------------------------
    @property
    def operation(self) -> Operation:
        return self

    @property
    def opview(self) -> Operation:
        return self

    @property
    def context(self) -> Context:
        s = S.state_of(self._o)
        ctx = s.context if s is not None else None
        return ctx if isinstance(ctx, Context) else default_context()

    @property
    def name(self) -> str:
        return self._o.op_name.full

    @property
    def attributes(self) -> OpAttributeMap:
        return OpAttributeMap(self)

    @property
    def operands(self) -> OpOperandList:
        return OpOperandList(self)

    @property
    def results(self) -> OpResultList:
        return OpResultList(self)

    @property
    def result(self) -> OpResult:
        """The op's one result (ValueError when it has another number of results)."""
        res = self._o.results
        if len(res) != 1:
            raise ValueError(f"Cannot call .result on operation {self.name} which has {len(res)} results "
                             "(it is only valid for operations with a single result)")
        return value_face(res[0], self._k)  # type: ignore[return-value]

    @property
    def regions(self) -> RegionSequence:
        return RegionSequence(self)

    @property
    def successors(self) -> OpSuccessors:
        return OpSuccessors(self)

    @property
    def location(self) -> Location:
        return Location._of(self._o.location)

    @location.setter
    def location(self, loc: Location) -> None:
        if not isinstance(loc, Location):
            raise TypeError(f"location must be a Location, not {type(loc).__name__}")
        S.begin(self._o)
        self._o.location = loc._a
        S.touched(self._o)

    @property
    def parent(self) -> Operation | None:
        """The op whose region holds this op (None for a module's top-level op and detached ops)."""
        b = self._o.parent
        h = _holder(b) if b is not None else None
        return op_face(h, self._k) if h is not None else None

    @property
    def block(self) -> Block:
        b = self._o.parent
        if b is None:
            raise ValueError(f"'{self.name}' is not in a block")
        return block_face(b, self._k)

    @property
    def attached(self) -> bool:
        return self._o.parent is not None

    @property
    def is_fallback(self) -> bool:
        """Whether the op's properties are kept as opaque bytes (no model could decode them)."""
        return self._o.is_fallback

    @property
    def fallback_reason(self) -> str | None:
        """Why the op is a fallback (None for other ops)."""
        p = self._o.properties
        return (p.reason or "no model decodes its properties") if p is not None and \
            p.kind == PROPS_FALLBACK else None

    @property
    def opaque_properties(self) -> bytes | None:
        """A fallback op's properties payload, exactly as read (None for other ops)."""
        p = self._o.properties
        return bytes(p.raw or b"") if p is not None and p.kind == PROPS_FALLBACK else None

    # -- changing --------------------------------------------------------------------------------------
    def erase(self) -> None:
        """Erase the op (and its regions).  IRError while a result is still used outside it."""
        erase(self._o)

    def detach_from_parent(self) -> Operation:
        detach(self._o)
        return self

    def move_before(self, other: Operation) -> None:
        """Put this op immediately before `other` (in `other`'s block)."""
        ref = ir_op(other)
        if ref.parent is None:
            raise IRError(f"cannot move before '{ref.name}': it is not in a block")
        place(self._o, ref.parent, ref)

    def move_after(self, other: Operation) -> None:
        """Put this op immediately after `other` (in `other`'s block)."""
        ref = ir_op(other)
        b = ref.parent
        if b is None:
            raise IRError(f"cannot move after '{ref.name}': it is not in a block")
        if ref is self._o:
            return
        ops = b.operations
        i = ops.index(ref) + 1
        nxt = ops[i] if i < len(ops) else None
        if nxt is self._o:
            return
        place(self._o, b, nxt)

    def is_before_in_block(self, other: Operation) -> bool:
        ref = ir_op(other)
        b = self._o.parent
        if b is None or ref.parent is not b:
            raise ValueError("both operations must be in the same block")
        return b.operations.index(self._o) < b.operations.index(ref)

    def clone(self, ip: InsertionPoint | None | bool = None) -> Operation:
        """A deep copy (inserted at `ip`, default the current insertion point; `ip=False`: none)."""
        from .insertion import resolve

        new = clone_op(self._o)
        point = resolve(ip)
        if point is not None:
            place(new, point.block._o, point._ref._o if point._ref is not None else None)
        for x in new.walk():
            for v in x.operands:
                S.add_use(v, x)
        return op_face(new, self._k)

    def replace_uses_of_with(self, of: Value, with_: Value) -> None:
        o = self._o
        old, new = ir_value(of), ir_value(with_)
        for i, v in enumerate(list(o.operands)):
            if v is old:
                set_operand(o, i, new)

    def walk(self, callback: Callable[[Operation], Any] | None = None,
             walk_order: WalkOrder = WalkOrder.POST_ORDER) -> Any:
        """Without a callback: every op from this one down, pre-order, as an iterator that tolerates
        erasing and moving ops on the way.  With one (MLIR's form): calls it on every op in
        `walk_order` (default post-order, as MLIR); it may return a `WalkResult`."""
        if callback is None:
            k = self._k
            return (op_face(o, k) for o in walk_ir(self._o))
        _walk_callback(self._o, callback, walk_order, self._k)
        return None

    def verify(self) -> bool:
        """True when the writer could write the op and the reader would read it back; else raises
        IRError naming the first problem."""
        from ..bytecode.writable import problems

        s = S.state_of(self._o)
        version = s.module.version if s is not None else 6
        for problem in problems(self._o, _registry_of(self._o), version, first_only=True):
            raise IRError(f"op '{problem.op.name}': {problem.message}")
        return True

    # -- text and bytes ---------------------------------------------------------------------------------
    def __str__(self) -> str:
        from ..view.pretty import print_pretty_operation

        s = S.state_of(self._o)
        if s is not None:
            return s.op_text(self._o)
        return print_pretty_operation(self._o, S.root_of(self._o))

    def get_asm(self, binary: bool = False, **options: Any) -> str | bytes:
        text = str(self)
        return text.encode("utf-8") if binary else text

    def print(self, file: IO[str] | None = None, **options: Any) -> None:
        import sys

        (file or sys.stdout).write(str(self))

    def write_bytecode(self, file: IO[bytes], desired_version: int | None = None, *,
                       verify: bool = True) -> None:
        """Write the module this op is the top-level op of as bytecode (MLIR's form of saving; refused
        as `Module.save` refuses, a changed module that does not verify included)."""
        s = S.state_of_root(self._o)
        if s is None:
            raise IRError("write_bytecode is for a module's top-level op (use Module.save)")
        from .module import encode_state

        file.write(encode_state(s, desired_version, None, verify).tobytes())

    def dump(self) -> None:
        print(self)

    def __repr__(self) -> str:
        return f"<mlirbc.Operation '{self.name}'>"


OpView = Operation


def _walk_callback(top: IROp, callback: Callable[[Operation], Any], order: WalkOrder, keep: object) -> None:
    if order is WalkOrder.PRE_ORDER:
        skip: IROp | None = None
        for o in walk_ir(top):
            if skip is not None and S.within(o, skip):
                continue
            result = callback(op_face(o, keep))
            if result is WalkResult.INTERRUPT:
                return
            skip = o if result is WalkResult.SKIP else None
        return
    post: list[IROp] = []
    stack: list[tuple[IROp, bool]] = [(top, False)]
    while stack:
        o, expanded = stack.pop()
        if expanded:
            post.append(o)
            continue
        stack.append((o, True))
        for region in reversed(o.regions):
            for block in reversed(region.blocks):
                stack.extend((c, False) for c in reversed(block.operations))
    for o in post:
        if o is not top and o.parent is None:
            continue
        if callback(op_face(o, keep)) is WalkResult.INTERRUPT:
            return


def _check_arity(name: str, model: OpModel, results: int, operands: int, regions: int,
                 successors: int) -> None:
    """The counts an op's model fixes (where its data says they are fixed)."""
    fixed = getattr(model, "fixed_counts", None)
    counts = fixed() if callable(fixed) else None
    if not isinstance(counts, dict):
        return
    for what, given in (("results", results), ("operands", operands), ("regions", regions),
                        ("successors", successors)):
        want = counts.get(what)
        if isinstance(want, int) and want != given:
            noun = what if want != 1 else what[:-1]
            raise IRError(f"Operation.create('{name}'): the op has exactly {want} {noun} (its ODS fixes "
                          f"the number), {given} given")


def _new_properties(name: str, model: OpModel, origin: str, reg: Registry,
                    attrs: dict[str, A.Attribute]) -> Properties | None:
    """An op's properties from the attributes given to `create` (inherent names move out of `attrs`),
    with default-valued attributes filled in as upstream does, checked against the model."""
    from ..bytecode.op_attrs import split_properties
    from ..bytecode.writable import PropertyCheck
    from ..syntax.attr_parser import parse_attribute_text

    try:
        has = model.has_properties()
    except Exception:
        has = False
    if not has:
        return None
    values, rest = split_properties(model, dictionary(attrs) if attrs else None)
    try:
        defaults = model.info().defaults
    except Exception:
        defaults = {}
    for key, text in defaults.items():
        if key not in values:
            try:
                values[key] = parse_attribute_text(text, reg.syntax)
            except Exception:
                continue
    attrs.clear()
    if rest is not None:
        attrs.update({k.text: v for k, v in rest.entries})
    props = Properties(PROPS_DECODED, values=dict(sorted(values.items())), model=origin)
    probe = IROp(OpName(*_split(name), True), None, (), [], None, props)
    problem = PropertyCheck(reg, 6).problem(probe)
    if problem is not None:
        raise IRError(f"Operation.create('{name}'): {problem}")
    return props


def _split(name: str) -> tuple[str, str]:
    d, _, s = name.partition(".")
    return d, s


# -- blocks and regions -------------------------------------------------------------------------------------


class Block:
    """A block (MLIR's `Block`): `operations`, `arguments`, `owner` (the op holding its region),
    `region`; `append(op)`, `add_argument(type, loc)`, `erase_argument(i)`."""

    __slots__ = ("_o", "_k", "__weakref__")
    _o: IRBlock
    _k: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("create blocks with region.blocks.append(...) or Block.create_at_start(...)")

    @property
    def operations(self) -> OperationList:
        return OperationList(self)

    @property
    def arguments(self) -> BlockArgumentList:
        return BlockArgumentList(self)

    @property
    def owner(self) -> Operation | None:
        h = _holder(self._o)
        return op_face(h, self._k) if h is not None else None

    @property
    def region(self) -> Region:
        r = self._o.parent
        if r is None:
            raise ValueError("the block is not in a region")
        return region_face(r, self._k)

    def __iter__(self) -> Iterator[Operation]:
        return iter(self.operations)

    def append(self, operation: Operation) -> None:
        """Put `operation` at the end of this block (moving it from where it was)."""
        place(ir_op(operation), self._o, None)

    def add_argument(self, type: Type, loc: Location) -> BlockArgument:
        b = self._o
        h = _holder(b)
        if h is not None:
            S.begin(h)
        args = _own(b, "arguments")
        arg = IRBlockArgument(ir_type(type), b, len(args), loc._a)
        args.append(arg)
        if h is not None:
            S.touched(h, inside=True)
        return value_face(arg, self._k)  # type: ignore[return-value]

    def erase_argument(self, index: int) -> None:
        b = self._o
        arg = b.arguments[index]
        if S.uses_of(arg):
            raise IRError(f"cannot erase block argument #{arg.index}: it is still used")
        h = _holder(b)
        if h is not None:
            S.begin(h)
        args = _own(b, "arguments")
        del args[arg.index]
        for i, a in enumerate(args):
            a.index = i
        held = S.index_of(arg, build=False)
        if held is not None:
            held.pop(arg, None)
        if h is not None:
            S.touched(h, inside=True)

    def append_to(self, region: Region) -> None:
        move_block(self._o, region._o, None)

    def create_before(self, *arg_types: Type, arg_locs: Sequence[Location] | None = None) -> Block:
        r = self.region
        return r._new_block(r._o.blocks.index(self._o), arg_types, arg_locs)

    def create_after(self, *arg_types: Type, arg_locs: Sequence[Location] | None = None) -> Block:
        r = self.region
        return r._new_block(r._o.blocks.index(self._o) + 1, arg_types, arg_locs)

    @staticmethod
    def create_at_start(parent: Region, arg_types: Sequence[Type] = (),
                        arg_locs: Sequence[Location] | None = None) -> Block:
        return parent._new_block(0, tuple(arg_types), arg_locs)

    @property
    def successors(self) -> list[Block]:
        last = self._o.operations[-1] if self._o.operations else None
        return [block_face(b, self._k) for b in last.successors] if last is not None else []

    @property
    def predecessors(self) -> list[Block]:
        r = self._o.parent
        out = []
        if r is not None:
            for b in r.blocks:
                if b.operations and any(s is self._o for s in b.operations[-1].successors):
                    out.append(block_face(b, self._k))
        return out

    def __str__(self) -> str:
        """The block as the view prints it: its label and arguments, then its ops (as MLIR prints a
        block)."""
        from ..view.pretty import pretty_block_text, print_pretty_operation

        h = _holder(self._o)
        root = S.root_of(h) if h is not None else None
        if root is not None:
            s = S.state_of(h) if h is not None else None
            if s is not None:
                return s.block_text(self._o)
            return pretty_block_text(self._o, root)
        return "".join(print_pretty_operation(o, root) for o in self._o.operations)

    def __repr__(self) -> str:
        return f"<mlirbc.Block of {len(self._o.operations)} ops>"


class Region:
    """A region (MLIR's `Region`): `blocks`, `owner`."""

    __slots__ = ("_o", "_k", "__weakref__")
    _o: IRRegion
    _k: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("regions are created with their op (Operation.create(..., regions=N))")

    @property
    def blocks(self) -> BlockList:
        return BlockList(self)

    @property
    def owner(self) -> Operation | None:
        o = self._o.parent
        return op_face(o, self._k) if o is not None else None

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks)

    def _new_block(self, index: int, arg_types: Sequence[Type], arg_locs: Sequence[Location] | None) -> Block:
        r = self._o
        h = r.parent
        if arg_locs is not None and len(arg_locs) != len(arg_types):
            raise IRError(f"{len(arg_types)} argument types but {len(arg_locs)} locations")
        if h is not None:
            S.begin(h)
        b = IRBlock(r)
        current = Location._current_or_none()  # MLIR's default for arguments without a location
        default = current._a if current is not None else A.UnknownLoc.get()
        for i, t in enumerate(arg_types):
            loc = arg_locs[i]._a if arg_locs is not None else default
            b.add_argument(ir_type(t), loc)
        _own(r, "blocks").insert(index, b)
        if h is not None:
            S.touched(h, inside=True)
        return block_face(b, self._k)

    def __repr__(self) -> str:
        return f"<mlirbc.Region of {len(self._o.blocks)} blocks>"


def move_block(b: IRBlock, region: IRRegion, index: int | None) -> None:
    old = b.parent
    target_holder = region.parent
    if target_holder is not None:
        S.begin(target_holder)
    if old is not None:
        h = old.parent
        if h is not None:
            S.begin(h)
            S.touched(h, inside=True)
        old.blocks.remove(b)
    blocks = _own(region, "blocks")
    blocks.insert(len(blocks) if index is None else index, b)
    b.parent = region
    if target_holder is not None:
        S.touched(target_holder, inside=True)


__all__ = ["Operation", "OpView", "Block", "Region", "Value", "OpResult", "BlockArgument", "OpOperand",
           "OpAttributeMap", "OpOperandList", "OpResultList", "RegionSequence", "OpSuccessors",
           "BlockArgumentList", "OperationList", "BlockList", "WalkOrder", "WalkResult"]

