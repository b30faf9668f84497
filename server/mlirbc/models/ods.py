"""ODS-derived op models: the committed per-dialect data files, loaded lazily, and user ODS JSON files.

`models/data/catalog.json` names every upstream dialect and its ops; `models/data/<dialect>.json.gz` holds
the ops of one dialect (written by `server/tools/gen_ods_models.py`).  A dialect's file is read the first
time one of its ops is looked up, so opening a file that uses `arith` and `func` reads two small files,
not 48.  The same format serves the MLIR 24 overlay (`models/data_mlir24/`: a dataset whose ops replace
those of a base dataset, the rest coming from the base) and plugins' data (`models/iree/`).
"""

from __future__ import annotations

import functools
import gzip
import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..ir.attributes import Attribute
from .api import EntryReader, EntryWriter, ModelError, OpInfo, OpModel
from .constraints import ConstraintFiles, OpConstraints, op_constraints_from_data
from .datafiles import read_ops
from .layout import ATTR_FLAGGED, ATTR_REQUIRED, SEGMENTS, Field, LayoutOpModel
from .ods_derive import OdsError, derive_ops
from .registry import Registration, Registry

DATA_DIR = Path(__file__).with_name("data")
MLIR24_DIR = Path(__file__).with_name("data_mlir24")
MLIR23_DIR = Path(__file__).with_name("data_mlir23")
MLIR21_DIR = Path(__file__).with_name("data_mlir21")
COUNTS_FILE = "counts.json.gz"
"""Per op, how many results, operands, regions and successors ODS fixes (`server/tools/gen_op_counts.py`)."""
INDEX_FILE = "catalog.json"
"""The catalog of dialects (not `index.json`: `index.json.gz` is the data of the `index` dialect)."""

_KINDS = {"required": ATTR_REQUIRED, "flagged": ATTR_FLAGGED, "segments": SEGMENTS}


def op_model_from_data(full_name: str, op: dict[str, Any]) -> LayoutOpModel:
    """A `LayoutOpModel` from one op's data (as `ods_derive.derive_op` produces it)."""
    defaults: dict[str, str] = op.get("defaults") or {}
    storage: dict[str, str] = op.get("storage") or {}
    try:
        attributes = [Field(f[0], _KINDS[f[1]], defaults.get(f[0]), f[2] if len(f) > 2 else None,
                            storage.get(f[0])) for f in op["fields"]]
    except KeyError as exc:
        raise OdsError(f"{full_name}: unknown field kind {exc}") from None
    natives = [Field(name, f"native:{codec}") for name, codec in op.get("natives", [])]
    info = OpInfo(
        full_name,
        summary=op.get("summary", ""),
        description=op.get("description", ""),
        operands=list(op.get("operands", [])),
        results=list(op.get("results", [])),
        attributes=list(op.get("attributes", [])),
        regions=list(op.get("regions", [])),
        isolated_from_above=bool(op.get("isolated", False)),
        successors=list(op.get("successors", [])),
        defaults=dict(defaults),
    )
    return LayoutOpModel(full_name, attributes=attributes, natives=natives, op_info=info,
                         custom_encoding=bool(op.get("custom_encoding", False)))


@functools.cache
def read_index(data_dir: Path = DATA_DIR) -> dict[str, Any]:
    """A data folder's catalog, read once per process (the dataset and `mlir_opt_dialects` share it:
    read-only)."""
    with open(data_dir / INDEX_FILE, encoding="utf-8") as f:
        index: dict[str, Any] = json.load(f)
    return index


class OdsDataset:
    """The generated data of one directory; each dialect file is read once, on first use.

    `files_read` lists the dialects whose file has been read, in order (laziness is observable).
    """

    def __init__(self, data_dir: Path = DATA_DIR, base: OdsDataset | None = None) -> None:
        self.data_dir = data_dir
        self.base = base
        """Where ops this dataset does not have come from (an overlay's underlying set), if any."""
        self.index = read_index(data_dir)
        self.dialects: dict[str, dict[str, Any]] = self.index["dialects"]
        self.files_read: list[str] = []
        self._ops: dict[str, Mapping[str, Any]] = {}
        self._names: dict[str, frozenset[str]] = {}
        """dialect -> its op names as a set (the catalog lists them: a test per op would scan it)."""
        self._models: dict[str, LayoutOpModel] = {}
        self._counts: dict[str, list[int]] | None = None
        self._lock = threading.Lock()
        self.constraints = ConstraintFiles(data_dir)
        """The ops' ODS constraints (`constraints/` beside the op data), read when first verified."""

    def has_own_op(self, full_name: str) -> bool:
        dialect, _, op = full_name.partition(".")
        names = self._names.get(dialect)
        if names is None:
            entry = self.dialects.get(dialect)
            if entry is None:
                return False
            names = self._names[dialect] = frozenset(entry.get("ops", ()))
        return op in names

    def has_op(self, full_name: str) -> bool:
        return self.has_own_op(full_name) or (self.base is not None and self.base.has_op(full_name))

    def op_names(self, dialect: str) -> list[str]:
        names = {f"{dialect}.{op}" for op in self.dialects.get(dialect, {}).get("ops", [])}
        if self.base is not None:
            names.update(self.base.op_names(dialect))
        return sorted(names)

    def _dialect_ops(self, dialect: str) -> Mapping[str, Any]:
        ops = self._ops.get(dialect)
        if ops is None:
            entry = self.dialects[dialect]
            ops = read_ops(self.data_dir / entry["file"])
            self._ops[dialect] = ops
            self.files_read.append(dialect)
        return ops

    def model(self, full_name: str) -> LayoutOpModel | None:
        hit = self._models.get(full_name)
        if hit is not None:
            return hit
        if not self.has_own_op(full_name):
            return self.base.model(full_name) if self.base is not None else None
        dialect, _, op = full_name.partition(".")
        with self._lock:
            hit = self._models.get(full_name)
            if hit is None:
                hit = op_model_from_data(full_name, self._dialect_ops(dialect)[op])
                hit.count_source = functools.partial(self.counts, full_name)
                hit.constraint_source = functools.partial(self.constraints.get, full_name)
                self._models[full_name] = hit
        return hit

    def counts(self, full_name: str) -> list[int] | None:
        """[results, operands, regions, successors] of an op, -1 where ODS does not fix the number (None:
        not known; an overlay's op without counts of its own takes its base set's)."""
        if self._counts is None:
            path = self.data_dir / COUNTS_FILE
            loaded: dict[str, list[int]] = {}
            if path.exists():
                with gzip.open(path, "rt", encoding="utf-8") as f:
                    loaded = json.load(f)
            self._counts = loaded
        found = self._counts.get(full_name)
        if found is None and self.base is not None:
            return self.base.counts(full_name)
        return found

    def op_data(self, full_name: str) -> dict[str, Any] | None:
        """The generated data of one op (None if the set has no such op); reads its dialect's file."""
        if not self.has_op(full_name):
            return None
        dialect, _, op = full_name.partition(".")
        with self._lock:
            data: dict[str, Any] = self._dialect_ops(dialect)[op]
        return data

    def provider(self, dialect: str) -> DialectProvider:
        return DialectProvider(self, dialect)


class DialectProvider:
    """The lazy op source registered as `dialect:<name>` (callable: full op name -> model or None)."""

    def __init__(self, dataset: OdsDataset, dialect: str) -> None:
        self.dataset = dataset
        self.dialect = dialect

    def __call__(self, full_name: str) -> LayoutOpModel | None:
        if not full_name.startswith(self.dialect + "."):
            return None
        return self.dataset.model(full_name)

    def has_op(self, full_name: str) -> bool:
        """Answers from the index, without reading the dialect's data file."""
        return full_name.startswith(self.dialect + ".") and self.dataset.has_op(full_name)

    def op_names(self) -> list[str]:
        return self.dataset.op_names(self.dialect)

    def __repr__(self) -> str:
        return f"DialectProvider({self.dialect!r})"


def register_ods_dialects(reg: Registry, origin: str, data_dir: Path = DATA_DIR,
                          all_dialects: bool = False) -> OdsDataset:
    """Register one lazy provider per dialect of the generated data; no dialect file is read here.

    Dialects that `mlir-opt` 22.1.8 does not register (`vcix`) are left out unless `all_dialects`: mlir-opt
    writes their ops as unregistered ops, whose properties are a dictionary attribute, and a layout model
    would misread that payload (a one-attribute layout would even "succeed").
    """
    dataset = OdsDataset(data_dir)
    for dialect in sorted(dataset.dialects):
        if all_dialects or dataset.dialects[dialect].get("registered_by_mlir_opt", True):
            reg.register_dialect(dialect, dataset.provider(dialect), origin)
    return dataset


def register_ods_overlay(reg: Registry, origin: str, data_dir: Path, base: OdsDataset,
                         model_set: str) -> OdsDataset:
    """Register, for `model_set` only, one lazy provider per dialect of an overlay dataset: it serves the
    overlay's ops and, for the dialect's other ops, the base's models."""
    dataset = OdsDataset(data_dir, base)
    for dialect in sorted(dataset.dialects):
        reg.register_dialect(dialect, dataset.provider(dialect), origin, model_set=model_set)
    return dataset


def register_ods_plugin_data(reg: Registry, origin: str, data_dir: Path) -> OdsDataset:
    """Register a plugin's generated data: a lazy provider per dialect it owns, and for a dialect it only
    extends (index entry `"extends": true`, e.g. IREE's `transform` extension ops) one lazy op model per
    op, so the upstream dialect's own provider keeps serving the rest."""
    dataset = OdsDataset(data_dir)
    for dialect in sorted(dataset.dialects):
        entry = dataset.dialects[dialect]
        if entry.get("extends"):
            for op in entry.get("ops", []):
                reg.register_op(LazyOpModel(dataset, f"{dialect}.{op}"), origin)
        else:
            reg.register_dialect(dialect, dataset.provider(dialect), origin)
    return dataset


class LazyOpModel:
    """One op of a dataset, registered on its own; its dialect's data file is read on first use."""

    def __init__(self, dataset: OdsDataset, full_name: str) -> None:
        self.name = full_name
        self.dataset = dataset

    def _model(self) -> LayoutOpModel:
        m = self.dataset.model(self.name)
        if m is None:
            raise ModelError(f"{self.name} is not in {self.dataset.data_dir}")
        return m

    def info(self) -> OpInfo:
        return self._model().info()

    def has_properties(self) -> bool:
        return self._model().has_properties()

    def decode_properties(self, r: EntryReader) -> dict[str, Attribute]:
        return self._model().decode_properties(r)

    def encode_properties(self, values: dict[str, Attribute], w: EntryWriter) -> None:
        self._model().encode_properties(values, w)

    def __getattr__(self, name: str) -> object:
        # Optional model attributes (`attributes`, `natives`, `accepts_dialect_version`) of the real model.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._model(), name)

    def __repr__(self) -> str:
        return f"LazyOpModel({self.name!r})"


def load_ods_json(reg: Registry, path: str | Path) -> list[Registration[OpModel]]:
    """Register every op of an `llvm-tblgen --dump-json` output (origin `ods-json <path>`), and the
    attribute/type codecs of every dialect it declares in the bytecode DSL (`models.dsl`).

    Each op is registered on its own key, so it replaces a built-in model of the same op (recorded in its
    `replaced` chain) and leaves the dialect's other ops alone.
    """
    p = Path(path)
    with open(p, encoding="utf-8") as f:
        try:
            records = json.load(f)
        except json.JSONDecodeError as exc:
            raise OdsError(f"{p}: not JSON ({exc})") from None
    if not isinstance(records, dict):
        raise OdsError(f"{p}: not llvm-tblgen --dump-json output")
    origin = f"ods-json {p}"
    out = []
    from .ods_constraints import derive_constraints

    try:
        constraints, table = derive_constraints(records)
    except (OdsError, KeyError, TypeError, ValueError):  # a file we cannot read constraints from: unchecked
        constraints, table = {}, []
    for full_name, op in sorted(derive_ops(records).items()):
        model = op_model_from_data(full_name, op)
        data = constraints.get(full_name)
        if data is not None:
            model.constraint_source = functools.partial(_fixed, op_constraints_from_data(
                full_name, data, table, origin))
        out.append(reg.register_op(model, origin))
    # The same file may declare attribute/type encodings in MLIR's bytecode DSL: they become codecs.
    from .dsl import register_dsl_records

    register_dsl_records(reg, records, origin)
    return out


def _fixed(value: OpConstraints) -> OpConstraints:
    return value


@functools.cache
def mlir_opt_dialects() -> frozenset[str]:
    """The dialects mlir-opt 22.1.8 registers (`--show-dialects`): those of the ODS data it registers,
    and `dlti`, which has attributes but no ops."""
    dialects = read_index()["dialects"]
    return frozenset({"dlti", *(name for name, entry in dialects.items()
                                if entry.get("registered_by_mlir_opt", True))})
