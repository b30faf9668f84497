"""Registers the models that ship with mlirbc.

* every upstream MLIR 22 dialect's ops (builtin included), from the ODS-derived data in `models/data/`,
  one lazy provider per dialect;
* codecs for upstream dialects with custom attribute/type encodings (`quant` types);
* builtin attribute codes newer than MLIR 22 (`attr:builtin`/`type:builtin`, asked only for files whose
  producer may be newer: binary affine maps and strided layouts from IREE's MLIR 24).
"""

from __future__ import annotations

from .builtin_newer import NewerBuiltinCodec
from .ods import register_ods_dialects
from .quant import QuantTypeCodec
from .registry import Registry

BUILTIN_ORIGIN = "builtin (mlirbc)"


def register_builtin_models(reg: Registry) -> None:
    register_ods_dialects(reg, BUILTIN_ORIGIN)
    reg.register_type_codec(QuantTypeCodec(), BUILTIN_ORIGIN)
    newer = NewerBuiltinCodec()
    reg.register_attr_codec(newer, BUILTIN_ORIGIN)
    reg.register_type_codec(newer, BUILTIN_ORIGIN)
