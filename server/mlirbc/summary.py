"""Facts about a decoded file for `mlirbc info` and the server's `mlirbc/info` request."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .bytecode.sections import SECTION_NAMES
from .bytecode.template import template_of
from .ir.module import RESOURCE_BLOB, Module
from .ir.operation import PROPS_DECODED
from .models.registry import Registry

_KINDS = ("blob", "bool", "string")


def module_info(module: Module, size: int, registry: Registry | None = None) -> dict[str, Any]:
    ops: Counter[str] = Counter()
    models: dict[str, str] = {}
    if module.root is not None:
        walk = module.root.walk()
        if module.implicit_module:
            next(walk)  # the module MLIR reads the file's top-level op in is not in the file
        for op in walk:
            ops[op.name] += 1
            p = op.properties
            if p is not None and p.kind == PROPS_DECODED and p.model:
                models.setdefault(op.name, p.model)
    if registry is not None:
        for name in ops:
            if name not in models:
                lookup = registry.op(name)
                if lookup.model is not None:
                    models[name] = lookup.origin
    syntax: dict[str, str] = {}
    if registry is not None:
        from .models.asm.api import describe

        bound = registry.with_set(module.model_set) if registry.model_set is None and module.model_set \
            else registry
        for name in ops:
            found = bound.op_syntax(name)
            if found.model is not None:
                syntax[name] = f"{describe(found.model)} [{found.origin}]"
    src = template_of(module)
    notes = src.fallbacks if src is not None else []
    counts = Counter(n.kind for n in notes)
    reasons: Counter[tuple[str, str, str]] = Counter((n.kind, n.name, n.reason) for n in notes)
    sections = []
    if src is not None:
        for sid, (start, end) in sorted(src.sections.items(), key=lambda kv: kv[1][0]):
            sections.append({"id": sid, "name": SECTION_NAMES.get(sid, str(sid)), "offset": start,
                             "end": end, "size": end - start})
    info: dict[str, Any] = {
        "size": size,
        "version": module.version,
        "producer": module.producer,
        "model_set": {"name": module.model_set, "why": module.model_set_note},
        "sections": sections,
        "dialects": [{"name": d.name, "version": d.version.hex() if d.version is not None else None}
                     for d in module.dialects],
        "ops": dict(sorted(ops.items())),
        "op_count": sum(ops.values()),
        "implicit_module": module.implicit_module,
        "fallbacks": {"op": counts.get("op", 0), "attribute": counts.get("attribute", 0),
                      "type": counts.get("type", 0)},
        "fallback_reasons": [{"kind": k, "name": n, "reason": r, "count": c}
                             for (k, n, r), c in sorted(reasons.items())],
        "resources": [
            {"group": g.name, "dialect": g.is_dialect, "key": e.key, "kind": _KINDS[e.kind],
             "size": (len(e.blob) if e.blob is not None else 0) if e.kind == RESOURCE_BLOB else None}
            for g in module.resources for e in g.entries],
        "models": dict(sorted(models.items())),
        "syntax": dict(sorted(syntax.items())),
        "error": str(module.error) if module.error is not None else None,
        "view": None,
    }
    hit = registry.view_for(module) if registry is not None and module.error is None else None
    if hit is not None:
        # The dialect-level view `--form auto` shows this module in (`models.views`).
        info["view"] = {"name": hit[0].name, "model": hit[1], "stored_dialect": hit[0].stored_dialect}
    decoders: Counter[tuple[str, str, str]] = Counter()
    if src is not None:
        for kind, entries in (("attribute", src.attrs), ("type", src.types)):
            for e in entries:
                if e.model:
                    decoders[(kind, src.dialects[e.dialect].name, e.model)] += 1
    info["entry_models"] = [{"kind": k, "dialect": d, "origin": o, "count": c}
                            for (k, d, o), c in sorted(decoders.items())]
    if registry is not None:
        info["hooks"] = [rec.summary() for rec in registry.hooks()]
        info["replaced_models"] = [
            {"key": reg.label, "origin": reg.origin, "replaced": [r.origin for r in reg.replaced]}
            for reg in registry.registrations() if reg.replaced]
        info["model_problems"] = [str(p) for p in registry.problems]
    return info
