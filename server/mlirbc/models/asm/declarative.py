"""The declarative syntax model: one interpreter of ODS assembly formats, fed by each op's syntax data.

Printing follows the printer mlir-tblgen generates from a format (`OpFormatGen`): the same spacing rules
(a space before each variable or directive unless the previous literal was `(`, `[`, `{` or `<`, none
before closing punctuation after punctuation, `` `` `` removing it), optional groups printed when their
anchor is present (an optional or default-valued attribute that is not its default, an operand group that
is not empty, ...), a unit-attribute anchor left out of the text, the attribute dictionary without the
attributes the format prints, segment sizes and attributes that hold their default value.

Parsing reads what the printer writes, in the order of the format, and resolves the types the format
does not print as mlir-tblgen's parser does (see `derive._type_resolution`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

from ...errors import TextError
from ...ir.attributes import Attribute, DenseArrayAttr, DialectAttr, IntegerAttr, StringAttr, UnitAttr
from ...ir.operation import PROPS_DECODED, BlockArgument, Operation, OpResult, Region, Value
from ...ir.types import FunctionType, IntegerType, Type
from ...syntax.attr_parser import parse_attribute_text, parse_type_text
from ...syntax.attr_printer import plain_attribute_text, print_attribute
from . import typefns
from .adaptor import OpView, attr_type
from .api import (
    Argument,
    AsmParser,
    AsmPrinter,
    OperandRef,
    OpState,
    SyntaxBase,
    SyntaxModelError,
    interleave_comma,
)
from .props import UnitPropPort, prop_port
from .stripped import print_stripped_form

Element = list[Any]
_Resolution = tuple[str, str, str, Callable[[list[Type]], list[Type]], bool]
"""One type resolution of a format: value group, how, from what, the derivation, whether it gives a list."""
NamesHook = Callable[[OpView], list[tuple[int, str]]]
"""getAsmResultNames of one op, given its view."""


def _space_before(value: str, last_was_punct: bool) -> bool:
    if len(value) != 1 and value != "->":
        return True
    if last_was_punct:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"


def _is_keyword(text: str) -> bool:
    if not text or not (text[0].isalpha() or text[0] == "_"):
        return False
    return all(c.isalnum() or c in "_$." for c in text[1:])


class DeclarativeSyntax(SyntaxBase):
    """One op's declarative format, interpreted."""

    def __init__(self, name: str, data: dict[str, Any], names: NamesHook | None = None,
                 syntax_lookup: Callable[[str], Any] | None = None, default_dialect: str = "",
                 block_names: Callable[[OpView, int], list[tuple[int, str]]] | None = None) -> None:
        self.name = name
        self.block_names_hook = block_names
        """The op's `getAsmBlockArgumentNames` (region number -> entry block argument names), if any."""
        self._default_dialect = default_dialect
        self.data = data
        self.format: list[Element] = data["format"]
        self.names_hook = names
        self.syntax_lookup = syntax_lookup
        self._defaults: dict[str, Attribute | None] = {}
        self._built: dict[str, Type] = {}
        """Types the format builds (`type` resolution by a builder), parsed once."""
        self.used_attrs, self.used_props = _used(self.format)
        attrs = data.get("attrs", {})
        self.unit_attrs = {n for n, a in attrs.items() if a.get("kind") == "unit"} | \
            {n for n, info in data.get("props", {}).items() if isinstance(prop_port(info), UnitPropPort)}
        """Unit attributes and `UnitProp`s: a group or oilist clause they anchor prints only its keyword."""
        self.unreadable = unreadable(name, data)
        """Why the text this model prints could not be read back (it then prints generic), or None."""
        self._dict_elided: tuple[frozenset[str], frozenset[str], bool] | None = None
        """What `attr-dict` and `prop-dict` leave out, and whether the format has a `prop-dict`: the same
        for every op of the kind (`_dict_rules`)."""
        self._dict_skip: frozenset[str] | None = None
        """What `attr-dict` leaves out by name: what the format prints, and properties."""
        self._steps: list[_Step] | None = None
        """The format compiled (`_compile`), on first print."""
        self._plan: list[_Resolution] | None = None
        """The type resolutions an op's types are checked against (`_resolve_plan`), with the steps."""
        self._built_derived: dict[tuple[str, Callable[[list[Type]], list[Type]]], list[Type]] = {}
        """The types derived from a type the format builds: (its text, the derivation) -> them."""

    kind = "declarative format (ODS assemblyFormat)"

    def __repr__(self) -> str:
        return f"DeclarativeSyntax({self.name!r})"

    def keywords(self) -> list[str]:
        """The format's keyword literals, in format order."""
        from .format import walk

        out: list[str] = []
        for el in walk(self.format):
            if el[0] == "lit" and _is_keyword(el[1]) and el[1] not in out:
                out.append(el[1])
        for el in walk(self.format):
            if el[0] == "oilist":
                out.extend(lit for lit, _ in el[1] if lit not in out)
        return out

    # -- OpAsmOpInterface ---------------------------------------------------------------------------
    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        if self.names_hook is None:
            return []
        return self.names_hook(OpView(op, self.data))

    def ods_result_names(self, op: Operation) -> list[tuple[int, str]]:
        return ods_result_names(self.data, op)

    def block_arg_names(self, op: Operation, region: Region) -> list[tuple[BlockArgument, str]]:
        hook = self.block_names_hook
        if hook is None or not region.blocks:
            return []
        index = next((i for i, r in enumerate(op.regions) if r is region), -1)
        if index < 0:
            return []
        args = region.blocks[0].arguments
        return [(args[i], name) for i, name in hook(OpView(op, self.data), index) if 0 <= i < len(args)]

    def names_no_results(self) -> bool:
        """Whether `result_names` and `ods_result_names` are empty for every op (no names hook, fewer
        than two named result declarations): a printer then skips asking per op."""
        decl = self.data.get("results", [])
        return self.names_hook is None and (len(decl) < 2 or not any(n for n, _, _ in decl)
                                            or "asm_interface" in self.data)

    def default_dialect(self, op: Operation) -> str:
        return self._default_dialect

    # -- defaults ---------------------------------------------------------------------------------
    def default(self, name: str) -> Attribute | None:
        """The default value of a default-valued attribute (None: none, or not known without C++)."""
        if name not in self._defaults:
            text = self.data.get("attrs", {}).get(name, {}).get("default")
            value: Attribute | None = None
            if text is not None:
                try:
                    value = parse_attribute_text(text)
                except TextError:
                    value = None
            self._defaults[name] = value
        return self._defaults[name]

    def is_default(self, name: str, value: Attribute | None) -> bool:
        info = self.data.get("attrs", {}).get(name, {})
        if value is None:
            return True
        if "default" not in info and "default_cpp" not in info:
            return False
        d = self.default(name)
        if d is None:
            return False
        # a dialect's attribute the generic parser keeps as text equals a structured one printing alike
        return value is d or (isinstance(d, DialectAttr) and print_attribute(value) == print_attribute(d))

    def _present(self, view: OpView, name: str) -> bool:
        """genNonDefaultValueCheck: an optional attribute that is set, a default-valued one that is not
        its default (an absent one reads as its default, as MLIR fills it in)."""
        info = self.data.get("attrs", {}).get(name)
        value = view.attr(name)
        if info is None:
            prop = self.data.get("props", {}).get(name)
            if prop is None:
                return value is not None
            return value is not None and not _prop_is_default(prop, value)
        optional = info.get("optional", False)
        has_default = "default" in info or "default_cpp" in info
        if optional and not has_default:
            return value is not None
        if has_default:
            if value is None:
                return False
            if "default" not in info:
                raise SyntaxModelError(f"{self.name}: the default of '{name}' is known only in C++")
            return not self.is_default(name, value)
        return value is not None

    # ===============================================================================================
    # Printing
    # ===============================================================================================
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if self.unreadable is not None:
            raise SyntaxModelError(self.unreadable)
        view = OpView(op, self.data)
        steps = self._steps
        if steps is None:
            # Compiled on first print: what each op of the kind would otherwise look up in the syntax
            # data again (the interpreter's cost is per op, and most ops print here).
            plan = self._resolve_plan()
            steps = self._compile(self.format, _PrintState(), None)
            self._plan = plan
            self._steps = steps
        if self._plan is not None:
            self._check_derived_types(view, self._plan)
        for step in steps:
            step(view, p)

    def _resolve_plan(self) -> list[_Resolution] | None:
        """The format's type resolutions, each with its transformer looked up once: (value group, how,
        from what, the derivation, whether it gives a whole group's types).  None when there is nothing
        to check."""
        resolve: dict[str, list[Any]] = self.data.get("resolve", {})
        if not resolve and not (self.data.get("infer") and self.name in typefns.INFER):
            return None
        return [(name, kind, what, typefns.deriver(transform), typefns.gives_list(transform))
                for name, (kind, what, transform) in resolve.items()]

    def _check_derived_types(self, view: OpView,
                             plan: list[_Resolution]) -> None:
        """Refuse an op whose types the format leaves out but the op does not have as the format derives
        them (an op that does not verify): its custom form would read back as another op.  MLIR prints
        such an op generic (it verifies before printing a custom form)."""
        if self.data.get("infer") and self.name in typefns.INFER:
            self._check_inferred_types(view)
        if not plan:
            return
        operands = view.operand_groups()
        results: dict[str, list[OpResult]] | None = None  # (most plans name operands only)
        for name, kind, what, derive, many in plan:
            group: Sequence[Value] | None = operands.get(name)
            if group is None:
                if results is None:
                    results = view.result_groups()
                group = results.get(name, ())
            if not group and not many:
                continue
            if kind == "build":
                # a type the format builds, derived once (`index` for dynamic sizes, `i32`, ...)
                built = self._built_derived.get((what, derive))
                if built is None:
                    try:
                        built = derive([self._built_type(what)])
                    except ValueError:
                        built = []
                    self._built_derived[(what, derive)] = built
                derived = built
            else:
                if kind == "attr":
                    t = attr_type(view.attr(what))
                    base = [t] if t is not None else []
                else:
                    source: Sequence[Value] | None = operands.get(what)
                    if source is None:
                        if results is None:
                            results = view.result_groups()
                        source = results.get(what, ())
                    base = [v.type for v in source]
                try:
                    derived = derive(base)
                except ValueError:
                    derived = []
            if len(derived) == 1 and not many:
                # one type for every value of the group (types are mostly uniqued: `is` decides)
                t = derived[0]
                if all(v.type is t or t == v.type for v in group):
                    continue
                derived = derived * len(group)
            if len(derived) != len(group) or any(d != v.type for d, v in zip(derived, group, strict=False)):
                raise SyntaxModelError(f"{self.name}: the types of '{name}' are not the ones its format "
                                       f"derives from '{what}' (the op does not verify)")

    def _check_inferred_types(self, view: OpView) -> None:
        """The same for the result types a ported type inference (`typefns.INFER`) gives: what the
        parser would infer from the op's operand types and attributes must be the op's own."""
        from .declarative_parse import Parsed

        parsed = Parsed()
        parsed.operand_types = {k: [v.type for v in vs] for k, vs in view.operand_groups().items()}
        parsed.all_operand_types = [v.type for v in view.op.operands]
        parsed.attrs = dict(view.all_attrs())
        try:
            inferred = typefns.INFER[self.name](parsed, cast(AsmParser, _Refusing()))
        except (SyntaxModelError, ValueError):
            inferred = None
        if inferred != [r.type for r in view.op.results]:
            raise SyntaxModelError(f"{self.name}: the result types are not the ones it infers (the op does "
                                   "not verify)")

    def _built_type(self, text: str) -> Type:
        t = self._built.get(text)
        if t is None:
            t = self._built[text] = parse_type_text(text)
        return t

    def _oilist_body(self, body: list[Element]) -> list[Element]:
        """An oilist clause's elements as printed (a lone unit attribute is its keyword alone)."""
        if len(body) == 1 and body[0][0] in ("attr", "prop") and body[0][1] in self.unit_attrs:
            return []
        return body

    def _compile(self, elements: list[Element], st: _PrintState, elided: Element | None) -> list[_Step]:
        """The steps that print `elements`, starting from spacing state `st` (advanced past them).

        mlir-tblgen's generated printer decides its spacing as it is generated, not as it runs: the state
        after an optional group is the one after its last element, whichever branch printed (the else
        elements start from the state after the then elements).  So every space is known here, and the
        literals and spaces between two variables are one write."""
        steps: list[_Step] = []
        text: list[str] = []

        def flush() -> None:
            if text:
                steps.append(partial(_write, "".join(text)))
                text.clear()

        for el in elements:
            if el is elided:
                continue
            kind = el[0]
            if kind == "lit":
                value: str = el[1]
                if st.space and _space_before(value, st.punct):
                    text.append(" ")
                text.append(value)
                st.space = not (len(value) == 1 and value in "<({[")
                st.punct = value[0] != "_" and not value[0].isalpha()
            elif kind == "ws":
                if el[1] == "\\n":
                    flush()
                    steps.append(_newline)
                    continue
                if el[1]:
                    text.append(" ")
                    st.punct = False
                else:
                    st.punct = True
                st.space = False
            elif kind == "optional":
                flush()
                then, els, anchor_at, inverted = el[1], el[2], el[3], el[4]
                anchor = (els if inverted else then)[anchor_at]
                inner = None
                if anchor[0] in ("attr", "prop") and anchor[1] in self.unit_attrs and \
                        anchor is not then[0] and (not els or anchor is not els[0]):
                    inner = anchor
                printed_then = self._compile(then, st, inner)
                printed_else = self._compile(els, st, None)
                steps.append(partial(_optional, self._anchor_test(anchor), inverted, printed_then,
                                     printed_else))
            elif kind == "oilist":
                flush()
                clauses = []
                for literal, body in el[1]:
                    clause = self._compile([["lit", literal], *self._oilist_body(body)], st, None)
                    clauses.append((_variables(body), clause))
                steps.append(partial(self._oilist, clauses))
            elif kind in ("attr-dict", "prop-dict"):
                flush()
                steps.append(partial(self._print_attr_dict, with_keyword=el[1]) if kind == "attr-dict"
                             else self._print_prop_dict)
                st.punct = False
            else:
                if st.space or not st.punct:
                    text.append(" ")
                flush()
                st.punct = False
                st.space = True
                steps.append(self._variable_step(el))
        flush()
        return steps

    def _anchor_test(self, anchor: Element) -> Callable[[OpView], bool]:
        """Whether an optional group's anchor is present, as `_anchor_present` says, with what it
        looks up in the syntax data looked up once (the common anchors: a value group, an attribute)."""
        kind = anchor[0]
        name = anchor[1]
        if kind == "operand":
            return lambda view: bool(view.operands(name))
        if kind == "result":
            return lambda view: bool(view.results(name))
        if kind in ("attr", "prop"):
            info = self.data.get("attrs", {}).get(name)
            plain = info is None and name not in self.data.get("props", {})
            if info is not None and "default" not in info and "default_cpp" not in info:
                plain = True
            if plain:  # set or not (no default to compare with)
                return lambda view: view.attr(name) is not None
        return partial(_flipped, self._anchor_present, anchor)

    def _oilist(self, clauses: list[tuple[list[Element], list[_Step]]], view: OpView, p: AsmPrinter) -> None:
        for variables, clause in clauses:
            if any(self._var_present(v, view) for v in variables):
                for step in clause:
                    step(view, p)

    def _variable_step(self, el: Element) -> _Step:
        """The step printing one variable or directive (its leading space written before it)."""
        kind = el[0]
        if kind == "attr":
            name = el[1]
            info = self.data.get("attrs", {}).get(name, {})
            if "default" not in info:
                return partial(_print_attr, name, info, el[2], self.name)
            return partial(self._print_attr, name, el[2])
        if kind == "prop":
            return partial(self._print_prop, el[1])
        # A declaration the format names but the op lacks is the interpreted step's error to raise,
        # when an op reaches it.
        if kind == "operand":
            decls = {n: k for n, k, _ in self.data.get("operands", [])}
            if str(decls.get(el[1], "vov:")).startswith("vov:"):
                return partial(self._print_operand, el[1])
            return partial(_print_operands, el[1])
        if kind == "type":
            arg = el[1]
            if arg[0] in ("operand", "result"):
                found = [(k, info) for n, k, info in self.data.get(arg[0] + "s", []) if n == arg[1]]
                if found and found[0][0] == "single":
                    info = found[0][1]
                    strip = None if el[2] or "strip" not in info else str(info["strip"])
                    return partial(_print_single_type, arg[0] == "operand", arg[1], strip)
            return partial(self._print_type_directive, el[1], el[2])
        if kind == "custom":
            from .directives import print_directive

            return partial(_custom, print_directive, el[1], el[2], self)
        return partial(self._print_other, el)

    def _print_other(self, el: Element, view: OpView, p: AsmPrinter) -> None:
        kind = el[0]
        if kind == "region":
            regions = self._regions(view, el[1])
            interleave_comma(p, regions, lambda r: self._print_region(r, p))
        elif kind == "successor":
            blocks = self._successors(view, el[1])
            interleave_comma(p, blocks, p.successor)
        elif kind == "operands":
            interleave_comma(p, view.op.operands, p.operand)
        elif kind == "regions":
            interleave_comma(p, view.op.regions, lambda r: self._print_region(r, p))
        elif kind == "successors":
            interleave_comma(p, view.op.successors, p.successor)
        elif kind == "functional-type":
            inputs = self.types_of(el[1], view)
            results = self.types_of(el[2], view)
            print_functional_type(p, inputs, results)
        elif kind == "ref":
            raise SyntaxModelError(f"{self.name}: ref() outside a custom directive")
        else:
            raise SyntaxModelError(f"{self.name}: unknown format element {kind}")

    # -- pieces -------------------------------------------------------------------------------------
    def _print_attr(self, name: str, qualified: bool, view: OpView, p: AsmPrinter) -> None:
        value = view.attr(name)
        info = self.data.get("attrs", {}).get(name, {})
        if value is None:
            d = self.default(name) if "default" in info else None
            if d is None:
                raise SyntaxModelError(f"{self.name}: attribute '{name}' is missing")
            value = d
        print_attr_value(p, value, info, qualified, name)

    def _print_prop(self, name: str, view: OpView, p: AsmPrinter) -> None:
        value = view.attr(name)
        if value is None:
            raise SyntaxModelError(f"{self.name}: property '{name}' is missing")
        port = prop_port(self.data.get("props", {}).get(name))
        if port is not None:
            port.print(p, value)
            return
        p.attribute(value, name)

    def _print_operand(self, name: str, view: OpView, p: AsmPrinter) -> None:
        kind = self._operand_kind(name)
        if kind.startswith("vov:"):
            for i, group in enumerate(view.vov_groups(name)):
                if i:
                    p.write(", ")
                p.write("(")
                interleave_comma(p, group, p.operand)
                p.write(")")
            return
        interleave_comma(p, view.operands(name), p.operand)

    def _print_region(self, region: Region, p: AsmPrinter) -> None:
        if "implicit_terminator" in self.data:
            print_term = True
            if region.blocks and region.blocks[0].operations:
                term = region.blocks[0].operations[-1]
                print_term = bool(_attr_dict_nonempty(term)) or bool(term.operands) or bool(term.results)
            p.region(region, True, print_term)
        else:
            p.region(region)

    def _print_type_directive(self, arg: Element, qualified: bool, view: OpView, p: AsmPrinter) -> None:
        if arg[0] == "operand" and self._operand_kind(arg[1]).startswith("vov:"):
            for i, group in enumerate(view.vov_groups(arg[1])):
                if i:
                    p.write(", ")
                p.write("(")
                interleave_comma(p, group, lambda v: p.type(v.type))
                p.write(")")
            return
        if arg[0] in ("operand", "result"):
            kind, info = self._value_decl(arg)
            if kind == "single":
                values = view.operands(arg[1]) if arg[0] == "operand" else view.results(arg[1])
                t = values[0].type
                if qualified or "strip" not in info:
                    p.type(t)
                else:
                    print_stripped(p, t, info["strip"])
                return
        interleave_comma(p, self.types_of(arg, view), p.type)

    def _dict_rules(self) -> tuple[frozenset[str], frozenset[str], bool]:
        rules = self._dict_elided
        if rules is None:
            common = set(self._elided_common())
            rules = self._dict_elided = (frozenset(common | self.used_attrs),
                                         frozenset(common | self.used_attrs | self.used_props),
                                         any(el[0] == "prop-dict" for el in self.format))
        return rules

    def _print_attr_dict(self, view: OpView, p: AsmPrinter, with_keyword: bool) -> None:
        elided, _, has_prop_dict = self._dict_rules()
        if self.keyvalue_form(p) and view.op.properties is not None:
            # MLIR 24: the properties `attr-dict` covers print as a key-value list before the
            # discardable dictionary.
            if not has_prop_dict:
                self._print_prop_dict(view, p, space_always=False)
            out = [(k, v) for k, v in view.discardable() if k not in elided]
            p.optional_attr_dict(out, (), with_keyword)
            return
        skip = self._dict_skip
        if skip is None:
            skip = self._dict_skip = elided | frozenset(self.data.get("props", {}))
        if has_prop_dict:
            entries = [(k, v) for k, v in view.discardable() if k not in skip]
        else:
            entries = view.all_attrs(skip)  # `getAttrs()` without what the format prints
        if not entries:  # most ops
            return
        attrs = self.data.get("attrs", {})
        out = [(k, v) for k, v in entries if k not in attrs or not self._elide_default(k, v)]
        p.optional_attr_dict(out, (), with_keyword)

    def _elide_default(self, name: str, value: Attribute) -> bool:
        info = self.data.get("attrs", {}).get(name, {})
        if "default" in info:
            return self.is_default(name, value)
        if "default_cpp" in info:
            raise SyntaxModelError(f"{self.name}: the default of '{name}' is known only in C++")
        return False

    def _elided_common(self) -> list[str]:
        out = []
        traits = self.data.get("traits", [])
        if "AttrSizedOperandSegments" in traits and not any(el[0] == "operands" for el in self.format):
            out.append("operandSegmentSizes")
        if "AttrSizedResultSegments" in traits and not self.data.get("all_result_types"):
            out.append("resultSegmentSizes")
        for _, kind, _ in self.data.get("operands", []):
            if kind.startswith("vov:"):
                out.append(kind[4:])
        return out

    def keyvalue_form(self, p: object) -> bool:
        """Whether `attr-dict` and `prop-dict` print properties as MLIR 24's key-value list: the printer
        says so (`keyvalue_props`) and the op's dialect has strict properties in its assembly format (not
        so torch-mlir's: its syntax data says `legacy_attr_dict`)."""
        return bool(getattr(p, "keyvalue_props", False)) and not self.data.get("legacy_attr_dict")

    def _print_prop_dict(self, view: OpView, p: AsmPrinter, space_always: bool = True) -> None:
        # MLIR 24's `prop-dict` element: ` name = value, ...` when there is one, nothing at all when not
        # (`llvm.intr.ubsantrap failureKind = 3`; `pcf.loop ... } {hello = "world"}`)
        bare = space_always and self.keyvalue_form(p)
        if space_always and not bare:
            p.write(" ")
        elided = self._dict_rules()[1]
        shown = view.inherent(elided)  # the inherent attributes the format does not print
        if not shown:  # most ops
            return
        attrs = self.data.get("attrs", {})
        entries = [(k, v) for k, v in shown if k not in attrs or not self._elide_default(k, v)]
        if not entries:
            return
        if self.keyvalue_form(p):
            # MLIR 24: `<name = value, ...>` in the properties' declaration order, each value as its
            # declaration prints it.
            order = {n: i for i, n in enumerate(self.data.get("arg_order", ()))}
            entries.sort(key=lambda kv: order.get(kv[0], len(order)))
            p.write(" " if bare else " <")
            for i, (k, v) in enumerate(entries):
                if i:
                    p.write(", ")
                p.keyword_or_string(k.encode("utf-8", "surrogateescape"))
                if not isinstance(v, UnitAttr):
                    p.write(" = ")
                    print_attr_value(p, v, self.data.get("attrs", {}).get(k, {}), False, k)
            if not bare:
                p.write(">")
            return
        p.write("<{")
        for i, (k, v) in enumerate(entries):
            if i:
                p.write(", ")
            p.keyword_or_string(k.encode("utf-8", "surrogateescape"))
            if not isinstance(v, UnitAttr):
                p.write(" = ")
                p.attribute(v, k)
        p.write("}>")

    # -- anchors ------------------------------------------------------------------------------------
    def _anchor_present(self, anchor: Element, view: OpView) -> bool:
        kind = anchor[0]
        if kind in ("operand", "result"):
            group = view.operands(anchor[1]) if kind == "operand" else view.results(anchor[1])
            return bool(group)
        if kind == "region":
            return any(r.blocks for r in self._regions(view, anchor[1]))
        if kind == "type":
            return self._anchor_present(anchor[1], view)
        if kind == "functional-type":
            return self._anchor_present(anchor[1], view)
        if kind in ("attr", "prop"):
            return self._present(view, anchor[1])
        if kind == "custom":
            return any(self._anchor_present(a[1] if a[0] == "ref" else a, view) for a in anchor[2]
                       if a[0] not in ("string", "attr-dict", "prop-dict"))
        if kind == "successor":
            return bool(self._successors(view, anchor[1]))
        if kind in ("operands", "results"):
            return bool(view.op.operands if kind == "operands" else view.op.results)
        raise SyntaxModelError(f"{self.name}: cannot test anchor {kind}")

    def _var_present(self, v: Element, view: OpView) -> bool:
        kind = v[0]
        if kind in ("attr", "prop"):
            return self._present(view, v[1])
        if kind in ("operand", "result"):
            group = view.operands(v[1]) if kind == "operand" else view.results(v[1])
            return bool(group)
        if kind == "region":
            return any(r.blocks for r in self._regions(view, v[1]))
        return False

    # -- helpers ----------------------------------------------------------------------------------
    def _operand_kind(self, name: str) -> str:
        for n, k, _ in self.data.get("operands", []):
            if n == name:
                return str(k)
        raise SyntaxModelError(f"{self.name}: no operand '{name}'")

    def _value_decl(self, arg: Element) -> tuple[str, dict[str, Any]]:
        decls = self.data.get("operands" if arg[0] == "operand" else "results", [])
        for n, k, info in decls:
            if n == arg[1]:
                return str(k), info
        raise SyntaxModelError(f"{self.name}: no {arg[0]} '{arg[1]}'")

    def _regions(self, view: OpView, name: str) -> list[Region]:
        decl = self.data.get("regions", [])
        names = [n for n, _ in decl]
        if name not in names:
            raise SyntaxModelError(f"{self.name}: no region '{name}'")
        variadic = [v for _, v in decl]
        regions = list(view.op.regions)
        if not any(variadic):
            i = names.index(name)
            if len(regions) != len(names):
                raise SyntaxModelError(f"{self.name}: expected {len(names)} regions")
            return [regions[i]]
        fixed = len(names) - sum(variadic)
        each = len(regions) - fixed
        out: list[Region] = []
        at = 0
        for n, v in decl:
            size = each if v else 1
            if n == name:
                return regions[at:at + size]
            at += size
        return out

    def _successors(self, view: OpView, name: str) -> list[Any]:
        decl = self.data.get("successors", [])
        succ = list(view.op.successors)
        if not any(v for _, v in decl):
            i = [n for n, _ in decl].index(name)
            return [succ[i]]
        fixed = len(decl) - sum(1 for _, v in decl if v)
        each = len(succ) - fixed
        at = 0
        for n, v in decl:
            size = each if v else 1
            if n == name:
                return succ[at:at + size]
            at += size
        return []

    def types_of(self, arg: Element, view: OpView) -> list[Type]:
        kind = arg[0]
        if kind == "operands":
            return [v.type for v in view.op.operands]
        if kind == "results":
            return [r.type for r in view.op.results]
        if kind == "operand":
            return [v.type for v in view.operands(arg[1])]
        if kind == "result":
            return [r.type for r in view.results(arg[1])]
        if kind == "ref":
            return self.types_of(arg[1], view)
        raise SyntaxModelError(f"{self.name}: {kind} is not a type argument")

    # ===============================================================================================
    # Parsing
    # ===============================================================================================
    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from .declarative_parse import parse_declarative

        parse_declarative(self, p, state)


def unreadable(name: str, data: dict[str, Any]) -> str | None:
    """Why a declarative format's text could not be read back by this engine (None: it can)."""
    from .directives import can_parse
    from .format import walk

    for what in data.get("unresolved", []):
        return f"the type of '{what}' is not in '{name}''s text and mlir-tblgen's rules cannot infer it"
    if data.get("infer") and name not in typefns.INFER:
        return f"'{name}' infers its result types in C++ (no port)"
    for target, (how, _, transform) in data.get("resolve", {}).items():
        if how != "build" and not typefns.known(transform):
            return f"the type of '{target}' comes from a C++ transformer with no port"
    # a property a custom directive takes is the directive's to print (its port reads the value)
    in_directives = {id(arg) for el in walk(data["format"]) if el[0] == "custom" for arg in walk(el[2])}
    for el in walk(data["format"]):
        if el[0] == "custom" and not can_parse(el[1], name):
            return f"custom<{el[1]}> has no port"
        if el[0] == "prop" and id(el) not in in_directives and \
                prop_port(data.get("props", {}).get(el[1])) is None:
            return f"property '{el[1]}' prints through C++ with no port"
        if el[0] == "attr":
            info = data.get("attrs", {}).get(el[1], {})
            if info.get("kind") == "typed" and "type" not in info:
                return f"the type of attribute '{el[1]}' is built in C++"
    return None


_Step = Callable[[OpView, AsmPrinter], None]
"""One step of a compiled format: prints its part of an op."""


def _write(text: str, view: OpView, p: AsmPrinter) -> None:
    p.write(text)


def _optional(present: Callable[[OpView], bool], inverted: bool, then: list[_Step], els: list[_Step],
              view: OpView, p: AsmPrinter) -> None:
    for step in (els if present(view) == inverted else then):
        step(view, p)


def _flipped(test: Callable[[Element, OpView], bool], anchor: Element, view: OpView) -> bool:
    return test(anchor, view)


def _print_attr(name: str, info: dict[str, Any], qualified: bool, op_name: str, view: OpView,
                p: AsmPrinter) -> None:
    """An attribute variable with no default value (`DeclarativeSyntax._print_attr` for the others)."""
    value = view.attr(name)
    if value is None:
        raise SyntaxModelError(f"{op_name}: attribute '{name}' is missing")
    print_attr_value(p, value, info, qualified, name)


def _print_operands(name: str, view: OpView, p: AsmPrinter) -> None:
    """An operand variable (not a variadic of variadics): its values, comma separated."""
    values = view.operands(name)
    if len(values) == 1:
        p.operand(values[0])
    else:
        interleave_comma(p, values, p.operand)


def _print_single_type(operand: bool, name: str, strip: str | None, view: OpView, p: AsmPrinter) -> None:
    """`type($x)` of a single operand or result: its type, stripped of `strip` where the format says so."""
    values = view.operands(name) if operand else view.results(name)
    t = values[0].type
    if strip is None:
        p.type(t)
    else:
        print_stripped(p, t, strip)


def _newline(view: OpView, p: AsmPrinter) -> None:
    p.newline()


def _custom(print_directive: Callable[..., None], name: str, args: Any, model: DeclarativeSyntax,
            view: OpView, p: AsmPrinter) -> None:
    print_directive(name, args, model, view, p)


class _PrintState:
    __slots__ = ("space", "punct")

    def __init__(self) -> None:
        self.space = True
        self.punct = False


def _used(elements: list[Element]) -> tuple[set[str], set[str]]:
    """Attributes and properties the format binds (outside `ref(...)`)."""
    attrs: set[str] = set()
    props: set[str] = set()
    stack: list[tuple[Element, bool]] = [(e, False) for e in elements]
    while stack:
        el, in_ref = stack.pop()
        kind = el[0]
        if kind == "attr" and not in_ref:
            attrs.add(el[1])
        elif kind == "prop" and not in_ref:
            props.add(el[1])
        elif kind == "ref":
            stack.append((el[1], True))
        elif kind == "optional":
            stack.extend((c, in_ref) for c in el[1] + el[2])
        elif kind == "oilist":
            for _, body in el[1]:
                stack.extend((c, in_ref) for c in body)
        elif kind == "custom":
            stack.extend((c, in_ref) for c in el[2])
    return attrs, props


def _variables(elements: list[Element]) -> list[Element]:
    out: list[Element] = []
    for el in elements:
        kind = el[0]
        if kind in ("attr", "prop", "operand", "result", "region", "successor"):
            out.append(el)
        elif kind == "custom":
            out.extend(_variables([a for a in el[2] if a[0] != "ref"]))
        elif kind == "optional":
            out.extend(_variables(el[1] + el[2]))
        elif kind in ("type",):
            out.extend(_variables([el[1]]))
        elif kind == "functional-type":
            out.extend(_variables([el[1], el[2]]))
    return out


def _prop_is_default(prop: dict[str, Any], value: Attribute) -> bool:
    port = prop_port(prop)
    if port is not None:
        return port.is_default(value)
    default = prop.get("default_cpp")
    if default is None:
        return False
    if isinstance(value, IntegerAttr):
        try:
            return value.bits == int(default, 0)
        except ValueError:
            return False
    return False


def _attr_dict_nonempty(op: Operation) -> bool:
    """`getAttrDictionary()` is not empty: inherent (properties) or discardable attributes."""
    p = op.properties
    if p is not None and p.kind == PROPS_DECODED and p.values:
        return True
    return op.attributes is not None and bool(op.attributes.entries)


# -- shared printing helpers (used by hand-written models too) --------------------------------------
def print_functional_type(p: AsmPrinter, inputs: list[Type], results: list[Type]) -> None:
    """`(inputs) -> result` or `(inputs) -> (results)` (printFunctionalType)."""
    p.write("(")
    interleave_comma(p, inputs, p.type)
    p.write(") -> ")
    wrapped = len(results) != 1 or isinstance(results[0], FunctionType)
    if wrapped:
        p.write("(")
    interleave_comma(p, results, p.type)
    if wrapped:
        p.write(")")


class _Refusing:
    """The one parser method a type inference calls, `error`, for inferring at print time."""

    def error(self, message: str) -> Exception:
        return SyntaxModelError(message)


def print_stripped(p: AsmPrinter, value: Attribute | Type, prefix: str, lead_space: bool = True) -> None:
    """printStrippedAttrOrType: the value without its `#dialect.mnemonic` / `!dialect.mnemonic` prefix when
    it is of the class that prefix names (else in full).  `lead_space`: whether a value whose full form is
    `#dialect<mnemonic body>` keeps the space before its body (MLIR 22's generated printers write it; the
    MLIR of jaxlib does not: its syntax data says `lead_space: false`)."""
    if print_stripped_form(p, value, prefix):
        return
    stripped = getattr(p, "stripped", None)
    if not callable(stripped):
        raise SyntaxModelError("the printer cannot print stripped values")
    if lead_space:
        stripped(value, prefix)
    else:
        stripped(value, prefix, False)


def bit_enum_words(bits: int, enum: dict[str, Any]) -> list[str]:
    """The words of a non-zero bit enum value as its generated symbolizer writes them: every case whose
    bits are all set, in declaration order; with `printBitEnumPrimaryGroups`, the groups first (the
    largest, declared last, first), each taking its bits away."""
    cases: list[list[Any]] = enum["cases"]
    words: list[str] = []
    covered = 0
    left = bits
    if enum.get("primary_groups"):
        for name, v, group in reversed(cases):
            if v and (group or v & (v - 1)) and (v & left) == v:
                words.append(str(name))
                covered |= v
                left &= ~v
        singles = [(n, v) for n, v, g in cases if v and not (g or v & (v - 1))]
    else:
        singles = [(n, v) for n, v, _ in cases if v]
    for name, v in singles:
        if (v & left) == v:
            words.append(str(name))
            covered |= v
    if covered != bits:
        raise SyntaxModelError(f"bit enum value {bits} has bits no case names")
    return words


_ENUM_TEXTS: dict[tuple[int, int], tuple[dict[str, Any], str]] = {}
"""(id(enum data), value) -> (the enum data, its text): an enum's data lives as long as its model (the
process); the data is kept so that its id stays its own."""


def enum_text(value: Attribute, enum: dict[str, Any]) -> str:
    """The keyword (or quoted string) of an integer enum attribute (its symbolizer's text)."""
    if not isinstance(value, IntegerAttr):
        raise SyntaxModelError(f"an enum attribute is not an integer: {value!r}")
    key = (id(enum), value.bits)
    found = _ENUM_TEXTS.get(key)
    if found is not None and found[0] is enum:
        return found[1]
    text = _enum_text(value.bits, enum)
    if len(_ENUM_TEXTS) < 65536:  # (hostile values cannot grow it without bound)
        _ENUM_TEXTS[key] = (enum, text)
    return text


def _enum_text(bits: int, enum: dict[str, Any]) -> str:
    cases: list[list[Any]] = enum["cases"]
    if enum.get("bit"):
        if bits == 0:
            zero = [c for c in cases if c[1] == 0]
            if not zero:
                raise SyntaxModelError("no case for the empty bit enum")
            text = str(zero[0][0])
        else:
            text = str(enum.get("sep", "|")).join(bit_enum_words(bits, enum))
        single = [c for c in cases if c[1] == bits]
        keyword = bool(single) and _is_keyword(text) and bits > 0 and bits & (bits - 1) == 0
        return text if keyword else '"' + text + '"'
    for s, v, _ in cases:
        width = int(enum.get("width", 64))
        if v & ((1 << width) - 1) == bits:
            return str(s) if _is_keyword(str(s)) else '"' + str(s) + '"'
    raise SyntaxModelError(f"enum value {bits} has no case")


def print_attr_value(p: AsmPrinter, value: Attribute, info: dict[str, Any], qualified: bool,
                     slot: str | None) -> None:
    """An attribute variable of a declarative format, as its kind prints it."""
    kind = info.get("kind", "plain")
    if kind == "enum":
        p.write(enum_text(value, info["enum"]))
    elif kind == "symbol":
        if not isinstance(value, StringAttr):
            raise SyntaxModelError("a symbol name is not a string")
        p.symbol_name(value.value)
    elif kind == "typed":
        p.attribute_without_type(value, slot)
    elif kind == "generic" or qualified:
        p.attribute(value, slot)
    elif kind == "stripped":
        print_stripped(p, value, info["strip"], info.get("lead_space", True))
    elif kind == "bare":
        # the case alone, as MLIR 24 prints an NVVM or ROCDL enum in an op's format (`bfly`)
        text = plain_attribute_text(value)
        prefix = info["strip"] + "<"
        body = text[len(prefix):-1]
        if not text.startswith(prefix) or not text.endswith(">") or not body.replace("_", "").isalnum():
            raise SyntaxModelError(f"{text[:60]} is not a {info['strip']} case")
        p.write(body)
    else:
        if isinstance(value, DenseArrayAttr) and "DenseArray" not in info.get("storage", "") and \
                "Dense" not in info.get("storage", ""):
            p.attribute(value, slot)
        elif isinstance(value, DenseArrayAttr):
            print_stripped(p, value, "array")
        else:
            p.attribute(value, slot)


def parse_type_value(text: str) -> Type:
    return parse_type_text(text)


__all__ = ["DeclarativeSyntax", "print_functional_type", "print_stripped", "enum_text", "print_attr_value",
           "typefns", "Argument", "OperandRef", "Value", "IntegerType"]


def ods_result_names(data: dict[str, Any], op: Operation) -> list[tuple[int, str]]:
    """The results' ODS names, as the `getAsmResultNames` mlir-tblgen generates for an op of several
    result declarations names them (`%sum, %overflow`; `%memref, %asyncToken`): the first value of each
    non-empty group.  Ops printed generic have them too (`%head, %tail = "shape.split_at"`).  An op that
    declares OpAsmOpInterface gets none: mlir-tblgen leaves the naming to the op's own methods."""
    decl = data.get("results", [])
    if len(decl) < 2 or not any(n for n, _, _ in decl) or "asm_interface" in data:
        return []
    groups = OpView(op, data).result_groups()
    out: list[tuple[int, str]] = []
    at = 0
    for n, _, _ in decl:
        size = len(groups[n])
        if n and size:
            out.append((at, str(n)))
        at += size
    return out
