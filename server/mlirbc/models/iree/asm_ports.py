"""Hand-written syntax models of IREE ops whose form IREE writes in C++ (`util.func`, `util.initializer`,
`vm.func`, `vm.import`, `vm.export`, `vm.call.variadic`), ports of UtilOps.cpp's and VMOps.cpp's
print/parse."""

from __future__ import annotations

import re
from pathlib import Path

from ...ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseElementsAttr,
    DictionaryAttr,
    FlatSymbolRefAttr,
    IntegerAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
)
from ...ir.operation import Operation, Region
from ...ir.types import FunctionType, IndexType, IntegerType, TupleType, Type, VectorType
from ...syntax.attr_parser import parse_type_text
from ...syntax.attr_printer import dense_blob
from ..asm.api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from ..asm.directives_iree_regions import parse_condition_region, print_condition_region
from ..asm.ports.base import (
    Port,
    _dicts,
    attr_entries,
    function_attr_entries,
    function_type_of,
    parse_function_op,
    parse_function_signature,
    parse_function_tail,
    print_function_op,
    print_function_signature,
)
from ..asm.ports.scf import parse_assignment_list

ASM_DATA_DIR = Path(__file__).with_name("asm_data")
UNTIED = -1


class _IreePort(Port):
    data_dir = ASM_DATA_DIR

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        """The names IREE's OpAsmOpInterface / dialect interface give (`asm_names.RESULT_NAMES`)."""
        from .asm_names import RESULT_NAMES

        fn = RESULT_NAMES.get(self.name)
        return fn(self.view(op)) if fn is not None else []


def _tied(view_attr: Attribute | None, n: int) -> list[int]:
    if view_attr is None:
        return [UNTIED] * n
    if not isinstance(view_attr, ArrayAttr) or len(view_attr.elements) != n:
        raise SyntaxModelError("tied_operands does not match the results")
    out = []
    for e in view_attr.elements:
        if not isinstance(e, IntegerAttr):
            raise SyntaxModelError("tied_operands holds a non-integer")
        bits = e.bits
        out.append(bits - (1 << 64) if bits >> 63 else bits)
    return out


class UtilFuncOp(_IreePort):
    keywords_list = ("attributes",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        ft = view.attr("function_type")
        name = view.attr("sym_name")
        if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType) or \
                not isinstance(name, StringAttr):
            raise SyntaxModelError("util.func needs a function type and a name")
        inputs, results = list(ft.type.inputs), list(ft.type.results)
        body = op.regions[0] if op.regions else None
        if body is not None and body.blocks:
            args = body.blocks[0].arguments
            if len(args) != len(inputs) or any(a.type is not t for a, t in zip(args, inputs, strict=True)):
                raise SyntaxModelError("the body's arguments do not match the function type")
            if any(p.value_name(a) != f"%arg{i}" for i, a in enumerate(args)):
                raise SyntaxModelError("the signature names arguments %argN, the body does not")
        vis = view.attr("sym_visibility")
        p.write(" " + (vis.text if isinstance(vis, StringAttr) else "public") + " ")
        p.symbol_name(name.value)
        arg_attrs = _dicts(view.attr("arg_attrs"), len(inputs))
        p.write("(")
        entry = body.blocks[0].arguments if body is not None and body.blocks else None
        for i, t in enumerate(inputs):
            if i:
                p.write(", ")
            if entry is not None:
                p.operand(entry[i])  # the same `%argN`, where the text defines the body's argument
                p.write(": ")
            else:
                p.write(f"%arg{i}: ")
            p.type(t)
            d = arg_attrs[i]
            if d is not None and d.entries:
                p.optional_attr_dict([(k.text, v) for k, v in d.entries])
        p.write(")")
        if results:
            p.write(" -> ")
            res_attrs = _dicts(view.attr("res_attrs"), len(results))
            any_attrs = any(d is not None and d.entries for d in res_attrs)
            parens = len(results) != 1 or any_attrs
            if parens:
                p.write("(")
            tied = _tied(view.attr("tied_operands"), len(results))
            for i, t in enumerate(results):
                if i:
                    p.write(", ")
                printed_type = True
                if tied[i] != UNTIED:
                    p.write(f"%arg{tied[i]}")
                    if not 0 <= tied[i] < len(inputs):
                        raise SyntaxModelError("a result is tied to no argument")
                    if inputs[tied[i]] is not t:
                        p.write(" as ")
                    else:
                        printed_type = False
                if printed_type:
                    p.type(t)
                d = res_attrs[i]
                if d is not None and d.entries:
                    p.optional_attr_dict([(k.text, v) for k, v in d.entries])
            if parens:
                p.write(")")
        elided = {"sym_name", "function_type", "tied_operands", "sym_visibility", "arg_attrs", "res_attrs"}
        p.optional_attr_dict(attr_entries(view, elided), (), with_keyword=True)
        if body is not None and body.blocks:
            p.write(" ")
            p.region(body, False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        for word in ("public", "private", "nested"):
            if p.parse_optional_keyword(word):
                state.attributes["sym_visibility"] = StringAttr.get(word)
                break
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        # (the argument list reads as upstream's; the results may be tied to arguments)
        args, arg_attrs, _, _, _ = _arguments(p)
        results: list[Type] = []
        res_attrs: list[DictionaryAttr] = []
        tied: list[int] = []
        if p.parse_optional_punct("->"):
            parens = p.parse_optional_punct("(")
            if not (parens and p.parse_optional_punct(")")):
                while True:
                    ref = p.parse_optional_operand()
                    index = UNTIED
                    if ref is not None:
                        names = [a.ref.name for a in args]
                        if ref.name not in names:
                            raise p.error(f"tied operand not found for result reference {ref.name}")
                        index = names.index(ref.name)
                        t = p.parse_type() if p.parse_optional_keyword("as") else args[index].type
                        assert t is not None
                    else:
                        t = p.parse_type()
                    results.append(t)
                    tied.append(index)
                    d = p.parse_optional_attr_dict() if parens else None
                    res_attrs.append(d if d is not None else DictionaryAttr.get(()))
                    if not p.parse_optional_punct(","):
                        break
                if parens:
                    p.parse_punct(")")
        if tied:
            state.attributes["tied_operands"] = ArrayAttr.get(tuple(
                IntegerAttr.get(IndexType.get(), i & ((1 << 64) - 1)) for i in tied))
        state.attributes["function_type"] = TypeAttr.get(FunctionType.get(
            tuple(a.type for a in args if a.type is not None), tuple(results)))
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        if any(x.entries for x in arg_attrs):
            state.attributes["arg_attrs"] = ArrayAttr.get(tuple(arg_attrs))
        if any(x.entries for x in res_attrs):
            state.attributes["res_attrs"] = ArrayAttr.get(tuple(res_attrs))
        body = p.parse_optional_region([a for a in args if a.ref.name])
        state.regions.append(body if body is not None else Region(None))


def _arguments(p: AsmParser) -> tuple:  # type: ignore[type-arg]
    """The `(%arg0: T {attrs}, ...)` argument list (parseFunctionArgumentList), results not read."""
    from ..asm.api import Argument

    args: list[Argument] = []
    attrs: list[DictionaryAttr] = []
    p.parse_punct("(")
    if not p.parse_optional_punct(")"):
        while True:
            a = p.parse_argument(True, True)
            args.append(a)
            attrs.append(a.attrs if a.attrs is not None else DictionaryAttr.get(()))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    return args, attrs, None, None, None


class UtilInitializerOp(_IreePort):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        p.optional_attr_dict(attr_entries(view, {"function_type"}), (), with_keyword=True)
        p.write(" ")
        p.region(op.regions[0])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        state.attributes["function_type"] = TypeAttr.get(FunctionType.get((), ()))
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        state.regions.append(p.parse_region())


class VmFuncOp(_IreePort):
    """`vm.func`: FunctionOpInterface's own form (`printFunctionOp`, no variadic signatures)."""

    keywords_list = ("attributes",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        print_function_op(p, op, self.view(op))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        parse_function_op(p, state)


_ARG_NAME = re.compile(r"[0-9]+|[A-Za-z$._-][\w$.-]*")


class VmImportOp(_IreePort):
    """`vm.import private optional @m.f(%name : t, %rest : u ...) -> r attributes {...}`: an argument's
    `vm.name` and `vm.variadic` attributes are its text; nothing else of `arg_attrs` has a spelling."""

    keywords_list = ("optional", "attributes")
    _ELIDED = frozenset(("sym_name", "function_type", "arg_attrs", "res_attrs", "is_variadic", "is_optional",
                         "sym_visibility"))

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        name = view.attr("sym_name")
        if not isinstance(name, StringAttr) or view.attr("res_attrs") is not None or \
                (op.regions and op.regions[0].blocks):
            raise SyntaxModelError("vm.import needs a name, and has no result attributes nor body")
        inputs, results = function_type_of(view, "function_type")
        arg_attrs = _dicts(view.attr("arg_attrs"), len(inputs))
        if view.attr("arg_attrs") is not None and all(d is None or not d.entries for d in arg_attrs):
            raise SyntaxModelError("empty argument attributes have no spelling")
        names: list[str | None] = []
        variadic: list[bool] = []
        for d in arg_attrs:
            entries = dict((k.text, v) for k, v in d.entries) if d is not None else {}
            arg_name = entries.pop("vm.name", None)
            flag = entries.pop("vm.variadic", None)
            if entries or (arg_name is not None and (not isinstance(arg_name, StringAttr) or
                                                     not _ARG_NAME.fullmatch(arg_name.text))) or \
                    (flag is not None and not isinstance(flag, UnitAttr)):
                raise SyntaxModelError("an argument attribute other than vm.name and vm.variadic")
            names.append(arg_name.text if isinstance(arg_name, StringAttr) else None)
            variadic.append(flag is not None)
        vis = view.attr("sym_visibility")
        p.write(" " + (vis.text if isinstance(vis, StringAttr) else "public") + " ")
        if view.attr("is_optional") is not None:
            p.write("optional ")
        p.symbol_name(name.value)
        p.write("(")
        for i, t in enumerate(inputs):
            if i:
                p.write(", ")
            if names[i] is not None:
                p.write(f"%{names[i]} : ")
            p.type(t)
            if variadic[i]:
                p.write(" ...")
        p.write(")")
        _print_arrow_types(p, results)
        p.optional_attr_dict(function_attr_entries(p, view, set(self._ELIDED)), (), with_keyword=True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        for word in ("public", "private", "nested"):
            if p.parse_optional_keyword(word):
                state.attributes["sym_visibility"] = StringAttr.get(word)
                break
        if p.parse_optional_keyword("optional"):
            state.attributes["is_optional"] = UnitAttr.get()
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        p.parse_punct("(")
        inputs: list[Type] = []
        dicts: list[DictionaryAttr] = []
        while not p.parse_optional_punct(")"):
            arg_name = p.parse_optional_value_name()  # a name in the signature, not a value
            entries: list[tuple[StringAttr, Attribute]] = []
            if arg_name is not None:
                p.parse_punct(":")
                entries.append((StringAttr.get("vm.name"), StringAttr.get(arg_name[1:])))
            inputs.append(p.parse_type())
            if p.parse_optional_punct("..."):
                entries.append((StringAttr.get("vm.variadic"), UnitAttr.get()))
            dicts.append(DictionaryAttr.get(tuple(sorted(entries, key=lambda e: e[0].value))))
            if not p.parse_optional_punct(","):
                p.parse_punct(")")
                break
        results = _parse_arrow_types(p)
        if any(d.entries for d in dicts):
            state.attributes["arg_attrs"] = ArrayAttr.get(tuple(dicts))
        attrs = p.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            state.attributes.update((k.text, v) for k, v in attrs.entries)
        state.attributes["function_type"] = TypeAttr.get(FunctionType.get(tuple(inputs), tuple(results)))
        state.regions.append(Region())


class VmExportOp(_IreePort):
    """`vm.export @f as("name") attributes {...}` (` as(...)` when the export name is not the function's)."""

    keywords_list = ("as", "attributes")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        from ...syntax.attr_printer import escape_bytes

        view = self.view(op)
        ref = view.attr("function_ref")
        export = view.attr("export_name")
        if not isinstance(ref, FlatSymbolRefAttr) or not isinstance(export, StringAttr):
            raise SyntaxModelError("vm.export needs a function reference and an export name")
        p.write(" ")
        p.symbol_name(ref.root.value)
        if export.value != ref.root.value:
            if escape_bytes(export.value) != export.text:
                raise SyntaxModelError("the export name prints unescaped (C++ streams it raw)")
            p.write(f' as("{export.text}")')
        p.optional_attr_dict(attr_entries(view, {"function_ref", "export_name"}), (), with_keyword=True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        ref = p.parse_attribute()
        if not isinstance(ref, FlatSymbolRefAttr):
            raise p.error("expected a symbol reference")
        state.attributes["function_ref"] = ref
        if p.parse_optional_keyword("as"):
            p.parse_punct("(")
            name = p.parse_attribute()
            if not isinstance(name, StringAttr):
                raise p.error("expected a string")
            state.attributes["export_name"] = name
            p.parse_punct(")")
        else:
            state.attributes["export_name"] = ref.root
        attrs = p.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            state.attributes.update((k.text, v) for k, v in attrs.entries)


def _print_arrow_types(p: AsmPrinter, results: list[Type]) -> None:
    """` -> t` or ` -> (t, u)` (nothing without results): `parseOptionalArrowTypeList`'s text."""
    if len(results) == 1:
        p.write(" -> ")
        p.type(results[0])
    elif results:
        p.write(" -> (")
        for i, t in enumerate(results):
            if i:
                p.write(", ")
            p.type(t)
        p.write(")")


def _parse_arrow_types(p: AsmParser) -> list[Type]:
    out: list[Type] = []
    if p.parse_optional_punct("->"):
        if p.parse_optional_punct("("):
            if not p.parse_optional_punct(")"):
                out.append(p.parse_type())
                while p.parse_optional_punct(","):
                    out.append(p.parse_type())
                p.parse_punct(")")
        else:
            out.append(p.parse_type())
    return out


def _segment_sizes(value: Attribute | None, n: int) -> list[int]:
    """`segment_sizes` (a dense vector of i16, -1 for a single operand) as integers."""
    if not isinstance(value, DenseElementsAttr) or value.type != VectorType.get((n,), IntegerType.get(16)):
        raise SyntaxModelError("segment_sizes is not a vector of i16 matching segment_types")
    data = bytes(value.data)
    if len(data) == 2:
        data = data * n
    if len(data) != 2 * n:
        raise SyntaxModelError("segment_sizes holds the wrong number of elements")
    return [int.from_bytes(data[2 * i:2 * i + 2], "little", signed=True) for i in range(n)]


class VmCallVariadicOp(_IreePort):
    """`vm.call.variadic @f(%a, [%b, %c], [(%d, %e)]) {attrs} : (t, u ..., tuple<v, w> ...) -> r`: a
    segment per callee argument, `...` after the type of a variadic one (a tuple type: its operands
    grouped in parentheses)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        callee = view.attr("callee")
        types = view.attr("segment_types")
        if not isinstance(callee, FlatSymbolRefAttr) or not isinstance(types, ArrayAttr) or \
                not all(isinstance(t, TypeAttr) for t in types.elements):
            raise SyntaxModelError("vm.call.variadic needs a callee and segment types")
        seg_types = [t.type for t in types.elements if isinstance(t, TypeAttr)]
        sizes = _segment_sizes(view.attr("segment_sizes"), len(seg_types))
        widths = [len(t.types) if isinstance(t, TupleType) else 1 for t in seg_types]
        if sum(1 if n < 0 else n * w for n, w in zip(sizes, widths, strict=True)) != len(op.operands) or \
                any(n < -1 for n in sizes):
            raise SyntaxModelError("segment_sizes does not match the operands")
        p.write(" ")
        p.attribute(callee)
        p.write("(")
        at = 0
        for i, (n, t) in enumerate(zip(sizes, seg_types, strict=True)):
            if i:
                p.write(", ")
            if n < 0:
                p.operand(op.operands[at])
                at += 1
                continue
            p.write("[")
            for j in range(n):
                if j:
                    p.write(", ")
                if isinstance(t, TupleType):
                    p.write("(")
                    for k in range(len(t.types)):
                        if k:
                            p.write(", ")
                        p.operand(op.operands[at])
                        at += 1
                    p.write(")")
                else:
                    p.operand(op.operands[at])
                    at += 1
            p.write("]")
        p.write(")")
        p.optional_attr_dict(attr_entries(view, {"callee", "segment_sizes", "segment_types"}))
        p.write(" : (")
        for i, (n, t) in enumerate(zip(sizes, seg_types, strict=True)):
            if i:
                p.write(", ")
            p.type(t)
            if n >= 0:
                p.write(" ...")
        p.write(")")
        _print_arrow_types(p, [r.type for r in op.results])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        callee = p.parse_attribute()
        if not isinstance(callee, FlatSymbolRefAttr):
            raise p.error("invalid callee symbol")
        state.attributes["callee"] = callee
        p.parse_punct("(")
        refs: list[OperandRef] = []
        flat_sizes: list[int] = []
        while not p.parse_optional_punct(")"):
            if p.parse_optional_punct("["):
                segment: list[OperandRef] = []
                while not p.parse_optional_punct("]"):
                    if p.parse_optional_punct("("):
                        while not p.parse_optional_punct(")"):
                            segment.append(p.parse_operand())
                            if not p.parse_optional_punct(","):
                                p.parse_punct(")")
                                break
                    else:
                        segment.append(p.parse_operand())
                    if not p.parse_optional_punct(","):
                        p.parse_punct("]")
                        break
                flat_sizes.append(len(segment))
                refs.extend(segment)
            else:
                refs.append(p.parse_operand())
                flat_sizes.append(-1)
            if not p.parse_optional_punct(","):
                p.parse_punct(")")
                break
        attrs = p.parse_optional_attr_dict()
        if attrs is not None:
            state.attributes.update((k.text, v) for k, v in attrs.entries)
        p.parse_punct(":")
        p.parse_punct("(")
        flat_types: list[Type] = []
        seg_types: list[Type] = []
        sizes: list[int] = []
        while not p.parse_optional_punct(")"):
            t = p.parse_type()
            if p.parse_optional_punct("..."):
                if len(sizes) >= len(flat_sizes) or flat_sizes[len(sizes)] < 0:
                    raise p.error("a variadic type for a single operand")
                flat = flat_sizes[len(sizes)]
                parts = list(t.types) if isinstance(t, TupleType) else [t]
                if not parts or flat % len(parts):
                    raise p.error("the operands do not fill the tuple type")
                flat_types.extend(parts * (flat // len(parts)))
                sizes.append(flat // len(parts))
            else:
                flat_types.append(t)
                sizes.append(-1)
            seg_types.append(t)
            if not p.parse_optional_punct(","):
                p.parse_punct(")")
                break
        if len(flat_types) != len(refs):
            raise p.error("operands do not match type list")
        p.resolve_operands(refs, flat_types, state)
        i16 = IntegerType.get(16)
        data = b"".join((n & 0xFFFF).to_bytes(2, "little") for n in sizes)
        vector = VectorType.get((len(sizes),), i16)
        state.attributes["segment_sizes"] = DenseElementsAttr.get(vector, dense_blob(vector, data))
        state.attributes["segment_types"] = ArrayAttr.get(tuple(TypeAttr.get(t) for t in seg_types))
        state.result_types.extend(_parse_arrow_types(p))


class VmCondFailOp(_IreePort):
    """`vm.cond_fail %cond, %status, "message"` (`%cond` alone when it is the status too).  IREE writes the
    message between quotes without escaping it: one that needs escapes prints generic."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        if len(op.operands) != 2 or op.results:
            raise SyntaxModelError("vm.cond_fail has a condition and a status")
        cond, status = op.operands
        message = view.attr("message")
        text = None
        if message is not None:
            if not isinstance(message, StringAttr):
                raise SyntaxModelError("the message is not a string")
            text = message.value.decode("utf-8", "surrogateescape")
            if any(c in '"\\' or not c.isprintable() for c in text):
                raise SyntaxModelError("a message IREE's printer would not escape")
        p.write(" ")
        if cond is not status:
            p.operand(cond)
            p.write(", ")
        p.operand(status)
        if text is not None:
            p.write(f', "{text}"')
        p.optional_attr_dict(attr_entries(view, {"message"}))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        cond = p.parse_operand()
        status = cond
        message = None
        if p.parse_optional_punct(","):
            ref = p.parse_optional_operand()
            if ref is not None:
                status = ref
                if p.parse_optional_punct(","):
                    message = p.parse_optional_string()
                    if message is None:
                        raise p.error("expected a message")
            else:
                message = p.parse_optional_string()
                if message is None:
                    raise p.error("expected a status or a message")
        if message is not None:
            state.attributes["message"] = StringAttr.get(message)
        i32 = IntegerType.get(32)
        p.resolve_operands([cond, status], [i32, i32], state)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


class FlowDispatchRegionOp(_IreePort):
    """`flow.dispatch.region[%w] -> (tensor<?xf32>{%d}) attributes {...} {body} count(...) -> (...) {...}`
    (DispatchRegionOp::print).  IREE hides a `flow.return` without operands and attributes, and its parser
    does not put it back: such an op prints generic."""

    keywords_list = ("attributes", "count")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        from ..asm.directives_iree import _dynamic_dims, _print_dims
        from ..asm.directives_iree_regions import _index3, _print_signature_region

        view = self.view(op)
        groups = view.operand_groups()
        dims, workload = list(groups["result_dims"]), list(groups["workload"])
        if len(op.regions) != 2:
            raise SyntaxModelError("flow.dispatch.region has a body and a workgroup count region")
        body, count = op.regions
        if workload:
            p.write("[")
            for i, v in enumerate(workload):
                if i:
                    p.write(", ")
                p.operand(v)
            p.write("]")
        p.write(" -> (")
        at = 0
        for i, r in enumerate(op.results):
            if i:
                p.write(", ")
            p.type(r.type)
            n = _dynamic_dims(r.type)
            if n is not None and n > 0:  # (shaped results only: no size after a size-aware type)
                at = _print_dims(p, r.type, dims, at)
        p.write(")")
        if at != len(dims):
            raise SyntaxModelError("more result dimensions than the types need")
        p.optional_attr_dict(attr_entries(view, {"operandSegmentSizes"}), (), with_keyword=True)
        p.write(" ")
        if body.blocks and body.blocks[0].operations:
            term = body.blocks[0].operations[-1]
            has_attrs = term.attributes is not None and bool(term.attributes.entries)
            if term.name == "flow.return" and not (term.operands or term.results or has_attrs):
                # IREE hides it, and its parser does not put it back: the text would lose it
                raise SyntaxModelError("a flow.return the form hides and its parser does not restore")
        p.region(body, True, True)
        if count.blocks:
            p.write(" count")
            _print_signature_region(p, count, _index3())

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..asm.declarative_parse import i32_array
        from ..asm.directives_iree import parse_dims
        from ..asm.directives_iree_regions import _index3, _parse_signature_region

        workload: list[OperandRef] = []
        if p.parse_optional_punct("["):
            if not p.parse_optional_punct("]"):
                workload.append(p.parse_operand())
                while p.parse_optional_punct(","):
                    workload.append(p.parse_operand())
                p.parse_punct("]")
        dims: list[OperandRef] = []
        if p.parse_optional_punct("->"):
            p.parse_punct("(")
            if not p.parse_optional_punct(")"):
                while True:
                    t = p.parse_type()
                    state.result_types.append(t)
                    parse_dims(p, t, dims)
                    if not p.parse_optional_punct(","):
                        break
                p.parse_punct(")")
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        body = p.parse_region()
        state.regions.append(body)
        if p.parse_optional_keyword("count"):
            state.regions.append(_parse_signature_region(
                p, _index3(), "workgroup count region must return the XYZ dimension counts"))
        else:
            state.regions.append(Region(None))
        index = IndexType.get()
        p.resolve_operands(dims, [index] * len(dims), state)
        p.resolve_operands(workload, [index] * len(workload), state)
        state.attributes["operandSegmentSizes"] = i32_array([len(dims), len(workload)])


class HalExecutableConstantBlockOp(_IreePort):
    """`hal.executable.constant.block(%arg0: !hal.device) -> (i32, i32) as ("a", "b") {...}`
    (ExecutableConstantBlockOp::print: the function signature, the keys, the function attributes)."""

    keywords_list = ("as", "attributes")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        if view.attr("arg_attrs") is not None or view.attr("res_attrs") is not None:
            raise SyntaxModelError("argument or result attributes (the form prints them twice)")
        keys = view.attr("keys")
        inputs, results = function_type_of(view, "function_type")
        if not isinstance(keys, ArrayAttr) or len(keys.elements) != len(results) or \
                not all(isinstance(k, StringAttr) for k in keys.elements) or not op.regions[0].blocks:
            raise SyntaxModelError("one string key per result and a body are needed")
        print_function_signature(p, op, view, inputs, results, False, "arg_attrs", "res_attrs")
        p.write(" as ")
        if len(results) != 1:
            p.write("(")
        for i, key in enumerate(keys.elements):
            if i:
                p.write(", ")
            p.attribute(key)
        if len(results) != 1:
            p.write(")")
        p.optional_attr_dict(function_attr_entries(p, view, {"function_type", "keys"}), (), with_keyword=True)
        p.write(" ")
        p.region(op.regions[0], False, True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        args, arg_attrs, results, res_attrs, _ = parse_function_signature(p)
        state.attributes["function_type"] = TypeAttr.get(FunctionType.get(
            tuple(a.type for a in args if a.type is not None), tuple(results)))
        p.parse_keyword("as")
        keys: list[Attribute] = []
        if len(results) == 1:
            keys.append(_string(p))
        elif p.parse_optional_punct("("):
            if not p.parse_optional_punct(")"):
                while True:
                    keys.append(_string(p))
                    if not p.parse_optional_punct(","):
                        break
                p.parse_punct(")")
        state.attributes["keys"] = ArrayAttr.get(tuple(keys))
        parse_function_tail(p, state, args, arg_attrs, res_attrs, inferred=("function_type", "keys"))
        if not state.regions or not state.regions[-1].blocks:
            raise p.error("expected non-empty function body")


def _string(p: AsmParser) -> Attribute:
    text = p.parse_optional_string()
    if text is None:
        raise p.error("expected a string key")
    return StringAttr.get(text)


_CONDITION_TYPE = "(!hal.device) -> i1"
"""The function type of a target condition region (getTargetConditionRegionType)."""


class HalExecutableConditionOp(_IreePort):
    """`hal.executable.condition(%arg0: !hal.device) -> i1 {...}` (printTargetConditionRegion, then the
    attributes but `function_type`, with the keyword)."""

    keywords_list = ("attributes",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        body = op.regions[0]
        if body.blocks:
            print_condition_region(p, body)
        p.optional_attr_dict(attr_entries(view, {"function_type"}), (), with_keyword=True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        state.regions.append(parse_condition_region(p))
        state.attributes["function_type"] = TypeAttr.get(parse_type_text(_CONDITION_TYPE))
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


class UtilHoistableConversionOp(_IreePort):
    """`util.hoistable_conversion "tag" inverts("inverse") (%arg = %input, ...) : (T) -> U {...}`
    (HoistableConversionOp::print: the tags written raw between quotes, the region's arguments as an
    assignment list, its entry block left out)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        tag, inverse = view.attr("tag"), view.attr("inverseTag")
        body = op.regions[0]
        if not isinstance(tag, StringAttr) or not isinstance(inverse, StringAttr) or \
                any(_RAW_UNSAFE.search(t.text) for t in (tag, inverse)):
            raise SyntaxModelError("tags the form writes raw must be plain text")
        if not body.blocks or len(body.blocks[0].arguments) != len(op.operands):
            raise SyntaxModelError("the body's arguments do not pair with the inputs")
        p.write(f' "{tag.text}" inverts("{inverse.text}") (')
        for i, (arg, v) in enumerate(zip(body.blocks[0].arguments, op.operands, strict=True)):
            if i:
                p.write(", ")
            p.operand(arg)
            p.write(" = ")
            p.operand(v)
        p.write(") : ")
        p.type(FunctionType.get(tuple(v.type for v in op.operands), tuple(r.type for r in op.results)))
        p.write(" ")
        p.region(body, False, True)
        p.optional_attr_dict(view.discardable())

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        tag = p.parse_optional_string()
        if tag is None:
            raise p.error("expected the conversion's tag")
        p.parse_keyword("inverts")
        p.parse_punct("(")
        inverse = p.parse_optional_string()
        if inverse is None:
            raise p.error("expected the inverse tag")
        p.parse_punct(")")
        state.attributes["tag"] = StringAttr.get(tag)
        state.attributes["inverseTag"] = StringAttr.get(inverse)
        p.parse_punct("(")
        args, inputs = parse_assignment_list(p)
        p.parse_punct(":")
        fn = p.parse_type()
        if not isinstance(fn, FunctionType) or len(fn.inputs) != len(inputs):
            raise p.error(f"expected a function type with {len(inputs)} input types")
        for arg, t in zip(args, fn.inputs, strict=True):
            arg.type = t
        p.resolve_operands(inputs, list(fn.inputs), state)
        state.result_types.extend(fn.results)
        state.regions.append(p.parse_region(args))
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


_RAW_UNSAFE = re.compile(r'["\\\x00-\x1f\x7f-\U0010ffff]')
"""What a tag written raw between quotes cannot hold and read back as itself."""


MODELS: list[OpSyntax] = [
    FlowDispatchRegionOp("flow.dispatch.region"),
    UtilFuncOp("util.func"), UtilInitializerOp("util.initializer"), UtilInitializerOp("vm.initializer"),
    VmFuncOp("vm.func"), VmImportOp("vm.import"), VmExportOp("vm.export"),
    VmCallVariadicOp("vm.call.variadic"), VmCondFailOp("vm.cond_fail"),
    HalExecutableConstantBlockOp("hal.executable.constant.block"),
    HalExecutableConditionOp("hal.executable.condition"),
    UtilHoistableConversionOp("util.hoistable_conversion"),
]
