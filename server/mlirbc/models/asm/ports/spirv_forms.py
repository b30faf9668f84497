"""SPIR-V ops whose forms are C++ (SPIRVOps.cpp, MemoryOps.cpp): the GL ternary ops
(`printOneResultOp`: `%a, %b, %c : T`), the extended arithmetic ops (`%a, %b : !spirv.struct<(T, T)>`),
`spirv.Variable`, `spirv.GlobalVariable`, `spirv.Load`/`spirv.Store` (`"Function" %ptr ["Aligned", 4]`),
`spirv.CompositeExtract`/`CompositeInsert`, `spirv.module`, `spirv.func`, `spirv.EntryPoint` and
`spirv.ExecutionMode`.

Pointer and composite types are read through their text (`!spirv.ptr<T, Class>`), as the models know them
only as dialect types."""

from __future__ import annotations

from ....ir.attributes import (
    ArrayAttr,
    Attribute,
    DialectAttr,
    FlatSymbolRefAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from ....ir.operation import Operation, Region
from ....ir.types import IntegerType, Type, VectorType
from ....syntax.attr_parser import parse_attribute_text, parse_type_text
from ....syntax.attr_printer import plain_attribute_text, plain_type_text
from ..adaptor import OpView
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..directives_upstream import _split_top
from .base import Port, attr_entries, parse_function_signature, print_function_signature


# -- types through their text --------------------------------------------------------------------------
def _params(text: str, prefix: str) -> list[str] | None:
    if not text.startswith(prefix + "<") or not text.endswith(">"):
        return None
    return [part.strip() for part in _split_top(text[len(prefix) + 1:-1])]


def pointer_parts(t: Type) -> tuple[str, str]:
    """(pointee text, storage class) of `!spirv.ptr<T, Class>`."""
    params = _params(plain_type_text(t), "!spirv.ptr")
    if params is None or len(params) != 2:
        raise SyntaxModelError("not a SPIR-V pointer type")
    return params[0], params[1]


def pointer_type(pointee: Type, storage_class: str) -> Type:
    return parse_type_text(f"!spirv.ptr<{plain_type_text(pointee)}, {storage_class}>")


def member_type(t: Type, index: int) -> Type:
    """`CompositeType::getElementType(index)` of a vector, array, runtime array, matrix or struct."""
    if isinstance(t, VectorType):
        if not t.shape or not 0 <= index < t.shape[0]:
            raise SyntaxModelError(f"index {index} out of bounds")
        return t.element
    text = plain_type_text(t)
    for prefix in ("!spirv.array", "!spirv.matrix"):
        params = _params(text, prefix)
        if params is not None:
            count, x, elem = params[0].partition(" x ")
            if not x or not count.isdigit() or not 0 <= index < int(count):
                raise SyntaxModelError(f"index {index} out of bounds")
            return parse_type_text(elem.strip())
    params = _params(text, "!spirv.rtarray")
    if params is not None:
        return parse_type_text(params[0])
    params = _params(text, "!spirv.struct")
    if params is not None and len(params) == 1 and params[0].startswith("(") and params[0].endswith(")"):
        members = [m.strip() for m in _split_top(params[0][1:-1])]
        if not 0 <= index < len(members) or "[" in members[index]:
            raise SyntaxModelError(f"struct member {index} is not a plain type")
        return parse_type_text(members[index])
    raise SyntaxModelError(f"cannot extract from {text}")


def indexed_type(t: Type, indices: Attribute | None) -> Type:
    if not isinstance(indices, ArrayAttr) or not indices.elements:
        raise SyntaxModelError("expected at least one index")
    for a in indices.elements:
        if not isinstance(a, IntegerAttr):
            raise SyntaxModelError("an index is not an integer")
        t = member_type(t, a.bits - (1 << 32) if a.bits >> 31 else a.bits)
    return t


def _enum_case(a: Attribute | None, prefix: str) -> str:
    """The case text of `#spirv.<enum><Case>` (what `stringify<Enum>` writes)."""
    if not isinstance(a, DialectAttr):
        raise SyntaxModelError(f"expected a {prefix} attribute")
    text = plain_attribute_text(a)
    if not text.startswith(prefix + "<") or not text.endswith(">"):
        raise SyntaxModelError(f"expected a {prefix} attribute")
    return text[len(prefix) + 1:-1]


def _enum(prefix: str, case: str) -> Attribute:
    return parse_attribute_text(f"{prefix}<{case}>")


def _string(p: AsmParser) -> str:
    s = p.parse_optional_string()
    if s is None:
        raise p.error("expected a string")
    return s.decode("utf-8", "surrogateescape")


def _attrs(p: AsmParser, state: OpState, with_keyword: bool = False) -> None:
    d = p.parse_optional_attr_dict_with_keyword() if with_keyword else p.parse_optional_attr_dict()
    if d is not None:
        state.attributes.update((k.text, v) for k, v in d.entries)


# -- printOneResultOp / parseOneResultSameOperandTypeOp ----------------------------------------------
class OneResultOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.results) != 1 or any(v.type is not op.results[0].type for v in op.operands):
            raise SyntaxModelError("operand and result types differ (mlir-opt prints it generic)")
        p.write(" ")
        for i, v in enumerate(op.operands):
            if i:
                p.write(", ")
            p.operand(v)
        p.optional_attr_dict(self.view(op).all_attrs())
        p.write(" : ")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        refs = [p.parse_operand()]
        while p.parse_optional_punct(","):
            refs.append(p.parse_operand())
        _attrs(p, state)
        p.parse_punct(":")
        t = p.parse_type()
        p.resolve_operands(refs, [t] * len(refs), state)
        state.result_types.append(t)


# -- printArithmeticExtendedBinaryOp -------------------------------------------------------------------
class ExtendedBinaryOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.results) != 1 or len(op.operands) != 2:
            raise SyntaxModelError(f"{self.name} has two operands and one result")
        t = op.results[0].type
        if member_type(t, 0) is not op.operands[0].type or op.operands[1].type is not op.operands[0].type:
            raise SyntaxModelError("operand types are not the struct's member type")
        p.write(" ")
        p.optional_attr_dict(self.view(op).all_attrs())
        p.operand(op.operands[0])
        p.write(", ")
        p.operand(op.operands[1])
        p.write(" : ")
        p.type(t)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        _attrs(p, state)
        refs = [p.parse_operand()]
        p.parse_punct(",")
        refs.append(p.parse_operand())
        p.parse_punct(":")
        t = p.parse_type()
        try:
            member = member_type(t, 0)
        except SyntaxModelError as exc:
            raise p.error("expected spirv.struct type with two members") from exc
        p.resolve_operands(refs, [member, member], state)
        state.result_types.append(t)


# -- variables -----------------------------------------------------------------------------------------
def print_variable_decorations(p: AsmPrinter, entries: list[tuple[str, Attribute]], elided: set[str]) -> None:
    """printVariableDecorations: ` bind(set, binding)`, ` built_in("Name")`, then the other attributes."""
    values = dict(entries)
    ds, binding = values.get("descriptor_set"), values.get("binding")
    if isinstance(ds, IntegerAttr) and isinstance(binding, IntegerAttr):
        elided |= {"descriptor_set", "binding"}
        p.write(f" bind({_int(ds)}, {_int(binding)})")
    built_in = values.get("built_in")
    if isinstance(built_in, StringAttr):
        if '"' in built_in.text or "\\" in built_in.text:
            raise SyntaxModelError("a built_in name that would not read back")
        p.write(f' built_in("{built_in.text}")')
        elided.add("built_in")
    p.optional_attr_dict([(k, v) for k, v in entries if k not in elided])


def _int(a: IntegerAttr) -> int:
    t = a.type
    width = t.width if isinstance(t, IntegerType) else 64
    return a.bits - (1 << width) if width and a.bits >> (width - 1) and t != IntegerType.get(width, 2) \
        else a.bits


def parse_variable_decorations(p: AsmParser, state: OpState) -> None:
    i32 = IntegerType.get(32)
    if p.parse_optional_keyword("bind"):
        p.parse_punct("(")
        state.attributes["descriptor_set"] = IntegerAttr.get(i32, p.parse_integer() & 0xFFFFFFFF)
        p.parse_punct(",")
        state.attributes["binding"] = IntegerAttr.get(i32, p.parse_integer() & 0xFFFFFFFF)
        p.parse_punct(")")
    if p.parse_optional_keyword("built_in"):
        p.parse_punct("(")
        state.attributes["built_in"] = StringAttr.get(_string(p))
        p.parse_punct(")")
    _attrs(p, state)


class VariableOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.results) != 1 or len(op.operands) > 1:
            raise SyntaxModelError("spirv.Variable has one result and at most one initializer")
        t = op.results[0].type
        pointee, storage = pointer_parts(t)
        view = self.view(op)
        if _enum_case(view.attr("storage_class"), "#spirv.storage_class") != storage:
            raise SyntaxModelError("the storage class differs from the pointer's")
        if op.operands:
            if plain_type_text(op.operands[0].type) != pointee:
                raise SyntaxModelError("the initializer's type is not the pointee type")
            p.write(" init(")
            p.operand(op.operands[0])
            p.write(")")
        print_variable_decorations(p, view.all_attrs(), {"storage_class"})
        p.write(" : ")
        p.type(t)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        init = None
        if p.parse_optional_keyword("init"):
            p.parse_punct("(")
            init = p.parse_operand()
            p.parse_punct(")")
        parse_variable_decorations(p, state)
        p.parse_punct(":")
        t = p.parse_type()
        try:
            pointee, storage = pointer_parts(t)
        except SyntaxModelError as exc:
            raise p.error("expected spirv.ptr type") from exc
        state.result_types.append(t)
        if init is not None:
            p.resolve_operands([init], [parse_type_text(pointee)], state)
        state.attributes["storage_class"] = _enum("#spirv.storage_class", storage)


_VISIBILITIES = ("private", "public", "nested")


def print_visibility(p: AsmPrinter, view: OpView, elided: set[str]) -> None:
    """MLIR 24 (`keyvalue_props`): the op's `sym_visibility` property as a keyword before its name, as
    spirv.module, spirv.GlobalVariable and spirv.func print it there (MLIR 22 has no such property: the
    attribute stays in the dictionary)."""
    if not getattr(p, "keyvalue_props", False):
        return
    vis = view.attr("sym_visibility")
    if isinstance(vis, StringAttr) and vis.text in _VISIBILITIES:
        p.write(" " + vis.text)
        elided.add("sym_visibility")


def parse_visibility(p: AsmParser, state: OpState) -> None:
    """The keyword `print_visibility` writes, read back into `sym_visibility` (MLIR 24 only)."""
    if not getattr(p, "keyvalue_props", False):
        return
    for word in _VISIBILITIES:
        if p.parse_optional_keyword(word):
            state.attributes["sym_visibility"] = StringAttr.get(word)
            return


class GlobalVariableOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        name, t = view.attr("sym_name"), view.attr("type")
        if not isinstance(name, StringAttr) or not isinstance(t, TypeAttr) or op.operands or op.results:
            raise SyntaxModelError("spirv.GlobalVariable needs a name and a type")
        elided = {"storage_class", "sym_name", "type"}
        print_visibility(p, view, elided)
        p.write(" ")
        p.symbol_name(name.value)
        init = view.attr("initializer")
        if init is not None:
            if not isinstance(init, FlatSymbolRefAttr):
                raise SyntaxModelError("the initializer is not a flat symbol reference")
            p.write(" initializer(")
            p.attribute(init)
            p.write(")")
            elided.add("initializer")
        print_variable_decorations(p, view.all_attrs(), elided)
        p.write(" : ")
        p.type(t.type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        parse_visibility(p, state)
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        if p.parse_optional_keyword("initializer"):
            p.parse_punct("(")
            init = p.parse_attribute()
            if not isinstance(init, FlatSymbolRefAttr):
                raise p.error("expected a symbol reference")
            state.attributes["initializer"] = init
            p.parse_punct(")")
        parse_variable_decorations(p, state)
        p.parse_punct(":")
        t = p.parse_type()
        try:
            pointer_parts(t)
        except SyntaxModelError as exc:
            raise p.error("expected spirv.ptr type") from exc
        state.attributes["type"] = TypeAttr.get(t)


# -- loads and stores ----------------------------------------------------------------------------------
def print_memory_access(p: AsmPrinter, entries: list[tuple[str, Attribute]], elided: set[str]) -> None:
    values = dict(entries)
    access = values.get("memory_access")
    if access is None:
        return
    case = _enum_case(access, "#spirv.memory_access")
    elided.add("memory_access")
    p.write(f' ["{case}"')
    alignment = values.get("alignment")
    if "Aligned" in case.split("|") and isinstance(alignment, IntegerAttr):
        elided.add("alignment")
        p.write(f", {alignment.bits}")
    p.write("]")


def parse_memory_access(p: AsmParser, state: OpState) -> None:
    if not p.parse_optional_punct("["):
        return
    case = _string(p)
    state.attributes["memory_access"] = _enum("#spirv.memory_access", case)
    if "Aligned" in case.split("|"):
        p.parse_punct(",")
        state.attributes["alignment"] = p.parse_attribute(IntegerType.get(32))
    p.parse_punct("]")


class LoadOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 1 or len(op.results) != 1:
            raise SyntaxModelError("spirv.Load has one pointer and one result")
        pointee, storage = pointer_parts(op.operands[0].type)
        if pointee != plain_type_text(op.results[0].type):
            raise SyntaxModelError("the result type is not the pointee type")
        p.write(f' "{storage}" ')
        p.operand(op.operands[0])
        entries = self.view(op).all_attrs()
        elided: set[str] = set()
        print_memory_access(p, entries, elided)
        p.optional_attr_dict([(k, v) for k, v in entries if k not in elided])
        p.write(" : ")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        storage = _string(p)
        ref = p.parse_operand()
        parse_memory_access(p, state)
        _attrs(p, state)
        p.parse_punct(":")
        t = p.parse_type()
        p.resolve_operands([ref], [pointer_type(t, storage)], state)
        state.result_types.append(t)


class StoreOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 2 or op.results:
            raise SyntaxModelError("spirv.Store has a pointer and a value")
        pointee, storage = pointer_parts(op.operands[0].type)
        if pointee != plain_type_text(op.operands[1].type):
            raise SyntaxModelError("the value's type is not the pointee type")
        p.write(f' "{storage}" ')
        p.operand(op.operands[0])
        p.write(", ")
        p.operand(op.operands[1])
        entries = self.view(op).all_attrs()
        elided: set[str] = set()
        print_memory_access(p, entries, elided)
        p.write(" : ")
        p.type(op.operands[1].type)
        p.optional_attr_dict([(k, v) for k, v in entries if k not in elided])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        storage = _string(p)
        refs = [p.parse_operand()]
        p.parse_punct(",")
        refs.append(p.parse_operand())
        parse_memory_access(p, state)
        p.parse_punct(":")
        t = p.parse_type()
        _attrs(p, state)
        p.resolve_operands(refs, [pointer_type(t, storage), t], state)


# -- composites ----------------------------------------------------------------------------------------
class CompositeExtractOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        indices = self.view(op).attr("indices")
        if len(op.operands) != 1 or len(op.results) != 1 or \
                indexed_type(op.operands[0].type, indices) is not op.results[0].type:
            raise SyntaxModelError("the result type is not the indexed member's")
        assert indices is not None
        p.write(" ")
        p.operand(op.operands[0])
        p.attribute(indices)
        p.write(" : ")
        p.type(op.operands[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        ref = p.parse_operand()
        indices = p.parse_attribute()
        state.attributes["indices"] = indices
        p.parse_punct(":")
        t = p.parse_type()
        p.resolve_operands([ref], [t], state)
        try:
            state.result_types.append(indexed_type(t, indices))
        except SyntaxModelError as exc:
            raise p.error(str(exc)) from exc


class CompositeInsertOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        indices = self.view(op).attr("indices")
        if len(op.operands) != 2 or len(op.results) != 1 or indices is None:
            raise SyntaxModelError("spirv.CompositeInsert has an object, a composite and indices")
        p.write(" ")
        p.operand(op.operands[0])
        p.write(", ")
        p.operand(op.operands[1])
        p.attribute(indices)
        p.write(" : ")
        p.type(op.operands[0].type)
        p.write(" into ")
        p.type(op.operands[1].type)
        if op.results[0].type is not op.operands[1].type:
            raise SyntaxModelError("the result type is not the composite's")

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        refs = [p.parse_operand()]
        p.parse_punct(",")
        refs.append(p.parse_operand())
        state.attributes["indices"] = p.parse_attribute()
        p.parse_punct(":")
        obj = p.parse_type()
        p.parse_keyword("into")
        composite = p.parse_type()
        p.resolve_operands(refs, [obj, composite], state)
        state.result_types.append(composite)


# -- module and functions ------------------------------------------------------------------------------
class ModuleOp(Port):
    keywords_list = ("requires", "attributes")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        if len(op.regions) != 1:
            raise SyntaxModelError("spirv.module has one region")
        elided = {"addressing_model", "memory_model", "sym_name"}
        print_visibility(p, view, elided)
        name = view.attr("sym_name")
        if isinstance(name, StringAttr):
            p.write(" ")
            p.symbol_name(name.value)
        addressing = _enum_case(view.attr("addressing_model"), "#spirv.addressing_model")
        memory = _enum_case(view.attr("memory_model"), "#spirv.memory_model")
        p.write(f" {addressing} {memory}")
        vce = view.attr("vce_triple")
        if vce is not None:
            p.write(" requires ")
            p.attribute(vce)
            elided.add("vce_triple")
        p.optional_attr_dict(attr_entries(view, elided), (), with_keyword=True)
        p.write(" ")
        p.region(op.regions[0])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        parse_visibility(p, state)
        name = p.parse_optional_symbol_name()
        if name is not None:
            state.attributes["sym_name"] = StringAttr.get(name)
        for attr, prefix in (("addressing_model", "#spirv.addressing_model"),
                             ("memory_model", "#spirv.memory_model")):
            word = p.parse_optional_any_keyword()
            if word is None:
                raise p.error(f"expected {attr}")
            state.attributes[attr] = _enum(prefix, word)
        if p.parse_optional_keyword("requires"):
            state.attributes["vce_triple"] = p.parse_attribute()
        _attrs(p, state, with_keyword=True)
        body = p.parse_region()
        if not body.blocks:
            from ....ir.operation import Block

            body.blocks.append(Block(body))
        state.regions.append(body)


class FuncOp(Port):
    keywords_list = ("attributes",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        name, ft = view.attr("sym_name"), view.attr("function_type")
        if not isinstance(name, StringAttr) or not isinstance(ft, TypeAttr) or len(op.regions) != 1:
            raise SyntaxModelError("spirv.func needs a name, a function type and a body region")
        from ....ir.types import FunctionType

        if not isinstance(ft.type, FunctionType):
            raise SyntaxModelError("function_type is not a function type")
        elided = {"sym_name", "function_control", "function_type", "arg_attrs", "res_attrs"}
        print_visibility(p, view, elided)
        p.write(" ")
        p.symbol_name(name.value)
        print_function_signature(p, op, view, list(ft.type.inputs), list(ft.type.results), False,
                                 "arg_attrs", "res_attrs")
        control = _enum_case(view.attr("function_control"), "#spirv.function_control")
        p.write(f' "{control}"')
        p.optional_attr_dict(attr_entries(view, elided), (), with_keyword=True)
        if op.regions[0].blocks:
            p.write(" ")
            p.region(op.regions[0], False, True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ....ir.types import FunctionType

        parse_visibility(p, state)
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        args, arg_attrs, results, res_attrs, _ = parse_function_signature(p)
        state.attributes["function_type"] = TypeAttr.get(FunctionType.get(
            tuple(a.type for a in args if a.type is not None), tuple(results)))
        state.attributes["function_control"] = _enum("#spirv.function_control", _string(p))
        _attrs(p, state, with_keyword=True)
        if any(d.entries for d in arg_attrs):
            state.attributes["arg_attrs"] = ArrayAttr.get(tuple(arg_attrs))
        if any(d.entries for d in res_attrs):
            state.attributes["res_attrs"] = ArrayAttr.get(tuple(res_attrs))
        named = [a for a in args if a.ref.name]
        body = p.parse_optional_region(named)
        state.regions.append(body if body is not None else Region(None))


# -- entry points ------------------------------------------------------------------------------------
class EntryPointOp(Port):
    """`spirv.EntryPoint "GLCompute" @fn, @var, ...` (no attribute dictionary: the form drops other
    attributes, so an op with any prints generic)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        fn, interface = view.attr("fn"), view.attr("interface")
        if not isinstance(fn, FlatSymbolRefAttr) or not isinstance(interface, ArrayAttr) or op.operands \
                or op.results or attr_entries(view, {"execution_model", "fn", "interface"}):
            raise SyntaxModelError("spirv.EntryPoint with other attributes (its form drops them)")
        model = _enum_case(view.attr("execution_model"), "#spirv.execution_model")
        p.write(f' "{model}" ')
        p.symbol_name(fn.root.value)
        for var in interface.elements:
            if not isinstance(var, FlatSymbolRefAttr | SymbolRefAttr):
                raise SyntaxModelError("an interface variable is not a symbol reference")
            p.write(", ")
            p.attribute(var)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        state.attributes["execution_model"] = _enum("#spirv.execution_model", _string(p))
        state.attributes["fn"] = FlatSymbolRefAttr.get(StringAttr.get(p.parse_symbol_name()))
        interface: list[Attribute] = []
        while p.parse_optional_punct(","):
            var = p.parse_attribute()
            if not isinstance(var, FlatSymbolRefAttr | SymbolRefAttr):
                raise p.error("expected a symbol reference")
            interface.append(var)
        state.attributes["interface"] = ArrayAttr.get(tuple(interface))


class ExecutionModeOp(Port):
    """`spirv.ExecutionMode @fn "LocalSize", 4, 4, 2` (the values are i32; no attribute dictionary)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        fn, values = view.attr("fn"), view.attr("values")
        if not isinstance(fn, FlatSymbolRefAttr) or not isinstance(values, ArrayAttr) or op.operands \
                or op.results or attr_entries(view, {"execution_mode", "fn", "values"}):
            raise SyntaxModelError("spirv.ExecutionMode with other attributes (its form drops them)")
        mode = _enum_case(view.attr("execution_mode"), "#spirv.execution_mode")
        p.write(" ")
        p.symbol_name(fn.root.value)
        p.write(f' "{mode}"')
        for v in values.elements:
            if not isinstance(v, IntegerAttr) or v.type is not _I32:
                raise SyntaxModelError("an execution mode value is not an i32")
            p.write(f", {v.bits - (1 << 32) if v.bits >> 31 else v.bits}")

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        state.attributes["fn"] = FlatSymbolRefAttr.get(StringAttr.get(p.parse_symbol_name()))
        state.attributes["execution_mode"] = _enum("#spirv.execution_mode", _string(p))
        values: list[Attribute] = []
        while p.parse_optional_punct(","):
            n = p.parse_integer()
            if not -(1 << 31) <= n < (1 << 32):
                raise p.error(f"{n} does not fit in i32")
            values.append(IntegerAttr.get(_I32, n & 0xFFFFFFFF))
        state.attributes["values"] = ArrayAttr.get(tuple(values))


_I32 = IntegerType.get(32)


MODELS: list[OpSyntax] = [
    *(OneResultOp(f"spirv.GL.{n}") for n in ("FClamp", "UClamp", "SClamp", "Fma")),
    *(ExtendedBinaryOp(f"spirv.{n}") for n in ("IAddCarry", "ISubBorrow", "SMulExtended", "UMulExtended")),
    VariableOp("spirv.Variable"),
    GlobalVariableOp("spirv.GlobalVariable"),
    LoadOp("spirv.Load"),
    StoreOp("spirv.Store"),
    CompositeExtractOp("spirv.CompositeExtract"),
    CompositeInsertOp("spirv.CompositeInsert"),
    ModuleOp("spirv.module"),
    FuncOp("spirv.func"),
    EntryPointOp("spirv.EntryPoint"),
    ExecutionModeOp("spirv.ExecutionMode"),
]
