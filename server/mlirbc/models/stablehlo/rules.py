"""The data of the VHLO <-> StableHLO conversion: which attributes each op treats specially, its defaults, and
how consecutive versions of an op differ.

Facts from StableHLO's legalization passes (`VhloLegalizeToStablehlo`, `StablehloLegalizeToVhlo`,
`VhloToVersion`, VhloOps' version constraints; vhlo-format.md sections 5 and 7), as tables keyed by the
StableHLO op name (`legalize` reads them in both directions):

* `DENSE_I64`, `DENSE_BOOL`: VHLO `tensor_v1` dimension lists that StableHLO keeps as `array<i64: ...>` /
  `array<i1: ...>` (the other direction is generic: every dense array becomes a tensor);
* `SYMBOLS`: strings that StableHLO keeps as symbol references (`@callee`);
* `IMPLODE`: VHLO attributes StableHLO gathers into one struct attribute (`#stablehlo.dot<...>`);
* `CHANNEL_ID`, `UNIT_FLAGS`: a collective's `channel_id` shown as `#stablehlo.channel_handle<...>`, flags
  shown as unit attributes when true and left out when false;
* `DEFAULTS`: attributes VHLO always stores and StableHLO leaves out when they hold their default: a
  predicate saying when the stored value is "the default" (VHLO -> StableHLO) and a builder of the value to
  store when the StableHLO op has none (StableHLO -> VHLO);
* `STEPS`: what changes from one version of an op to the next (attributes added with a default, operands
  made variadic, regions added), which gives the upgrade and, when the newer features are unused, the
  downgrade; `CONSTRAINTS`: features of one op version that only newer targets allow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from ...ir.attributes import Attribute
from ...ir.structured import FieldValue, StructuredAttr, StructuredType
from ...ir.types import IntegerType, Type, num_elements
from ..kinds import field_int, field_ints
from .versions import Version
from .vhlo_attrs import ATTR_BY_NAME, bool_raw
from .vhlo_types import TYPE_BY_NAME, vhlo_kind

# -- VHLO values --------------------------------------------------------------------------------------------

_I64 = TYPE_BY_NAME["i64_v1"].get()


def v_int(value: int, t: Type | None = None) -> StructuredAttr:
    """`#vhlo.integer_v1<value : i64>` (or of type `t`)."""
    return ATTR_BY_NAME["integer_v1"].get((t if t is not None else _I64, value & ((1 << 64) - 1)))


def v_bool(value: bool) -> StructuredAttr:
    return ATTR_BY_NAME["bool_v1"].get((value,))


def v_str(value: bytes) -> StructuredAttr:
    return ATTR_BY_NAME["string_v1"].get((value,))


def v_array(items: tuple[Attribute, ...] = ()) -> StructuredAttr:
    return ATTR_BY_NAME["array_v1"].get((items,))


def v_dict() -> StructuredAttr:
    return ATTR_BY_NAME["dict_v1"].get(((),))


def v_enum(kind: str, case: str) -> StructuredAttr:
    k = ATTR_BY_NAME[kind]
    return k.get((k.by_name[case],))  # type: ignore[attr-defined]


def v_none_type() -> StructuredAttr:
    return ATTR_BY_NAME["type_v1"].get((TYPE_BY_NAME["none_v1"].get(),))


def v_i64_tensor(values: tuple[int, ...], shape: tuple[int, ...] | None = None) -> StructuredAttr:
    """An i64 `tensor_v1` as StableHLO builds one from a list (a splat when every element is equal)."""
    shape = (len(values),) if shape is None else shape
    t = TYPE_BY_NAME["tensor_v1"].get((shape, _I64, None))
    if len(values) > 1 and all(v == values[0] for v in values):
        values = values[:1]
    data = b"".join((v & ((1 << 64) - 1)).to_bytes(8, "little") for v in values)
    return ATTR_BY_NAME["tensor_v1"].get((t, data))


def v_bool_tensor(count: int, value: bool) -> StructuredAttr:
    t = TYPE_BY_NAME["tensor_v1"].get(((count,), TYPE_BY_NAME["bool_v1"].get(), None))
    data = (b"\x01" if value else b"\x00") if count == 1 else (b"\xff" if value else b"\x00")
    return ATTR_BY_NAME["tensor_v1"].get((t, data if count else b""))


def default_result_accuracy() -> StructuredAttr:
    return ATTR_BY_NAME["result_accuracy_v1"].get((0, 0, 0, v_enum("result_accuracy_mode_v1", "DEFAULT")))


# -- predicates on stored VHLO values ------------------------------------------------------------------------

def fields_of(a: object, name: str) -> tuple[FieldValue, ...] | None:
    """The fields of `a` if it is a VHLO attribute of kind `name`, else None."""
    if isinstance(a, StructuredAttr) and a.kind is ATTR_BY_NAME[name]:
        return a.fields
    return None


def signed_value(a: object) -> int | None:
    """The value of an `integer_v1` as its type's signed integer (StableHLO's getSExtValue), else None."""
    f = fields_of(a, "integer_v1")
    if f is None or not isinstance(f[1], int):
        return None
    builtin = getattr(vhlo_kind(f[0]), "builtin", None)
    width = builtin.width if isinstance(builtin, IntegerType) else 64
    return f[1] - (1 << width) if f[1] >> (width - 1) else f[1]


def is_bool(a: object, value: bool) -> bool:
    f = fields_of(a, "bool_v1")
    return f is not None and f[0] is value


def is_int(a: object, value: int) -> bool:
    return signed_value(a) == value


def is_str(a: object, value: bytes) -> bool:
    f = fields_of(a, "string_v1")
    return f is not None and f[0] == value


def is_empty_array(a: object) -> bool:
    f = fields_of(a, "array_v1")
    return f is not None and not f[0]


def is_empty_dict(a: object) -> bool:
    f = fields_of(a, "dict_v1")
    return f is not None and not f[0]


def is_enum(a: object, kind: str, case: str) -> bool:
    return a is v_enum(kind, case)


def is_empty_tensor(a: object) -> bool:
    f = fields_of(a, "tensor_v1")
    return f is not None and isinstance(f[1], bytes | memoryview) and len(f[1]) == 0


def is_splat_tensor(a: object, value: int) -> bool:
    """The tensor's elements (as StableHLO's storage keeps them) are one splat equal to `value` (an i64 or
    boolean tensor; an empty tensor is no splat)."""
    f = fields_of(a, "tensor_v1")
    if f is None:
        return False
    t, blob = f
    if not isinstance(t, StructuredType) or not isinstance(blob, bytes | memoryview):
        return False
    n = num_elements(field_ints(t.fields[0], "a shape"))
    element = vhlo_kind(t.fields[1])
    if element is None or n == 0:
        return False
    if element.name == "bool_v1":
        raw = bool_raw(blob, n)
        return bool(raw) and all(b == raw[0] for b in raw) and raw[0] == int(value)
    if element.name != "i64_v1" or not blob or len(blob) % 8:
        return False
    if not all(blob[i:i + 8] == blob[:8] for i in range(0, len(blob), 8)):
        return False
    return int.from_bytes(blob[:8], "little", signed=True) == value


def is_splat_array(a: object, item: Attribute) -> bool:
    """Every element of the array is `item` (an empty array too, as StableHLO's `llvm::all_of`)."""
    f = fields_of(a, "array_v1")
    return f is not None and isinstance(f[0], tuple) and all(x is item for x in f[0])


def is_none_type(a: object) -> bool:
    return a is v_none_type()


def is_default_result_accuracy(a: object) -> bool:
    f = fields_of(a, "result_accuracy_v1")
    if f is None:
        return False
    atol, rtol, ulps, mode = f
    zero = ~(1 << 63)
    return not (field_int(atol, "atol") & zero) and not (field_int(rtol, "rtol") & zero) and ulps == 0 and \
        is_enum(mode, "result_accuracy_mode_v1", "DEFAULT")


# -- the per-op tables (keyed by StableHLO op name) ----------------------------------------------------------

DENSE_I64: dict[str, tuple[str, ...]] = {
    "stablehlo.fft": ("fft_length",),
    "stablehlo.broadcast": ("broadcast_sizes",),
    "stablehlo.dynamic_slice": ("slice_sizes",),
    "stablehlo.reverse": ("dimensions",),
    "stablehlo.transpose": ("permutation",),
    "stablehlo.pad": ("edge_padding_low", "edge_padding_high", "interior_padding"),
    "stablehlo.slice": ("start_indices", "limit_indices", "strides"),
    "stablehlo.broadcast_in_dim": ("broadcast_dimensions",),
    "stablehlo.dynamic_broadcast_in_dim": ("broadcast_dimensions", "known_expanding_dimensions",
                                           "known_nonexpanding_dimensions"),
    "stablehlo.select_and_scatter": ("window_dimensions", "window_strides"),
    "stablehlo.reduce_window": ("window_dimensions", "window_strides", "base_dilations", "window_dilations"),
    "stablehlo.map": ("dimensions",),
    "stablehlo.reduce": ("dimensions",),
    "stablehlo.gather": ("slice_sizes",),
    "stablehlo.convolution": ("lhs_dilation", "rhs_dilation", "window_strides"),
    "stablehlo.dynamic_conv": ("lhs_dilation", "rhs_dilation", "window_strides"),
}
DENSE_BOOL: dict[str, tuple[str, ...]] = {
    "stablehlo.convolution": ("window_reversal",),
    "stablehlo.dynamic_conv": ("window_reversal",),
}
SYMBOLS: dict[str, tuple[str, ...]] = {
    "func.call": ("callee",),
    "stablehlo.composite": ("decomposition",),
}
SYMBOL_ARRAYS: dict[str, tuple[str, ...]] = {
    "stablehlo.custom_call": ("called_computations",),
}
_COLLECTIVES = ("stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.all_to_all",
                "stablehlo.collective_permute", "stablehlo.reduce_scatter", "stablehlo.collective_broadcast",
                "stablehlo.collective_reduce")
CHANNEL_ID: frozenset[str] = frozenset(_COLLECTIVES)
"""Ops whose VHLO `channel_id` (an i64) is StableHLO's `channel_handle` (its type is dropped: 0)."""
UNIT_FLAGS: dict[str, tuple[str, ...]] = {
    "stablehlo.all_gather": ("use_global_device_ids",),
    "stablehlo.all_reduce": ("use_global_device_ids",),
    "stablehlo.all_to_all": ("use_global_device_ids",),
    "stablehlo.collective_permute": ("use_global_device_ids",),
    "stablehlo.reduce_scatter": ("use_global_device_ids",),
    "stablehlo.collective_broadcast": ("use_global_device_ids", "has_dynamic_root"),
    "stablehlo.collective_reduce": ("use_global_device_ids", "has_dynamic_root"),
}


class Implode(NamedTuple):
    """VHLO attributes (`fields`, in the StableHLO kind's field order) gathered into the StableHLO struct
    attribute `name` of kind `kind`; `optional`: absent when every field is `type_v1<none_v1>`."""

    name: str
    kind: str
    fields: tuple[str, ...]
    optional: bool = False


_CONV = Implode("dimension_numbers", "conv", (
    "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
    "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions",
    "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions"))
_GATHER = Implode("dimension_numbers", "gather", (
    "offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
    "start_index_map", "index_vector_dim"))
_CHANNEL = Implode("channel_handle", "channel_handle", ("channel_id", "channel_type"))
IMPLODE: dict[str, tuple[Implode, ...]] = {
    "stablehlo.convolution": (_CONV,),
    "stablehlo.dynamic_conv": (_CONV,),
    "stablehlo.dot_general": (
        Implode("dot_dimension_numbers", "dot", ("lhs_batching_dimensions", "rhs_batching_dimensions",
                                                 "lhs_contracting_dimensions", "rhs_contracting_dimensions")),
        Implode("algorithm", "dot_algorithm", ("lhs_precision_type", "rhs_precision_type",
                                               "accumulation_type", "lhs_component_count",
                                               "rhs_component_count", "num_primitive_operations",
                                               "allow_imprecise_accumulation"), optional=True)),
    "stablehlo.gather": (_GATHER,),
    "stablehlo.dynamic_gather": (_GATHER,),
    "stablehlo.scatter": (Implode("scatter_dimension_numbers", "scatter", (
        "update_window_dims", "inserted_window_dims", "input_batching_dims", "scatter_indices_batching_dims",
        "scatter_dims_to_operand_dims", "index_vector_dim")),),
    "stablehlo.send": (_CHANNEL,),
    "stablehlo.recv": (_CHANNEL,),
}
ENUM_AS_I32: dict[str, tuple[str, ...]] = {"stablehlo.custom_call": ("api_version",)}
"""Enum attributes StableHLO keeps as an `i32` integer (I32EnumAttr without an attribute class)."""


class Default(NamedTuple):
    """An attribute VHLO always stores: `is_default` says when the stored value is left out of the
    StableHLO op; `make` builds what to store when the StableHLO op has none (given the StableHLO op's
    attributes, converted to VHLO, and its operand types)."""

    name: str
    is_default: Callable[[Attribute], bool]
    make: Callable[[dict[str, Attribute], list[Type]], Attribute]


def _const(value: Callable[[], Attribute]) -> Callable[[dict[str, Attribute], list[Type]], Attribute]:
    return lambda attrs, operands: value()


def _d_bool(name: str) -> Default:
    return Default(name, lambda a: is_bool(a, False), _const(lambda: v_bool(False)))


def _d_int(name: str, value: int) -> Default:
    return Default(name, lambda a: is_int(a, value), _const(lambda: v_int(value)))


def _d_str(name: str) -> Default:
    return Default(name, lambda a: is_str(a, b""), _const(lambda: v_str(b"")))


def _d_array(name: str) -> Default:
    return Default(name, is_empty_array, _const(v_array))


def _d_empty_tensor(name: str) -> Default:
    return Default(name, is_empty_tensor, _const(lambda: v_i64_tensor(())))


def _d_precision(name: str = "precision_config") -> Default:
    default = v_enum("precision_v1", "DEFAULT")
    return Default(name, lambda a: is_splat_array(a, default), _const(lambda: v_array((default, default))))


def _count(attrs: dict[str, Attribute], name: str) -> int:
    """The element count of a VHLO i64 tensor attribute (0 when absent)."""
    a = attrs.get(name)
    if isinstance(a, StructuredAttr) and a.kind is ATTR_BY_NAME["tensor_v1"]:
        t = a.fields[0]
        if isinstance(t, StructuredType):
            return num_elements(t.fields[0])  # type: ignore[arg-type]
    return 0


def _d_ones(name: str, count_of: str) -> Default:
    return Default(name, lambda a: is_splat_tensor(a, 1),
                   lambda attrs, ops: v_i64_tensor((1,) * _count(attrs, count_of)))


def _d_padding(name: str, count_of: str) -> Default:
    def make(attrs: dict[str, Attribute], ops: list[Type]) -> Attribute:
        n = _count(attrs, count_of)
        return v_i64_tensor((0,) * (2 * n), (n, 2))
    return Default(name, lambda a: is_splat_tensor(a, 0), make)


def _custom_call_backend(attrs: dict[str, Attribute], ops: list[Type]) -> Attribute:
    typed = attrs.get("api_version") is v_enum("api_version_v1", "API_VERSION_TYPED_FFI")
    return v_dict() if typed else v_str(b"")


_CONV_DEFAULTS = (
    _d_ones("window_strides", "input_spatial_dimensions"),
    _d_ones("lhs_dilation", "input_spatial_dimensions"),
    _d_ones("rhs_dilation", "input_spatial_dimensions"),
    Default("window_reversal", lambda a: is_splat_tensor(a, 0),
            lambda attrs, ops: v_bool_tensor(_count(attrs, "input_spatial_dimensions"), False)),
    _d_precision(),
)
_RESULT_ACCURACY = Default("result_accuracy", is_default_result_accuracy, _const(default_result_accuracy))
_ACCURACY_OPS = ("cbrt", "cosine", "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic",
                 "rsqrt", "sine", "sqrt", "tan", "tanh")
DEFAULTS: dict[str, tuple[Default, ...]] = {
    "func.func": (_d_str("sym_visibility"), _d_array("arg_attrs"), _d_array("res_attrs")),
    "stablehlo.all_gather": (_d_int("channel_id", 0), _d_bool("use_global_device_ids")),
    "stablehlo.all_reduce": (_d_int("channel_id", 0), _d_bool("use_global_device_ids")),
    "stablehlo.reduce_scatter": (_d_int("channel_id", 0), _d_bool("use_global_device_ids")),
    "stablehlo.all_to_all": (_d_int("channel_id", 0),),
    "stablehlo.collective_permute": (_d_int("channel_id", 0),),
    "stablehlo.collective_broadcast": (_d_int("channel_id", 0), _d_bool("has_dynamic_root")),
    "stablehlo.collective_reduce": (_d_int("channel_id", 0), _d_bool("use_global_device_ids"),
                                    _d_bool("has_dynamic_root")),
    "stablehlo.cholesky": (_d_bool("lower"),),
    "stablehlo.compare": (Default("compare_type", lambda a: is_enum(a, "comparison_type_v1", "NOTYPE"),
                                  _const(lambda: v_enum("comparison_type_v1", "NOTYPE"))),),
    "stablehlo.composite": (_d_int("version", 0), Default("composite_attributes", is_empty_dict,
                                                          _const(v_dict))),
    "stablehlo.convolution": (*_CONV_DEFAULTS, _d_padding("padding", "input_spatial_dimensions")),
    "stablehlo.dynamic_conv": _CONV_DEFAULTS,
    "stablehlo.custom_call": (
        _d_bool("has_side_effect"),
        Default("backend_config", lambda a: is_str(a, b"") or is_empty_dict(a), _custom_call_backend),
        Default("api_version", lambda a: is_enum(a, "api_version_v1", "API_VERSION_ORIGINAL"),
                _const(lambda: v_enum("api_version_v1", "API_VERSION_ORIGINAL"))),
        _d_array("called_computations"),
        # operand_layouts and result_layouts go together (`LAYOUT_PAIR`)
        _d_array("operand_layouts"), _d_array("result_layouts"),
        _d_array("output_operand_aliases"),
        _d_array("result_tilings")),
    "stablehlo.dot_general": (_d_precision(),),
    "stablehlo.dot": (_d_precision(),),
    "stablehlo.dynamic_broadcast_in_dim": (_d_empty_tensor("known_expanding_dimensions"),
                                           _d_empty_tensor("known_nonexpanding_dimensions")),
    "stablehlo.dynamic_gather": (_d_bool("indices_are_sorted"),),
    "stablehlo.gather": (_d_bool("indices_are_sorted"),),
    "stablehlo.infeed": (_d_str("infeed_config"), _d_array("layout")),
    "stablehlo.outfeed": (_d_str("outfeed_config"),),
    "stablehlo.recv": (_d_bool("is_host_transfer"), _d_empty_tensor("source_target_pairs")),
    "stablehlo.send": (_d_bool("is_host_transfer"), _d_empty_tensor("source_target_pairs")),
    "stablehlo.reduce_window": (_d_ones("window_strides", "window_dimensions"),
                                _d_ones("base_dilations", "window_dimensions"),
                                _d_ones("window_dilations", "window_dimensions"),
                                _d_padding("padding", "window_dimensions")),
    "stablehlo.scatter": (_d_bool("indices_are_sorted"), _d_bool("unique_indices")),
    "stablehlo.select_and_scatter": (_d_ones("window_strides", "window_dimensions"),
                                     _d_padding("padding", "window_dimensions")),
    "stablehlo.sort": (_d_int("dimension", -1), _d_bool("is_stable")),
    **{f"stablehlo.{op}": (_RESULT_ACCURACY,) for op in _ACCURACY_OPS},
}
LAYOUT_PAIR: dict[str, tuple[str, str]] = {"stablehlo.custom_call": ("operand_layouts", "result_layouts")}
"""Defaults removed only together (StableHLO drops both layouts or neither)."""
DOT_ALGORITHM_NONE: dict[str, str] = {"stablehlo.dot_general": "algorithm"}
"""Without this (optional) struct attribute, each of its VHLO fields is stored as `type_v1<none_v1>`."""


INHERENT_OF_OTHERS: dict[str, tuple[str, ...]] = {"builtin.module": ("sym_name", "sym_visibility")}
"""Inherent attributes of the ops that stay as they are: in properties in the view (as in memory), in the
attribute dictionary of a file before bytecode version 5."""


# -- versions of one op -------------------------------------------------------------------------------------

_NOTHING: Mapping[str, Any] = MappingProxyType({})


class Step(NamedTuple):
    """From version `old` of an op to the next one, `new` (each `vhlo.<base>_vN`).

    Upgrading adds `added` (name -> default builder) and drops `dropped`; downgrading requires each added
    attribute to hold its default (`is_default`), a single operand when `variadic`, no regions when
    `regions`, and adds `dropped` back (built from the op).  `feature` names what the newer version has."""

    base: str
    old: int
    new: int
    feature: str
    added: Mapping[str, tuple[Callable[[], Attribute], Callable[[Attribute], bool]]] = _NOTHING
    dropped: Mapping[str, Callable[[list[Type]], Attribute]] = _NOTHING
    variadic: bool = False
    regions: bool = False


def _conv_padding(operands: list[Type]) -> Attribute:
    """VhloToVersion's getDefaultConvPadding: zeros of shape (rank(lhs) - 2, 2)."""
    lhs = operands[0] if operands else None
    rank = len(lhs.fields[0]) if isinstance(lhs, StructuredType) and isinstance(lhs.fields[0], tuple) else 2
    n = max(rank - 2, 0)
    return v_i64_tensor((0,) * (2 * n), (n, 2))


_EMPTY = (lambda: v_i64_tensor(()), is_empty_tensor)
_NONE = (v_none_type, is_none_type)
STEPS: list[Step] = [
    Step("dynamic_conv", 1, 2, "no padding attribute", dropped={"padding": _conv_padding}),
    Step("gather", 1, 2, "batching dimensions", added={"operand_batching_dims": _EMPTY,
                                                       "start_indices_batching_dims": _EMPTY}),
    Step("dynamic_gather", 1, 2, "batching dimensions", added={"operand_batching_dims": _EMPTY,
                                                               "start_indices_batching_dims": _EMPTY}),
    Step("scatter", 1, 2, "batching dimensions", added={"input_batching_dims": _EMPTY,
                                                        "scatter_indices_batching_dims": _EMPTY}),
    Step("all_gather", 1, 2, "several operands", variadic=True),
    Step("all_to_all", 1, 2, "several operands", variadic=True),
    Step("all_reduce", 1, 2, "several operands", variadic=True),
    Step("dot_general", 1, 2, "a dot algorithm", added={n: _NONE for n in (
        "lhs_precision_type", "rhs_precision_type", "accumulation_type", "lhs_component_count",
        "rhs_component_count", "num_primitive_operations", "allow_imprecise_accumulation")}),
    Step("send", 1, 2, "source_target_pairs", added={"source_target_pairs": _EMPTY}),
    Step("recv", 1, 2, "source_target_pairs", added={"source_target_pairs": _EMPTY}),
    *(Step(op, 1, 2, "a result_accuracy", added={"result_accuracy": (default_result_accuracy,
                                                                     is_default_result_accuracy)})
      for op in _ACCURACY_OPS),
    Step("collective_broadcast", 1, 2, "several operands or a dynamic root", variadic=True,
         added={"has_dynamic_root": (lambda: v_bool(False), lambda a: is_bool(a, False))}),
    Step("composite", 1, 2, "regions", regions=True),
    Step("custom_call", 1, 2, "result_tilings", added={"result_tilings": (v_array, is_empty_array)}),
]
STEPS_BY_BASE: dict[str, list[Step]] = {}
for _s in STEPS:
    STEPS_BY_BASE.setdefault(_s.base, []).append(_s)


class Constraint(NamedTuple):
    """A feature of one VHLO op version that targets before `since` cannot hold (VhloOps'
    validateConstraint): `applies(attrs, operand types, result types)`."""

    ops: tuple[str, ...]
    feature: str
    since: Version
    applies: Callable[[dict[str, Attribute], list[Type], list[Type]], bool]


def _element(t: Type) -> Type | None:
    kind = vhlo_kind(t)
    if kind is not None and kind.name in ("tensor_v1", "unranked_tensor_v1"):
        f = t.fields  # type: ignore[attr-defined]
        return f[1] if kind.name == "tensor_v1" else f[0]  # type: ignore[no-any-return]
    return None


def _mixed_elements(attrs: dict[str, Attribute], operands: list[Type], results: list[Type]) -> bool:
    return any(_element(a) is not _element(b) for a, b in zip(operands, results, strict=False))


def _typed_ffi(attrs: dict[str, Attribute], operands: list[Type], results: list[Type]) -> bool:
    return fields_of(attrs.get("backend_config"), "dict_v1") is not None or \
        attrs.get("api_version") is v_enum("api_version_v1", "API_VERSION_TYPED_FFI")


def _future_inputs(attrs: dict[str, Attribute], operands: list[Type], results: list[Type]) -> bool:
    return any(getattr(vhlo_kind(t), "name", "") == "future_v1" for t in operands)


CONSTRAINTS: list[Constraint] = [
    Constraint(("vhlo.all_reduce_v1", "vhlo.reduce_v1", "vhlo.reduce_scatter_v1", "vhlo.reduce_window_v1",
                "vhlo.scatter_v1", "vhlo.select_and_scatter_v1"),
               "operand and result element types that differ", (0, 17, 0), _mixed_elements),
    Constraint(("vhlo.custom_call_v1",), "a dictionary backend_config or the typed FFI API", (1, 3, 0),
               _typed_ffi),
    Constraint(("vhlo.custom_call_v1",), "future-typed operands", (1, 17, 0), _future_inputs),
]
