"""`gpu.launch` and `gpu.func` (ports of GPUDialect.cpp's print/parse): launch configuration as
`blocks(%bx, %by, %bz) in (%gx = %a, ...)`, memory attributions `workgroup(%w : T) private(%p : T)`."""

from __future__ import annotations

from ....ir.attributes import (
    ArrayAttr,
    Attribute,
    DictionaryAttr,
    FlatSymbolRefAttr,
    IntegerAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
)
from ....ir.operation import BlockArgument, Operation, Region
from ....ir.types import FunctionType, IndexType, IntegerType
from ....syntax.attr_parser import parse_type_text
from ..api import Argument, AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .base import (
    Port,
    attr_entries,
    parse_function_signature,
    print_function_signature,
)

ASYNC_TOKEN = "!gpu.async.token"


def _print_values(p: AsmPrinter, values: list[object]) -> None:
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)  # type: ignore[arg-type]


def _print_size_assignment(p: AsmPrinter, sizes: list[BlockArgument], operands: list[object],
                           ids: list[BlockArgument]) -> None:
    p.write("(")
    _print_values(p, list(ids))
    p.write(") in (")
    for i, (size, operand) in enumerate(zip(sizes, operands, strict=True)):
        if i:
            p.write(", ")
        p.operand(size)
        p.write(" = ")
        p.operand(operand)  # type: ignore[arg-type]
    p.write(")")


def _parse_size_assignment(p: AsmParser, keyword: str) -> tuple[list[Argument], list[Argument],
                                                                   list[OperandRef]]:
    """(ids, sizes, operands) of `(%i, %j, %k) in (%x = %a, %y = %b, %z = %c)`."""
    p.parse_punct("(")
    ids = [p.parse_argument(allow_type=False)]
    while p.parse_optional_punct(","):
        ids.append(p.parse_argument(allow_type=False))
    p.parse_punct(")")
    if len(ids) != 3:
        raise p.error(f"{keyword} expects 3 arguments, but got {len(ids)}")
    p.parse_keyword("in")
    p.parse_punct("(")
    sizes: list[Argument] = []
    operands: list[OperandRef] = []
    for i in range(3):
        if i:
            p.parse_punct(",")
        sizes.append(p.parse_argument(allow_type=False))
        p.parse_punct("=")
        operands.append(p.parse_operand())
    p.parse_punct(")")
    return ids, sizes, operands


def _print_attributions(p: AsmPrinter, keyword: str, values: list[BlockArgument],
                        attrs: Attribute | None) -> None:
    if not values:
        return
    dicts = list(attrs.elements) if isinstance(attrs, ArrayAttr) else []
    p.write(f" {keyword}(")
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)
        p.write(" : ")
        p.type(v.type)
        d = dicts[i] if i < len(dicts) else None
        if isinstance(d, DictionaryAttr):
            p.optional_attr_dict([(k.text, a) for k, a in d.entries])
    p.write(")")


def _parse_attributions(p: AsmParser, keyword: str, args: list[Argument]) -> list[DictionaryAttr]:
    """`keyword(%a : T {attrs}, ...)` appended to `args`; their attribute dictionaries."""
    if not p.parse_optional_keyword(keyword):
        return []
    dicts: list[DictionaryAttr] = []
    p.parse_punct("(")
    if not p.parse_optional_punct(")"):
        while True:
            arg = p.parse_argument(allow_type=True, allow_attrs=True)
            args.append(arg)
            dicts.append(arg.attrs if arg.attrs is not None else DictionaryAttr.get(()))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    return dicts


class LaunchOp(Port):
    keywords_list = ("async", "clusters", "blocks", "threads", "in", "dynamic_shared_memory_size",
                     "module", "function", "workgroup", "private")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        g = view.operand_groups()
        if len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError("gpu.launch has a body")
        args = list(op.regions[0].blocks[0].arguments)
        cluster = bool(g["clusterSizeX"])
        config = 18 if cluster else 12
        workgroups = view.attr("workgroup_attributions")
        n_work = workgroups.bits if isinstance(workgroups, IntegerAttr) else 0
        if len(args) < config + n_work or any(not isinstance(a.type, IndexType) for a in args[:config]):
            raise SyntaxModelError("gpu.launch's region arguments do not match its configuration")
        if op.results:
            p.write(" async")
            deps = g["asyncDependencies"]
            if deps:
                p.write(" [")
                _print_values(p, list(deps))
                p.write("]")
        elif g["asyncDependencies"]:
            raise SyntaxModelError("async dependencies without an async token")
        if cluster:
            p.write(" clusters")
            _print_size_assignment(p, args[15:18], [*g["clusterSizeX"], *g["clusterSizeY"],
                                                    *g["clusterSizeZ"]], args[12:15])
        p.write(" blocks")
        _print_size_assignment(p, args[6:9], [*g["gridSizeX"], *g["gridSizeY"], *g["gridSizeZ"]], args[0:3])
        p.write(" threads")
        _print_size_assignment(p, args[9:12], [*g["blockSizeX"], *g["blockSizeY"], *g["blockSizeZ"]],
                               args[3:6])
        if g["dynamicSharedMemorySize"]:
            p.write(" dynamic_shared_memory_size ")
            p.operand(g["dynamicSharedMemorySize"][0])
        for name in ("module", "function"):
            sym = view.attr(name)
            if sym is not None:
                if not isinstance(sym, FlatSymbolRefAttr):
                    raise SyntaxModelError(f"'{name}' is not a flat symbol reference")
                p.write(f" {name}(")
                p.attribute(sym)
                p.write(")")
        _print_attributions(p, "workgroup", args[config:config + n_work], None)
        _print_attributions(p, "private", args[config + n_work:], None)
        p.write(" ")
        p.region(op.regions[0], False)
        p.optional_attr_dict(attr_entries(view, {"operandSegmentSizes", "workgroup_attributions",
                                                 "module", "function"}))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array

        token = parse_type_text(ASYNC_TOKEN)
        deps: list[OperandRef] = []
        if p.parse_optional_keyword("async"):
            state.result_types.append(token)
            if p.parse_optional_punct("["):
                if not p.parse_optional_punct("]"):
                    deps.append(p.parse_operand())
                    while p.parse_optional_punct(","):
                        deps.append(p.parse_operand())
                    p.parse_punct("]")
        p.resolve_operands(deps, [token] * len(deps), state)
        cluster = None
        if p.parse_optional_keyword("clusters"):
            cluster = _parse_size_assignment(p, "clusters")
        p.parse_keyword("blocks")
        block_ids, grid_sizes, grid = _parse_size_assignment(p, "blocks")
        p.parse_keyword("threads")
        thread_ids, block_sizes, block = _parse_size_assignment(p, "threads")
        index = IndexType.get()
        operands = [*grid, *block, *(cluster[2] if cluster else [])]
        p.resolve_operands(operands, [index] * len(operands), state)
        dynamic = False
        if p.parse_optional_keyword("dynamic_shared_memory_size"):
            dynamic = True
            p.resolve_operands([p.parse_operand()], [IntegerType.get(32)], state)
        for name in ("module", "function"):
            if p.parse_optional_keyword(name):
                p.parse_punct("(")
                sym = p.parse_attribute()
                if not isinstance(sym, FlatSymbolRefAttr):
                    raise p.error("expected a symbol reference")
                state.attributes[name] = sym
                p.parse_punct(")")
        args: list[Argument] = [*block_ids, *thread_ids, *grid_sizes, *block_sizes]
        if cluster is not None:
            args.extend([*cluster[0], *cluster[1]])
        for a in args:
            a.type = index
        config = len(args)
        _parse_attributions(p, "workgroup", args)
        state.attributes["workgroup_attributions"] = IntegerAttr.get(IntegerType.get(64), len(args) - config)
        _parse_attributions(p, "private", args)
        state.regions.append(p.parse_region(args))
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        sizes = [len(deps), 1, 1, 1, 1, 1, 1, *([1, 1, 1] if cluster else [0, 0, 0]), int(dynamic)]
        state.attributes["operandSegmentSizes"] = i32_array(sizes)


class GPUFuncOp(Port):
    keywords_list = ("workgroup", "private", "kernel", "attributes")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        name, ft = view.attr("sym_name"), view.attr("function_type")
        if not isinstance(name, StringAttr) or not isinstance(ft, TypeAttr) or \
                not isinstance(ft.type, FunctionType) or len(op.regions) != 1:
            raise SyntaxModelError("gpu.func needs a name, a function type and a body")
        inputs, results = list(ft.type.inputs), list(ft.type.results)
        workgroups = view.attr("workgroup_attributions")
        n_work = workgroups.bits if isinstance(workgroups, IntegerAttr) else 0
        body = op.regions[0]
        extra: list[BlockArgument] = []
        if body.blocks:
            extra = list(body.blocks[0].arguments[len(inputs):])
            if len(extra) < n_work:
                raise SyntaxModelError("fewer region arguments than workgroup attributions")
        p.write(" ")
        p.symbol_name(name.value)
        print_function_signature(p, op, view, inputs, results, False, "arg_attrs", "res_attrs",
                                 extra_args=len(extra))
        _print_attributions(p, "workgroup", extra[:n_work], view.attr("workgroup_attrib_attrs"))
        _print_attributions(p, "private", extra[n_work:], view.attr("private_attrib_attrs"))
        # `gpu.kernel` is discardable in MLIR 22 and 24, the inherent `kernel` in MLIR 23
        if view.attr("gpu.kernel") is not None or view.attr("kernel") is not None:
            p.write(" kernel")
        elided = {"workgroup_attributions", "gpu.kernel", "kernel", "function_type", "arg_attrs", "res_attrs",
                  "workgroup_attrib_attrs", "private_attrib_attrs", "sym_name"}
        p.optional_attr_dict(attr_entries(view, elided), (), with_keyword=True)
        if body.blocks:
            p.write(" ")
            p.region(body, False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        args, arg_attrs, results, res_attrs, _ = parse_function_signature(p)
        inputs = tuple(a.type for a in args if a.type is not None)
        state.attributes["function_type"] = TypeAttr.get(FunctionType.get(inputs, tuple(results)))
        named = [a for a in args if a.ref.name]
        before = len(named)
        work_dicts = _parse_attributions(p, "workgroup", named)
        state.attributes["workgroup_attributions"] = IntegerAttr.get(IntegerType.get(64), len(named) - before)
        private_dicts = _parse_attributions(p, "private", named)
        if p.parse_optional_keyword("kernel"):
            state.attributes["kernel" if p.declares_attribute("kernel") else "gpu.kernel"] = UnitAttr.get()
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        if any(x.entries for x in arg_attrs):
            state.attributes["arg_attrs"] = ArrayAttr.get(tuple(arg_attrs))
        if any(x.entries for x in res_attrs):
            state.attributes["res_attrs"] = ArrayAttr.get(tuple(res_attrs))
        if any(x.entries for x in work_dicts):
            state.attributes["workgroup_attrib_attrs"] = ArrayAttr.get(tuple(work_dicts))
        if any(x.entries for x in private_dicts):
            state.attributes["private_attrib_attrs"] = ArrayAttr.get(tuple(private_dicts))
        body = p.parse_optional_region(named)
        state.regions.append(body if body is not None else Region(None))


MODELS: list[OpSyntax] = [LaunchOp("gpu.launch"), GPUFuncOp("gpu.func")]
