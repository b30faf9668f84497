"""Which aliases the generic view prints: MLIR's first print pass over a module in generic form.

`mlir-opt --mlir-print-op-generic` decides aliases by a dry run of its printer (AsmPrinter's
`DummyAliasOperationPrinter`): per op its location first, then its regions (each block's argument types
and locations, then its ops), then its operand and result types, then its attributes: those of an op it
registers merged with its inherent attributes (properties) and sorted by name, those of an op it does not
know without its properties.  The order decides the numbering of equal names (`#map`, `#map1`).  A
printer of another form (the custom assembly form) visits in its own order; `syntax.aliases` names and
prints for both.
"""

from __future__ import annotations

from ..ir.attributes import Attribute
from ..ir.module import Module
from ..ir.operation import PROPS_DECODED, Operation
from ..models.build import default_registry
from ..models.registry import Registry
from ..syntax.aliases import AliasCollector, AliasRules, AliasScope


def alias_rules(module: Module, registry: Registry | None = None) -> AliasRules:
    """The dialects' alias rules for printing `module` (its model set's; the default registry's unless
    given)."""
    reg = registry if registry is not None else default_registry()
    if reg.model_set is None and module.model_set is not None:
        reg = reg.with_set(module.model_set)
    return reg.alias_rules()


def collect_generic(root: Operation, rules: AliasRules | None = None) -> AliasScope:
    """The aliases of `root` printed in generic form with locations (`--mlir-print-debuginfo`)."""
    c = AliasCollector(rules)
    visit = c.visit
    visit_all = c.visit_all
    # Ops read with one payload share their properties record, and attribute dictionaries are uniqued:
    # their attributes in MLIR's order are worked out once per pair.
    attributes: dict[tuple[int, int], tuple[object, object, list[Attribute]]] = {}

    def tail(op: Operation) -> None:
        if op.operands:
            visit_all([v.type for v in op.operands])
        if op.results:
            visit_all([r.type for r in op.results])
        p, a = op.properties, op.attributes
        if p is None and a is None:
            return
        key = (id(p), id(a))
        hit = attributes.get(key)
        if hit is None or hit[0] is not p or hit[1] is not a:
            hit = attributes[key] = (p, a, _attributes(op))
        visit_all(hit[2])

    def nested(op: Operation) -> None:
        # One frame per nesting level, as the printer itself.
        visit(op.location, True)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    visit(arg.type)
                    visit(arg.location)
                for inner in block.operations:
                    if inner.regions:
                        nested(inner)
                    else:
                        visit(inner.location, True)
                        tail(inner)
        tail(op)

    nested(root)
    return c.finish()

def _attributes(op: Operation) -> list[Attribute]:
    """The attribute values MLIR's `Operation::getAttrs` gives, in its order."""
    p = op.properties
    attrs = op.attributes
    if p is None or p.kind != PROPS_DECODED or not p.values:
        return [] if attrs is None else [v for _, v in attrs.entries]
    named: dict[bytes, Attribute] = {k.encode("utf-8", "surrogateescape"): v for k, v in p.values.items()}
    if attrs is not None:
        for k, v in attrs.entries:
            named.setdefault(k.value, v)
    return [named[k] for k in sorted(named)]
