"""Ports of IREE's region and resource `custom<...>` directives: `custom<WorkgroupCountRegion>` (HAL's
without a keyword, Flow's and Stream's after `workgroups`), `custom<ExportConditionRegion>` (HAL),
`custom<TargetConditionObjects>` (hal.dispatch.extern's targets and their conditions, also the region
of `hal.executable.condition`), `custom<SizeAwareType>` (Util: `type{%size}`)."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, Attribute, IntegerAttr
from ...ir.operation import Region, Value
from ...ir.types import IndexType, IntegerType, Type
from .api import Argument, AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer


def _print_arrow_types(p: AsmPrinter, types: list[Type]) -> None:
    """printArrowTypeList: ` -> T` or ` -> (T1, T2)`."""
    p.write(" -> ")
    if len(types) != 1:
        p.write("(")
    for i, t in enumerate(types):
        if i:
            p.write(", ")
        p.type(t)
    if len(types) != 1:
        p.write(")")


def _parse_arrow_types(p: AsmParser) -> list[Type]:
    p.parse_punct("->")
    if not p.parse_optional_punct("("):
        return [p.parse_type()]
    out = [p.parse_type()]
    while p.parse_optional_punct(","):
        out.append(p.parse_type())
    p.parse_punct(")")
    return out


def _print_signature_region(p: AsmPrinter, body: Region, results: list[Type]) -> None:
    """`(%arg: T, ...) -> (results) {body}` (the entry block's arguments in the parentheses)."""
    p.write("(")
    for i, arg in enumerate(body.blocks[0].arguments):
        if i:
            p.write(", ")
        p.region_argument(arg)
    p.write(")")
    _print_arrow_types(p, results)
    p.write(" ")
    p.region(body, False, True)


def _parse_signature_region(p: AsmParser, expected: list[Type], what: str) -> Region:
    p.parse_punct("(")
    args: list[Argument] = []
    if not p.parse_optional_punct(")"):
        while True:
            args.append(p.parse_argument(allow_type=True, allow_attrs=True))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    if _parse_arrow_types(p) != expected:
        raise p.error(what)
    return p.parse_region(args)


def _index3() -> list[Type]:
    return [IndexType.get()] * 3


# -- custom<WorkgroupCountRegion>($body) -----------------------------------------------------------------
@printer("WorkgroupCountRegion")
def print_workgroup_count_region(p: AsmPrinter, a: PrintArgs) -> None:
    body = a.region(0)
    if not body.blocks:
        return
    if a.op.op_name.dialect != "hal":
        p.write("workgroups")
    _print_signature_region(p, body, _index3())


@parser("WorkgroupCountRegion")
def parse_workgroup_count_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if a.model.name.split(".", 1)[0] != "hal" and not p.parse_optional_keyword("workgroups"):
        a.set_region(0, Region(None))
        return not optional
    a.set_region(0, _parse_signature_region(
        p, _index3(), "workgroup count region must return the XYZ dimension counts"))
    return True


# -- custom<ExportConditionRegion>($body) (hal) ------------------------------------------------------------
@printer("ExportConditionRegion")
def print_export_condition_region(p: AsmPrinter, a: PrintArgs) -> None:
    body = a.region(0)
    if not body.blocks:
        return
    _print_signature_region(p, body, [IntegerType.get(1)])


@parser("ExportConditionRegion")
def parse_export_condition_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    a.set_region(0, _parse_signature_region(p, [IntegerType.get(1)],
                                            "condition region must return a boolean value"))
    return True


def print_condition_region(p: AsmPrinter, body: Region) -> None:
    """printTargetConditionRegion: `(%arg0: !hal.device) -> i1 {...}` (a non-empty region)."""
    _print_signature_region(p, body, [IntegerType.get(1)])


def parse_condition_region(p: AsmParser) -> Region:
    return _parse_signature_region(p, [IntegerType.get(1)], "target condition region must return one i1")


# -- custom<TargetConditionObjects>($targets, $target_ordinals, $target_objects, $target_regions)
#    (hal.dispatch.extern): one `#target [if(...) -> i1 {...}] ordinal(N) = [objects]` per line ----------
@printer("TargetConditionObjects")
def print_target_condition_objects(p: AsmPrinter, a: PrintArgs) -> None:
    targets, ordinals, objects = a.attr(0), a.attr(1), a.attr(2)
    regions = a.regions(3)
    if not isinstance(targets, ArrayAttr) or not isinstance(ordinals, ArrayAttr) or \
            not isinstance(objects, ArrayAttr) or \
            not (len(targets.elements) == len(ordinals.elements) == len(objects.elements) == len(regions)):
        raise SyntaxModelError("targets, ordinals, objects and conditions do not pair up")
    p.indent()
    p.newline()
    for i, (target, ordinal, objs, region) in enumerate(zip(targets.elements, ordinals.elements,
                                                              objects.elements, regions, strict=True)):
        if i:
            p.write(",")
            p.newline()
        p.attribute(target)
        if region.blocks:
            p.write(" if")
            print_condition_region(p, region)
        p.write(" ordinal(")
        p.attribute_without_type(ordinal)
        p.write(") = ")
        p.attribute(objs)
    p.dedent()
    p.newline()


@parser("TargetConditionObjects")
def parse_target_condition_objects(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    targets: list[Attribute] = []
    ordinals: list[Attribute] = []
    objects: list[Attribute] = []
    regions: list[Region] = []
    while True:
        targets.append(p.parse_attribute())
        regions.append(parse_condition_region(p) if p.parse_optional_keyword("if") else Region(None))
        p.parse_keyword("ordinal")
        p.parse_punct("(")
        ordinals.append(p.parse_attribute(IndexType.get()))
        p.parse_punct(")")
        p.parse_punct("=")
        found = p.parse_attribute()
        if not isinstance(found, ArrayAttr):
            raise p.error("expected an array of executable objects")
        objects.append(found)
        if not p.parse_optional_punct(","):
            break
    a.set_attr(0, ArrayAttr.get(tuple(targets)))
    a.set_attr(1, ArrayAttr.get(tuple(ordinals)))
    a.set_attr(2, ArrayAttr.get(tuple(objects)))
    a.set_regions(3, regions)
    return True


# -- custom<SizeAwareType>(type($value), $size) ------------------------------------------------------------
@printer("SizeAwareType")
def print_size_aware_type(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.type(0)
    size = a.value(1)
    if t is None or size is None:
        raise SyntaxModelError("a size-aware type needs its type and size")
    p.type(t)
    p.write("{")
    p.operand(size)
    p.write("}")


@parser("SizeAwareType")
def parse_size_aware_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    t = p.parse_type()
    p.parse_punct("{")
    size: OperandRef = p.parse_operand()
    p.parse_punct("}")
    a.set_types(0, [t])
    a.set_values(1, [size])
    return True


def _size_aware(t: Type) -> bool:
    from .directives_iree import _dynamic_dims

    return _dynamic_dims(t) == -1


def _print_resource_operands(p: AsmPrinter, operands: list[Value], body: Region, sizes: list[Value],
                             all_sized: bool) -> None:
    """`(%x as %arg: type{%size}, ...)`: each operand, its region argument and type, and a size after a
    size-aware type (`all_sized`: every operand must have one)."""
    if not body.blocks or len(body.blocks[0].arguments) != len(operands):
        raise SyntaxModelError("resource operands and region arguments do not match")
    p.write("(")
    at = 0
    for i, (operand, arg) in enumerate(zip(operands, body.blocks[0].arguments, strict=True)):
        if i:
            p.write(", ")
        p.operand(operand)
        p.write(" as ")
        p.operand(arg)
        p.write(": ")
        p.type(arg.type)
        if _size_aware(arg.type):
            if at >= len(sizes):
                raise SyntaxModelError("fewer operand sizes than size-aware operands")
            p.write("{")
            p.operand(sizes[at])
            p.write("}")
            at += 1
        elif all_sized:
            raise SyntaxModelError("a resource whose type is not size-aware")
    p.write(")")
    if at != len(sizes):
        raise SyntaxModelError("more operand sizes than size-aware operands")


def _parse_resource_operands(p: AsmParser, all_sized: bool) -> tuple[list[OperandRef], list[Type],
                                                                    list[OperandRef], list[Argument]]:
    """What `_print_resource_operands` prints: (operands, their types, sizes, region arguments)."""
    refs: list[OperandRef] = []
    types: list[Type] = []
    sizes: list[OperandRef] = []
    args: list[Argument] = []
    p.parse_punct("(")
    if not p.parse_optional_punct(")"):
        while True:
            refs.append(p.parse_operand())
            p.parse_keyword("as")
            arg = p.parse_argument(allow_type=False)
            p.parse_punct(":")
            t = p.parse_type()
            if all_sized or _size_aware(t):
                p.parse_punct("{")
                sizes.append(p.parse_operand())
                p.parse_punct("}")
            types.append(t)
            args.append(Argument(arg.ref, t, arg.attrs, arg.location))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    return refs, types, sizes, args


# -- custom<ExplicitResourceRegion>($operands, type($operands), $operand_sizes, $body) (stream) -----------
@printer("ExplicitResourceRegion")
def print_explicit_resource_region(p: AsmPrinter, a: PrintArgs) -> None:
    _print_resource_operands(p, a.values(0), a.region(3), a.values(2), True)
    p.write(" ")
    p.region(a.region(3), False, False)


@parser("ExplicitResourceRegion")
def parse_explicit_resource_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs, types, sizes, args = _parse_resource_operands(p, True)
    body = p.parse_region(args)
    p.ensure_terminator(body, "stream.yield")
    a.set_values(0, refs)
    a.set_types(1, types)
    a.set_values(2, sizes)
    a.set_region(3, body)
    return True


_ACCESS = {3: "rw", 1: "ro", 2: "wo", 0: ""}


# -- custom<DispatchResources>($resources, type($resources), $resource_sizes, $resource_offsets,
#                             $resource_lengths, $resource_accesses) (stream.cmd.dispatch) ---------------
@printer("DispatchResources")
def print_dispatch_resources(p: AsmPrinter, a: PrintArgs) -> None:
    resources, sizes, offsets, lengths = a.values(0), a.values(2), a.values(3), a.values(4)
    accesses = a.attr(5)
    n = len(resources)
    if not isinstance(accesses, ArrayAttr) or not n == len(sizes) == len(offsets) == len(lengths) == \
            len(accesses.elements):
        raise SyntaxModelError("resource lists do not match")
    for i, (res, size, offset, length, access) in enumerate(
            zip(resources, sizes, offsets, lengths, accesses.elements, strict=True)):
        if not isinstance(access, IntegerAttr) or access.bits & 3 not in _ACCESS or access.bits > 3 \
                or not access.bits:
            raise SyntaxModelError("a resource access that would not read back")
        p.newline()
        p.write(f"  {_ACCESS[access.bits]} ")
        p.operand(res)
        p.write("[")
        p.operand(offset)
        p.write(" for ")
        p.operand(length)
        p.write("] : ")
        p.type(res.type)
        p.write("{")
        p.operand(size)
        p.write("}")
        if i < n - 1:
            p.write(",")


@parser("DispatchResources")
def parse_dispatch_resources(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    bits = {v: k for k, v in _ACCESS.items()}
    resources: list[OperandRef] = []
    types: list[Type] = []
    sizes: list[OperandRef] = []
    offsets: list[OperandRef] = []
    lengths: list[OperandRef] = []
    accesses: list[Attribute] = []
    while True:
        word = p.parse_optional_any_keyword()
        if word is None:
            raise p.error("expected a resource access (ro, wo, rw)")
        resources.append(p.parse_operand())
        p.parse_punct("[")
        offsets.append(p.parse_operand())
        p.parse_keyword("for")
        lengths.append(p.parse_operand())
        p.parse_punct("]")
        p.parse_punct(":")
        types.append(p.parse_type())
        p.parse_punct("{")
        sizes.append(p.parse_operand())
        p.parse_punct("}")
        accesses.append(IntegerAttr.get(IntegerType.get(32), bits.get(word, 0)))
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, resources)
    a.set_types(1, types)
    a.set_values(2, sizes)
    a.set_values(3, offsets)
    a.set_values(4, lengths)
    a.set_attr(5, ArrayAttr.get(tuple(accesses)))
    return True


# -- custom<DispatchWorkgroupBody>(ref(type($arguments)), ref(type($results)), $workgroup_body)
#    (flow.dispatch.workgroups): `(%arg1: t, %arg2: u) {body}` ---------------------------------------------
@printer("DispatchWorkgroupBody")
def print_dispatch_workgroup_body(p: AsmPrinter, a: PrintArgs) -> None:
    body = a.region(2)
    if not body.blocks:
        raise SyntaxModelError("a dispatch without a body")
    p.write("(")
    for i, arg in enumerate(body.blocks[0].arguments):
        if i:
            p.write(", ")
        p.operand(arg)  # the name alone: IREE prints no location of these arguments
        p.write(": ")
        p.type(arg.type)
    p.write(") ")
    p.region(body, False, True)


@parser("DispatchWorkgroupBody")
def parse_dispatch_workgroup_body(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_punct("(")
    args: list[Argument] = []
    if not p.parse_optional_punct(")"):
        while True:
            args.append(p.parse_argument(allow_type=True))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    a.set_region(2, p.parse_region(args, enable_name_shadowing=True))
    return True


# -- custom<DispatchWorkgroupsCountRegion>($workgroup_count) (flow.dispatch.workgroups): ` count(...) -> ...`
@printer("DispatchWorkgroupsCountRegion")
def print_dispatch_workgroups_count_region(p: AsmPrinter, a: PrintArgs) -> None:
    body = a.region(0)
    if not body.blocks:
        return
    p.write(" count")
    _print_signature_region(p, body, _index3())


@parser("DispatchWorkgroupsCountRegion")
def parse_dispatch_workgroups_count_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_keyword("count"):
        a.set_region(0, Region(None))
        return not optional
    a.set_region(0, _parse_signature_region(
        p, _index3(), "workgroup count region must return the XYZ dimension counts"))
    return True


# -- custom<ResourceRegion>($operands, type($operands), $operand_sizes, type($results), $result_sizes,
#                          $tied_operands, $body) (stream.async.execute, stream.async.concurrent) ----------
@printer("ResourceRegion")
def print_resource_region(p: AsmPrinter, a: PrintArgs) -> None:
    from .directives_iree import _tied_indices, print_tied_results

    operands, result_sizes = a.values(0), a.values(4)
    results = a.types(3)
    body = a.region(6)
    _print_resource_operands(p, operands, body, a.values(2), False)
    if results:
        p.write(" -> ")
        used = print_tied_results(p, operands, results, _tied_indices(a.attr(5), len(results)), result_sizes)
        if used != len(result_sizes):
            raise SyntaxModelError("more result sizes than the results need")
    elif result_sizes:
        raise SyntaxModelError("result sizes without results")
    p.write(" ")
    p.region(body, False, True)


@parser("ResourceRegion")
def parse_resource_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    from .directives_iree import parse_tied_results, tied_operands_attr

    refs, types, sizes, args = _parse_resource_operands(p, False)
    results: list[Type] = []
    result_sizes: list[OperandRef] = []
    tied: list[int] = []
    if p.parse_optional_punct("->"):
        results, tied = parse_tied_results(p, refs, types, result_sizes)
    body = p.parse_region(args)
    a.set_values(0, refs)
    a.set_types(1, types)
    a.set_values(2, sizes)
    a.set_types(3, results)
    a.set_values(4, result_sizes)
    a.set_attr(5, tied_operands_attr(tied) if tied else None)
    a.set_region(6, body)
    return True
