"""Shardy's own text syntax for the `sdy` attributes decoded by the bytecode DSL (`models.dsl`).

The values are the DSL's (one kind per entry of Shardy's `bytecode.td`, fields in wire order); this module
prints and parses them the way Shardy does (`#sdy.sharding<@mesh, [{"x"}, {}]>`, `#sdy.mesh<["x"=4]>`,
`#sdy.op_sharding_rule<([i, j])->([i]) {i=2, j=4}, custom>`, `#sdy<manual_axes{"x"}>`), including the
nested spellings Shardy uses inside other attributes (a dimension sharding is `{"x", ?}p1`, an axis
`"x":(1)2`).  Nested attributes are separate entries in the file, so a nested spelling builds a value of
the nested entry's kind.

A value whose spelling would read back as another entry (a sharding stored in the V3 encoding with the
`sum` reduction, which Shardy itself writes as V2) or whose nested parts are not decoded kinds prints in the
DSL's generic form instead: the text always gives back the stored entry.
"""

from __future__ import annotations

import re

from ...ir.attributes import Attribute, FlatSymbolRefAttr, StringAttr
from ...ir.structured import FieldValue, StructuredAttr, StructuredType
from ...ir.types import NoneType, Type
from ...syntax.attr_parser import Parser
from ...syntax.attr_printer import print_attribute, quote_bytes
from ...syntax.lexer import BARE, STRING, string_value
from ..api import ModelError
from ..dsl import INT64_MAX, DslDialect, parse_int
from ..kinds import field_bytes, field_int, field_ints, field_tuple

_REDUCTIONS = {1: "max", 2: "min"}
_START_AT_Z = ord("z") - ord("i")


class _Unprintable(Exception):
    """The value cannot be spelled in Shardy's syntax (print the generic form)."""


def factor_symbol(index: int) -> str:
    if index < 0:
        raise _Unprintable
    return chr(ord("i") + index) if index <= _START_AT_Z else f"z_{index - _START_AT_Z}"


_SYMBOL = re.compile(r"z_(\d+)|([i-z])")


def factor_index(sym: str) -> int:
    m = _SYMBOL.fullmatch(sym)
    if m is None:
        raise ModelError(f"not a factor symbol: {sym!r}")
    if m.group(1) is not None:
        if len(m.group(1)) > 9:  # factor indices are small: refuse before converting a long number
            raise ModelError(f"factor symbol {sym[:20]!r}... is out of range")
        return _START_AT_Z + int(m.group(1))
    return ord(m.group(2)) - ord("i")


def _split_symbols(text: str) -> list[int]:
    out = []
    pos = 0
    while pos < len(text):
        m = _SYMBOL.match(text, pos)
        if m is None or m.end() == pos:
            raise ModelError(f"bad factor symbols: {text!r}")
        out.append(factor_index(m.group(0)))
        pos = m.end()
    return out


def _kind(a: object) -> str:
    if isinstance(a, StructuredAttr) and a.kind.dialect == "sdy":
        return a.kind.name
    return ""


def _need(a: object, kind: str) -> StructuredAttr:
    if not isinstance(a, StructuredAttr) or a.kind.name != kind or a.kind.dialect != "sdy":
        raise _Unprintable
    return a


# -- printing ---------------------------------------------------------------------------------------------

def _axis(a: object) -> str:
    v = _need(a, "Sdy_AxisRefAttrBc")
    name, sub = v.fields
    text = quote_bytes(field_bytes(name, "axis name"))
    if sub is not None:
        s = _need(sub, "Sdy_SubAxisInfoAttrBc")
        text += f":({field_int(s.fields[0], 'pre-size')}){field_int(s.fields[1], 'size')}"
    return text


def _axes(items: FieldValue) -> str:
    return ", ".join(_axis(a) for a in field_tuple(items, "axes"))


def _dim_sharding(a: object) -> str:
    v = _need(a, "Sdy_DimensionShardingAttrBc")
    axes, closed, priority = v.fields
    text = "{" + _axes(axes)
    if not closed:
        text += (", " if field_tuple(axes, "axes") else "") + "?"
    text += "}"
    if priority is not None:
        text += f"p{field_int(priority, 'priority')}"
    return text


def _mesh_body(v: StructuredAttr) -> str:
    axes, device_ids = v.fields
    parts = []
    for a in field_tuple(axes, "mesh axes"):
        ax = _need(a, "Sdy_MeshAxisAttrBc")
        name = quote_bytes(field_bytes(ax.fields[0], "axis name"))
        parts.append(f"{name}={field_int(ax.fields[1], 'size')}")
    text = "<[" + ", ".join(parts) + "]"
    ids = field_ints(device_ids, "device ids")
    if ids:
        text += ", device_ids=[" + ", ".join(str(i) for i in ids) + "]"
    return text + ">"


def _sharding_body(a: object) -> str:
    kind = _kind(a)
    if kind not in ("Sdy_TensorShardingAttrV1Bc", "Sdy_TensorShardingAttrV2Bc", "Sdy_TensorShardingAttrV3Bc"):
        raise _Unprintable
    assert isinstance(a, StructuredAttr)
    f = a.fields
    mesh = f[0]
    if _kind(mesh) == "Sdy_MeshAttrBc":
        assert isinstance(mesh, StructuredAttr)
        head = "mesh" + _mesh_body(mesh)
    elif isinstance(mesh, FlatSymbolRefAttr):
        head = print_attribute(mesh)
    else:
        raise _Unprintable
    dims = ", ".join(_dim_sharding(d) for d in field_tuple(f[1], "dimension shardings"))
    text = f"<{head}, [{dims}]"
    if field_tuple(f[2], "replicated axes"):
        text += ", replicated={" + _axes(f[2]) + "}"
    if kind != "Sdy_TensorShardingAttrV1Bc":
        unreduced = field_tuple(f[3], "unreduced axes")
        reduction = field_int(f[4], "reduction") if kind == "Sdy_TensorShardingAttrV3Bc" else 0
        # Shardy writes V2 for `sum` and V3 otherwise, and V1 without unreduced axes: another mix would
        # read back as another entry.
        if not unreduced or (kind == "Sdy_TensorShardingAttrV3Bc") != (reduction != 0):
            raise _Unprintable
        if reduction not in (0, *_REDUCTIONS):
            raise _Unprintable
        text += ", unreduced=" + _REDUCTIONS.get(reduction, "") + "{" + _axes(f[3]) + "}"
    return text + ">"


def _tensor_mapping(a: object) -> str:
    v = _need(a, "Sdy_TensorMappingAttrBc")
    dims = []
    for d in field_tuple(v.fields[0], "dim mappings"):
        factors = field_ints(_need(d, "Sdy_DimMappingAttrBc").fields[0], "factors")
        if not factors:
            raise _Unprintable
        dims.append("".join(factor_symbol(i) for i in factors))
    return "[" + ", ".join(dims) + "]"


def _rule(v: StructuredAttr) -> str:
    sizes, operands, results, reduction, need_repl, permutation, blocked, custom = v.fields
    text = "<(" + ", ".join(_tensor_mapping(m) for m in field_tuple(operands, "operands")) + ")->("
    text += ", ".join(_tensor_mapping(m) for m in field_tuple(results, "results")) + ")"
    sz = field_ints(sizes, "factor sizes")
    if sz:
        text += " {" + ", ".join(f"{factor_symbol(i)}={s}" for i, s in enumerate(sz)) + "}"
    for name, factors in (("reduction", reduction), ("need_replication", need_repl),
                          ("permutation", permutation), ("blocked_propagation", blocked)):
        fs = field_ints(factors, name)
        if fs:
            text += f" {name}={{" + ", ".join(factor_symbol(i) for i in fs) + "}"
    if custom:
        text += ", custom"
    return text + ">"


def _all_to_all(a: object) -> str:
    v = _need(a, "Sdy_AllToAllParamAttrBc")
    return "{" + _axes(v.fields[0]) + f"}}: {field_int(v.fields[1], 'src')}->{field_int(v.fields[2], 'tgt')}"


def _axis_list(a: object) -> str:
    return "{" + _axes(_need(a, "Sdy_AxisRefListAttrBc").fields[0]) + "}"


def _print(v: StructuredAttr) -> str:
    kind = v.kind.name
    f = v.fields
    if kind == "Sdy_ManualAxesAttrBc":
        # the axes are references to (builtin) string attributes
        names = []
        for a in field_tuple(f[0], "axes"):
            if not isinstance(a, StringAttr) or not isinstance(a.type, NoneType):
                raise _Unprintable
            names.append(a.value)
        return "#sdy<manual_axes{" + ", ".join(quote_bytes(n) for n in names) + "}>"
    if kind == "Sdy_MeshAxisAttrBc":
        return f"#sdy<mesh_axis{quote_bytes(field_bytes(f[0], 'name'))}={field_int(f[1], 'size')}>"
    if kind == "Sdy_MeshAttrBc":
        return "#sdy.mesh" + _mesh_body(v)
    if kind == "Sdy_SubAxisInfoAttrBc":
        return f"#sdy<sub_axis_info({field_int(f[0], 'pre-size')}){field_int(f[1], 'size')}>"
    if kind == "Sdy_AxisRefAttrBc":
        return "#sdy<axis_ref" + _axis(v) + ">"
    if kind == "Sdy_DimensionShardingAttrBc":
        return "#sdy<dimension_sharding" + _dim_sharding(v) + ">"
    if kind.startswith("Sdy_TensorShardingAttrV"):
        return "#sdy.sharding" + _sharding_body(v)
    if kind.startswith("Sdy_TensorShardingPerValueAttrV"):
        shardings = field_tuple(f[0], "shardings")
        any_unreduced = any(_kind(s) != "Sdy_TensorShardingAttrV1Bc" for s in shardings)
        if any_unreduced != (kind == "Sdy_TensorShardingPerValueAttrV2Bc"):
            raise _Unprintable
        return "#sdy.sharding_per_value<[" + ", ".join(_sharding_body(s) for s in shardings) + "]>"
    if kind == "Sdy_DimMappingAttrBc":
        factors = field_ints(f[0], "factors")
        if not factors:
            raise _Unprintable
        return "#sdy<dim_mapping " + "".join(factor_symbol(i) for i in factors) + ">"
    if kind == "Sdy_TensorMappingAttrBc":
        return "#sdy<tensor_mapping" + _tensor_mapping(v) + ">"
    if kind == "Sdy_OpShardingRuleAttrBc":
        return "#sdy.op_sharding_rule" + _rule(v)
    if kind == "Sdy_AxisRefListAttrBc":
        return "#sdy<axis_ref_list" + _axis_list(v) + ">"
    if kind == "Sdy_ListOfAxisRefListsAttrBc":
        return "#sdy<list_of_axis_ref_lists[" + ", ".join(
            _axis_list(a) for a in field_tuple(f[0], "lists")) + "]>"
    if kind == "Sdy_AllToAllParamAttrBc":
        return "#sdy<all_to_all_param" + _all_to_all(v) + ">"
    if kind == "Sdy_AllToAllParamListAttrBc":
        return "#sdy<all_to_all_param_list[" + ", ".join(
            _all_to_all(a) for a in field_tuple(f[0], "params")) + "]>"
    raise _Unprintable


# -- parsing ----------------------------------------------------------------------------------------------

class _Reader:
    """Reads Shardy's spellings, building values of the DSL's kinds."""

    def __init__(self, p: Parser, dsl: DslDialect) -> None:
        self.p = p
        self.dsl = dsl

    def make(self, kind: str, *fields: FieldValue) -> StructuredAttr:
        return self.dsl.make_attr(kind, tuple(fields))

    def string(self) -> bytes:
        return string_value(self.p.expect(STRING, "expected a quoted name"))

    def integer(self) -> int:
        return parse_int(self.p)

    def keyword(self, word: str) -> None:
        self.p.expect_keyword(word, f"expected '{word}'")

    def axis(self) -> StructuredAttr:
        name = self.string()
        sub: Attribute | None = None
        if self.p.consume_if(":"):
            self.p.expect("(", "expected '(' in a sub-axis")
            pre = self.integer()
            self.p.expect(")", "expected ')' in a sub-axis")
            sub = self.make("Sdy_SubAxisInfoAttrBc", pre, self.integer())
        return self.make("Sdy_AxisRefAttrBc", name, sub)

    def axes_until(self, close: str) -> tuple[StructuredAttr, ...]:
        out = []
        while self.p.peek().kind == STRING:
            out.append(self.axis())
            if not self.p.consume_if(","):
                break
        if self.p.peek().kind != close and self.p.peek().kind != "?":
            raise self.p.error(f"expected an axis name or '{close}'")
        return tuple(out)

    def braced_axes(self) -> tuple[StructuredAttr, ...]:
        self.p.expect("{", "expected '{'")
        axes = self.axes_until("}")
        self.p.expect("}", "expected '}'")
        return axes

    def dim_sharding(self) -> StructuredAttr:
        p = self.p
        p.expect("{", "expected '{' for a dimension sharding")
        axes = self.axes_until("}")
        closed = not p.consume_if("?")
        p.expect("}", "expected '}' after a dimension sharding")
        priority: int | None = None
        tok = p.peek()
        if tok.kind == BARE and re.fullmatch(r"p\d+", tok.text) and tok.start == p.prev_end:
            digits = tok.text[1:].lstrip("0")
            if len(digits) > 19 or int(digits or "0") > INT64_MAX:
                raise p.error("sharding priority out of range for a 64-bit integer", tok)
            p.advance()
            priority = int(digits or "0")
        return self.make("Sdy_DimensionShardingAttrBc", axes, closed, priority)

    def mesh_body(self) -> StructuredAttr:
        p = self.p
        p.expect("<", "expected '<' for a mesh")
        p.expect("[", "expected '[' for the mesh axes")
        axes = []
        if not p.consume_if("]"):
            while True:
                name = self.string()
                p.expect("=", "expected '=' after a mesh axis name")
                axes.append(self.make("Sdy_MeshAxisAttrBc", name, self.integer()))
                if p.consume_if("]"):
                    break
                p.expect(",", "expected ',' or ']' in the mesh axes")
        ids: list[int] = []
        if p.consume_if(","):
            self.keyword("device_ids")
            p.expect("=", "expected '=' after device_ids")
            p.expect("[", "expected '[' for the device ids")
            while True:
                ids.append(self.integer())
                if p.consume_if("]"):
                    break
                p.expect(",", "expected ',' or ']' in the device ids")
        p.expect(">", "expected '>' after the mesh")
        return self.make("Sdy_MeshAttrBc", tuple(axes), tuple(ids))

    def sharding_body(self) -> StructuredAttr:
        p = self.p
        p.expect("<", "expected '<' for a sharding")
        mesh: Attribute
        if p.at_keyword("mesh"):
            p.advance()
            mesh = self.mesh_body()
        else:
            mesh = p.parse_attribute()
        p.expect(",", "expected ',' after the mesh")
        p.expect("[", "expected '[' for the dimension shardings")
        dims = []
        if not p.consume_if("]"):
            while True:
                dims.append(self.dim_sharding())
                if p.consume_if("]"):
                    break
                p.expect(",", "expected ',' or ']' between dimension shardings")
        replicated: tuple[StructuredAttr, ...] = ()
        unreduced: tuple[StructuredAttr, ...] = ()
        reduction = 0
        while p.consume_if(","):
            if p.consume_keyword_if("replicated"):
                p.expect("=", "expected '=' after replicated")
                replicated = self.braced_axes()
            else:
                self.keyword("unreduced")
                p.expect("=", "expected '=' after unreduced")
                if p.consume_keyword_if("max"):
                    reduction = 1
                elif p.consume_keyword_if("min"):
                    reduction = 2
                unreduced = self.braced_axes()
        p.expect(">", "expected '>' after the sharding")
        if not unreduced:
            return self.make("Sdy_TensorShardingAttrV1Bc", mesh, tuple(dims), replicated)
        if reduction == 0:
            return self.make("Sdy_TensorShardingAttrV2Bc", mesh, tuple(dims), replicated, unreduced)
        return self.make("Sdy_TensorShardingAttrV3Bc", mesh, tuple(dims), replicated, unreduced, reduction)

    def symbols(self) -> list[int]:
        tok = self.p.expect(BARE, "expected factor symbols")
        return _split_symbols(tok.text)

    def tensor_mapping(self) -> StructuredAttr:
        p = self.p
        p.expect("[", "expected '[' for a tensor mapping")
        dims = []
        if not p.consume_if("]"):
            while True:
                dims.append(self.make("Sdy_DimMappingAttrBc", tuple(self.symbols())))
                if p.consume_if("]"):
                    break
                p.expect(",", "expected ',' or ']' in a tensor mapping")
        return self.make("Sdy_TensorMappingAttrBc", tuple(dims))

    def mappings(self) -> tuple[StructuredAttr, ...]:
        p = self.p
        p.expect("(", "expected '('")
        out = []
        if not p.consume_if(")"):
            while True:
                out.append(self.tensor_mapping())
                if p.consume_if(")"):
                    break
                p.expect(",", "expected ',' or ')'")
        return tuple(out)

    def rule(self) -> StructuredAttr:
        p = self.p
        p.expect("<", "expected '<' for a sharding rule")
        operands = self.mappings()
        p.expect("->", "expected '->' in a sharding rule")
        results = self.mappings()
        sizes: list[int] = []
        if p.consume_if("{"):
            while True:
                index = factor_index(p.expect(BARE, "expected a factor symbol").text)
                if index != len(sizes):
                    raise p.error("factor sizes must be listed in order (i, j, k, ...)")
                p.expect("=", "expected '=' after a factor symbol")
                sizes.append(self.integer())
                if p.consume_if("}"):
                    break
                p.expect(",", "expected ',' or '}' in the factor sizes")
        lists: dict[str, tuple[int, ...]] = {}
        while p.peek().kind == BARE and p.peek().text in (
                "reduction", "need_replication", "permutation", "blocked_propagation"):
            name = p.advance().text
            p.expect("=", f"expected '=' after {name}")
            p.expect("{", f"expected '{{' after {name}=")
            factors: list[int] = []
            if not p.consume_if("}"):
                while True:
                    factors.extend(self.symbols())
                    if p.consume_if("}"):
                        break
                    p.expect(",", "expected ',' or '}'")
            lists[name] = tuple(factors)
        custom = False
        if p.consume_if(","):
            self.keyword("custom")
            custom = True
        p.expect(">", "expected '>' after the sharding rule")
        return self.make("Sdy_OpShardingRuleAttrBc", tuple(sizes), operands, results,
                         lists.get("reduction", ()), lists.get("need_replication", ()),
                         lists.get("permutation", ()), lists.get("blocked_propagation", ()), custom)

    def all_to_all(self) -> StructuredAttr:
        axes = self.braced_axes()
        self.p.expect(":", "expected ':' in an all-to-all parameter")
        src = self.integer()
        self.p.expect("->", "expected '->' in an all-to-all parameter")
        return self.make("Sdy_AllToAllParamAttrBc", axes, src, self.integer())

    def axis_list(self) -> StructuredAttr:
        return self.make("Sdy_AxisRefListAttrBc", self.braced_axes())

    def listed(self, item: str) -> tuple[StructuredAttr, ...]:
        p = self.p
        p.expect("[", "expected '['")
        out = []
        if not p.consume_if("]"):
            while True:
                out.append(self.axis_list() if item == "axis_list" else self.all_to_all())
                if p.consume_if("]"):
                    break
                p.expect(",", "expected ',' or ']'")
        return tuple(out)

    def pretty(self, mnemonic: str) -> StructuredAttr:
        """The body after `#sdy<mnemonic` (without the closing `>`)."""
        p = self.p
        if mnemonic == "manual_axes":
            p.expect("{", "expected '{'")
            names: list[FieldValue] = []
            if not p.consume_if("}"):
                while True:
                    names.append(StringAttr.get(self.string()))
                    if p.consume_if("}"):
                        break
                    p.expect(",", "expected ',' or '}'")
            return self.make("Sdy_ManualAxesAttrBc", tuple(names))
        if mnemonic == "mesh_axis":
            name = self.string()
            p.expect("=", "expected '='")
            return self.make("Sdy_MeshAxisAttrBc", name, self.integer())
        if mnemonic == "sub_axis_info":
            p.expect("(", "expected '('")
            pre = self.integer()
            p.expect(")", "expected ')'")
            return self.make("Sdy_SubAxisInfoAttrBc", pre, self.integer())
        if mnemonic == "axis_ref":
            return self.axis()
        if mnemonic == "dimension_sharding":
            return self.dim_sharding()
        if mnemonic == "dim_mapping":
            return self.make("Sdy_DimMappingAttrBc", tuple(self.symbols()))
        if mnemonic == "tensor_mapping":
            return self.tensor_mapping()
        if mnemonic == "axis_ref_list":
            return self.axis_list()
        if mnemonic == "list_of_axis_ref_lists":
            return self.make("Sdy_ListOfAxisRefListsAttrBc", self.listed("axis_list"))
        if mnemonic == "all_to_all_param":
            return self.all_to_all()
        if mnemonic == "all_to_all_param_list":
            return self.make("Sdy_AllToAllParamListAttrBc", self.listed("all_to_all"))
        raise p.error(f"unknown sdy attribute '{mnemonic}'")


_PRETTY = frozenset(["manual_axes", "mesh_axis", "sub_axis_info", "axis_ref", "dimension_sharding",
                     "dim_mapping", "tensor_mapping", "axis_ref_list", "list_of_axis_ref_lists",
                     "all_to_all_param", "all_to_all_param_list"])


class SdySyntax:
    """The `DslSyntax` hook of the sdy dialect."""

    def print_value(self, value: StructuredAttr | StructuredType) -> str | None:
        if not isinstance(value, StructuredAttr):
            return None
        try:
            return _print(value)
        except (_Unprintable, ModelError):
            return None

    def parse(self, p: Parser, ident: str, is_type: bool, dsl: DslDialect) -> Attribute | Type | None:
        if is_type:
            return None
        r = _Reader(p, dsl)
        if ident == "sdy.mesh":
            return r.mesh_body()
        if ident == "sdy.sharding":
            return r.sharding_body()
        if ident == "sdy.sharding_per_value":
            p.expect("<", "expected '<'")
            p.expect("[", "expected '['")
            shardings = []
            if not p.consume_if("]"):
                while True:
                    shardings.append(r.sharding_body())
                    if p.consume_if("]"):
                        break
                    p.expect(",", "expected ',' or ']' between shardings")
            p.expect(">", "expected '>'")
            v2 = any(s.kind.name != "Sdy_TensorShardingAttrV1Bc" for s in shardings)
            kind = "Sdy_TensorShardingPerValueAttrV2Bc" if v2 else "Sdy_TensorShardingPerValueAttrV1Bc"
            return r.make(kind, tuple(shardings))
        if ident == "sdy.op_sharding_rule":
            return r.rule()
        if ident == "sdy" and p.peek().kind == "<" and p.peek_ahead().kind == BARE:
            mnemonic = p.peek_ahead().text
            if mnemonic in _PRETTY:
                p.advance()
                p.advance()
                value = r.pretty(mnemonic)
                p.expect(">", f"expected '>' after {mnemonic}")
                return value
        return None

