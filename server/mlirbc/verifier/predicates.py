"""The closed vocabulary of ODS predicates (`models.ods_constraints`), evaluated on IR types and attributes.

Three answers: True, False, and None (unknown).  None is what a predicate says about anything this
vocabulary cannot judge exactly: a C++ condition left as `?`, an interface a dialect's type may implement,
a value kept opaque (a fallback, a builtin entry of a newer MLIR).  Conjunctions are False as soon as one
part is False, disjunctions True as soon as one part is True, otherwise unknown parts make the whole
unknown: only a definite False is ever reported, so an unknown never rejects valid IR.

Predicates are compiled once into closures (`build_check`); types and attributes are uniqued, so a
compiled predicate remembers its answer per value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    DialectAttr,
    DictionaryAttr,
    DistinctAttr,
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
from ..ir.structured import StructuredAttr, StructuredType
from ..ir.types import (
    DYNAMIC,
    ComplexType,
    DialectType,
    FallbackType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    RankedTensorType,
    ShapedType,
    TupleType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)

Value = Type | Attribute
Answer = bool | None
Check = Callable[[Value], Answer]

_SIGN = {"signless": 0, "signed": 1, "unsigned": 2}


# -- what a value is -------------------------------------------------------------------------------------
def opaque(v: object) -> bool:
    """A value this vocabulary cannot judge: a fallback, or a builtin entry kept as text (a newer MLIR's
    builtin type, an attribute keyword the parser keeps verbatim)."""
    if isinstance(v, FallbackType | FallbackAttr):
        return True
    if isinstance(v, DialectType):
        return v.dialect_name == "builtin"
    return False


def is_builtin_type(t: object) -> bool:
    return isinstance(t, Type) and not isinstance(t, DialectType | FallbackType | StructuredType)


def dialect_and_mnemonic(v: object) -> tuple[str, str] | None:
    """(dialect, mnemonic) of a dialect type or attribute as the IR holds it (`!gpu.async.token`)."""
    if isinstance(v, StructuredType | StructuredAttr):
        return v.kind.dialect, v.kind.name
    if isinstance(v, DialectType | DialectAttr):
        text = v.text
        d = v.dialect_name
        prefix = ("!" if isinstance(v, DialectType) else "#") + d + "."
        if not text.startswith(prefix):
            return None
        rest = text[len(prefix):]
        end = len(rest)
        for i, ch in enumerate(rest):
            if ch in "<( \t\n":
                end = i
                break
        return d, rest[:end]
    return None


def _shape(t: Type) -> tuple[int, ...] | None:
    if isinstance(t, RankedTensorType | MemRefType | VectorType):
        return t.shape
    return None


def _cmp(op: str, a: int, b: int) -> bool:
    if op == "eq":
        return a == b
    if op == "ne":
        return a != b
    if op == "ge":
        return a >= b
    if op == "le":
        return a <= b
    if op == "gt":
        return a > b
    return a < b


# -- type atoms --------------------------------------------------------------------------------------------
_CONCRETE: dict[str, type | tuple[type, ...]] = {
    "IntegerType": IntegerType, "IndexType": IndexType, "NoneType": NoneType, "FunctionType": FunctionType,
    "ComplexType": ComplexType, "TupleType": TupleType, "RankedTensorType": RankedTensorType,
    "UnrankedTensorType": UnrankedTensorType, "TensorType": (RankedTensorType, UnrankedTensorType),
    "MemRefType": MemRefType, "UnrankedMemRefType": UnrankedMemRefType,
    "BaseMemRefType": (MemRefType, UnrankedMemRefType), "VectorType": VectorType,
}
_INTERFACES: dict[str, type | tuple[type, ...]] = {
    # classes a dialect's own type may implement (type interfaces): true for the builtin ones listed
    "ShapedType": ShapedType, "FloatType": FloatType,
}


def _type_isa(cls: str) -> Check:
    if cls in _CONCRETE:
        want = _CONCRETE[cls]
        return lambda t: None if opaque(t) else isinstance(t, want)
    if cls in _INTERFACES:
        want_i = _INTERFACES[cls]
        return lambda t: None if opaque(t) or not is_builtin_type(t) else isinstance(t, want_i)
    if cls == "FixedVectorType":
        return lambda t: None if opaque(t) else isinstance(t, VectorType) and t.scalable is None
    if cls == "ScalableVectorType":
        return lambda t: None if opaque(t) else isinstance(t, VectorType) and t.scalable is not None
    return lambda t: None


def _int(width: int | None, sign: str) -> Check:
    signedness = _SIGN.get(sign)

    def check(t: Value) -> Answer:
        if opaque(t):
            return None
        if not isinstance(t, IntegerType):
            return False
        return (width is None or t.width == width) and (signedness is None or t.signedness == signedness)
    return check


def _float(name: str | None) -> Check:
    def check(t: Value) -> Answer:
        if opaque(t):
            return None
        if isinstance(t, FloatType):
            return name is None or t.name == name
        if name is None and not is_builtin_type(t):
            return None  # FloatType is an interface a dialect's type may implement
        return False
    return check


def _valsem(t: Value) -> Answer:
    if opaque(t) or not is_builtin_type(t):
        return None
    return isinstance(t, RankedTensorType | UnrankedTensorType | VectorType)


def _ranked(t: Value, f: Callable[[tuple[int, ...]], bool]) -> Answer:
    if isinstance(t, Type):
        shape = _shape(t)
        if shape is not None:
            return f(shape)
    return None


def _dialect_value(sigil: str, dialect: str, mnemonic: str) -> Check:
    def check(v: Value) -> Answer:
        if opaque(v):
            return None
        dm = dialect_and_mnemonic(v)
        if dm is not None:
            if dm == (dialect, mnemonic):
                return True
            if isinstance(v, StructuredType | StructuredAttr) and dm[0] == dialect:
                return None  # a model's kind may be named otherwise than the mnemonic: cannot say
            return False
        if isinstance(v, DialectType | DialectAttr):
            return False if v.dialect_name != dialect else None
        return False  # a builtin value is never a dialect's class
    return check


_SCALARS = (IntegerType, IndexType, FloatType, NoneType, ComplexType, FunctionType, TupleType)


def _type_interface(name: str) -> Check:
    """A type interface whose builtin implementations are known: OpenACC's and OpenMP's pointer-like types
    (memrefs and `!llvm.ptr`), OpenACC's mappable types (none builtin among the scalars), the transform
    dialect's handle and parameter types (no builtin type); anything else cannot be said."""
    def check(t: Value) -> Answer:
        if opaque(t):
            return None
        if isinstance(t, _SCALARS):
            return False
        if name == "transform":
            # the transform dialect's handle and parameter types (and other dialects' types that implement
            # them): never a builtin type
            return False if is_builtin_type(t) else None
        if name == "pointer_like" and (isinstance(t, MemRefType)
                                       or dialect_and_mnemonic(t) == ("llvm", "ptr")):
            return True
        return None
    return check


def _dbase(dialect: str) -> Check:
    def check(v: Value) -> Answer:
        if opaque(v):
            return None
        if isinstance(v, DialectType | StructuredType):
            return None if v.dialect == dialect else False
        return False
    return check


_LLVM_FLOATS = frozenset({"bf16", "f16", "f32", "f64", "f80", "f128"})


def _llvm_float(t: Value) -> Answer:
    """`LLVM::isCompatibleFloatingPointType`: a builtin float LLVM has (a dialect's type: cannot say)."""
    if opaque(t) or not is_builtin_type(t):
        return None
    return isinstance(t, FloatType) and t.name in _LLVM_FLOATS


def _llvm_outer(t: Value) -> Answer:
    """`LLVM::isCompatibleOuterType` of a builtin type: signless integers and LLVM's floats are, other
    integers, index, tensors and the other builtin types are not (a 1-D vector, a float LLVM may have
    gained, a memref and a dialect's type: cannot say)."""
    if opaque(t) or not is_builtin_type(t):
        return None
    if isinstance(t, IntegerType):
        return t.signedness == 0
    if isinstance(t, FloatType):
        return True if t.name in _LLVM_FLOATS else None
    if isinstance(t, VectorType):
        return None if len(t.shape) == 1 else False
    if isinstance(t, MemRefType | UnrankedMemRefType):
        return None  # newer MLIR also accepts pointer-like types without metadata; a memref may be one
    return False


def _llvm_vector(t: Value) -> Answer:
    """`LLVM::isCompatibleVectorType`: a builtin 1-D vector of signless integers, LLVM's floats or
    pointers."""
    if opaque(t) or not is_builtin_type(t):
        return None
    if not isinstance(t, VectorType):
        return False
    if len(t.shape) != 1:
        return False
    e = t.element
    if isinstance(e, IntegerType):
        return e.signedness == 0
    if isinstance(e, FloatType):
        return e.name in _LLVM_FLOATS
    if isinstance(e, DialectType) and e.dialect_name == "llvm":
        return True if e.text.startswith("!llvm.ptr") else None
    return False if is_builtin_type(e) else None


def _llvm_ptr_as(space: int) -> Check:
    def check(v: Value) -> Answer:
        if isinstance(v, DialectType) and v.dialect_name == "llvm":
            if v.text == "!llvm.ptr":
                return space == 0
            if v.text.startswith("!llvm.ptr<") and v.text.endswith(">"):
                inner = v.text[len("!llvm.ptr<"):-1].strip()
                return int(inner) == space if inner.isdigit() else None
        return None
    return check


# -- attribute atoms -----------------------------------------------------------------------------------------
def _is_bool(a: Attribute) -> bool:
    return isinstance(a, IntegerAttr) and a.type is IntegerType.get(1)


def _elements_type(a: Attribute) -> Type | None:
    if isinstance(a, DenseElementsAttr | DenseStringElementsAttr | DenseResourceElementsAttr
                  | SparseElementsAttr):
        t = a.type
        return t.element if isinstance(t, ShapedType) else None
    return None


def _dense_array(width: int | None, kind: str) -> Callable[[Attribute], bool]:
    def check(a: Attribute) -> bool:
        if not isinstance(a, DenseArrayAttr):
            return False
        e = a.element_type
        if kind == "int":
            return isinstance(e, IntegerType) and e.width == width and e.signedness == 0
        return isinstance(e, FloatType) and e.name == kind
    return check


_ATTR_CLASSES: dict[str, Callable[[Attribute], bool]] = {
    "IntegerAttr": lambda a: isinstance(a, IntegerAttr),
    "BoolAttr": _is_bool,
    "FloatAttr": lambda a: isinstance(a, FloatAttr),
    "StringAttr": lambda a: isinstance(a, StringAttr),
    "ArrayAttr": lambda a: isinstance(a, ArrayAttr),
    "DictionaryAttr": lambda a: isinstance(a, DictionaryAttr),
    "UnitAttr": lambda a: isinstance(a, UnitAttr),
    "TypeAttr": lambda a: isinstance(a, TypeAttr),
    "SymbolRefAttr": lambda a: isinstance(a, SymbolRefAttr | FlatSymbolRefAttr),
    "FlatSymbolRefAttr": lambda a: isinstance(a, FlatSymbolRefAttr) or (
        isinstance(a, SymbolRefAttr) and not a.nested),
    "DenseElementsAttr": lambda a: isinstance(a, DenseElementsAttr | DenseStringElementsAttr),
    "DenseIntOrFPElementsAttr": lambda a: isinstance(a, DenseElementsAttr),
    "DenseStringElementsAttr": lambda a: isinstance(a, DenseStringElementsAttr),
    "DenseIntElementsAttr": lambda a: isinstance(a, DenseElementsAttr)
    and isinstance(_elements_type(a), IntegerType | IndexType),
    "DenseFPElementsAttr": lambda a: isinstance(a, DenseElementsAttr)
    and isinstance(_elements_type(a), FloatType),
    "DenseResourceElementsAttr": lambda a: isinstance(a, DenseResourceElementsAttr),
    "SparseElementsAttr": lambda a: isinstance(a, SparseElementsAttr),
    "DenseArrayAttr": lambda a: isinstance(a, DenseArrayAttr),
    "DenseBoolArrayAttr": _dense_array(1, "int"),
    "DenseI8ArrayAttr": _dense_array(8, "int"),
    "DenseI16ArrayAttr": _dense_array(16, "int"),
    "DenseI32ArrayAttr": _dense_array(32, "int"),
    "DenseI64ArrayAttr": _dense_array(64, "int"),
    "DenseF32ArrayAttr": _dense_array(None, "f32"),
    "DenseF64ArrayAttr": _dense_array(None, "f64"),
    "LocationAttr": lambda a: isinstance(a, LocationAttr),
    "DistinctAttr": lambda a: isinstance(a, DistinctAttr),
    "AffineMapAttr": lambda a: isinstance(a, DialectAttr) and a.dialect_name == "builtin"
    and a.text.startswith("affine_map<"),
    "IntegerSetAttr": lambda a: isinstance(a, DialectAttr) and a.dialect_name == "builtin"
    and a.text.startswith("affine_set<"),
    "StridedLayoutAttr": lambda a: isinstance(a, DialectAttr) and a.dialect_name == "builtin"
    and a.text.startswith("strided<"),
}
_ATTR_INTERFACES: dict[str, Callable[[Attribute], bool]] = {
    # attribute interfaces a dialect's attribute may implement: true for these builtin ones
    "ElementsAttr": lambda a: isinstance(a, DenseElementsAttr | DenseStringElementsAttr
                                         | DenseResourceElementsAttr | SparseElementsAttr),
    "TypedAttr": lambda a: isinstance(a, IntegerAttr | FloatAttr | StringAttr | DenseElementsAttr
                                      | DenseStringElementsAttr | DenseResourceElementsAttr
                                      | SparseElementsAttr),
    # IREE's util.SerializableAttrInterface: dense int and float elements, resources, strings
    "iree.SerializableAttr": lambda a: isinstance(a,
                                                  DenseElementsAttr | DenseResourceElementsAttr | StringAttr),
    # IREE's stream.AffinityAttr: implemented by HAL's and Stream's device attributes, by no builtin one
    "iree.AffinityAttr": lambda a: False,
}
_KEYWORDS = ("affine_map<", "affine_set<", "strided<")


def _attr_builtin(a: Value) -> bool | None:
    """True: a builtin attribute this vocabulary knows; False: a dialect's; None: cannot say."""
    if opaque(a) or not isinstance(a, Attribute):
        return None
    if isinstance(a, DialectAttr):
        if a.dialect_name == "builtin":
            return True if a.text.startswith(_KEYWORDS) else None
        return False
    return not isinstance(a, StructuredAttr)


def _attr_isa(cls: str) -> Check:
    concrete = _ATTR_CLASSES.get(cls)
    if concrete is not None:
        def check(a: Value) -> Answer:
            kind = _attr_builtin(a)
            if kind is None:
                return None
            assert isinstance(a, Attribute)
            return concrete(a) if kind else False
        return check
    iface = _ATTR_INTERFACES.get(cls)
    if iface is not None:
        def check_iface(a: Value) -> Answer:
            kind = _attr_builtin(a)
            if not kind:
                return None
            assert isinstance(a, Attribute)
            return iface(a)
        return check_iface
    return lambda a: None


def _int_value(a: Value) -> int | None:
    if not isinstance(a, IntegerAttr):
        return None
    t = a.type
    width = t.width if isinstance(t, IntegerType) else 64
    bits = a.bits
    if isinstance(t, IntegerType) and t.signedness == 2:
        return bits
    return bits - (1 << width) if width and bits >> (width - 1) else bits


def _int_atom(f: Callable[[int], bool]) -> Check:
    def check(a: Value) -> Answer:
        value = _int_value(a)
        return None if value is None else f(value)
    return check


def _int_attr(width: int, fits: Callable[[int], bool]) -> Check:
    """An integer attribute of `width` bits (signless) whose value `fits`."""
    itype = IntegerType.get(width)

    def check(a: Value) -> Answer:
        kind = _attr_builtin(a)
        if kind is None:
            return None
        if not kind or not isinstance(a, IntegerAttr):
            return False
        return a.type is itype and fits(a.bits)
    return check


def _enum(width: int, values: list[int]) -> Check:
    return _int_attr(width, frozenset(values).__contains__)


def _bitenum(width: int, mask: int) -> Check:
    return _int_attr(width, lambda bits: bits & ~mask == 0)


def _size(cls: type, op: str, n: int) -> Check:
    def check(a: Value) -> Answer:
        if isinstance(a, ArrayAttr) and cls is ArrayAttr:
            return _cmp(op, len(a.elements), n)
        if isinstance(a, DenseArrayAttr) and cls is DenseArrayAttr:
            return _cmp(op, a.count, n)
        return None
    return check


# -- paths --------------------------------------------------------------------------------------------------
def _follow(v: Value, step: str) -> Value | None:
    if step == "elem":
        return v.element if isinstance(v, ShapedType) else None
    if step == "celem":
        return v.element if isinstance(v, ComplexType) else None
    if step == "eos":
        return v.element if isinstance(v, ShapedType) else v if isinstance(v, Type) else None
    if step == "tattr":
        return v.type if isinstance(v, TypeAttr) else None
    if step == "atype":
        if isinstance(v, IntegerAttr | FloatAttr | StringAttr | DenseElementsAttr | DenseStringElementsAttr
                      | DenseResourceElementsAttr | SparseElementsAttr):
            return v.type
        return None
    return None


def _atom(name: str, args: list[Any]) -> Check:
    if name == "int":
        return _int(args[0], args[1])
    if name == "index":
        return lambda t: None if opaque(t) else isinstance(t, IndexType)
    if name == "float":
        return _float(args[0])
    if name == "isa":
        return _type_isa(args[0])
    if name == "istype":
        return lambda t: True if isinstance(t, Type) else None
    if name == "valsem":
        return _valsem
    if name == "rank":
        op, n = args
        return lambda t: _ranked(t, lambda s: _cmp(op, len(s), n))
    if name == "hasrank":
        return lambda t: True if isinstance(t, Type) and _shape(t) is not None else (
            False if isinstance(t, UnrankedTensorType | UnrankedMemRefType) else None)
    if name == "static":
        return lambda t: _ranked(t, lambda s: DYNAMIC not in s)
    if name == "numel":
        op, n = args

        def numel(s: tuple[int, ...]) -> bool | None:
            if DYNAMIC in s:
                return None
            total = 1
            for d in s:
                total *= d
            return _cmp(op, total, n)
        return lambda t: _ranked_opt(t, numel)
    if name == "shape":
        want = tuple(args[0])
        return lambda t: _ranked(t, lambda s: s == want)
    if name == "nozero":
        return lambda t: _ranked(t, lambda s: all(d != 0 for d in s))
    if name == "ones":
        return lambda t: _ranked(t, lambda s: all(d == 1 for d in s))
    if name == "scalable":
        return lambda t: (t.scalable is not None and all(t.scalable)) if isinstance(t, VectorType) else None
    if name == "dtype":
        return _dialect_value("!", args[0], args[1])
    if name == "adialect":
        return _dialect_value("#", args[0], args[1])
    if name == "dbase":
        return _dbase(args[0])
    if name == "tiface":
        return _type_interface(args[0])
    if name == "llvm_ptr_as":
        return _llvm_ptr_as(args[0])
    if name == "llvm_float":
        return _llvm_float
    if name == "llvm_vector":
        return _llvm_vector
    if name == "llvm_outer":
        return _llvm_outer
    if name == "aisa":
        return _attr_isa(args[0])
    if name == "enum":
        return _enum(args[0], args[1])
    if name == "bitenum":
        return _bitenum(args[0], args[1])
    if name == "ival":
        op, n = args
        return _int_atom(lambda v: _cmp(op, v, n))
    if name == "ivals":
        allowed = frozenset(args[0])
        return _int_atom(lambda v: v in allowed)
    if name == "pow2":
        return lambda a: (a.bits > 0 and a.bits & (a.bits - 1) == 0) if isinstance(a, IntegerAttr) else None
    if name == "asize":
        return _size(ArrayAttr, args[0], args[1])
    if name == "dasize":
        return _size(DenseArrayAttr, args[0], args[1])
    return lambda v: None


def _ranked_opt(t: Value, f: Callable[[tuple[int, ...]], bool | None]) -> Answer:
    if isinstance(t, Type):
        shape = _shape(t)
        if shape is not None:
            return f(shape)
    return None


def build_check(p: Any) -> Check:
    """A closure answering the predicate `p` (JSON, see `models.ods_constraints`) for one value."""
    head = p[0]
    if head == "T":
        return lambda v: True
    if head == "?":
        return lambda v: None
    if head == "not":
        inner = build_check(p[1])

        def negate(v: Value) -> Answer:
            r = inner(v)
            return None if r is None else not r
        return negate
    if head in ("and", "or"):
        parts = [build_check(k) for k in p[1:]]
        stop = head == "or"

        def combine(v: Value) -> Answer:
            unknown = False
            for part in parts:
                r = part(v)
                if r is stop:
                    return stop
                if r is None:
                    unknown = True
            return None if unknown else not stop
        return combine
    if head == "all":
        path: list[str] = p[1]
        inner_all = build_check(p[2])

        def every(v: Value) -> Answer:
            target = _walk(v, path)
            if not isinstance(target, ArrayAttr):
                return None
            unknown = False
            for e in target.elements:
                r = inner_all(e)
                if r is False:
                    return False
                if r is None:
                    unknown = True
            return None if unknown else True
        return every
    if head == "at":
        steps: list[str] = p[1]
        atom = _atom(str(p[2]), list(p[3:]))
        if not steps:
            return atom

        def at(v: Value) -> Answer:
            target = _walk(v, steps)
            return None if target is None else atom(target)
        return at
    return lambda v: None


def _walk(v: Value, steps: list[str]) -> Value | None:
    cur: Value | None = v
    for step in steps:
        if cur is None:
            return None
        cur = _follow(cur, step)
    return cur


class CompiledPredicates:
    """Compiled predicates with their answers remembered per value (values are uniqued)."""

    def __init__(self) -> None:
        self._compiled: dict[int, tuple[object, Check, dict[Value, Answer]]] = {}

    def answer(self, pred: Any, value: Value) -> Answer:
        key = id(pred)
        hit = self._compiled.get(key)
        if hit is None or hit[0] is not pred:
            hit = (pred, build_check(pred), {})
            self._compiled[key] = hit
        memo = hit[2]
        try:
            return memo[value]
        except KeyError:
            pass
        except TypeError:  # an unhashable value (never expected): answer without remembering
            return hit[1](value)
        r = hit[1](value)
        if len(memo) < 4096:
            memo[value] = r
        return r
