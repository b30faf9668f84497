"""Registers the models that ship with mlirbc.

* every upstream MLIR 22 dialect's ops (builtin included), from the ODS-derived data in `models/data/`,
  one lazy provider per dialect, for every model set;
* for the `mlir24` set only, the dialects whose layouts changed by MLIR 24 (`models/data_mlir24/`), for
  the `mlir23` set those changed by MLIR 23 (`models/data_mlir23/`), for the `mlir21` set those MLIR 21 had
  otherwise (`models/data_mlir21/`);
* codecs for upstream dialects with custom attribute/type encodings (`quant` types);
* builtin attribute codes newer than MLIR 22 (`attr:builtin`/`type:builtin`, asked only for files whose
  producer may be newer: binary affine maps and strided layouts from IREE's MLIR 24);
* the dialects that declare their encodings in MLIR's bytecode DSL (`models/data/dsl/`, interpreted by
  `models.dsl`): `tosa` (no entries in MLIR 22) and `llvm` (debug info, loop annotations); for the `mlir24`
  set, MLIR 24's `llvm` declaration (`models/data_mlir24/dsl/`: the inferred DSL, whose compile unit,
  composite and derived types gained fields, with the syntax data for them learned from iree-opt);
* the aliases upstream dialects give their values (`models.alias_rules`).
"""

from __future__ import annotations

from .alias_rules import register_upstream_aliases
from .api import up_to_mlir
from .builtin_newer import NewerBuiltinCodec
from .kinds import KindDialect, register_lazy_kind_dialect
from .ods import DATA_DIR, MLIR21_DIR, MLIR23_DIR, MLIR24_DIR, register_ods_dialects, register_ods_overlay
from .quant import QuantTypeCodec
from .registry import Registry
from .sets import MLIR21, MLIR23, MLIR24

BUILTIN_ORIGIN = "builtin (mlirbc)"
MLIR24_ORIGIN = "builtin (mlirbc, MLIR 24 layouts)"
MLIR23_ORIGIN = "builtin (mlirbc, MLIR 23 layouts)"
MLIR21_ORIGIN = "builtin (mlirbc, MLIR 21 layouts)"


def register_builtin_models(reg: Registry) -> None:
    base = register_ods_dialects(reg, BUILTIN_ORIGIN)
    register_ods_overlay(reg, MLIR24_ORIGIN, MLIR24_DIR, base, MLIR24)
    register_ods_overlay(reg, MLIR23_ORIGIN, MLIR23_DIR, base, MLIR23)
    register_ods_overlay(reg, MLIR21_ORIGIN, MLIR21_DIR, base, MLIR21)
    register_builtin_syntax(reg)
    reg.register_type_codec(QuantTypeCodec(), BUILTIN_ORIGIN)
    newer = NewerBuiltinCodec()
    reg.register_attr_codec(newer, BUILTIN_ORIGIN)
    reg.register_type_codec(newer, BUILTIN_ORIGIN)
    # MLIR 24 writes affine maps, integer sets and strided layouts in binary (codes 23-25).
    binary = NewerBuiltinCodec(binary=True)
    reg.register_attr_codec(binary, MLIR24_ORIGIN, model_set=MLIR24)
    reg.register_type_codec(binary, MLIR24_ORIGIN, model_set=MLIR24)
    # MLIR 22's declarations: files of a newer MLIR (IREE's MLIR24.0.0git) may encode these differently.
    register_lazy_kind_dialect(reg, "tosa", _tosa, BUILTIN_ORIGIN, up_to_mlir(22))
    register_lazy_kind_dialect(reg, "llvm", _llvm, BUILTIN_ORIGIN, up_to_mlir(22))
    register_lazy_kind_dialect(reg, "llvm", _llvm24, MLIR24_ORIGIN, up_to_mlir(24), model_set=MLIR24)
    register_upstream_aliases(reg, BUILTIN_ORIGIN)


def register_builtin_syntax(reg: Registry) -> None:
    """The custom assembly forms of upstream ops: declarative formats from the generated data (read per
    dialect when a pretty view first needs it), MLIR 24's and MLIR 21's changed ones for their sets, and the
    hand-written
    models of ops whose form upstream writes in C++ (`models/asm/ports`)."""
    from .asm.data import DATA_DIR as SYNTAX_DIR
    from .asm.data import MLIR21_DIR as SYNTAX21_DIR
    from .asm.data import MLIR24_DIR as SYNTAX24_DIR
    from .asm.data import register_syntax_data
    from .asm.ports import register_ports

    base = register_syntax_data(reg, BUILTIN_ORIGIN, SYNTAX_DIR)
    register_syntax_data(reg, MLIR24_ORIGIN, SYNTAX24_DIR, base, MLIR24)
    register_syntax_data(reg, MLIR21_ORIGIN, SYNTAX21_DIR, base, MLIR21)
    register_ports(reg, BUILTIN_ORIGIN)


def _tosa() -> KindDialect:
    from .dsl import dsl_dialect, load_records

    return dsl_dialect(load_records(DATA_DIR / "dsl" / "tosa.json.gz"), dialect="tosa")


def _llvm() -> KindDialect:
    from .dsl import dsl_dialect, load_records
    from .llvm_syntax import LlvmSyntax

    return dsl_dialect(load_records(DATA_DIR / "dsl" / "llvm.json.gz"), dialect="llvm", cpp_dialect="LLVM",
                       syntax=LlvmSyntax())


def _llvm24() -> KindDialect:
    from .dsl import dsl_dialect, load_records
    from .llvm_syntax import LlvmSyntax

    return dsl_dialect(load_records(MLIR24_DIR / "dsl" / "llvm.json.gz"), dialect="llvm", cpp_dialect="LLVM",
                       syntax=LlvmSyntax(MLIR24_DIR / "dsl" / "llvm_syntax.json.gz"))
