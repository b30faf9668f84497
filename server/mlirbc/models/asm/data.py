"""The generated syntax data (`data/`, `iree/asm_data/`), read per dialect on first use, and its registration.

`catalog.json` names each dialect's file and ops; a dialect's file is read the first time one of its ops is
printed or parsed in the pretty form (never for the generic view).  An overlay dataset (MLIR 24's changed
ops) serves its own ops and asks its base for the rest.  Each op with a declarative format becomes a
`DeclarativeSyntax` (with the ported result names of `names`), registered as the dialect's syntax
provider; the hand-written models (`ports`) are registered per op on top and replace it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..datafiles import read_ops
from ..registry import Registry
from .api import OpSyntax

if TYPE_CHECKING:
    from .names import BlockNamesFn, NamesFn

DATA_DIR = Path(__file__).with_name("data")
MLIR24_DIR = DATA_DIR / "mlir24"
MLIR21_DIR = DATA_DIR / "mlir21"
CATALOG = "catalog.json"


class SyntaxDataset:
    """The syntax data of one folder; each dialect's file is read once, when first needed."""

    def __init__(self, data_dir: Path, base: SyntaxDataset | None = None) -> None:
        self.data_dir = data_dir
        self.base = base
        with open(data_dir / CATALOG, encoding="utf-8") as f:
            self.dialects: dict[str, dict[str, Any]] = json.load(f)["dialects"]
        self.files_read: list[str] = []
        self._ops: dict[str, Mapping[str, Any]] = {}
        self._names: dict[str, frozenset[str]] = {}
        """dialect -> its op names as a set (the catalog lists them: a test per op would scan it)."""
        self._lock = threading.Lock()

    def _own(self, dialect: str, op: str) -> bool:
        names = self._names.get(dialect)
        if names is None:
            entry = self.dialects.get(dialect)
            names = self._names[dialect] = frozenset(entry.get("ops", ()) if entry is not None else ())
        return op in names

    def has_op(self, full_name: str) -> bool:
        dialect, _, op = full_name.partition(".")
        if self._own(dialect, op):
            return True
        return self.base is not None and self.base.has_op(full_name)

    def op_data(self, full_name: str) -> dict[str, Any] | None:
        dialect, _, op = full_name.partition(".")
        if not self._own(dialect, op):
            return self.base.op_data(full_name) if self.base is not None else None
        entry = self.dialects[dialect]
        with self._lock:
            ops = self._ops.get(dialect)
            if ops is None:
                ops = read_ops(self.data_dir / entry["file"])
                self._ops[dialect] = ops
                self.files_read.append(dialect)
        data: dict[str, Any] | None = ops.get(op)
        return data


class DataSyntaxProvider:
    """A dialect's syntax models from generated data: full op name -> `DeclarativeSyntax` (or None when
    the op's form is generic or written in C++ without a port)."""

    def __init__(self, dataset: SyntaxDataset, dialect: str,
                 names: Mapping[str, NamesFn] | None = None,
                 block_names: Mapping[str, BlockNamesFn] | None = None) -> None:
        self.dataset = dataset
        self.dialect = dialect
        self.block_names = block_names or {}
        """Block argument names of ops (`getAsmBlockArgumentNames` ports of declarative-format ops)."""
        self.names = names
        """Result names of ops (`getAsmResultNames` ports); None: upstream's (`names.RESULT_NAMES`)."""
        self._models: dict[str, OpSyntax | None] = {}

    def __call__(self, full_name: str) -> OpSyntax | None:
        if not full_name.startswith(self.dialect + "."):
            return None
        if full_name in self._models:
            return self._models[full_name]
        data = self.dataset.op_data(full_name)
        model: OpSyntax | None = None
        if data is not None and "format" in data:
            from .declarative import DeclarativeSyntax
            from .names import DEFAULT_DIALECTS, RESULT_NAMES

            names = self.names if self.names is not None else RESULT_NAMES
            model = DeclarativeSyntax(full_name, data, names.get(full_name),
                                      default_dialect=DEFAULT_DIALECTS.get(full_name, ""),
                                      block_names=self.block_names.get(full_name))
        self._models[full_name] = model
        return model

    def data(self, full_name: str) -> dict[str, Any] | None:
        """The op's syntax data (hand-written models read operand and attribute facts from it)."""
        return self.dataset.op_data(full_name)

    def __repr__(self) -> str:
        return f"DataSyntaxProvider({self.dialect!r})"


_DATASETS: dict[Path, SyntaxDataset] = {}
_DATASETS_LOCK = threading.Lock()


def dataset(data_dir: Path = DATA_DIR) -> SyntaxDataset:
    """The one dataset of a data folder in this process (hand-written models read their op's facts
    from it)."""
    with _DATASETS_LOCK:
        ds = _DATASETS.get(data_dir)
        if ds is None:
            ds = _DATASETS[data_dir] = SyntaxDataset(data_dir)
        return ds


def op_data(full_name: str, data_dir: Path = DATA_DIR) -> dict[str, Any]:
    """One op's syntax data (KeyError when the folder has no such op)."""
    data = dataset(data_dir).op_data(full_name)
    if data is None:
        raise KeyError(full_name)
    return data


def register_syntax_data(reg: Registry, origin: str, data_dir: Path = DATA_DIR,
                         base: SyntaxDataset | None = None, model_set: str | None = None,
                         names: Mapping[str, NamesFn] | None = None,
                         block_names: Mapping[str, BlockNamesFn] | None = None) -> SyntaxDataset:
    """One lazy syntax provider per dialect of a data folder (nothing is read here); `names`: the result
    names of its ops (default: upstream's); `block_names`: their block argument names."""
    ds = SyntaxDataset(data_dir, base) if base is not None else dataset(data_dir)
    for name in sorted(ds.dialects):
        own = DataSyntaxProvider(ds, name, names, block_names)
        earlier = reg.syntax_provider(name, model_set)
        if earlier is not None and base is None:
            # Ops added to a dialect that already has its data (IREE's transform extension ops): asked
            # first, the dialect's own ops still come from the earlier provider.
            reg.register_syntax_provider(name, _Chained(own, earlier), origin, model_set=model_set)
        else:
            reg.register_syntax_provider(name, own, origin, model_set=model_set)
    return ds


class _Chained:
    """A syntax provider asked first, then an earlier one of the same dialect."""

    def __init__(self, first: DataSyntaxProvider, then: Callable[[str], OpSyntax | None]) -> None:
        self.first = first
        self.then = then

    def __call__(self, full_name: str) -> OpSyntax | None:
        model = self.first(full_name)
        return model if model is not None else self.then(full_name)

    def data(self, full_name: str) -> dict[str, Any] | None:
        return self.first.data(full_name)

    def __repr__(self) -> str:
        return f"{self.first!r} before {self.then!r}"
