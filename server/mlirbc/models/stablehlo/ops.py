"""The VHLO op models (generated data) and the version rules, without the attribute/type kinds (which are only
loaded when a file has vhlo values).

* `VhloOps`: the lazy op provider over `models/data/stablehlo/` (all 145 op versions from 0.9.0 to 1.20.0,
  each with its version range and StableHLO name, summaries from StableHLO's own op docs).
* `target_problems`: what in a module does not exist at its target version (checked before writing).
"""

from __future__ import annotations

import functools
import gzip
import json
from functools import cache
from typing import Any

from ...ir.attributes import Attribute, DictionaryAttr
from ...ir.module import Module
from ...ir.operation import PROPS_DECODED
from ...ir.structured import StructuredAttr, StructuredType
from ...ir.types import Type
from ..constraints import ConstraintFiles, OpConstraints
from ..layout import LayoutOpModel
from ..ods import DATA_DIR, OdsDataset
from .versions import KNOWN_VERSION, Version, parse_version, target_of, version_text

SET_DIR = DATA_DIR / "stablehlo"


def newer_note(producer: str) -> str:
    """Why a part may be unknown: the file targets a StableHLO newer than this model knows ("" if not)."""
    target = target_of(producer)
    if target is None or target <= KNOWN_VERSION:
        return ""
    return (f" (the file targets StableHLO {version_text(target)}, newer than the "
            f"{version_text(KNOWN_VERSION)} this model knows)")


@cache
def stablehlo_docs() -> dict[str, dict[str, str]]:
    """StableHLO op name -> summary / description (from StableHLO's StablehloOps.td, generated data)."""
    path = SET_DIR / "stablehlo_docs.json.gz"
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data: dict[str, Any] = json.load(f)
    except OSError:
        return {}
    ops: dict[str, dict[str, str]] = data.get("ops", {})
    return ops


@cache
def _upstream_constraints() -> ConstraintFiles:
    return ConstraintFiles(DATA_DIR)


class VhloOps:
    """The op provider registered as `dialect:vhlo` (callable: full op name -> model or None)."""

    dialect = "vhlo"

    def __init__(self, dataset: OdsDataset) -> None:
        self.dataset = dataset
        self._documented: set[str] = set()

    def __call__(self, full_name: str) -> LayoutOpModel | None:
        if not full_name.startswith("vhlo."):
            return None
        model = self.dataset.model(full_name)
        if model is not None and full_name not in self._documented:
            self._documented.add(full_name)
            self._document(model)
        return model

    def _document(self, model: LayoutOpModel) -> None:
        info = model.op_info
        name = self.stablehlo_name(model.name)
        if name is not None:
            # what StableHLO's verifiers say of the op once deserialized (legalized) holds too
            model.legalized_source = functools.partial(self._legalized, name)
        doc = stablehlo_docs().get(name or "", {})
        if info is not None and doc and not info.summary:
            info.summary = doc.get("summary", "")
            info.description = doc.get("description", "")

    def _legalized(self, name: str) -> tuple[str, OpConstraints | None]:
        found = self.dataset.constraints.get(name)
        if found is None:  # func.func, func.call, func.return: upstream's
            found = _upstream_constraints().get(name)
        return name, found

    def has_op(self, full_name: str) -> bool:
        return full_name.startswith("vhlo.") and self.dataset.has_op(full_name)

    def op_names(self) -> list[str]:
        entry = self.dataset.dialects.get("vhlo", {})
        return [f"vhlo.{op}" for op in entry.get("ops", [])]

    def versions(self, full_name: str) -> tuple[Version, Version | None] | None:
        """(min, max) versions of an op (max None: still current), None for an unknown op."""
        data = self.dataset.op_data(full_name)
        if data is None or "min_version" not in data:
            return None
        top = data.get("max_version", "current")
        return parse_version(data["min_version"]), None if top == "current" else parse_version(top)

    def stablehlo_name(self, full_name: str) -> str | None:
        data = self.dataset.op_data(full_name)
        return None if data is None else data.get("stablehlo")

    def producer_note(self, producer: str) -> str:
        return newer_note(producer)

    def __repr__(self) -> str:
        return "VhloOps()"


# -- versions at write time ----------------------------------------------------------------------------

def _since(value: object) -> tuple[Version, str] | None:
    """The first version a VHLO attribute or type exists in (its kind's `since`), with its spelling."""
    kind = value.kind if isinstance(value, StructuredAttr | StructuredType) else None
    since = getattr(kind, "since", None)
    if kind is None or kind.dialect != "vhlo" or not isinstance(since, tuple):
        return None
    sigil = "!" if isinstance(value, StructuredType) else "#"
    return since, f"{sigil}vhlo.{kind.name}"


def _children(value: object) -> list[object]:
    out: list[object] = []
    stack: list[object] = []
    if isinstance(value, StructuredAttr | StructuredType):
        stack.extend(value.fields)
    else:
        for name in getattr(type(value), "__slots__", ()):
            if name != "__weakref__":
                stack.append(getattr(value, name, None))
    while stack:
        x = stack.pop()
        if isinstance(x, tuple):
            stack.extend(x)
        elif isinstance(x, Attribute | Type):
            out.append(x)
    return out


def target_problems(module: Module, ops: VhloOps, producer: str) -> list[str]:
    """Ops, attributes and types of `module` that do not exist at the target named by `producer`."""
    target = target_of(producer)
    if target is None or module.root is None:
        return []
    t = version_text(target)
    target = (target[0], target[1], 0)  # a patch release has its minor release's op set
    problems: list[str] = []
    seen: set[int] = set()
    stack: list[object] = []
    for op in module.root.walk():
        name = op.name
        if name.startswith("vhlo."):
            span = ops.versions(name)
            if span is not None:
                lo, hi = span
                if target < lo:
                    problems.append(f"op {name} does not exist at the file's target StableHLO {t} "
                                    f"(it exists from {version_text(lo)})")
                elif hi is not None and target > hi:
                    problems.append(f"op {name} does not exist at the file's target StableHLO {t} "
                                    f"(it exists up to {version_text(hi)})")
        for res in op.results:
            stack.append(res.type)
        for region in op.regions:
            for block in region.blocks:
                stack.extend(arg.type for arg in block.arguments)
        if isinstance(op.attributes, DictionaryAttr):
            stack.append(op.attributes)
        props = op.properties
        if props is not None and props.kind == PROPS_DECODED:
            stack.extend(props.values.values())
        elif props is not None and props.attribute is not None:
            stack.append(props.attribute)
        while stack:
            x = stack.pop()
            if id(x) in seen:
                continue
            seen.add(id(x))
            since = _since(x)
            if since is not None and target < since[0]:
                problems.append(f"{since[1]} (used by {name}) does not exist at the file's target StableHLO "
                                f"{t} (it exists from {version_text(since[0])})")
            stack.extend(_children(x))
    return problems
