"""StableHLO's own attributes and types (`#stablehlo.dot<...>`, `!stablehlo.token`): values of the StableHLO
view, with StableHLO's syntax.

These never meet bytecode in a portable artifact (the view converts them to VHLO before a save), so their
kinds have no codes: they are the `stablehlo` dialect's text syntax only (`register`).  Fields keep what the
C++ attribute holds (dimension lists as tuples, f64 values as bit patterns, enum values as their numbers).
The spellings follow StableHLO's printers: `printStruct` (fields equal to 0 or empty left out) for dot,
gather and scatter; the compact `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` for convolutions (its `raw<...>`
form too, which is what this prints for dimension numbers the compact form cannot hold); `struct(params)`
and declarative formats for the rest; enums as `#stablehlo<precision HIGH>` except `result_accuracy_mode`,
which StableHLO prints `#stablehlo.result_accuracy_mode<TOLERANCE>`.
"""

from __future__ import annotations

from collections.abc import Callable

from ...ir.attributes import Attribute
from ...ir.structured import FieldValue, StructuredAttr, StructuredType
from ...ir.types import DYNAMIC, Type
from ...syntax.attr_parser import Parser
from ...syntax.attr_printer import print_attribute, print_type, quote_bytes
from ...syntax.floats import print_float_bits
from ...syntax.lexer import BARE, INT, STRING, string_value
from ..api import EntryReader, EntryWriter, ModelError
from ..kinds import KindDialect, KindModel, field_attr, field_bytes, field_int, field_ints, field_type
from .vhlo_types import INT64_MAX, INT64_MIN, parse_f64

SHLO = "stablehlo"


def _dims_text(dims: tuple[int, ...]) -> str:
    return "[" + ", ".join("?" if d == DYNAMIC else str(d) for d in dims) + "]"


def _int(p: Parser, what: str) -> int:
    return p.parse_bounded_int(INT64_MIN, INT64_MAX, what)


def _dims(p: Parser, what: str) -> tuple[int, ...]:
    """`[1, ?, 3]` (StableHLO's parseDimSizes)."""
    p.expect("[", f"expected '[' for {what}")
    out: list[int] = []
    if p.consume_if("]"):
        return ()
    while True:
        out.append(DYNAMIC if p.consume_if("?") else _int(p, what))
        if p.consume_if("]"):
            return tuple(out)
        p.expect(",", f"expected ',' or ']' in {what}")


class ShloKind:
    """Base of the StableHLO kinds: text only (`decode`/`encode` refuse: the view saves VHLO)."""

    dialect = SHLO
    is_type = False
    codes: tuple[int, ...] = ()

    def __init__(self, name: str) -> None:
        self.name = name

    def get(self, fields: tuple[FieldValue, ...]) -> StructuredAttr:
        return StructuredAttr.get(self, fields)

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        raise ModelError(f"#stablehlo.{self.name} has no bytecode encoding in a portable artifact")

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        raise ModelError(f"#stablehlo.{self.name} is converted to VHLO before it is written")

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        raise NotImplementedError

    def parse(self, p: Parser) -> Attribute | Type:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<stablehlo kind {self.name}>"


class EnumKind(ShloKind):
    """An enum attribute: fields (value,), printed `#stablehlo<precision HIGH>` (or, `dotted`,
    `#stablehlo.result_accuracy_mode<TOLERANCE>`)."""

    def __init__(self, name: str, cases: dict[int, str], dotted: bool = False) -> None:
        super().__init__(name)
        self.cases = cases
        self.by_name = {v: k for k, v in cases.items()}
        self.dotted = dotted

    def value(self, v: StructuredAttr | StructuredType) -> int:
        n = field_int(v.fields[0], self.name)
        if n not in self.cases:
            raise ModelError(f"unknown {self.name} value {n}")
        return n

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        case = self.cases[self.value(value)]
        return f"#stablehlo.{self.name}<{case}>" if self.dotted else f"#stablehlo<{self.name} {case}>"

    def parse(self, p: Parser) -> Attribute | Type:
        angled = p.consume_if("<") is not None
        tok = p.expect(BARE, f"expected a {self.name} value")
        if tok.text not in self.by_name:
            raise p.error(f"unknown {self.name} value '{tok.text}' (one of {', '.join(self.cases.values())})",
                          tok)
        if angled:
            p.expect(">", f"expected '>' after the {self.name} value")
        return self.get((self.by_name[tok.text],))


# -- structs printed by StableHLO's printStruct: zero / empty fields left out -----------------------------

class DimsStructKind(ShloKind):
    """dot, gather, scatter: dimension lists and (last) an index dimension; fields in declaration order."""

    def __init__(self, name: str, params: list[tuple[str, str]]) -> None:
        super().__init__(name)
        self.params = params
        """(spelling, `dims` or `int`)."""

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        parts = []
        for (pname, wire), v in zip(self.params, value.fields, strict=True):
            if wire == "dims":
                dims = field_ints(v, pname)
                if dims:
                    parts.append(f"{pname} = [{', '.join(str(d) for d in dims)}]")
            elif field_int(v, pname) != 0:
                parts.append(f"{pname} = {field_int(v, pname)}")
        return f"#stablehlo.{self.name}<{', '.join(parts)}>"

    def parse(self, p: Parser) -> Attribute | Type:
        values = _parse_struct(p, self.name, {n: _reader(p, n, w == "dims") for n, w in self.params})
        return self.get(tuple(values.get(n, () if w == "dims" else 0) for n, w in self.params))


def _reader(p: Parser, what: str, dims: bool) -> Callable[[], FieldValue]:
    """What reads one field: a dimension list or an int64."""
    if dims:
        return lambda: _dims(p, what)
    return lambda: _int(p, what)


def _parse_struct(p: Parser, what: str, fields: dict[str, Callable[[], FieldValue]]) -> dict[str, FieldValue]:
    """`<name = value, ...>` with the fields in any order, each at most once (StableHLO's parseStruct)."""
    p.expect("<", f"expected '<' after {what}")
    out: dict[str, FieldValue] = {}
    if p.consume_if(">"):
        return out
    while True:
        tok = p.expect(BARE, f"expected one of: {', '.join(f'`{k}`' for k in fields)}")
        parse = fields.get(tok.text)
        if parse is None:
            raise p.error(f"expected one of: {', '.join(f'`{k}`' for k in fields)}", tok)
        if tok.text in out:
            raise p.error(f"duplicated `{tok.text}` entry", tok)
        p.expect("=", f"expected '=' after {tok.text}")
        out[tok.text] = parse()
        if not p.consume_if(","):
            p.expect(">", f"expected ',' or '>' in {what}")
            return out


_CONV_PARAMS = ["input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
                "kernel_input_feature_dimension", "kernel_output_feature_dimension",
                "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
                "output_spatial_dimensions"]


class ConvKind(ShloKind):
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`; fields as `_CONV_PARAMS`.  Dimension
    numbers the compact form cannot say (out of range, repeated) print as `raw<...>`, which StableHLO
    reads too (its printer would abort on them)."""

    def _compact(self, spatial: tuple[int, ...], named: list[tuple[int, str]]) -> str | None:
        n = len(spatial) + len(named)
        slots: list[str | None] = [None] * n
        for index, letter in named:
            if not 0 <= index < n or slots[index] is not None:
                return None
            slots[index] = letter
        for i, d in enumerate(spatial):
            if not 0 <= d < n or slots[d] is not None:
                return None
            slots[d] = str(i)
        return "[" + ", ".join(s for s in slots if s is not None) + "]"

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        f = value.fields
        ib, if_, isp, kif, kof, ksp, ob, of, osp = (
            field_ints(x, n) if isinstance(x, tuple) else field_int(x, n) for x, n in zip(f, _CONV_PARAMS,
                                                                                       strict=True))
        assert isinstance(isp, tuple) and isinstance(ksp, tuple) and isinstance(osp, tuple)
        assert isinstance(ib, int) and isinstance(if_, int) and isinstance(kif, int)
        assert isinstance(kof, int) and isinstance(ob, int) and isinstance(of, int)
        parts = [self._compact(isp, [(ib, "b"), (if_, "f")]), self._compact(ksp, [(kif, "i"), (kof, "o")]),
                 self._compact(osp, [(ob, "b"), (of, "f")])]
        if all(x is not None for x in parts):
            return f"#stablehlo.conv<{parts[0]}x{parts[1]}->{parts[2]}>"
        body = ", ".join(f"{n} = {_dims_text(field_ints(x, n)) if isinstance(x, tuple) else field_int(x, n)}"
                         for n, x in zip(_CONV_PARAMS, f, strict=True))
        return f"#stablehlo.conv<raw {body}>"

    def parse(self, p: Parser) -> Attribute | Type:
        if p.peek().kind == "<" and p.peek_ahead().kind == BARE and p.peek_ahead().text == "raw":
            p.advance()
            p.advance()
            # `raw` then the fields up to '>': parse them as a struct opened by an implicit '<'
            values = _parse_raw_struct(p, {n: _reader(p, n, "spatial" in n) for n in _CONV_PARAMS})
            return self.get(tuple(values.get(n, () if "spatial" in n else 0) for n in _CONV_PARAMS))
        p.expect("<", "expected '<' after conv")
        ib, if_, isp = self._parse_dims(p, ("b", "f"))
        p.expect_keyword("x", "expected 'x' between input and kernel dimensions")
        kif, kof, ksp = self._parse_dims(p, ("i", "o"))
        p.expect("->", "expected '->' before the output dimensions")
        ob, of, osp = self._parse_dims(p, ("b", "f"))
        p.expect(">", "expected '>' after the convolution dimensions")
        return self.get((ib, if_, isp, kif, kof, ksp, ob, of, osp))

    @staticmethod
    def _parse_dims(p: Parser, letters: tuple[str, str]) -> tuple[int, int, tuple[int, ...]]:
        p.expect("[", "expected '[' for convolution dimensions")
        named: dict[str, int] = {}
        spatial: dict[int, int] = {}
        index = 0
        while True:
            tok = p.peek()
            if tok.kind == INT:
                d = _int(p, "a spatial dimension")
                if d in spatial:
                    raise p.error(f"Duplicate entries for spatial dimension {d}", tok)
                spatial[d] = index
            else:
                word = p.expect(BARE, "expected a dimension")
                if word.text not in letters or word.text in named:
                    raise p.error(f"Unexpected dimension {word.text}, expecting "
                                  f"{', '.join(x for x in letters if x not in named)}", word)
                named[word.text] = index
            index += 1
            if not p.consume_if(","):
                break
        missing = [x for x in letters if x not in named]
        if missing:
            raise p.error(f"Expected dimensions {', '.join(missing)} not specified")
        p.expect("]", "expected ']'")
        count = max(spatial, default=-1) + 1
        unspecified = [d for d in range(count) if d not in spatial]
        if unspecified:
            raise p.error(f"Expected spatial dimensions {', '.join(map(str, unspecified[:10]))} not "
                          "specified")
        return named[letters[0]], named[letters[1]], tuple(spatial[d] for d in range(count))


def _parse_raw_struct(p: Parser, fields: dict[str, Callable[[], FieldValue]]) -> dict[str, FieldValue]:
    out: dict[str, FieldValue] = {}
    while not p.consume_if(">"):
        if out:
            p.expect(",", "expected ',' or '>'")
        tok = p.expect(BARE, "expected a field name")
        parse = fields.get(tok.text)
        if parse is None or tok.text in out:
            raise p.error(f"unexpected field '{tok.text}'", tok)
        p.expect("=", f"expected '=' after {tok.text}")
        out[tok.text] = parse()
    return out


# -- declarative formats -----------------------------------------------------------------------------------

class FormatKind(ShloKind):
    """A struct printed with every field in order, `<name = value, ...>` (StableHLO's `struct(params)` and
    the declarative formats of dot_algorithm / output_operand_alias); `params` are (spelling, wire) with
    wire `int`, `dims`, `type`, `bool`, `str` (a quoted name), `attr`, or `attr?` (left out when absent).
    Parsed in any order when `any_order` (struct(params)), else in the printed order."""

    def __init__(self, name: str, params: list[tuple[str, str]], any_order: bool = True) -> None:
        super().__init__(name)
        self.params = params
        self.any_order = any_order

    def _text(self, wire: str, v: FieldValue, what: str) -> str:
        if wire == "int":
            return str(field_int(v, what))
        if wire == "dims":
            return _dims_text(field_ints(v, what))
        if wire == "type":
            return print_type(field_type(v, what))
        if wire == "bool":
            return "true" if v else "false"
        if wire == "str":
            return quote_bytes(field_bytes(v, what))
        return print_attribute(field_attr(v, what))

    def _read(self, p: Parser, wire: str, what: str) -> FieldValue:
        if wire == "int":
            return _int(p, what)
        if wire == "dims":
            return _dims(p, what)
        if wire == "type":
            return p.parse_type()
        if wire == "bool":
            tok = p.expect(BARE, "expected true or false")
            if tok.text not in ("true", "false"):
                raise p.error("expected true or false", tok)
            return tok.text == "true"
        if wire == "str":
            return string_value(p.expect(STRING, f"expected a string for {what}"))
        return p.parse_attribute()

    def _field_reader(self, p: Parser, wire: str, what: str) -> Callable[[], FieldValue]:
        return lambda: self._read(p, wire, what)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        parts = [f"{n} = {self._text(w, v, n)}" for (n, w), v in zip(self.params, value.fields, strict=True)
                 if not (w == "attr?" and v is None)]
        return f"#stablehlo.{self.name}<{', '.join(parts)}>"

    def parse(self, p: Parser) -> Attribute | Type:
        wires = dict(self.params)
        if self.any_order:
            values = _parse_struct(p, self.name, {n: self._field_reader(p, w, n) for n, w in self.params})
        else:
            p.expect("<", f"expected '<' after {self.name}")
            values = {}
            for i, (n, w) in enumerate(self.params):
                if i:
                    p.expect(",", f"expected ',' in {self.name}")
                p.expect_keyword(n, f"expected '{n}'")
                p.expect("=", f"expected '=' after {n}")
                values[n] = self._read(p, w, n)
            p.expect(">", f"expected '>' after {self.name}")
        missing = [n for n, w in self.params if n not in values and w != "attr?"]
        if missing:
            raise p.error(f"struct is missing required parameter: {missing[0]}")
        return self.get(tuple(values.get(n) for n in wires))


class ResultAccuracyKind(ShloKind):
    """`#stablehlo.result_accuracy<atol = 1.0e-05, ulps = 2, mode = #stablehlo.result_accuracy_mode<..>>`:
    fields atol, rtol (f64 bits), ulps, mode; zero atol/rtol/ulps left out."""

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        atol, rtol, ulps, mode = value.fields
        parts = []
        if field_int(atol, "atol") & ~(1 << 63):
            parts.append(f"atol = {print_float_bits(field_int(atol, 'atol'), 'f64')}")
        if field_int(rtol, "rtol") & ~(1 << 63):
            parts.append(f"rtol = {print_float_bits(field_int(rtol, 'rtol'), 'f64')}")
        if field_int(ulps, "ulps"):
            parts.append(f"ulps = {field_int(ulps, 'ulps')}")
        parts.append(f"mode = {print_attribute(field_attr(mode, 'mode'))}")
        return f"#stablehlo.result_accuracy<{', '.join(parts)}>"

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", "expected '<' after result_accuracy")
        atol = rtol = ulps = 0
        if p.consume_keyword_if("atol"):
            p.expect("=", "expected '='")
            atol = parse_f64(p)
            p.expect(",", "expected ','")
        if p.consume_keyword_if("rtol"):
            p.expect("=", "expected '='")
            rtol = parse_f64(p)
            p.expect(",", "expected ','")
        if p.consume_keyword_if("ulps"):
            p.expect("=", "expected '='")
            ulps = _int(p, "ulps")
            p.expect(",", "expected ','")
        p.expect_keyword("mode", "expected 'mode'")
        p.expect("=", "expected '='")
        mode = p.parse_attribute()
        if not (isinstance(mode, StructuredAttr) and mode.kind is KINDS_BY_NAME["result_accuracy_mode"]):
            raise p.error("expected a #stablehlo.result_accuracy_mode<...> attribute")
        p.expect(">", "expected '>' after result_accuracy")
        return self.get((atol, rtol, ulps, mode))


class BoundsKind(ShloKind):
    """The tensor encoding `#stablehlo.bounds<8, ?>` (StableHLO's TypeExtensionsAttr); fields (bounds,).
    Also read as `#stablehlo.type_extensions<bounds = [8, ?]>`."""

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        bounds = field_ints(value.fields[0], "bounds")
        return "#stablehlo.bounds<" + ", ".join("?" if b == DYNAMIC else str(b) for b in bounds) + ">"

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", "expected '<' after bounds")
        out: list[int] = []
        if not p.consume_if(">"):
            while True:
                out.append(DYNAMIC if p.consume_if("?") else _int(p, "a bound"))
                if p.consume_if(">"):
                    break
                p.expect(",", "expected ',' or '>' in bounds")
        return self.get((tuple(out),))


class TypeExtensionsKind(BoundsKind):
    """`#stablehlo.type_extensions<bounds = [..]>`: the same value as `bounds`, another spelling."""

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", "expected '<' after type_extensions")
        p.expect_keyword("bounds", "expected 'bounds'")
        p.expect("=", "expected '='")
        bounds = _dims(p, "bounds")
        p.expect(">", "expected '>' after type_extensions")
        return BOUNDS.get((bounds,))


class SubAxisInfoKind(ShloKind):
    """`#stablehlo.sub_axis_info<(1)2>`: fields pre_size, size."""

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return f"#stablehlo.sub_axis_info<({field_int(value.fields[0], 'pre_size')})" \
               f"{field_int(value.fields[1], 'size')}>"

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", "expected '<'")
        p.expect("(", "expected '('")
        pre = _int(p, "pre_size")
        p.expect(")", "expected ')'")
        size = _int(p, "size")
        p.expect(">", "expected '>'")
        return self.get((pre, size))


# -- types ------------------------------------------------------------------------------------------------

class TokenKind(ShloKind):
    is_type = True

    def get(self, fields: tuple[FieldValue, ...] = ()) -> StructuredType:  # type: ignore[override]
        return StructuredType.get(self, fields)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return "!stablehlo.token"

    def parse(self, p: Parser) -> Attribute | Type:
        return self.get()


class FutureKind(TokenKind):
    """`!stablehlo.future<tensor<2xf32>, ...>`: fields (types,)."""

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        types = value.fields[0]
        assert isinstance(types, tuple)
        return "!stablehlo.future<" + ", ".join(print_type(field_type(t, "a type")) for t in types) + ">"

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", "expected '<' after future")
        out = [p.parse_type()]
        while p.consume_if(","):
            out.append(p.parse_type())
        p.expect(">", "expected '>' after future")
        return self.get((tuple(out),))


# -- the table --------------------------------------------------------------------------------------------

def _enum(name: str, *cases: str, first: int = 0, dotted: bool = False) -> EnumKind:
    return EnumKind(name, {i + first: c for i, c in enumerate(cases)}, dotted)


_D = "dims"
BOUNDS = BoundsKind("bounds")
TOKEN = TokenKind("token")
FUTURE = FutureKind("future")
KINDS: list[ShloKind] = [
    _enum("comparison_direction", "EQ", "NE", "GE", "GT", "LE", "LT"),
    _enum("comparison_type", "NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"),
    _enum("precision", "DEFAULT", "HIGH", "HIGHEST"),
    _enum("fft_type", "FFT", "IFFT", "RFFT", "IRFFT"),
    _enum("transpose", "TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"),
    _enum("rng_distribution", "UNIFORM", "NORMAL", first=1),
    _enum("rng_algorithm", "DEFAULT", "THREE_FRY", "PHILOX"),
    _enum("result_accuracy_mode", "DEFAULT", "HIGHEST", "TOLERANCE", dotted=True),
    DimsStructKind("dot", [("lhs_batching_dimensions", _D), ("rhs_batching_dimensions", _D),
                           ("lhs_contracting_dimensions", _D), ("rhs_contracting_dimensions", _D)]),
    DimsStructKind("gather", [("offset_dims", _D), ("collapsed_slice_dims", _D),
                              ("operand_batching_dims", _D), ("start_indices_batching_dims", _D),
                              ("start_index_map", _D),
                              ("index_vector_dim", "int")]),
    DimsStructKind("scatter", [("update_window_dims", _D), ("inserted_window_dims", _D),
                               ("input_batching_dims", _D), ("scatter_indices_batching_dims", _D),
                               ("scatter_dims_to_operand_dims", _D), ("index_vector_dim", "int")]),
    ConvKind("conv"),
    FormatKind("dot_algorithm", [("lhs_precision_type", "type"), ("rhs_precision_type", "type"),
                                 ("accumulation_type", "type"), ("lhs_component_count", "int"),
                                 ("rhs_component_count", "int"), ("num_primitive_operations", "int"),
                                 ("allow_imprecise_accumulation", "bool")], any_order=False),
    FormatKind("output_operand_alias", [("output_tuple_indices", _D), ("operand_index", "int"),
                                        ("operand_tuple_indices", _D)], any_order=False),
    FormatKind("channel_handle", [("handle", "int"), ("type", "int")]),
    ResultAccuracyKind("result_accuracy"),
    BOUNDS,
    TypeExtensionsKind("type_extensions"),
    SubAxisInfoKind("sub_axis_info"),
    FormatKind("axis_ref", [("name", "str"), ("sub_axis_info", "attr?")]),
    FormatKind("mesh_axis", [("name", "str"), ("size", "int")]),
    FormatKind("replica_group_mesh_axes", [("mesh", "attr"), ("axes", "attr")]),
    TOKEN,
    FUTURE,
]
KINDS_BY_NAME: dict[str, ShloKind] = {k.name: k for k in KINDS if not k.is_type}
TYPES_BY_NAME: dict[str, ShloKind] = {k.name: k for k in KINDS if k.is_type}


def shlo_dialect() -> KindDialect:
    """The `stablehlo` dialect's text syntax (not strict: a value these kinds do not know stays text)."""
    kinds: list[KindModel] = list(KINDS)
    return KindDialect(SHLO, kinds, strict=False)
