"""VHLO <-> StableHLO for attributes and single ops: the conversion rules, written once for both directions.

`view_attr` / `vhlo_attr` convert one attribute generically (StableHLO's `convertGeneric` in each pass):
VHLO's wrappers to builtin attributes (`#vhlo.integer_v1<1 : i64>` <-> `1 : i64`, `tensor_v1` <-> dense
elements, `dict_v1` <-> dictionaries), VHLO enums to StableHLO's (`#stablehlo<precision HIGH>`), the
custom call API version to an `i32`.  Attributes of other dialects (Shardy's, unit attributes, locations)
pass through, as in a mixed serialization.

`view_op` / `vhlo_op` convert one op's name and attributes with the per-op tables of `rules`: defaults
removed or restored, dimension lists as dense arrays, struct attributes gathered or spread, symbols.
Versions (upgrade before, downgrade after) are `versioning`'s; whole modules are `view`'s.
"""

from __future__ import annotations

from typing import NamedTuple

from ...ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DictionaryAttr,
    FlatSymbolRefAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
)
from ...ir.structured import FieldValue, StructuredAttr, StructuredType
from ...ir.types import IndexType, IntegerType, NoneType, RankedTensorType, Type, num_elements
from ..api import ModelError
from ..kinds import field_attr, field_attrs, field_bytes, field_int, field_ints, field_tuple, field_type
from .rules import (
    CHANNEL_ID,
    DEFAULTS,
    DENSE_BOOL,
    DENSE_I64,
    DOT_ALGORITHM_NONE,
    IMPLODE,
    LAYOUT_PAIR,
    SYMBOL_ARRAYS,
    SYMBOLS,
    UNIT_FLAGS,
    is_none_type,
    v_bool,
    v_int,
    v_str,
)
from .shlo_syntax import KINDS_BY_NAME, ShloKind
from .shlo_types import Unconvertible, dense_to_tensor, tensor_to_dense, to_vhlo_type, to_view_type
from .vhlo_attrs import ATTR_BY_NAME, EnumKind, VhloAttrKind
from .vhlo_types import vhlo_kind

_I1 = IntegerType.get(1)
_I32 = IntegerType.get(32)
_I64 = IntegerType.get(64)
_VIEW: dict[Attribute, Attribute] = {}
_VHLO: dict[Attribute, Attribute] = {}
_ENUM_VIEW = {f"{n}_v1": n for n in (
    "comparison_direction", "comparison_type", "precision", "fft_type", "transpose", "rng_distribution",
    "rng_algorithm", "result_accuracy_mode")}
_ENUM_VHLO = {v: k for k, v in _ENUM_VIEW.items()}
_STRUCT_VIEW = {f"{n}_v1": n for n in (
    "output_operand_alias", "sub_axis_info", "mesh_axis", "axis_ref", "replica_group_mesh_axes",
    "result_accuracy")}
_STRUCT_VHLO = {v: k for k, v in _STRUCT_VIEW.items()}


def _vkind(a: object) -> VhloAttrKind | None:
    if isinstance(a, StructuredAttr) and isinstance(a.kind, VhloAttrKind):
        return a.kind
    return None


def _skind(a: object) -> ShloKind | None:
    if isinstance(a, StructuredAttr) and isinstance(a.kind, ShloKind):
        return a.kind
    return None


def _string(value: bytes) -> StringAttr:
    return StringAttr.get(value)


# -- generic: VHLO -> StableHLO -----------------------------------------------------------------------------

def view_attr(a: Attribute) -> Attribute:
    """One VHLO attribute as StableHLO has it (see module docstring); raises `Unconvertible`."""
    hit = _VIEW.get(a)
    if hit is None:
        hit = _to_view(a)
        if not isinstance(a, StructuredAttr) or a.payload() is None:  # (large tensors: not kept twice)
            _VIEW[a] = hit
    return hit


def _to_view(a: Attribute) -> Attribute:
    kind = _vkind(a)
    if kind is None:
        return a  # another dialect's value: kept
    assert isinstance(a, StructuredAttr)
    name, f = kind.name, a.fields
    if name == "array_v1":
        return ArrayAttr.get(tuple(view_attr(x) for x in field_attrs(f[0], "an array")))
    if name == "bool_v1":
        return IntegerAttr.get(_I1, 1 if f[0] else 0)
    if name == "dict_v1":
        entries: dict[bytes, tuple[StringAttr, Attribute]] = {}
        for pair in field_tuple(f[0], "a dictionary"):
            k, v = field_attrs(pair, "a dictionary entry")
            key, value = view_attr(k), view_attr(v)
            if not isinstance(key, StringAttr):
                raise Unconvertible("a dict_v1 key must be a string_v1")
            entries[key.value] = (key, value)
        return DictionaryAttr.get(tuple(entries[k] for k in sorted(entries)))
    if name == "string_v1":
        return _string(field_bytes(f[0], "a string"))
    if name == "integer_v1":
        return IntegerAttr.get(to_view_type(field_type(f[0], "a type")), field_int(f[1], "a value"))
    if name == "float_v1":
        return FloatAttr.get(to_view_type(field_type(f[0], "a type")), field_int(f[1], "a value"))
    if name == "type_v1":
        return TypeAttr.get(to_view_type(field_type(f[0], "a type")))
    if name == "tensor_v1":
        return tensor_to_dense(a)
    if name == "api_version_v1":
        return IntegerAttr.get(_I32, field_int(f[0], "an API version"))
    view_enum = _ENUM_VIEW.get(name)
    if view_enum is not None:
        return KINDS_BY_NAME[view_enum].get((f[0],))
    struct = _STRUCT_VIEW.get(name)
    if struct is not None:
        return _struct_to_view(name, struct, f)
    if name == "mesh_v1":
        raise Unconvertible("#vhlo.mesh_v1 has no StableHLO form in this model")
    raise Unconvertible(f"#vhlo.{name} has no StableHLO counterpart here")


def _struct_to_view(name: str, struct: str, f: tuple[FieldValue, ...]) -> Attribute:
    target = KINDS_BY_NAME[struct]
    if name == "result_accuracy_v1":
        return target.get((f[0], f[1], f[2], view_attr(field_attr(f[3], "a mode"))))
    if name == "axis_ref_v1":
        n = view_attr(field_attr(f[0], "a name"))
        sub = None if f[1] is None else view_attr(field_attr(f[1], "a sub-axis"))
        if not isinstance(n, StringAttr):
            raise Unconvertible("axis_ref_v1 needs a string name")
        return target.get((n.value, sub))
    if name == "mesh_axis_v1":
        n = view_attr(field_attr(f[0], "a name"))
        if not isinstance(n, StringAttr):
            raise Unconvertible("mesh_axis_v1 needs a string name")
        return target.get((n.value, f[1]))
    if name == "replica_group_mesh_axes_v1":
        mesh = field_attr(f[0], "a mesh")
        if isinstance(mesh, StructuredAttr) and mesh.kind is ATTR_BY_NAME["string_v1"]:
            mesh_view: Attribute = FlatSymbolRefAttr.get(_string(field_bytes(mesh.fields[0], "a mesh")))
        else:
            mesh_view = view_attr(mesh)
        return target.get((mesh_view, view_attr(field_attr(f[1], "axes"))))
    return target.get(f)


# -- generic: StableHLO -> VHLO -----------------------------------------------------------------------------

def vhlo_attr(a: Attribute) -> Attribute:
    """One StableHLO (or builtin) attribute as VHLO stores it; raises `Unconvertible`."""
    hit = _VHLO.get(a)
    if hit is None:
        hit = _to_vhlo(a)
        if not isinstance(a, DenseElementsAttr) or len(a.data) < 4096:
            _VHLO[a] = hit
    return hit


def _to_vhlo(a: Attribute) -> Attribute:
    skind = _skind(a)
    if skind is not None:
        assert isinstance(a, StructuredAttr)
        enum = _ENUM_VHLO.get(skind.name)
        if enum is not None:
            return ATTR_BY_NAME[enum].get((a.fields[0],))
        struct = _STRUCT_VHLO.get(skind.name)
        if struct is not None:
            return _struct_to_vhlo(skind.name, struct, a.fields)
        raise Unconvertible(f"#stablehlo.{skind.name} can only stand where its op expects it")
    if _vkind(a) is not None or isinstance(a, StructuredAttr):
        return a  # VHLO already, or another dialect's structured value (Shardy)
    if isinstance(a, ArrayAttr):
        return ATTR_BY_NAME["array_v1"].get((tuple(vhlo_attr(x) for x in a.elements),))
    if isinstance(a, DenseElementsAttr):
        return dense_to_tensor(a)
    if isinstance(a, DenseArrayAttr):
        return dense_to_tensor(dense_array_as_elements(a)) if _dense_array_kind(a) else a
    if isinstance(a, DictionaryAttr):
        return ATTR_BY_NAME["dict_v1"].get((tuple((vhlo_attr(k), vhlo_attr(v)) for k, v in a.entries),))
    if isinstance(a, FloatAttr):
        return ATTR_BY_NAME["float_v1"].get((to_vhlo_type(a.type), a.bits))
    if isinstance(a, IntegerAttr):
        if a.type is _I1:
            return v_bool(bool(a.bits))
        return ATTR_BY_NAME["integer_v1"].get((to_vhlo_type(a.type), a.bits))
    if isinstance(a, FlatSymbolRefAttr):
        return v_str(a.root.value)
    if isinstance(a, StringAttr):
        if not isinstance(a.type, NoneType):
            raise Unconvertible("a typed string has no VHLO form")
        return v_str(a.value)
    if isinstance(a, TypeAttr):
        return ATTR_BY_NAME["type_v1"].get((to_vhlo_type(a.type),))
    return a  # another dialect's value, a unit attribute, a location: kept (mixed serialization)


def _struct_to_vhlo(name: str, struct: str, f: tuple[FieldValue, ...]) -> Attribute:
    target = ATTR_BY_NAME[struct]
    if name == "result_accuracy":
        return target.get((f[0], f[1], f[2], vhlo_attr(field_attr(f[3], "a mode"))))
    if name == "axis_ref":
        sub = None if f[1] is None else vhlo_attr(field_attr(f[1], "a sub-axis"))
        return target.get((v_str(field_bytes(f[0], "a name")), sub))
    if name == "mesh_axis":
        return target.get((v_str(field_bytes(f[0], "a name")), f[1]))
    if name == "replica_group_mesh_axes":
        return target.get((vhlo_attr(field_attr(f[0], "a mesh")), vhlo_attr(field_attr(f[1], "axes"))))
    return target.get(f)


def _dense_array_kind(a: DenseArrayAttr) -> bool:
    return a.element_type is _I64 or a.element_type is _I1


def dense_array_as_elements(a: DenseArrayAttr) -> DenseElementsAttr:
    """`array<i64: 1, 2>` as the dense elements StableHLO makes of it (`DenseElementsAttr::get`)."""
    from ...syntax.attr_printer import dense_blob

    t = RankedTensorType.get((a.count,), a.element_type)
    data: bytes | memoryview = a.data
    if a.element_type is _I1:
        packed = bytearray((a.count + 7) // 8)
        for i in range(a.count):
            if a.data[i]:
                packed[i // 8] |= 1 << (i % 8)
        data = bytes(packed)
    return DenseElementsAttr.get(t, dense_blob(t, data))


# -- values inside VHLO attributes --------------------------------------------------------------------------

def _ints(a: Attribute, what: str) -> tuple[int, ...]:
    """An integer VHLO tensor's elements (a splat repeated), as `getValues<int64_t>` reads them."""
    d = view_attr(a)
    if not isinstance(d, DenseElementsAttr) or not isinstance(d.type, RankedTensorType) or \
            not isinstance(d.type.element, IntegerType | IndexType):
        raise Unconvertible(f"{what} must be an integer tensor")
    width = d.type.element.width if isinstance(d.type.element, IntegerType) else 64
    if width == 1:
        raise Unconvertible(f"{what} must be an integer tensor")
    size = (width + 7) // 8
    n = num_elements(d.type.shape)
    data = bytes(d.data)
    if len(data) == size and n != 1:
        data = data * n
    signed = isinstance(d.type.element, IndexType) or d.type.element.signedness != 2
    return tuple(int.from_bytes(data[i:i + size], "little", signed=signed) for i in range(0, len(data), size))


def _bools(a: Attribute, what: str) -> tuple[bool, ...]:
    d = view_attr(a)
    if not isinstance(d, DenseElementsAttr) or not isinstance(d.type, RankedTensorType) or \
            d.type.element is not _I1:
        raise Unconvertible(f"{what} must be a boolean tensor")
    n = num_elements(d.type.shape)
    if len(d.data) == 1 and n > 1 and d.data[0] in (0, 0xFF):
        return (bool(d.data[0]),) * n
    return tuple(bool((d.data[i // 8] >> (i % 8)) & 1) for i in range(n))


def _int(a: Attribute, what: str) -> int:
    if _vkind(a) is not ATTR_BY_NAME["integer_v1"]:
        raise Unconvertible(f"{what} must be an integer_v1")
    assert isinstance(a, StructuredAttr)
    bits = field_int(a.fields[1], what)
    width = getattr(getattr(vhlo_kind(a.fields[0]), "builtin", None), "width", 64) or 64
    return bits - (1 << width) if bits >> (width - 1) else bits


def _i64_array(values: tuple[int, ...]) -> DenseArrayAttr:
    data = b"".join((v & ((1 << 64) - 1)).to_bytes(8, "little") for v in values)
    return DenseArrayAttr.get(_I64, len(values), data)


def _bool_array(values: tuple[bool, ...]) -> DenseArrayAttr:
    return DenseArrayAttr.get(_I1, len(values), bytes(1 if v else 0 for v in values))


# -- one op: VHLO -> StableHLO -------------------------------------------------------------------------------

class ViewAttrs(NamedTuple):
    """A StableHLO op's attributes: inherent (properties) and discardable, each sorted by name."""

    inherent: dict[str, Attribute]
    discardable: dict[str, Attribute]


def view_op(view_name: str, inherent: dict[str, Attribute], discardable: dict[str, Attribute]) -> ViewAttrs:
    """The attributes of the StableHLO op `view_name` made from a current-version VHLO op's (see rules)."""
    attrs = dict(inherent)
    for d in DEFAULTS.get(view_name, ()):
        value = attrs.get(d.name)
        if value is not None and d.is_default(value):
            pair = LAYOUT_PAIR.get(view_name)
            if pair is not None and d.name in pair:
                if not all(n in inherent and DEFAULTS_BY_NAME[view_name][n].is_default(inherent[n])
                           for n in pair):
                    continue
            del attrs[d.name]
    out: dict[str, Attribute] = {}
    for rule in IMPLODE.get(view_name, ()):
        fields = [inherent.get(n) for n in rule.fields]
        if any(x is None for x in fields):
            missing = rule.fields[fields.index(None)]
            raise Unconvertible(f"{view_name} lacks its {missing} attribute")
        for n in rule.fields:
            attrs.pop(n, None)
        if rule.optional and is_none_type(fields[3]):
            if not all(is_none_type(x) for x in fields):
                raise Unconvertible(f"{view_name}: the {rule.name} fields must all be set or all be none")
            continue
        out[rule.name] = _implode(rule.kind, rule.fields, fields)  # type: ignore[arg-type]
    for name, value in attrs.items():
        converted = _special_to_view(view_name, name, value)
        if converted is None:
            out[name] = view_attr(value)
        elif converted[1] is not None:
            out[converted[0]] = converted[1]
    return ViewAttrs(dict(sorted(out.items())), {k: view_attr(v) for k, v in sorted(discardable.items())})


def _implode(kind: str, names: tuple[str, ...], values: list[Attribute]) -> Attribute:
    fields: list[FieldValue] = []
    for n, v in zip(names, values, strict=True):
        vk = _vkind(v)
        if vk is ATTR_BY_NAME["tensor_v1"]:
            fields.append(_ints(v, n))
        elif vk is ATTR_BY_NAME["integer_v1"]:
            fields.append(_int(v, n))
        elif vk is ATTR_BY_NAME["type_v1"] and isinstance(v, StructuredAttr):
            fields.append(to_view_type(field_type(v.fields[0], n)))
        elif vk is ATTR_BY_NAME["bool_v1"] and isinstance(v, StructuredAttr):
            fields.append(bool(v.fields[0]))
        else:
            raise Unconvertible(f"{n}: unexpected {v!r}")
    return KINDS_BY_NAME[kind].get(tuple(fields))


def _special_to_view(op: str, name: str, value: Attribute) -> tuple[str, Attribute | None] | None:
    """(StableHLO name, value or None to drop) for an attribute the op treats specially, else None."""
    if op in CHANNEL_ID and name == "channel_id":
        return "channel_handle", KINDS_BY_NAME["channel_handle"].get((_int(value, name), 0))
    if name in UNIT_FLAGS.get(op, ()):
        if _vkind(value) is not ATTR_BY_NAME["bool_v1"]:
            raise Unconvertible(f"{name} must be a bool_v1")
        return name, (UnitAttr.get() if value.fields[0] else None)  # type: ignore[attr-defined]
    if name in SYMBOL_ARRAYS.get(op, ()):
        if _vkind(value) is not ATTR_BY_NAME["array_v1"]:
            raise Unconvertible(f"{name} must be an array_v1")
        return name, ArrayAttr.get(tuple(_symbol(x, name) for x in value.fields[0]))  # type: ignore[attr-defined]
    if name in SYMBOLS.get(op, ()):
        return name, _symbol(value, name)
    if name in DENSE_I64.get(op, ()):
        return name, _i64_array(_i64_only(value, name))
    if name in DENSE_BOOL.get(op, ()):
        return name, _bool_array(_bools(value, name))
    return None


def _i64_only(value: Attribute, name: str) -> tuple[int, ...]:
    t = value.fields[0] if _vkind(value) is ATTR_BY_NAME["tensor_v1"] else None  # type: ignore[attr-defined]
    element = vhlo_kind(t.fields[1]) if isinstance(t, StructuredType) else None
    if element is None or element.name != "i64_v1":
        raise Unconvertible(f"{name} must be an i64 tensor")
    return _ints(value, name)


def _symbol(a: object, what: str) -> FlatSymbolRefAttr:
    if _vkind(a) is not ATTR_BY_NAME["string_v1"]:
        raise Unconvertible(f"{what} must be a string_v1 symbol name")
    return FlatSymbolRefAttr.get(_string(field_bytes(a.fields[0], what)))  # type: ignore[attr-defined]


DEFAULTS_BY_NAME = {op: {d.name: d for d in ds} for op, ds in DEFAULTS.items()}


# -- one op: StableHLO -> VHLO -------------------------------------------------------------------------------

_EXPLODE = {op: {r.name: r for r in rules} for op, rules in IMPLODE.items()}
_CHANNEL_SOURCE = "channel_handle"


def vhlo_op(view_name: str, attrs: dict[str, Attribute], vhlo_attributes: tuple[str, ...],
            operands: list[Type]) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """The (inherent, discardable) attributes of the current VHLO version of the StableHLO op `view_name`
    made from its attributes; `vhlo_attributes` are that version's inherent names."""
    out: dict[str, Attribute] = {}
    explode = _EXPLODE.get(view_name, {})
    for name, value in attrs.items():
        rule = explode.get(name)
        if rule is not None:
            out.update(_explode(view_name, rule.fields, rule.kind, value))
        elif view_name in CHANNEL_ID and name == _CHANNEL_SOURCE:
            if not isinstance(value, StructuredAttr) or value.kind is not KINDS_BY_NAME["channel_handle"]:
                raise Unconvertible(f"{view_name}: channel_handle must be a #stablehlo.channel_handle")
            out["channel_id"] = v_int(field_int(value.fields[0], "handle"))
        elif name in UNIT_FLAGS.get(view_name, ()):
            if not isinstance(value, UnitAttr):
                raise Unconvertible(f"{view_name}: {name} is a unit attribute")
            out[name] = v_bool(True)
        elif name in SYMBOL_ARRAYS.get(view_name, ()):
            if not isinstance(value, ArrayAttr) or not all(isinstance(x, FlatSymbolRefAttr)
                                                          for x in value.elements):
                raise Unconvertible(f"{view_name}: {name} is an array of symbol references")
            out[name] = vhlo_attr(value)
        elif name == "api_version" and view_name == "stablehlo.custom_call":
            if not isinstance(value, IntegerAttr) or value.type is not _I32 or value.bits > 4:
                raise Unconvertible("stablehlo.custom_call: api_version is an i32 from 0 to 4")
            out[name] = ATTR_BY_NAME["api_version_v1"].get((value.bits,))
        else:
            out[name] = vhlo_attr(value)
    algorithm = DOT_ALGORITHM_NONE.get(view_name)
    if algorithm is not None and algorithm not in attrs:
        from .rules import v_none_type

        for n in explode[algorithm].fields:
            out[n] = v_none_type()
    for d in DEFAULTS.get(view_name, ()):
        if d.name not in out:
            out[d.name] = d.make(out, operands)
    inherent = {k: v for k, v in sorted(out.items()) if k in vhlo_attributes}
    discardable = {k: v for k, v in sorted(out.items()) if k not in vhlo_attributes}
    return inherent, discardable


def _explode(op: str, names: tuple[str, ...], kind: str, value: Attribute) -> dict[str, Attribute]:
    from .rules import v_i64_tensor

    if _skind(value) is not KINDS_BY_NAME[kind]:
        raise Unconvertible(f"{op}: expected a #stablehlo.{kind}<...> attribute")
    assert isinstance(value, StructuredAttr)
    out: dict[str, Attribute] = {}
    for n, f in zip(names, value.fields, strict=True):
        if isinstance(f, tuple):
            out[n] = v_i64_tensor(field_ints(f, n))
        elif isinstance(f, bool):
            out[n] = v_bool(f)
        elif isinstance(f, int):
            out[n] = v_int(f)
        elif isinstance(f, Type):
            out[n] = ATTR_BY_NAME["type_v1"].get((to_vhlo_type(f),))
        else:
            raise ModelError(f"{op}: unexpected field {n}")
    return out


__all__ = ["EnumKind", "Unconvertible", "ViewAttrs", "dense_array_as_elements", "view_attr", "view_op",
           "vhlo_attr", "vhlo_op"]
