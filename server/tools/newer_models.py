"""The model data of newer producers: MLIR 24 (an overlay on MLIR 22) and IREE's dialects.

Used by `gen_newer_models.py`.  Inputs:

* `llvm-tblgen --dump-json` files: IREE's op files (`--iree-ods DIR`) and the upstream op files whose
  layouts changed after MLIR 22 (`--mlir24-ods DIR`), as in `shared/ods/newer/`;
* the committed MLIR 22 data (`models/data/`), the base of the MLIR 24 overlay;
* the Python op bindings of the exact compiler commit (an installed `iree-base-compiler`, see
  `op_bindings.py`).

Rule: where the JSON and the bindings disagree on a layout, **the bindings win**.  Such an op keeps its
hover data (summary, description, operand names, and defaults of attributes still flagged) from the JSON
or the MLIR 22 model and takes its fields from the bindings: inherent attributes sorted by name,
required or flagged as the builder stores them, native properties with the codecs of the model they
replace (none of the ops changed this way has a native property the replaced model lacks), segment sizes
with the bindings' declaration counts.  An op the bindings have and no JSON has is made from the bindings
alone (its summary is the first paragraph of its docstring).  Each op made so is marked `"layout":
"bindings"` in its data.

Outputs: `models/data_mlir24/` (only ops whose layout differs from MLIR 22, or that are new; the index
names the base set) and `models/iree/data/` (IREE's own dialects; `transform` ops of IREE's extensions
are listed as an extension of an upstream dialect).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Set
from pathlib import Path
from typing import Any

from op_bindings import FLAGGED, SEGMENTS, BindingOp

from mlirbc.models.ods_derive import derive_ops, dialects_of

Op = dict[str, Any]


def read_data_dir(data_dir: Path) -> dict[str, Op]:
    """Every op of a committed data directory, by full name (`dialect.op`)."""
    index = json.loads((data_dir / "catalog.json").read_text(encoding="utf-8"))
    out: dict[str, Op] = {}
    for dialect, entry in index["dialects"].items():
        with gzip.open(data_dir / entry["file"], "rt", encoding="utf-8") as f:
            for name, op in json.load(f)["ops"].items():
                out[f"{dialect}.{name}"] = op
    return out


def read_json_dir(ods_dir: Path) -> tuple[dict[str, Op], dict[str, dict[str, str]], list[str]]:
    """(ops by full name with `dialect`/`name` kept, dialect docs, input file names) of a JSON folder."""
    ops: dict[str, Op] = {}
    docs: dict[str, dict[str, str]] = {}
    files = sorted(ods_dir.glob("*.json"))
    for path in files:
        records = json.loads(path.read_text(encoding="utf-8"))
        for name, doc in dialects_of(records).items():
            docs.setdefault(name, doc)
        for full, op in derive_ops(records).items():
            ops.setdefault(full, op)
    return ops, docs, [p.name for p in files]


def layout(op: Op) -> tuple[Any, ...]:
    """What decides the bytes: fields (with segment counts), native properties (with codecs)."""
    return (json.dumps(op.get("fields", [])), json.dumps(op.get("natives", [])),
            bool(op.get("custom_encoding", False)))


def binding_fields(b: BindingOp) -> list[list[Any]]:
    out: list[list[Any]] = []
    for name, kind in b.fields():
        if kind == SEGMENTS:
            count = b.operand_segments if name == "operandSegmentSizes" else b.result_segments
            out.append([name, SEGMENTS, count])
        else:
            out.append([name, kind])
    return out


def binding_layout_matches(op: Op, b: BindingOp) -> bool:
    """Whether a model's layout says what the bindings say (fields, kinds, segment counts, natives)."""
    fields = [list(f) for f in op.get("fields", [])]
    natives = [n for n, _ in op.get("natives", [])]
    return fields == binding_fields(b) and sorted(natives) == sorted(b.natives)


def from_bindings(full: str, b: BindingOp, prev: Op | None) -> Op:
    """An op's data with the bindings' layout and, when there is one, the previous model's hover data."""
    dialect, _, name = full.partition(".")
    prev = prev or {}
    codecs = dict((n, c) for n, c in prev.get("natives", []))
    missing = [n for n in b.natives if n not in codecs]
    if missing:
        raise SystemExit(f"{full}: the bindings show native properties {missing} that no model has a "
                         "codec for; add their ODS JSON")
    fields = binding_fields(b)
    flagged = {f[0] for f in fields if f[1] == FLAGGED}
    op: Op = {
        "name": name,
        "summary": prev.get("summary") or b.doc,
        "description": prev.get("description", ""),
        "operands": prev.get("operands", []),
        "results": prev.get("results", []),
        "attributes": [n for n, _ in b.attributes] + [n for n in b.natives],
        "regions": prev.get("regions", []),
        "successors": prev.get("successors", []),
        "fields": fields,
        "natives": [[n, codecs[n]] for n in b.natives],
        "layout": "bindings",
    }
    defaults = {k: v for k, v in (prev.get("defaults") or {}).items() if k in flagged}
    if defaults:
        op["defaults"] = defaults
    if prev.get("isolated"):
        op["isolated"] = True
    if prev.get("custom_encoding"):  # hand-written C++ encoding: the bindings cannot say otherwise
        op["custom_encoding"] = True
    op["dialect"] = dialect
    return op


MLIR24_ADDED_OPTIONAL: dict[str, list[tuple[str, str]]] = {
    "spirv.module": [("sym_visibility", "StringAttr")],
    "spirv.GlobalVariable": [("sym_visibility", "StringAttr")],
    "spirv.func": [("sym_visibility", "StringAttr")],
}
"""Optional attributes MLIR 24 added to ops of dialects the wheel has no Python bindings for (so the layout
check cannot see them), each (name, storage).  Found on iree-compile's Vulkan modules: with MLIR 22's
layout their properties have one field too many (`sym_visibility`, absent, sorted before `type` and
`vce_triple`); iree-opt prints `sym_visibility` inside `<{...}>` (an inherent attribute) and, in the custom
form, as a keyword before the symbol name (`spirv.func private @f`)."""


MLIR24_STORAGE_CHANGED: dict[str, dict[str, str]] = {
    "rocdl.sched.barrier": {"mask": "#rocdl.sched_group_mask"},
}
"""Attributes whose class MLIR 24 changed (the same field, another attribute in it), which the bindings'
layout does not show: iree-compile's ROCm dispatches store `mask = #rocdl.sched_group_mask<none>` where
MLIR 22 has an i32."""


MLIR24_NEW_OPS_LIKE: dict[str, str] = {
    "spirv.InBoundsAccessChain": "spirv.AccessChain",
    "spirv.GL.NMax": "spirv.GL.FMax",
    "spirv.GL.NMin": "spirv.GL.FMin",
}
"""Ops new in MLIR 24, in dialects without Python bindings in the wheel, laid out (and printed) as an MLIR 22
op (iree-compile's Vulkan dispatches hold them; iree-opt prints their generic and custom forms as the other
op's: no properties, the same operands and form)."""


MLIR24_REVISED: dict[str, dict[str, Any]] = {
    "nvvm.barrier": {"defaults": {"aligned": "true"}, "operands": ["barrierId", "numberOfThreads"],
                     "results": []},
    "llvm.fpext": {"defaults": {"fastmathFlags": "#llvm.fastmath<none>"}},
    "llvm.fptrunc": {"defaults": {"fastmathFlags": "#llvm.fastmath<none>"}},
}
"""What the bindings' layout of an MLIR 24 op does not say, from its generated Python class (operands,
results) and iree-opt (a default-valued property is set when the text leaves it out: `nvvm.barrier`
reads back with `aligned = true`)."""


MLIR24_TYPES_CHANGED = ("rocdl.make.buffer.rsrc",)
"""Ops of an unchanged layout whose operand types MLIR 24 loosened (`numRecords` of any integer type, i64 in
MLIR 22): in the overlay, so MLIR 22's constraints do not check them (no MLIR 24 ODS record gives theirs)."""


def like(full: str, base: Op) -> Op:
    """A new op with the data of `base`."""
    dialect, _, name = full.partition(".")
    return {**base, "dialect": dialect, "name": name, "layout": "mlir24-verified"}


def with_storage(full: str, op: Op, storage: dict[str, str]) -> Op:
    """`op` with the attribute classes of `storage`."""
    dialect, _, name = full.partition(".")
    return {**op, "storage": {**op.get("storage", {}), **storage}, "dialect": dialect, "name": name,
            "layout": "mlir24-verified"}


def with_added_optional(full: str, op: Op, added: list[tuple[str, str]]) -> Op:
    """`op` (MLIR 22's data) with optional attributes added: flagged fields in name order."""
    dialect, _, name = full.partition(".")
    fields = [list(f) for f in op.get("fields", [])]
    storage = dict(op.get("storage", {}))
    attributes = list(op.get("attributes", []))
    for attr, kind in added:
        if any(f[0] == attr for f in fields):
            raise SystemExit(f"{full}: MLIR 22's model already has {attr}")
        fields.append([attr, FLAGGED])
        storage[attr] = kind
        attributes.append(attr)
    fields.sort(key=lambda f: str(f[0]))
    return {**op, "fields": fields, "storage": storage, "attributes": attributes, "dialect": dialect,
            "name": name, "layout": "mlir24-verified"}


def plan(base: dict[str, Op], mlir24_json: dict[str, Op], iree_json: dict[str, Op],
         bindings: dict[str, BindingOp]) -> tuple[dict[str, Op], dict[str, Op]]:
    """(MLIR 24 overlay ops, IREE ops), both keyed by full name, each op with its `dialect`/`name`."""
    base_dialects = {k.split(".", 1)[0] for k in base}
    iree_dialects = {k.split(".", 1)[0] for k in iree_json} - base_dialects
    overlay: dict[str, Op] = {}
    for full, op in mlir24_json.items():
        old = base.get(full)
        if old is None or layout(old) != layout(op) or old.get("defaults") != op.get("defaults"):
            overlay[full] = op
    iree = dict(iree_json)
    for full, b in sorted(bindings.items()):
        dialect = full.split(".", 1)[0]
        if full in iree or dialect in iree_dialects:
            current = iree.get(full)
            target = iree
        else:
            current = overlay.get(full) or _with_names(full, base.get(full))
            target = overlay
        if current is not None and binding_layout_matches(current, b):
            continue
        if current is not None and _binding_exception(full, current, b):
            continue
        target[full] = from_bindings(full, b, current)
    for full, added in MLIR24_ADDED_OPTIONAL.items():
        if full in bindings or full in mlir24_json:
            raise SystemExit(f"{full}: its MLIR 24 layout has a source now; drop it from "
                             "MLIR24_ADDED_OPTIONAL")
        overlay[full] = with_added_optional(full, base[full], added)
    for full, other in MLIR24_NEW_OPS_LIKE.items():
        if full in base or full in bindings or full in mlir24_json:
            raise SystemExit(f"{full}: it has a model or a source now; drop it from MLIR24_NEW_OPS_LIKE")
        overlay[full] = like(full, base[other])
    for full in MLIR24_TYPES_CHANGED:
        if full in overlay:
            raise SystemExit(f"{full}: already in the overlay; drop it from MLIR24_TYPES_CHANGED")
        overlay[full] = like(full, base[full])
    for full, revised in MLIR24_REVISED.items():
        if full not in overlay:
            raise SystemExit(f"{full}: MLIR24_REVISED names an op the overlay does not have")
        overlay[full] = {**overlay[full], **revised}
    for full, storage in MLIR24_STORAGE_CHANGED.items():
        overlay[full] = with_storage(full, overlay.get(full) or base[full], storage)
    return overlay, iree


def plan_from_bindings(base: dict[str, Op], bindings: dict[str, BindingOp]) -> dict[str, Op]:
    """An overlay on `base` from a wheel's bindings alone (MLIR 23: jaxlib's): the ops of `base`'s dialects
    whose layout the bindings show otherwise, and the ops those dialects gained.  Dialects `base` lacks
    (jaxlib's stablehlo, chlo, sdy, mhlo) are not upstream's: left out."""
    base_dialects = {k.split(".", 1)[0] for k in base}
    overlay: dict[str, Op] = {}
    for full, b in sorted(bindings.items()):
        if full.split(".", 1)[0] not in base_dialects:
            continue
        current = _with_names(full, base.get(full))
        if current is not None and binding_layout_matches(current, b):
            continue
        overlay[full] = from_bindings(full, b, current)
    return overlay


def _with_names(full: str, op: Op | None) -> Op | None:
    if op is None:
        return None
    dialect, _, name = full.partition(".")
    return {**op, "dialect": dialect, "name": name}


BINDING_EXCEPTIONS: dict[str, str] = {
    "util.hoistable_conversion": (
        "mlir-tblgen's Python builder indexes this op's arguments by position while two native "
        "properties (tag, inverseTag) come before its operand: the builder appends `tag` as the operand, "
        "so the bindings seem to show one native property instead of two.  The ODS JSON is right here."),
}
"""Ops whose bindings misstate the layout (the JSON is kept); the layout test reads the same table."""


def _binding_exception(full: str, current: Op, b: BindingOp) -> bool:
    return full in BINDING_EXCEPTIONS


def dialect_files(ops: dict[str, Op], docs: dict[str, dict[str, str]],
                  extension_of_upstream: Set[str] = frozenset()) -> tuple[dict[str, Any], dict[str, Any]]:
    """(dialect -> file content, dialect -> index entry) for ops keyed by full name."""
    by_dialect: dict[str, dict[str, Op]] = {}
    for op in ops.values():
        op = dict(op)
        dialect = op.pop("dialect")
        by_dialect.setdefault(dialect, {})[op.pop("name")] = op
    contents: dict[str, Any] = {}
    entries: dict[str, Any] = {}
    for dialect in sorted(by_dialect):
        dops = by_dialect[dialect]
        doc = docs.get(dialect, {"summary": "", "description": ""})
        fname = f"{dialect}.json.gz"
        contents[fname] = {"dialect": dialect, **doc, "ops": dops}
        entry: dict[str, Any] = {"file": fname, "ops": sorted(dops), "summary": doc["summary"]}
        if dialect in extension_of_upstream:
            entry["extends"] = True
        entries[dialect] = entry
    return contents, entries
