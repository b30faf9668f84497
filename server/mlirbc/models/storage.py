"""Whether an attribute is of the kind an ODS attribute argument stores (its C++ storage class).

Upstream's generated property readers read each attribute as the constraint's storage class (`IntegerAttr`,
`ArrayAttr`, `arith::FastMathFlagsAttr`, ...) and refuse the file when the stored attribute is another kind;
its text parser refuses the same value in `<{...}>`.  The ODS data names that class per property as a
*spec* (`ods_derive.storage_spec`): a builtin class name, `int-enum:N`, or `#dialect[.mnemonic]`.  Only what
the spec certainly excludes is refused: a dialect's attribute may implement an interface (`TypedAttr`,
`ElementsAttr`), and only an attribute kept as text shows its mnemonic.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    DialectAttr,
    DictionaryAttr,
    FallbackAttr,
    FlatSymbolRefAttr,
    FloatAttr,
    IntegerAttr,
    LocationAttr,
    SparseElementsAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from ..ir.structured import StructuredAttr
from ..ir.types import FloatType, IndexType, IntegerType, ShapedType, Type

__all__ = ["storage_problem"]


def _element(t: Type) -> Type | None:
    return t.element if isinstance(t, ShapedType) else None


def _int_width(t: Type | None) -> int | None:
    return t.width if isinstance(t, IntegerType) else None


def _builtin_text(a: Attribute, prefix: str) -> bool:
    return isinstance(a, DialectAttr) and a.dialect_name == "builtin" and a.text.startswith(prefix)


def _other_dialect(a: Attribute) -> bool:
    """An attribute of a non-builtin dialect: it may implement any interface."""
    return a.dialect != "builtin"


def _dense_array(check: Callable[[Type], bool]) -> Callable[[Attribute], bool]:
    return lambda a: isinstance(a, DenseArrayAttr) and check(a.element_type)


def _elements(a: Attribute) -> bool:
    return isinstance(a, DenseElementsAttr | DenseStringElementsAttr | DenseResourceElementsAttr
                      | SparseElementsAttr) or _other_dialect(a)


_BUILTIN: dict[str, Callable[[Attribute], bool]] = {
    "IntegerAttr": lambda a: isinstance(a, IntegerAttr),
    "BoolAttr": lambda a: isinstance(a, IntegerAttr) and a.type is IntegerType.get(1),
    "FloatAttr": lambda a: isinstance(a, FloatAttr),
    "StringAttr": lambda a: isinstance(a, StringAttr),
    "ArrayAttr": lambda a: isinstance(a, ArrayAttr),
    "DictionaryAttr": lambda a: isinstance(a, DictionaryAttr),
    "TypeAttr": lambda a: isinstance(a, TypeAttr),
    "UnitAttr": lambda a: isinstance(a, UnitAttr),
    "AffineMapAttr": lambda a: _builtin_text(a, "affine_map<"),
    "IntegerSetAttr": lambda a: _builtin_text(a, "affine_set<"),
    "FlatSymbolRefAttr": lambda a: isinstance(a, FlatSymbolRefAttr)
    or (isinstance(a, SymbolRefAttr) and not a.nested),
    "SymbolRefAttr": lambda a: isinstance(a, FlatSymbolRefAttr | SymbolRefAttr),
    "LocationAttr": lambda a: isinstance(a, LocationAttr) or _other_dialect(a),
    "DenseElementsAttr": lambda a: isinstance(a, DenseElementsAttr | DenseStringElementsAttr),
    "DenseIntElementsAttr": lambda a: isinstance(a, DenseElementsAttr)
    and isinstance(_element(a.type), IntegerType | IndexType),
    "DenseFPElementsAttr": lambda a: isinstance(a, DenseElementsAttr)
    and isinstance(_element(a.type), FloatType),
    "ElementsAttr": _elements,
    "TypedAttr": lambda a: isinstance(a, IntegerAttr | FloatAttr | StringAttr) or _elements(a),
    "DenseBoolArrayAttr": _dense_array(lambda t: _int_width(t) == 1),
    "DenseI8ArrayAttr": _dense_array(lambda t: _int_width(t) == 8),
    "DenseI16ArrayAttr": _dense_array(lambda t: _int_width(t) == 16),
    "DenseI32ArrayAttr": _dense_array(lambda t: _int_width(t) == 32),
    "DenseI64ArrayAttr": _dense_array(lambda t: _int_width(t) == 64),
    "DenseF32ArrayAttr": _dense_array(lambda t: isinstance(t, FloatType) and t.name == "f32"),
    "DenseF64ArrayAttr": _dense_array(lambda t: isinstance(t, FloatType) and t.name == "f64"),
}

_TEXT_MNEMONIC = re.compile(r"#([A-Za-z_][\w$]*)\.([A-Za-z_][\w$.]*)")


def _dialect_attr(spec: str, a: Attribute) -> bool:
    dialect, _, mnemonic = spec[1:].partition(".")
    if a.dialect != dialect:
        return False
    if not mnemonic:
        return True
    if isinstance(a, DialectAttr):
        m = _TEXT_MNEMONIC.match(a.text)
        # `#dialect<"...">` (opaque) and aliases do not say the mnemonic: nothing to refuse.
        return m is None or m.group(1) != dialect or m.group(2) == mnemonic
    # A model's kind names itself as its codec does (the bytecode DSL by C++ class), not always by the
    # text mnemonic, and opaque bytes show only their dialect.
    return isinstance(a, StructuredAttr | FallbackAttr)


def _accepts(spec: str, a: Attribute) -> bool:
    if spec.startswith("#"):
        return _dialect_attr(spec, a)
    if spec.startswith("int-enum:"):
        t = a.type if isinstance(a, IntegerAttr) else None
        return isinstance(t, IntegerType) and t.signedness == 0 and str(t.width) == spec[9:]
    check = _BUILTIN.get(spec)
    return check is None or check(a)


def storage_problem(name: str, spec: str | None, a: Attribute) -> str | None:
    """Why `a` cannot be property `name` whose storage is `spec`, or None (also for an unknown spec)."""
    if spec is None or _accepts(spec, a):
        return None
    wanted = spec.removeprefix("#") if spec.startswith("#") else spec
    if spec.startswith("int-enum:"):
        wanted = f"an i{spec[9:]} enum value"
    return f"property {name} must be {wanted}, not {_describe(a)}"


def _describe(a: Attribute) -> str:
    if isinstance(a, StructuredAttr):
        return f"{a.dialect}.{a.mnemonic}"
    if isinstance(a, DialectAttr | FallbackAttr):
        return f"an attribute of dialect {a.dialect}" if a.dialect != "builtin" else "a builtin attribute"
    if isinstance(a, LocationAttr):
        return "a location"
    return type(a).__name__
