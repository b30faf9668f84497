"""Reading an op's text by its declarative format: mlir-tblgen's generated parser, interpreted.

Elements are read in format order into `Parsed` (operands by ODS group, types, attributes, regions,
successors); an optional group is taken when its first element is there; the types the format leaves
out are then resolved (`resolve` data: another value's type through a transformer, an attribute's type, a
buildable type; InferTypeOpInterface through `typefns.INFER`); operands are resolved in ODS order and
segment sizes added, as the generated parser does.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from ...ir.attributes import Attribute, DenseArrayAttr, IntegerAttr, StringAttr, UnitAttr
from ...ir.operation import Region
from ...ir.types import FunctionType, IntegerType, Type
from ...syntax.attr_parser import parse_attribute_text, parse_type_text
from . import typefns
from .adaptor import attr_type
from .api import AsmParser, BlockRef, OperandRef, OpState, comma_list
from .props import prop_port
from .stripped import parse_stripped_form

if TYPE_CHECKING:
    from .declarative import DeclarativeSyntax

Element = list[Any]


class Parsed:
    """What the elements of a format read, before types are resolved."""

    def __init__(self) -> None:
        self.operands: dict[str, list[OperandRef]] = {}
        self.vov_sizes: dict[str, list[int]] = {}
        self.operand_types: dict[str, list[Type]] = {}
        self.result_types: dict[str, list[Type]] = {}
        self.all_operands: list[OperandRef] | None = None
        self.all_operand_types: list[Type] | None = None
        self.all_result_types: list[Type] | None = None
        self.attrs: dict[str, Attribute] = {}
        self.regions: dict[str, list[Region]] = {}
        self.all_regions: list[Region] | None = None
        self.successors: dict[str, list[BlockRef]] = {}
        self.all_successors: list[BlockRef] | None = None


def parse_declarative(model: DeclarativeSyntax, p: AsmParser, state: OpState) -> None:
    parsed = Parsed()
    _Reader(model, p, parsed, state).elements(model.format)
    finish(model, p, parsed, state)


_PUNCT = frozenset(("(", ")", "[", "]", "{", "}", "<", ">", ",", ":", "=", "->", "?", "+", "*", "...",
                    "|", "::", "-"))


class _Reader:
    def __init__(self, model: DeclarativeSyntax, p: AsmParser, parsed: Parsed, state: OpState) -> None:
        self.model = model
        self.p = p
        self.parsed = parsed
        self.state = state
        self.data = model.data

    # -- elements -----------------------------------------------------------------------------------
    def elements(self, elements: list[Element], skip: Element | None = None) -> None:
        for el in elements:
            if el is skip:
                continue
            self.element(el)

    def element(self, el: Element) -> None:
        kind = el[0]
        p = self.p
        parsed = self.parsed
        if kind == "lit":
            text: str = el[1]
            if text in _PUNCT:
                p.parse_punct(text)
            else:
                p.parse_keyword(text)
        elif kind == "ws":
            return
        elif kind == "attr":
            parsed.attrs[el[1]] = self.attribute(el[1], el[2])
        elif kind == "prop":
            port = prop_port(self.model.data.get("props", {}).get(el[1]))
            parsed.attrs[el[1]] = port.parse(p) if port is not None else p.parse_attribute()
        elif kind == "operand":
            self.operand(el[1])
        elif kind == "region":
            self.region(el[1])
        elif kind == "successor":
            self.successor(el[1])
        elif kind == "attr-dict":
            if self.model.keyvalue_form(p) and p.parse_optional_punct("<"):
                self.keyvalue_props()
            d = p.parse_optional_attr_dict_with_keyword() if el[1] else p.parse_optional_attr_dict()
            if d is not None:
                for k, v in d.entries:
                    parsed.attrs[k.text] = v
        elif kind == "prop-dict":
            keyvalue = self.model.keyvalue_form(p)
            names = {*self.model.data.get("attrs", {}), *self.model.data.get("props", {})}
            if keyvalue and p.peek_text() in names:
                self.keyvalue_props(bare=True)  # MLIR 24: ` name = value, ...` with no brackets
                return
            if p.parse_optional_punct("<"):
                if keyvalue and p.peek_text() != "{":
                    self.keyvalue_props()
                    return
                props = p.parse_attribute()
                p.parse_punct(">")
                from ...ir.attributes import DictionaryAttr

                if not isinstance(props, DictionaryAttr):
                    raise p.error("expected a properties dictionary")
                for k, v in props.entries:
                    parsed.attrs[k.text] = v
        elif kind == "operands":
            parsed.all_operands = self.operand_list()
        elif kind == "regions":
            parsed.all_regions = self.region_list()
        elif kind == "successors":
            parsed.all_successors = self.successor_list()
        elif kind == "type":
            self.type_directive(el[1], el[2])
        elif kind == "functional-type":
            ft = p.parse_type()
            if not isinstance(ft, FunctionType):
                raise p.error("expected a function type")
            self.assign_types(el[1], list(ft.inputs))
            self.assign_types(el[2], list(ft.results))
        elif kind == "custom":
            from .directives import parse_directive

            parse_directive(el[1], el[2], self.model, p, parsed, self.state)
        elif kind == "optional":
            self.optional(el)
        elif kind == "oilist":
            self.oilist(el)
        else:
            raise p.error(f"cannot read format element {kind}")

    # -- optional groups ----------------------------------------------------------------------------
    def optional(self, el: Element) -> None:
        then, els, anchor_at, inverted = el[1], el[2], el[3], el[4]
        anchor = (els if inverted else then)[anchor_at]
        first_at = next((i for i, e in enumerate(then) if e[0] != "ws"), None)
        if first_at is None:
            return
        first = then[first_at]
        unit_anchor = anchor[0] in ("attr", "prop") and anchor[1] in self.model.unit_attrs and \
            anchor is not then[0] and (not els or anchor is not els[0])
        if self.optional_first(first):
            if unit_anchor and not inverted:
                self.parsed.attrs[anchor[1]] = UnitAttr.get()
            self.elements(then[first_at + 1:], anchor if unit_anchor else None)
        else:
            if unit_anchor and inverted:
                self.parsed.attrs[anchor[1]] = UnitAttr.get()
            self.elements(els, anchor if unit_anchor else None)

    def optional_first(self, el: Element) -> bool:
        """Read the first element of an optional group if it is there; whether it was."""
        kind = el[0]
        p = self.p
        parsed = self.parsed
        if kind == "lit":
            text: str = el[1]
            if text in _PUNCT:
                return p.parse_optional_punct(text)
            return p.parse_optional_keyword(text)
        if kind == "operand":
            decl = self._decl("operands", el[1])
            if decl[1] == "single" or decl[1] == "optional":
                ref = p.parse_optional_operand()
                if ref is None:
                    return False
                parsed.operands[el[1]] = [ref]
                return True
            refs = self.operand_list()
            parsed.operands[el[1]] = refs
            return bool(refs)
        if kind == "attr":
            value = self.optional_attribute(el[1], el[2])
            if value is None:
                return False
            parsed.attrs[el[1]] = value
            return True
        if kind == "prop":
            port = prop_port(self.model.data.get("props", {}).get(el[1]))
            v = port.parse_optional(p) if port is not None else p.parse_optional_attribute()
            if v is None:
                return False
            parsed.attrs[el[1]] = v
            return True
        if kind == "region":
            region = p.parse_optional_region()
            if region is None:
                return False
            self._ensure_terminator(region)
            parsed.regions[el[1]] = [region]
            return True
        if kind == "successor":
            ref = p.parse_optional_successor()
            if ref is None:
                return False
            parsed.successors[el[1]] = [ref]
            return True
        if kind == "type":
            t = p.parse_optional_type()
            if t is None:
                return False
            self.assign_types(el[1], [t])
            return True
        if kind == "custom":
            from .directives import parse_directive_optional

            return parse_directive_optional(el[1], el[2], self.model, p, parsed, self.state)
        if kind in ("attr-dict", "prop-dict"):
            before = len(parsed.attrs)
            self.element(el)
            return len(parsed.attrs) > before
        raise p.error(f"an optional group cannot start with {kind}")

    def keyvalue_props(self, bare: bool = False) -> None:
        """MLIR 24's `name = value, ...>` of properties (after the `<`; `bare`: a `prop-dict` element's
        list, which no `>` ends), values as their declarations read them."""
        p = self.p
        attrs = self.model.data.get("attrs", {})
        while True:
            key = p.parse_keyword_or_string().decode("utf-8", "surrogateescape")
            if p.parse_optional_punct("="):
                value = read_attr_value(p, attrs.get(key, {}), False, True)
                assert value is not None
            else:
                value = UnitAttr.get()
            self.parsed.attrs[key] = value
            if bare:
                if not p.parse_optional_punct(","):
                    return
                continue
            if p.parse_optional_punct(">"):
                return
            p.parse_punct(",")

    def oilist(self, el: Element) -> None:
        clauses = {lit: body for lit, body in el[1]}
        seen: set[str] = set()
        while True:
            word = next((lit for lit in clauses if lit not in seen and self.p.parse_optional_keyword(lit)),
                        None)
            if word is None:
                return
            seen.add(word)
            body = clauses[word]
            if len(body) == 1 and body[0][0] in ("attr", "prop") and body[0][1] in self.model.unit_attrs:
                self.parsed.attrs[body[0][1]] = UnitAttr.get()
            else:
                self.elements(body)

    # -- pieces -------------------------------------------------------------------------------------
    def _decl(self, what: str, name: str) -> list[Any]:
        for d in self.data.get(what, []):
            if d[0] == name:
                return list(d)
        raise self.p.error(f"'{self.model.name}' has no {what[:-1]} '{name}'")

    def operand(self, name: str) -> None:
        kind = self._decl("operands", name)[1]
        p = self.p
        if kind == "single":
            self.parsed.operands[name] = [p.parse_operand()]
        elif kind == "optional":
            ref = p.parse_optional_operand()
            self.parsed.operands[name] = [ref] if ref is not None else []
        elif kind.startswith("vov:"):
            refs: list[OperandRef] = []
            sizes: list[int] = []
            if p.parse_optional_punct("("):
                while True:
                    group: list[OperandRef] = []
                    if not p.parse_optional_punct(")"):
                        group = self.operand_list()
                        p.parse_punct(")")
                    refs.extend(group)
                    sizes.append(len(group))
                    if not p.parse_optional_punct(","):
                        break
                    p.parse_punct("(")
            self.parsed.operands[name] = refs
            self.parsed.vov_sizes[name] = sizes
        else:
            self.parsed.operands[name] = self.operand_list()

    def operand_list(self) -> list[OperandRef]:
        return comma_list(self.p, self.p.parse_optional_operand(), self.p.parse_operand)

    def region(self, name: str) -> None:
        variadic = next((v for n, v in self.data.get("regions", []) if n == name), False)
        if variadic:
            self.parsed.regions[name] = self.region_list()
            return
        region = self.p.parse_region()
        self._ensure_terminator(region)
        self.parsed.regions[name] = [region]

    def region_list(self) -> list[Region]:
        first = self.p.parse_optional_region()
        return comma_list(self.p, None if first is None else self._terminated(first),
                          lambda: self._terminated(self.p.parse_region()))

    def _terminated(self, region: Region) -> Region:
        self._ensure_terminator(region)
        return region

    def _ensure_terminator(self, region: Region) -> None:
        term = self.data.get("implicit_terminator")
        if not term and "SingleBlock" in self.data.get("traits", ()) and not region.blocks:
            region.add_block()  # the generated parser gives a single-block region its block
        if term:
            ensure = getattr(self.p, "ensure_terminator", None)
            if callable(ensure):
                ensure(region, _cpp_op_name(term))

    def successor(self, name: str) -> None:
        variadic = next((v for n, v in self.data.get("successors", []) if n == name), False)
        if variadic:
            self.parsed.successors[name] = self.successor_list()
        else:
            self.parsed.successors[name] = [self.p.parse_successor()]

    def successor_list(self) -> list[BlockRef]:
        return comma_list(self.p, self.p.parse_optional_successor(), self.p.parse_successor)

    def attribute(self, name: str, qualified: bool) -> Attribute:
        value = self.optional_attribute(name, qualified, required=True)
        assert value is not None
        return value

    def optional_attribute(self, name: str, qualified: bool, required: bool = False) -> Attribute | None:
        info = self.data.get("attrs", {}).get(name, {})
        return read_attr_value(self.p, info, qualified, required)

    def type_directive(self, arg: Element, qualified: bool) -> None:
        p = self.p
        kind = arg[0]
        if kind in ("operand", "result"):
            decl = self._decl("operands" if kind == "operand" else "results", arg[1])
            vkind, info = decl[1], decl[2]
            if vkind == "single":
                if not qualified and "strip" in info:
                    t = parse_stripped_form(p, info["strip"]) or p.parse_stripped(info["strip"])
                    if not isinstance(t, Type):
                        raise p.error("expected a type")
                else:
                    t = p.parse_type()
                self.assign_types(arg, [t])
                return
            if vkind == "optional":
                t2 = p.parse_optional_type()
                self.assign_types(arg, [t2] if t2 is not None else [])
                return
            if vkind.startswith("vov:"):
                types: list[Type] = []
                if p.parse_optional_punct("("):
                    while True:
                        if not p.parse_optional_punct(")"):
                            types.extend(self.type_list())
                            p.parse_punct(")")
                        if not p.parse_optional_punct(","):
                            break
                        p.parse_punct("(")
                self.assign_types(arg, types)
                return
        self.assign_types(arg, self.type_list())

    def type_list(self) -> list[Type]:
        return comma_list(self.p, self.p.parse_optional_type(), self.p.parse_type)

    def assign_types(self, arg: Element, types: list[Type]) -> None:
        kind = arg[0]
        if kind == "operand":
            self.parsed.operand_types[arg[1]] = types
        elif kind == "result":
            self.parsed.result_types[arg[1]] = types
        elif kind == "operands":
            self.parsed.all_operand_types = types
        elif kind == "results":
            self.parsed.all_result_types = types
        elif kind == "ref":
            self.assign_types(arg[1], types)


def _cpp_op_name(cpp: str) -> str:
    """`scf::YieldOp` / `::mlir::affine::AffineYieldOp` -> the op name the view knows it by, when a table
    says so; else the C++ name (the view looks it up)."""
    return cpp


def read_attr_value(p: AsmParser, info: dict[str, Any], qualified: bool, required: bool) -> Attribute | None:
    """An attribute variable of a declarative format, as its kind reads it (None: absent, when not
    `required`)."""
    kind = info.get("kind", "plain")
    if kind == "enum":
        enum = info["enum"]
        if required:
            word = p.parse_keyword_or_string()
        else:
            w = p.parse_optional_any_keyword()
            if w is None:
                s = p.parse_optional_string()
                if s is None:
                    return None
                word = s
            else:
                word = w.encode()
        return enum_value(p, word.decode("utf-8", "surrogateescape"), enum)
    if kind == "symbol":
        if required:
            return StringAttr.get(p.parse_symbol_name())
        name = p.parse_optional_symbol_name()
        return StringAttr.get(name) if name is not None else None
    if kind == "typed":
        text = info.get("type")
        if text is None:
            raise p.error("the type of this attribute is known only in C++")
        t = parse_type_text(text)
        if not required and not attribute_here(p, info):
            return None
        return p.parse_attribute(t)
    if kind == "bare" and not qualified:
        # `bfly` for `#nvvm.shfl_kind<bfly>` (MLIR 24's NVVM and ROCDL enums inside an op's format)
        if required:
            word = p.parse_keyword_or_string()
        else:
            w = p.parse_optional_any_keyword()
            if w is None:
                return None
            word = w.encode()
        text = word.decode("utf-8", "surrogateescape")
        if not text.replace("_", "").isalnum():
            raise p.error(f"expected a {info['strip']} case")
        return parse_attribute_text(f"{info['strip']}<{text}>")
    if kind == "stripped" and not qualified:
        if not required and not _starts_value(p):
            return None
        v = p.parse_stripped(info["strip"])
        if isinstance(v, Type):
            raise p.error("expected an attribute")
        return v
    storage = str(info.get("storage", ""))
    dense = _DENSE_ARRAYS.get(storage.strip().lstrip(":").removeprefix("mlir::"))
    if dense is not None and kind == "plain":
        if not required and p.peek_text() != "[":
            return None
        return parse_dense_array(p, dense)
    if required:
        return p.parse_attribute()
    if storage.strip().lstrip(":").removeprefix("mlir::") in ("Attribute", "TypedAttr", ""):
        return p.parse_optional_attribute()
    if not attribute_here(p, info):
        return None
    return p.parse_attribute()


_STARTS = {"ArrayAttr": "[", "StringAttr": "string", "SymbolRefAttr": "symbol", "FlatSymbolRefAttr": "symbol"}


def attribute_here(p: AsmParser, info: dict[str, Any]) -> bool:
    """Whether an optional attribute of this storage class starts here (parseOptionalAttribute<Class>
    looks for one token kind: `[` for arrays, a string, a symbol, else `#`)."""
    storage = str(info.get("storage", "")).strip().lstrip(":").removeprefix("mlir::")
    text = p.peek_text()
    if storage in ("Attribute", "TypedAttr", ""):
        return True
    want = _STARTS.get(storage, "hash")
    if want == "[":
        return text == "["
    if want == "string":
        return text.startswith('"')
    if want == "symbol":
        return text.startswith("@")
    return text.startswith("#")


def _starts_value(p: AsmParser) -> bool:
    text = p.peek_text()
    return text.startswith(("#", "<")) or (text[:1].isalpha() and text != "loc")


_DENSE_ARRAYS = {"DenseI8ArrayAttr": "i8", "DenseI16ArrayAttr": "i16", "DenseI32ArrayAttr": "i32",
                 "DenseI64ArrayAttr": "i64", "DenseBoolArrayAttr": "i1", "DenseF32ArrayAttr": "f32",
                 "DenseF64ArrayAttr": "f64"}


def parse_dense_array(p: AsmParser, element: str) -> Attribute:
    """`[1, 2, 3]`: a dense array printed stripped (DenseArrayAttr::parseWithoutBraces)."""
    p.parse_punct("[")
    items: list[str] = []
    if not p.parse_optional_punct("]"):
        while True:
            neg = p.parse_optional_punct("-")
            tok = p.peek_text()
            value = p.parse_attribute(parse_type_text(element))
            del tok
            items.append(("-" if neg else "") + _literal_text(value))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct("]")
    from ...syntax.attr_parser import parse_attribute_text

    text = f"array<{element}" + (": " + ", ".join(items) if items else "") + ">"
    value = parse_attribute_text(text)
    if not isinstance(value, DenseArrayAttr):
        raise p.error("expected a dense array")
    return value


def _literal_text(a: Attribute) -> str:
    from ...syntax.attr_printer import print_attribute

    text = print_attribute(a)
    return text.split(" : ", 1)[0]


def enum_value(p: AsmParser, word: str, enum: dict[str, Any]) -> Attribute:
    width = int(enum.get("width", 64))
    cases: list[list[Any]] = enum["cases"]
    for s, v, _ in cases:
        if s == word:
            return IntegerAttr.get(IntegerType.get(width), int(v) & ((1 << width) - 1))
    if enum.get("bit"):
        bits = 0
        for part in word.split(str(enum.get("sep", "|"))):
            part = part.strip()
            hit = next((v for s, v, _ in cases if s == part), None)
            if hit is None:
                raise p.error(f"'{part}' is not a case of this enum")
            bits |= int(hit)
        return IntegerAttr.get(IntegerType.get(width), bits)
    raise p.error(f"expected one of: {', '.join(str(c[0]) for c in cases)}")


# -- types, operands and segment sizes -------------------------------------------------------------
def finish(model: DeclarativeSyntax, p: AsmParser, parsed: Parsed, state: OpState) -> None:
    data = model.data
    resolve: dict[str, list[Any]] = data.get("resolve", {})
    operand_decl = data.get("operands", [])
    result_decl = data.get("results", [])

    def var_types(name: str) -> list[Type] | None:
        if name in parsed.operand_types:
            return parsed.operand_types[name]
        if name in parsed.result_types:
            return parsed.result_types[name]
        if parsed.all_operand_types is not None and name in [d[0] for d in operand_decl]:
            return _split_all(parsed.all_operand_types, operand_decl, name, parsed)
        return None

    def resolved(name: str, count: int) -> list[Type]:
        how = resolve.get(name)
        if how is None:
            raise p.error(f"'{model.name}': the type of '{name}' is not in the text and cannot be inferred")
        kind, what, transform = how
        if kind == "build":
            return [parse_type_text(what)] * count
        if kind == "attr":
            a = parsed.attrs.get(what)
            t = attr_type(a)
            if t is None:
                raise p.error(f"'{model.name}': cannot find the type of attribute '{what}'")
            base = [t]
        else:
            found = var_types(what)
            if found is None:
                raise p.error(f"'{model.name}': the type of '{what}' is not known")
            base = found
        try:
            out = typefns.derive(transform, base)
        except ValueError as exc:  # the text's type is not one the op's type function takes
            raise p.error(f"'{model.name}': the type of '{name}' cannot be derived: {exc}") from None
        except KeyError:  # the view never prints such an op in this form; a text may still say it
            raise p.error(f"'{model.name}': the type of '{name}' comes from a C++ type function with no "
                          "port") from None
        if len(out) == 1 and count != 1 and not typefns.gives_list(transform):
            out = out * count
        return out

    # Results.
    if parsed.all_result_types is not None:
        state.result_types = list(parsed.all_result_types)
    elif data.get("infer"):
        infer = typefns.INFER.get(model.name)
        if infer is None:
            raise p.error(f"'{model.name}' infers its result types in C++")
        state.result_types = infer(parsed, p)
    else:
        result_sizes = []
        for name, kind, _ in result_decl:
            if name in parsed.result_types:
                types = parsed.result_types[name]
            elif kind != "single" and name not in resolve:
                types = []
            else:
                types = resolved(name, 1)
            result_sizes.append(len(types))
            state.result_types.extend(types)
        if "AttrSizedResultSegments" in data.get("traits", []):
            parsed.attrs["resultSegmentSizes"] = i32_array(result_sizes)
    # Operands, in ODS order.
    if parsed.all_operands is not None:
        all_types = parsed.all_operand_types
        if all_types is None and not parsed.all_operands:
            all_types = []  # no operands: no types to find
        if all_types is None:
            all_types = []
            for name, _kind, _ in operand_decl:
                given = parsed.operand_types.get(name)
                all_types.extend(given if given is not None else resolved(name, 1))
        p.resolve_operands(parsed.all_operands, all_types, state)
    else:
        sizes = []
        for name, kind, _ in operand_decl:
            refs = parsed.operands.get(name, [])
            found = var_types(name)
            if found is None and not refs and kind != "single":
                found = []
            types = found if found is not None else resolved(name, len(refs))
            if len(types) != len(refs):
                if len(types) == 1 and refs:
                    types = types * len(refs)
                else:
                    raise p.error(f"'{model.name}': {len(refs)} operands in '{name}' but {len(types)} types")
            p.resolve_operands(refs, types, state)
            sizes.append(len(refs))
            if kind.startswith("vov:"):
                parsed.attrs[kind[4:]] = i32_array(parsed.vov_sizes.get(name, []))
        if "AttrSizedOperandSegments" in data.get("traits", []):
            parsed.attrs["operandSegmentSizes"] = i32_array(sizes)
    # Regions and successors.
    if parsed.all_regions is not None:
        state.regions.extend(parsed.all_regions)
    else:
        for name, variadic in data.get("regions", []):
            regions = parsed.regions.get(name)
            # A region the text left out (an optional group) is there, empty: MLIR adds every region.
            state.regions.extend(regions if regions is not None else [] if variadic else [Region(None)])
    if parsed.all_successors is not None:
        p.resolve_successors(parsed.all_successors, state)
    else:
        refs2: list[BlockRef] = []
        for name, _ in data.get("successors", []):
            refs2.extend(parsed.successors.get(name, []))
        p.resolve_successors(refs2, state)
    for name, info in data.get("props", {}).items():
        port = prop_port(info)
        if port is not None and name not in parsed.attrs:
            parsed.attrs[name] = port.default()  # an enum property left out of the text is its none case
    state.attributes.update(parsed.attrs)


def _split_all(types: list[Type], decl: list[Any], name: str, parsed: Parsed) -> list[Type]:
    at = 0
    for n, _, _ in decl:
        count = len(parsed.operands.get(n, [])) if parsed.all_operands is None else 0
        if n == name:
            return types[at:at + count]
        at += count
    return []


def i32_array(values: list[int]) -> Attribute:
    """An `array<i32: ...>` (segment sizes)."""
    return DenseArrayAttr.get(IntegerType.get(32), len(values), struct.pack(f"<{len(values)}i", *values))
