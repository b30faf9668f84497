"""Mutants of real modules, one op changed at a time, for the verifier's agreement test (tests only).

Each mutation class finds the sites it applies to in a module parsed from a text view (our own parser:
objects of its own), changes one site in place, prints the module (the generic text view, which
`mlir-opt --allow-unregistered-dialect` reads), and undoes the change.  Sites are picked with a seeded
random generator, so a run is reproducible.  The classes:

| class | the change |
|---|---|
| `drop-required-attr` | a required inherent attribute removed |
| `wrong-attr` | an inherent attribute replaced by one of another kind, width or value |
| `segment-sizes` | `operandSegmentSizes` values changed, as many entries as before |
| `drop-operand` | one operand removed (the op's signature and segment sizes follow) |
| `drop-terminator` | the terminator of a block deleted |
| `return-arity` | an operand added to or removed from a `func.return` |
| `result-type` | a result's type replaced by another type (its uses follow) |
| `region-count` | an empty region added to an op, or one removed |
| `entry-args` | an entry-block argument added, removed (when unused) or retyped |
| `symbol` | a symbol renamed to another symbol's name of its table, or a reference to a missing symbol |
| `operand-type` | a block argument feeding an op retyped (another class of our own) |
| `swap-operands` | two operands of different types swapped |
| `neutral-*` | controls that keep the module valid: a location changed, a discardable attribute added, an |
| | integer constant's value changed |
"""

from __future__ import annotations

import dataclasses
import random
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mlirbc.ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DictionaryAttr,
    FileLineColLoc,
    FlatSymbolRefAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from mlirbc.ir.module import Module
from mlirbc.ir.operation import PROPS_DECODED, Block, BlockArgument, Operation, Properties, Region, Value
from mlirbc.ir.structured import StructuredType
from mlirbc.ir.types import FloatType, IndexType, IntegerType, RankedTensorType, Type, VectorType
from mlirbc.models.constraints import OpConstraints
from mlirbc.models.registry import Registry
from mlirbc.view.printer import print_module

CLASSES = ("drop-required-attr", "wrong-attr", "segment-sizes", "drop-operand", "drop-terminator",
           "return-arity", "result-type", "region-count", "entry-args", "symbol", "operand-type",
           "swap-operands")
NEUTRAL = ("neutral-loc", "neutral-attr", "neutral-constant")

Undo = Callable[[], None]
Parent = Operation | None
Blk = Block | None


@dataclass
class Site:
    """One change that can be made: `apply()` changes the module in place and returns how to undo it."""

    cls: str
    op: Operation
    apply: Callable[[], Undo]
    what: str


Sites = Iterator[Site]


@dataclass
class Mutant:
    cls: str
    source: str
    what: str
    text: str


def _constraints(registry: Registry, op: Operation) -> OpConstraints | None:
    if not op.op_name.registered:
        return None
    model = registry.op(op.name).model
    get = getattr(model, "op_constraints", None) if model is not None else None
    if get is None and model is not None:
        get = getattr(getattr(model, "inner", None), "op_constraints", None)
    result = get() if callable(get) else None
    return result if isinstance(result, OpConstraints) else None


def _walk(root: Operation) -> Iterator[tuple[Operation, Operation | None, Block | None]]:
    stack: list[tuple[Operation, Operation | None, Block | None]] = [(root, None, None)]
    while stack:
        op, parent, block = stack.pop()
        yield op, parent, block
        for region in reversed(op.regions):
            for b in reversed(region.blocks):
                stack.extend((child, op, b) for child in reversed(b.operations))


def _set_props(op: Operation, values: dict[str, Attribute]) -> Undo:
    old = op.properties
    assert old is not None
    op.properties = dataclasses.replace(old, values=dict(values), raw=None)

    def undo() -> None:
        op.properties = old
    return undo


def _props(op: Operation) -> dict[str, Attribute] | None:
    p = op.properties
    return p.values if p is not None and p.kind == PROPS_DECODED else None


_WRONG: list[Attribute] = [
    StringAttr.get("mlirbc_wrong"), IntegerAttr.get(IntegerType.get(32), 7), UnitAttr.get(),
    ArrayAttr.get(()), TypeAttr.get(FloatType.get("f32")), FloatAttr.get(FloatType.get("f64"), 0),
    IntegerAttr.get(IntegerType.get(64), 99), IntegerAttr.get(IntegerType.get(8), 1),
]
_TYPES: list[Type] = [
    IntegerType.get(32), FloatType.get("f32"), IndexType.get(), IntegerType.get(1), FloatType.get("f16"),
    RankedTensorType.get((2, 3), FloatType.get("f32")), VectorType.get((4,), IntegerType.get(8)),
    IntegerType.get(64),
]


def _other(pool: list[object], current: object, rng: random.Random) -> object:
    choices = [x for x in pool if x is not current]
    return rng.choice(choices)


class Mutator:
    """Finds the sites of every class in one module."""

    def __init__(self, module: Module, registry: Registry, rng: random.Random) -> None:
        self.module = module
        self.registry = registry
        self.rng = rng
        assert module.root is not None
        self.ops = list(_walk(module.root))
        # a dialect's own types (VHLO tensors) are replaced by other types of that dialect the module uses:
        # a builtin type in their place is a different mistake
        self.dialect_types: dict[str, list[Type]] = {}
        seen: set[int] = set()
        for op, _, _ in self.ops:
            for v in [*op.operands, *op.results]:
                t = v.type
                if isinstance(t, StructuredType) and id(t) not in seen:
                    seen.add(id(t))
                    self.dialect_types.setdefault(t.dialect, []).append(t)

    def other_type(self, current: Type) -> Type:
        pool = self.dialect_types.get(current.dialect, []) if isinstance(current, StructuredType) else []
        choices = [t for t in pool if t is not current] or [t for t in _TYPES if t is not current]
        return self.rng.choice(choices)

    def sites(self, cls: str) -> list[Site]:
        make = getattr(self, "_" + cls.replace("-", "_"))
        out: list[Site] = []
        for op, parent, block in self.ops:
            out.extend(make(op, parent, block))
        return out

    # -- classes -------------------------------------------------------------------------------------------
    def _drop_required_attr(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        c = _constraints(self.registry, op)
        values = _props(op)
        if c is None or values is None:
            return
        for spec in c.attrs:
            if spec.presence == "req" and spec.name in values:
                rest = {k: v for k, v in values.items() if k != spec.name}
                yield Site("drop-required-attr", op, lambda rest=rest: _set_props(op, rest),
                           f"{op.name}: drop {spec.name}")

    def _wrong_attr(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        c = _constraints(self.registry, op)
        values = _props(op)
        if c is None or values is None:
            return
        for spec in c.attrs:
            current = values.get(spec.name)
            if current is None:
                continue
            wrong = _other(list(_WRONG), current, self.rng)
            assert isinstance(wrong, Attribute)
            changed = {**values, spec.name: wrong}
            yield Site("wrong-attr", op, lambda changed=changed: _set_props(op, changed),
                       f"{op.name}: {spec.name} -> {type(wrong).__name__}")

    def _segment_sizes(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        values = _props(op)
        seg = values.get("operandSegmentSizes") if values is not None else None
        if values is None or not isinstance(seg, DenseArrayAttr) or seg.count < 2:
            return
        sizes = list(struct.unpack(f"<{seg.count}i", bytes(seg.data)))
        i, j = self.rng.sample(range(len(sizes)), 2)
        new = list(sizes)
        if new[i] > 0 and self.rng.random() < 0.7:
            new[i] -= 1
            new[j] += 1
        else:
            new[j] += 1
        attr = DenseArrayAttr.get(IntegerType.get(32), len(new), struct.pack(f"<{len(new)}i", *new))
        changed = {**values, "operandSegmentSizes": attr}
        yield Site("segment-sizes", op, lambda: _set_props(op, changed),
                   f"{op.name}: segments {sizes} -> {new}")

    def _drop_operand(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if not op.operands or _constraints(self.registry, op) is None:
            return
        k = self.rng.randrange(len(op.operands))

        def apply() -> Undo:
            old_operands = op.operands
            op.operands = old_operands[:k] + old_operands[k + 1:]
            values = _props(op)
            undo_props: Undo | None = None
            seg = values.get("operandSegmentSizes") if values is not None else None
            if values is not None and isinstance(seg, DenseArrayAttr):
                sizes = list(struct.unpack(f"<{seg.count}i", bytes(seg.data)))
                at = 0
                for s_i, s in enumerate(sizes):
                    if at <= k < at + s:
                        sizes[s_i] -= 1
                        break
                    at += s
                attr = DenseArrayAttr.get(IntegerType.get(32), len(sizes), struct.pack(f"<{len(sizes)}i",
                                                                                       *sizes))
                undo_props = _set_props(op, {**values, "operandSegmentSizes": attr})

            def undo() -> None:
                op.operands = old_operands
                if undo_props is not None:
                    undo_props()
            return undo
        yield Site("drop-operand", op, apply, f"{op.name}: drop operand #{k}")

    def _drop_terminator(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        c = _constraints(self.registry, op)
        if c is None or not c.has_trait("IsTerminator") or block is None or op.results:
            return
        if not block.operations or block.operations[-1] is not op:
            return

        def apply() -> Undo:
            assert block is not None
            old = block.operations
            block.operations = old[:-1]

            def undo() -> None:
                block.operations = old
            return undo
        yield Site("drop-terminator", op, apply, f"drop {op.name}")

    def _return_arity(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if op.name != "func.return" or parent is None or not parent.regions or not parent.regions[0].blocks:
            return
        args = parent.regions[0].blocks[0].arguments
        if op.operands and (not args or self.rng.random() < 0.5):
            k = self.rng.randrange(len(op.operands))

            def drop() -> Undo:
                old = op.operands
                op.operands = old[:k] + old[k + 1:]

                def undo() -> None:
                    op.operands = old
                return undo
            yield Site("return-arity", op, drop, f"func.return: drop operand #{k}")
        elif args:
            extra: Value = self.rng.choice(args)

            def add() -> Undo:
                old = op.operands
                op.operands = [*old, extra]

                def undo() -> None:
                    op.operands = old
                return undo
            yield Site("return-arity", op, add, "func.return: add an operand")

    def _result_type(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if not op.results or _constraints(self.registry, op) is None:
            return
        r = self.rng.choice(op.results)
        new = self.other_type(r.type)

        def apply() -> Undo:
            old = r.type
            r.type = new

            def undo() -> None:
                r.type = old
            return undo
        yield Site("result-type", op, apply, f"{op.name}: result #{r.index} -> {type(new).__name__}")

    def _region_count(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if _constraints(self.registry, op) is None or op.name == "builtin.module":
            return
        if op.regions and self.rng.random() < 0.5:
            k = self.rng.randrange(len(op.regions))

            def drop() -> Undo:
                old = op.regions
                op.regions = old[:k] + old[k + 1:]

                def undo() -> None:
                    op.regions = old
                return undo
            yield Site("region-count", op, drop, f"{op.name}: drop region #{k}")
        else:
            def add() -> Undo:
                old = op.regions
                op.regions = [*old, Region(op)]

                def undo() -> None:
                    op.regions = old
                return undo
            yield Site("region-count", op, add, f"{op.name}: add an empty region")

    def _entry_args(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if _constraints(self.registry, op) is None or op.name == "builtin.module":
            return
        for region in op.regions:
            if not region.blocks:
                continue
            entry = region.blocks[0]
            args = entry.arguments
            used = _used_values(entry)
            choice = self.rng.random()
            if args and choice < 0.4:
                a = self.rng.choice(args)
                new = self.other_type(a.type)

                def retype(a: BlockArgument = a, new: Type = new) -> Undo:
                    old = a.type
                    a.type = new

                    def undo() -> None:
                        a.type = old
                    return undo
                yield Site("entry-args", op, retype, f"{op.name}: entry arg #{a.index} retyped")
            elif args and choice < 0.7 and any(id(x) not in used for x in args):
                unused = [x for x in args if id(x) not in used]
                a = self.rng.choice(unused)

                def drop(entry: Block = entry, a: BlockArgument = a) -> Undo:
                    old = entry.arguments
                    entry.arguments = [x for x in old if x is not a]

                    def undo() -> None:
                        entry.arguments = old
                    return undo
                yield Site("entry-args", op, drop, f"{op.name}: entry arg #{a.index} removed")
            else:
                t = self.other_type(args[-1].type) if args else self.rng.choice(_TYPES)

                def add(entry: Block = entry, t: Type = t) -> Undo:
                    old = entry.arguments
                    extra = BlockArgument(t, entry, len(old), old[-1].location if old else op.location)
                    entry.arguments = [*old, extra]

                    def undo() -> None:
                        entry.arguments = old
                    return undo
                yield Site("entry-args", op, add, f"{op.name}: entry arg added")

    def _symbol(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        values = _props(op)
        if values is None:
            return
        name = values.get("sym_name")
        if isinstance(name, StringAttr) and block is not None:
            names = [(_props(o) or {}).get("sym_name") for o in block.operations if o is not op]
            others = [v for v in names if isinstance(v, StringAttr) and v is not name]
            if others:
                target = self.rng.choice(others)
                changed = {**values, "sym_name": target}
                yield Site("symbol", op, lambda: _set_props(op, changed),
                           f"{op.name}: rename @{name.text} to @{target.text}")
        for key, v in values.items():
            if isinstance(v, FlatSymbolRefAttr) or (isinstance(v, SymbolRefAttr) and not v.nested):
                missing = FlatSymbolRefAttr.get(StringAttr.get("mlirbc_missing"))
                changed2 = {**values, key: missing}
                yield Site("symbol", op, lambda changed2=changed2: _set_props(op, changed2),
                           f"{op.name}: {key} -> @mlirbc_missing")

    def _operand_type(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if _constraints(self.registry, op) is None:
            return
        args = [v for v in op.operands if isinstance(v, BlockArgument) and v.owner is not None]
        if not args:
            return
        a = self.rng.choice(args)
        new = self.other_type(a.type)

        def apply() -> Undo:
            old = a.type
            a.type = new

            def undo() -> None:
                a.type = old
            return undo
        yield Site("operand-type", op, apply, f"{op.name}: its operand (a block argument) retyped")

    def _swap_operands(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if len(op.operands) < 2 or _constraints(self.registry, op) is None:
            return
        pairs = [(i, j) for i in range(len(op.operands)) for j in range(i + 1, len(op.operands))
                 if op.operands[i].type is not op.operands[j].type]
        if not pairs:
            return
        i, j = self.rng.choice(pairs)

        def apply() -> Undo:
            old = op.operands
            new = list(old)
            new[i], new[j] = new[j], new[i]
            op.operands = new

            def undo() -> None:
                op.operands = old
            return undo
        yield Site("swap-operands", op, apply, f"{op.name}: swap operands #{i} and #{j}")

    # -- controls ------------------------------------------------------------------------------------------
    def _neutral_loc(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if parent is None:
            return

        def apply() -> Undo:
            old = op.location
            op.location = FileLineColLoc.get(StringAttr.get("mutated.mlir"), 7, 3)

            def undo() -> None:
                op.location = old
            return undo
        yield Site("neutral-loc", op, apply, f"{op.name}: location changed")

    def _neutral_attr(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        if parent is None:
            return

        def apply() -> Undo:
            old = op.attributes
            entries = tuple(old.entries) if old is not None else ()
            extra = (StringAttr.get("mlirbc_test.note"), StringAttr.get("neutral"))
            op.attributes = DictionaryAttr.get(tuple(sorted((*entries, extra), key=lambda kv: kv[0].value)))

            def undo() -> None:
                op.attributes = old
            return undo
        yield Site("neutral-attr", op, apply, f"{op.name}: discardable attribute added")

    def _neutral_constant(self, op: Operation, parent: Parent, block: Blk) -> Sites:
        values = _props(op)
        v = values.get("value") if values is not None else None
        if op.name != "arith.constant" or values is None or not isinstance(v, IntegerAttr):
            return
        width = v.type.width if isinstance(v.type, IntegerType) else 64
        new = IntegerAttr.get(v.type, (v.bits + 1) & ((1 << width) - 1) if width else 0)
        changed = {**values, "value": new}
        yield Site("neutral-constant", op, lambda: _set_props(op, changed), "arith.constant: value changed")


def _used_values(block: Block) -> set[int]:
    used: set[int] = set()
    for op in block.operations:
        for inner in op.walk():
            used.update(id(v) for v in inner.operands)
    return used


def mutants(module: Module, registry: Registry, source: str, classes: tuple[str, ...], per_class: int,
            seed: int) -> Iterator[Mutant]:
    """Up to `per_class` mutants of each class for one module (the module is left as it was)."""
    rng = random.Random(f"{seed}:{source}")
    m = Mutator(module, registry, rng)
    for cls in classes:
        sites = m.sites(cls)
        rng.shuffle(sites)
        for site in sites[:per_class]:
            undo = site.apply()
            try:
                text = print_module(module, with_map=False).text
            finally:
                undo()
            yield Mutant(cls, source, site.what, text)


_ = Properties  # (re-exported for tests that build records)
