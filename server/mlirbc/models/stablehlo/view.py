"""The StableHLO view of a portable artifact: a whole VHLO module as StableHLO (what jaxlib's
`deserialize_portable_artifact` gives) and back to VHLO at a target (what `serialize_portable_artifact`
writes).

`StablehloView.to_view(module)` upgrades every VHLO op to the newest version this model knows and converts
it (`legalize.view_op`): `stablehlo.*`, `func.*`, builtin types and attributes; Shardy ops and attributes
stay, the `builtin.unrealized_conversion_cast`s of a mixed serialization fold away.  An op the model cannot
convert (a newer producer's) stays in its stored VHLO form, behind casts, with a note saying why.

`StablehloView.to_vhlo(view, target, origin)` converts back and downgrades to `target`, refusing what the
target cannot hold (`versioning.TargetError`); casts come back where a mixed serialization has them.  With
`origin` (the conversion the view came from) and the file's own target, every top-level op the view still
holds unchanged is the original VHLO op, and every op whose StableHLO form is unchanged gets its original
VHLO attributes back: an unchanged view saves to the original bytes.

Ops, values, blocks and regions are new objects on each side; locations, and attributes the conversion
leaves alone, are shared (uniqued).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.attributes import Attribute, DictionaryAttr, StringAttr
from ...ir.module import Module
from ...ir.operation import (
    PROPS_ATTRIBUTE,
    PROPS_DECODED,
    Block,
    BlockArgument,
    Operation,
    OpName,
    OpResult,
    Properties,
    Value,
)
from ...ir.structured import StructuredType
from ...ir.types import Type
from ..api import ModelError
from ..views import ViewError
from .legalize import Unconvertible, vhlo_attr, vhlo_op, view_op
from .optable import OpTable, OpVersion
from .rules import INHERENT_OF_OTHERS
from .shlo_types import to_vhlo_type, to_view_type
from .uselists import replay_downgrades
from .versioning import OpState, TargetError, check_target, downgrade, opset, upgrade
from .versions import (
    KNOWN_VERSION,
    MINIMUM_VERSION,
    SERIALIZER_VERSION,
    Version,
    bytecode_version_for,
    parse_version,
    target_of,
    version_text,
)
from .vhlo_types import vhlo_kind

if TYPE_CHECKING:
    from ..registry import Registry

CAST = "builtin.unrealized_conversion_cast"
VIEW_MODEL = "stablehlo view"
"""The `Properties.model` of the ops the view makes."""


class KeptOp:
    """An op the view shows in its stored VHLO form, and why."""

    __slots__ = ("op", "reason")

    def __init__(self, op: Operation, reason: str) -> None:
        self.op = op
        self.reason = reason


Stored = tuple[OpName, "Properties | None", "DictionaryAttr | None", tuple[Type, ...]]
"""A VHLO op as read: name, properties, attributes, result types."""


class StablehloConversion:
    """A module's StableHLO view and what saving it back needs (a `models.views.StablehloConversion`).

    (Plain classes, not dataclasses, in the modules the view's first open imports: making a dataclass
    costs a third of a millisecond at import.)"""

    def __init__(self, owner: StablehloView, module: Module, source: Module, target: Version) -> None:
        self.owner = owner
        self.module = module
        self.source = source
        self.target = target
        self.kept: list[KeptOp] = []
        self.top: dict[int, tuple[Operation, Operation]] = {}
        """id(view top-level op) -> (that op, the original op it was made from)."""
        self.memo: dict[tuple[object, ...], Stored] = {}
        """A converted op's StableHLO form -> the VHLO op it came from (name, properties, attributes,
        result types), so an op whose StableHLO form is unchanged is written as it was read."""
        self.origin_of: dict[int, Operation] = {}
        """id(view op) -> the VHLO op it shows (for hover)."""

    def stored_op(self, op: Operation) -> Operation | None:
        return self.origin_of.get(id(op))

    def notes(self) -> list[tuple[Operation, str]]:
        return [(k.op, k.reason) for k in self.kept]

    def back(self, view: Module) -> Module:
        return self.owner.to_vhlo(view, self.target, self)


def _props_values(op: Operation, attrs_of: OpVersion | None
                  ) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """(inherent, discardable) attributes of a VHLO op: properties, or (before bytecode version 5) the
    ODS-declared names of its attribute dictionary."""
    inherent: dict[str, Attribute] = {}
    discardable: dict[str, Attribute] = {}
    p = op.properties
    if p is not None and p.kind == PROPS_DECODED:
        inherent.update(p.values)
    elif p is not None and p.kind == PROPS_ATTRIBUTE and isinstance(p.attribute, DictionaryAttr):
        inherent.update((k.text, v) for k, v in p.attribute.entries)
    elif p is not None:
        raise Unconvertible(f"its properties could not be decoded ({p.reason or p.kind})")
    names = attrs_of.attributes if attrs_of is not None else ()
    if op.attributes is not None:
        for k, v in op.attributes.entries:
            (inherent if k.text in names and p is None else discardable)[k.text] = v
    return inherent, discardable


def _dict(values: dict[str, Attribute]) -> DictionaryAttr | None:
    if not values:
        return None
    return DictionaryAttr.get(tuple((StringAttr.get(k), v) for k, v in sorted(values.items())))


def _props(values: dict[str, Attribute], model: str) -> Properties | None:
    return Properties(PROPS_DECODED, values=dict(sorted(values.items())), model=model) if values else None


def _copy_uses(old: Value, new: Value) -> None:
    if old.use_order is not None:
        new.use_order = old.use_order


class StablehloView:
    """The dialect-level view of StableHLO portable artifacts (a `models.views.DialectView`, registered as
    `stablehlo`)."""

    name = "stablehlo"
    stored_dialect = "vhlo"

    def __init__(self, table: OpTable, registry: Registry | None = None) -> None:
        self.table = table
        self.registry = registry
        """Where the view's hooks are registered (`Registry.add_view_hook`)."""

    def _hooked(self, source: Operation, converted: Operation) -> Operation:
        if self.registry is None:
            return converted
        for rec in self.registry.view_hooks(self.name):
            replacement = rec.call_view(source, converted)
            if replacement is not None:
                converted = replacement
        return converted

    def applies(self, module: Module) -> bool:
        """Whether `module` is a portable artifact this view shows (producer `StableHLO_vX.Y.Z`, decoded)."""
        return module.view is None and target_of(module.producer) is not None and module.root is not None

    # -- VHLO -> StableHLO ------------------------------------------------------------------------
    def convert(self, module: Module) -> StablehloConversion:
        target = target_of(module.producer)
        if target is None or module.root is None:
            raise ViewError("not a StableHLO portable artifact (its producer is not StableHLO_vX.Y.Z)")
        view = Module(None, version=module.version, producer=module.producer, dialects=list(module.dialects),
                      resources=module.resources, source=module.source, error=module.error,
                      model_set=module.model_set, model_set_note=module.model_set_note, view=self.name,
                      implicit_module=module.implicit_module)
        conv = StablehloConversion(self, view, module, target)
        view.root = _ToView(self, conv).run(module.root)
        return conv

    # -- StableHLO -> VHLO ------------------------------------------------------------------------
    def fresh(self, view: Module, target: str | None) -> Module:
        """A view parsed without its original, written for `target` (None: its producer's)."""
        if target is None:
            t = target_of(view.producer)
            if t is None:
                raise ViewError(f"the view's producer {view.producer!r} names no StableHLO target; give one")
        else:
            try:
                t = parse_version(target)
            except ValueError as exc:
                raise ViewError(f"{exc} (a target is X.Y.Z, such as 1.15.0)") from None
        return self.to_vhlo(view, t)

    def to_vhlo(self, view: Module, target: Version, origin: StablehloConversion | None = None) -> Module:
        """The VHLO module of a view at `target`; raises `ViewError` (with the view op) for what the target
        cannot hold or what has no VHLO form."""
        if view.root is None:
            raise ViewError("the view has no module")
        if target < MINIMUM_VERSION:
            raise ViewError(f"StableHLO {version_text(target)} is older than the oldest target, "
                            f"{version_text(MINIMUM_VERSION)}")
        if target > KNOWN_VERSION:
            raise ViewError(f"StableHLO {version_text(target)} is newer than the "
                            f"{version_text(KNOWN_VERSION)} this model knows")
        same = origin is not None and origin.target == target
        out = Module(None, version=origin.source.version if same and origin is not None
                     else bytecode_version_for(target),
                     producer=f"StableHLO_v{version_text(target)}" if not same or origin is None
                     else origin.source.producer,
                     dialects=[], resources=view.resources, model_set=view.model_set,
                     implicit_module=view.implicit_module)
        if same and origin is not None:
            out.dialects = list(origin.source.dialects)
        out.root = _ToVhlo(self, target, origin if same else None).run(view.root)
        return out

    def describe(self, conversion: object, op: Operation) -> list[str]:
        """Hover paragraphs: the StableHLO op's summary, the VHLO op it is stored as, its version and the
        file's target."""
        from .notes import describe_view_op

        assert isinstance(conversion, StablehloConversion)
        return describe_view_op(self, conversion, op)


# -- the walks -----------------------------------------------------------------------------------------------

def _new_op(old: Operation, name: OpName, result_types: list[Type], props: Properties | None,
            attrs: DictionaryAttr | None, uses: bool = True) -> Operation:
    """A new op like `old`; `uses`: its results keep `old`'s stored use-list orders."""
    op = Operation(name, old.location, tuple(result_types), [], attrs, props)
    if uses:
        for o, n in zip(old.results, op.results, strict=True):
            _copy_uses(o, n)
    return op


_OP_NAMES: dict[str, OpName] = {}
"""One name record per op name, as a decoded file has one per dialect-section entry (the printer keeps
what it found for a name by the record)."""


def _op_name(full: str) -> OpName:
    name = _OP_NAMES.get(full)
    if name is None:
        dialect, _, short = full.partition(".")
        name = _OP_NAMES.setdefault(full, OpName(dialect, short))
    return name


class _Walk:
    """A pre-order walk building a new module (ops in the order StableHLO's conversion visits them), with
    the value map; operands are filled once every value exists."""

    def __init__(self) -> None:
        self.values: dict[Value, Value] = {}
        self.forward: dict[Value, Value] = {}
        self.pending: list[tuple[Operation, list[Value]]] = []

    def resolve(self, v: Value) -> Value:
        seen = 0
        while v in self.forward and seen < 10_000:
            v = self.forward[v]
            seen += 1
        hit = self.values.get(v)
        if hit is None:
            raise ModelError("an operand refers to a value the conversion did not make")
        return hit

    def fill(self) -> None:
        for op, operands in self.pending:
            op.operands = [self.resolve(v) for v in operands]

    def walk(self, root: Operation) -> Operation:
        new_root = self.root(root)
        frames: list[tuple[Operation, list[tuple[Block, Block]], int, int]] = []
        self.pending.append((new_root, list(root.operands)))
        blocks = self.regions(root, new_root, True)
        frames.append((root, blocks, 0, 0))
        while frames:
            owner, blocks, bi, oi = frames.pop()
            if bi >= len(blocks):
                continue
            block, nb = blocks[bi]
            if oi >= len(block.operations):
                frames.append((owner, blocks, bi + 1, 0))
                continue
            frames.append((owner, blocks, bi, oi + 1))
            op = block.operations[oi]
            result = self.visit(op, nb, owner is root)
            if result is not None and op.regions:
                new, convert = result
                frames.append((op, self.regions(op, new, convert), 0, 0))
        self.fill()
        return new_root

    def root(self, root: Operation) -> Operation:
        return _new_op(root, root.op_name, [r.type for r in root.results], root.properties, root.attributes)

    def regions(self, old: Operation, new: Operation, convert: bool) -> list[tuple[Block, Block]]:
        raise NotImplementedError

    def visit(self, op: Operation, nb: Block, top: bool) -> tuple[Operation, bool] | None:
        """Make the new op of `op` in `nb` (None: folded away); (new op, whether its regions convert)."""
        raise NotImplementedError


class _ToView(_Walk):
    def __init__(self, owner: StablehloView, conv: StablehloConversion) -> None:
        super().__init__()
        self.owner = owner
        self.table = owner.table
        self.conv = conv

        self.raw: set[Block] = set()
        """New blocks inside an op kept in its VHLO form: copied as stored, nothing converted."""
        self.made: dict[tuple[object, ...], tuple[OpName, tuple[Type, ...], Properties | None,
                                                  DictionaryAttr | None]] = {}
        """A converted VHLO op's key (`_vhlo_op`) -> its view op's name, result types, properties and
        attributes."""

    def run(self, root: Operation) -> Operation:
        return self.walk(root)

    def regions(self, old: Operation, new: Operation, convert: bool) -> list[tuple[Block, Block]]:
        out = []
        for region in old.regions:
            nr = new.add_region()
            for block in region.blocks:
                nb = nr.add_block()
                if not convert:
                    self.raw.add(nb)
                for arg in block.arguments:
                    na = nb.add_argument(to_view_type(arg.type) if convert else arg.type, arg.location)
                    _copy_uses(arg, na)
                    self.values[arg] = na
                out.append((block, nb))
        return out

    def root(self, root: Operation) -> Operation:
        return self._plain(root)

    def _plain(self, op: Operation) -> Operation:
        props, attrs = op.properties, op.attributes
        names = INHERENT_OF_OTHERS.get(op.name)
        if names and props is None and attrs is not None:
            inherent = {k.text: v for k, v in attrs.entries if k.text in names}
            props = _props(inherent, VIEW_MODEL)
            attrs = _dict({k.text: v for k, v in attrs.entries if k.text not in names})
        new = _new_op(op, op.op_name, [to_view_type(r.type) for r in op.results], props, attrs)
        for o, n in zip(op.results, new.results, strict=True):
            self.values[o] = n
        return new

    def visit(self, op: Operation, nb: Block, top: bool) -> tuple[Operation, bool] | None:
        if nb in self.raw:
            new = _new_op(op, op.op_name, [r.type for r in op.results], op.properties, op.attributes)
            for o, n in zip(op.results, new.results, strict=True):
                self.values[o] = n
            nb.append(new)
            self.pending.append((new, list(op.operands)))
            return new, False
        if op.name == CAST and len(op.operands) == 1 and len(op.results) == 1 and \
                to_view_type(op.operands[0].type) is to_view_type(op.results[0].type):
            self.forward[op.results[0]] = op.operands[0]
            return None
        result = self._convert(op, nb)
        if top:
            self.conv.top[id(result[0])] = (result[0], op)
        return result

    def _convert(self, op: Operation, nb: Block) -> tuple[Operation, bool]:
        if op.op_name.dialect == "vhlo":
            version = self.table.get(op.name)
            try:
                if version is None:
                    raise Unconvertible(f"{op.name} is not an op this model knows")
                new = self.owner._hooked(op, self._vhlo_op(op, version))
            except (ModelError, TargetError) as exc:
                self._keep(op, nb, str(exc))
                return self.conv.kept[-1].op, False
        else:
            new = self._plain(op)
        for o, n in zip(op.results, new.results, strict=True):
            self.values[o] = n
        self.conv.origin_of[id(new)] = op
        nb.append(new)
        self.pending.append((new, list(op.operands)))
        return new, True

    def _vhlo_op(self, op: Operation, version: OpVersion) -> Operation:
        operand_types = tuple([v.type for v in op.operands])
        result_types = tuple([r.type for r in op.results])
        # An op's StableHLO form is a function of its name, properties, attributes, types and region count
        # (all uniqued, or one shared record per stored payload) and, for a return, of its parent: ops alike
        # convert once per module, and share the view's property record (as ops read from one payload do).
        key = (op.name, id(op.properties), op.attributes, operand_types, result_types, len(op.regions),
               _in_func(op))
        hit = self.made.get(key)
        if hit is not None:
            return _new_op(op, hit[0], list(hit[1]), hit[2], hit[3])
        inherent, discardable = _props_values(op, version)
        state = OpState(op.name, inherent, list(operand_types), list(result_types), len(op.regions))
        current = upgrade(state, version, self.table)
        view_name = current.view_name
        if view_name == "func.return" and not _in_func(op):
            view_name = "stablehlo.return"
        attrs = view_op(view_name, state.attrs, discardable)
        results = [to_view_type(t) for t in result_types]
        name = _op_name(view_name)
        props, dictionary = _props(attrs.inherent, VIEW_MODEL), _dict(attrs.discardable)
        new = _new_op(op, name, results, props, dictionary)
        new.operands = [_TypedStandIn(to_view_type(t)) for t in operand_types]  # for the signature
        self.conv.memo.setdefault(_signature(new), (op.op_name, op.properties, op.attributes, result_types))
        new.operands = []
        self.made[key] = (name, tuple(results), props, dictionary)
        return new

    def _keep(self, op: Operation, nb: Block, reason: str) -> None:
        """`op` as stored (its regions too), behind casts from and to the view's types."""
        operands: list[Value] = []
        for v in op.operands:
            cast = Operation(_op_name(CAST), op.location, (v.type,), [])
            nb.append(cast)
            self.pending.append((cast, [v]))
            operands.append(cast.results[0])
        new = _new_op(op, op.op_name, [r.type for r in op.results], op.properties, op.attributes)
        new.operands = operands
        nb.append(new)
        for old_r, r in zip(op.results, new.results, strict=True):
            back = Operation(_op_name(CAST), op.location, (to_view_type(old_r.type),), [r])
            nb.append(back)
            self.values[old_r] = back.results[0]
        self.conv.kept.append(KeptOp(new, reason))
        self.conv.origin_of[id(new)] = op


class _TypedStandIn(Value):
    """An operand of a given type (signatures compare operand types only)."""

    __slots__ = ()


def _in_func(op: Operation) -> bool:
    block = op.parent
    region = block.parent if block is not None else None
    parent = region.parent if region is not None else None
    return parent is not None and parent.name in ("vhlo.func_v1", "func.func")


def _signature(op: Operation) -> tuple[object, ...]:
    """What identifies an op's StableHLO form (all parts uniqued: compared by identity)."""
    p = op.properties
    props: object = None
    if p is not None and p.kind == PROPS_DECODED:
        props = tuple(sorted(p.values.items()))
    elif p is not None and p.kind == PROPS_ATTRIBUTE:
        props = p.attribute
    return (op.name, props, op.attributes, tuple(r.type for r in op.results),
            tuple(v.type for v in op.operands), len(op.regions))


class _ToVhlo(_Walk):
    def __init__(self, owner: StablehloView, target: Version, origin: StablehloConversion | None) -> None:
        super().__init__()
        self.owner = owner
        self.table = owner.table
        self.target = target
        self.origin = origin
        self.order: list[tuple[Operation, bool]] = []
        self.wants: dict[Operation, list[Type]] = {}
        """new op -> the type each operand must have (VHLO for a converted op, the view's otherwise)."""
        self.view_types: dict[Value, Type] = {}
        """new value -> the type the view gave it (what an unconverted user expects)."""
        self.casts: dict[tuple[Value, Type], Value] = {}
        self.downgraded: list[Operation] = []
        """The view ops whose VHLO op was downgraded (in program order; their new ops are `values`')."""
        self.new_of: dict[Operation, Operation] = {}
        self.keep_orders = origin is not None
        """Saving to the file's own target keeps the use-list orders the file stored (they came through
        the view); a fresh artifact has the orders StableHLO's serializer leaves (`uselists`)."""

    def run(self, root: Operation) -> Operation:
        new_root = self.walk(root)
        self._materialize()
        kept = {v for v in self.values.values() if v.use_order is not None} if self.keep_orders else set()
        replay_downgrades(new_root, [self.new_of[op] for op in self.downgraded], self.casts.values(), kept)
        return new_root

    def regions(self, old: Operation, new: Operation, convert: bool) -> list[tuple[Block, Block]]:
        out = []
        for region in old.regions:
            nr = new.add_region()
            for block in region.blocks:
                nb = nr.add_block()
                for arg in block.arguments:
                    na = nb.add_argument(_vhlo(arg.type) if convert else arg.type, arg.location)
                    if self.keep_orders:
                        _copy_uses(arg, na)
                    self.values[arg] = na
                    self.view_types[na] = arg.type
                out.append((block, nb))
        return out

    def visit(self, op: Operation, nb: Block, top: bool) -> tuple[Operation, bool] | None:
        if top and self.origin is not None:
            hit = self.origin.top.get(id(op))
            if hit is not None and hit[0] is op:
                nb.append(hit[1])  # unchanged: the original op, read from the file
                return None
        if op.name == CAST and len(op.operands) == 1 and len(op.results) == 1 and \
                _vhlo(op.operands[0].type) is _vhlo(op.results[0].type):
            self.forward[op.results[0]] = op.operands[0]
            return None
        base = self.table.base_of_view(op.name) if op.op_name.dialect in ("stablehlo", "func") else None
        if base is None:
            new = self._plain(op)
        else:
            try:
                new = self.owner._hooked(op, self._stablehlo_op(op, base))
            except (TargetError, ModelError) as exc:
                raise ViewError(str(exc), op) from None
        for o, n in zip(op.results, new.results, strict=True):
            self.values[o] = n
            self.view_types[n] = o.type
        self.new_of[op] = new
        nb.append(new)
        self.pending.append((new, list(op.operands)))
        self.order.append((new, base is not None))
        self.wants[new] = [_vhlo(v.type) if base is not None else v.type for v in op.operands]
        return new, base is not None

    def root(self, root: Operation) -> Operation:
        return self._plain(root)

    def _plain(self, op: Operation) -> Operation:
        props, attrs = op.properties, op.attributes
        names = INHERENT_OF_OTHERS.get(op.name)
        old_file = bytecode_version_for(self.target) < 5
        if names and old_file and props is not None and props.kind == PROPS_DECODED:
            merged = {k.text: v for k, v in attrs.entries} if attrs is not None else {}
            merged.update(props.values)
            props, attrs = None, _dict(merged)
        return _new_op(op, op.op_name, [r.type for r in op.results], props, attrs, uses=self.keep_orders)

    def _stablehlo_op(self, op: Operation, base: str) -> Operation:
        if self.origin is not None:
            hit = self.origin.memo.get(_signature(op))
            if hit is not None:
                name, stored_props, stored_attrs, stored_results = hit
                if name.full != self._serializer_current(base):
                    self.downgraded.append(op)
                return _new_op(op, name, list(stored_results), stored_props, stored_attrs,
                               uses=self.keep_orders)
        current = self.table.current(base)
        attrs: dict[str, Attribute] = {}
        p = op.properties
        if p is not None and p.kind == PROPS_DECODED:
            attrs.update(p.values)
        elif p is not None and p.kind == PROPS_ATTRIBUTE and isinstance(p.attribute, DictionaryAttr):
            attrs.update((k.text, v) for k, v in p.attribute.entries)
        elif p is not None:
            raise ModelError(f"{op.name}: its properties are not a dictionary")
        view_discardable = {k.text: v for k, v in op.attributes.entries} if op.attributes is not None else {}
        operands = [_vhlo(v.type) for v in op.operands]
        results = [_vhlo(r.type) for r in op.results]
        inherent, extra = vhlo_op(current.view_name, attrs, current.attributes, operands)
        discardable = {**extra, **{k: vhlo_attr(v) for k, v in view_discardable.items()}}
        state = OpState(current.name, inherent, operands, results, len(op.regions))
        version = downgrade(state, current, self.table, self.target)
        check_target(state, version, self.target, discardable)
        if version.name != self._serializer_current(base):
            self.downgraded.append(op)
        if bytecode_version_for(self.target) >= 5:
            props, attr_dict = _props(state.attrs, VIEW_MODEL), _dict(discardable)
        else:  # before properties (bytecode version 5), inherent attributes are in the dictionary
            props, attr_dict = None, _dict({**state.attrs, **discardable})
        return _new_op(op, _op_name(version.name), results, props, attr_dict, uses=self.keep_orders)

    def _serializer_current(self, base: str) -> str:
        """The name of the op version a serializer writing this target starts from (`SERIALIZER_VERSION`):
        ops not at it were downgraded, which leaves use-list orders behind (`uselists`)."""
        serializer = max(opset(self.target), SERIALIZER_VERSION)
        newest = self.table.newest_at(base, serializer)
        return newest.name if newest is not None else ""

    # -- casts of a mixed serialization -------------------------------------------------------------
    def _materialize(self) -> None:
        """Casts between VHLO values and the builtin-typed values of other dialects' ops, made in the
        order StableHLO's conversion makes them and placed where it puts them: a converted op's operand
        from another dialect's op is cast when the op converts (located at the op), a converted value
        another dialect's op uses is cast when its definer converts (located at the definer); each right
        after the op, or at the start of the block, that defines the value."""
        source: dict[Value, Type] = {}
        for op, converted in self.order:
            if not converted:
                for v, want in zip(op.operands, self.wants[op], strict=True):
                    if v.type is not want and _is_vhlo(v.type):
                        source.setdefault(v, want)
        for op, converted in self.order:
            wants = self.wants[op]
            if not converted:
                for i, v in enumerate(op.operands):
                    if v.type is not wants[i] and _is_vhlo(v.type):
                        op.operands[i] = self._cast(v, wants[i], _loc_of(v))
                continue
            for i, v in enumerate(op.operands):
                if v.type is not wants[i]:
                    op.operands[i] = self._cast(v, wants[i], op.location)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        if arg in source:
                            self._cast(arg, source[arg], arg.location)
            for r in op.results:
                if r in source:
                    self._cast(r, source[r], op.location)

    def _cast(self, v: Value, t: Type, loc: Attribute) -> Value:
        hit = self.casts.get((v, t))
        if hit is not None:
            return hit
        cast = Operation(_op_name(CAST), loc, (t,), [v])
        if isinstance(v, OpResult):
            block = v.owner.parent
            assert block is not None
            at = block.operations.index(v.owner) + 1
        else:
            assert isinstance(v, BlockArgument)
            block = v.owner
            at = 0
        cast.parent = block
        block.operations.insert(at, cast)
        self.casts[(v, t)] = cast.results[0]
        return cast.results[0]


def _loc_of(v: Value) -> Attribute:
    if isinstance(v, OpResult):
        return v.owner.location
    assert isinstance(v, BlockArgument)
    return v.location


def _vhlo(t: Type) -> Type:
    try:
        return to_vhlo_type(t)
    except Unconvertible:
        return t


def _is_vhlo(t: Type) -> bool:
    return isinstance(t, StructuredType) and vhlo_kind(t) is not None
