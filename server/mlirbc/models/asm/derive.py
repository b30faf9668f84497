"""Derives each op's syntax data (its custom assembly form) from TableGen's JSON (`llvm-tblgen --dump-json`).

Shared by the generator (`server/tools/gen_syntax_data.py`) and by user ODS JSON files at run time.  Per op
the data says what the declarative syntax model (`models/asm/declarative.py`) and the hand-written ones
need: the format compiled into an element tree (`asm.format`), or that the op's syntax is written in C++
(`cpp`); each operand, result, attribute, property, region and successor with what printing and parsing
it depends on (variadic or optional, the C++ class that decides stripped printing, the buildable type, an
enum's cases, a default value); how the types the format does not print are found again when parsing
(mlir-tblgen's resolution from `AllTypesMatch`, `SameOperandsAndResultType`, `TypesMatchWith`, buildable
types, `InferTypeOpInterface`); and the traits the printer needs (implicit terminators, terminators).
"""

from __future__ import annotations

import re
from typing import Any

from ..ods_derive import OdsError, Record, Records, _ref, _supers, _unwrap_arg, default_text, trait_records
from .format import FormatError, parse_format

_BUILDERS: dict[str, str] = {
    "$_builder.getIndexType()": "index",
    "$_builder.getType<::mlir::IndexType>()": "index",
    "$_builder.getF16Type()": "f16",
    "$_builder.getF32Type()": "f32",
    "$_builder.getF64Type()": "f64",
    "$_builder.getF80Type()": "f80",
    "$_builder.getF128Type()": "f128",
    "$_builder.getType<BFloat16Type>()": "bf16",
    "$_builder.getType<::mlir::NoneType>()": "none",
    "$_builder.getType<::mlir::LLVM::LLVMPointerType>(0)": "!llvm.ptr",
    "$_builder.getType<::mlir::LLVM::LLVMPointerType>(1)": "!llvm.ptr<1>",
    "::mlir::LLVM::LLVMTokenType::get($_builder.getContext())": "!llvm.token",
    "$_builder.getType<::mlir::transform::AnyOpType>()": "!transform.any_op",
    "$_builder.getType<::mlir::transform::AnyParamType>()": "!transform.any_param",
    "$_builder.getType<::mlir::transform::AnyValueType>()": "!transform.any_value",
    "$_builder.getType<::mlir::transform::AffineMapParamType>()": "!transform.affine_map",
    "$_builder.getType<::mlir::transform::TypeParamType>()": "!transform.type",
    "mlir::gpu::AsyncTokenType::get($_builder.getContext())": "!gpu.async.token",
    "$_builder.getType<::mlir::pdl::AttributeType>()": "!pdl.attribute",
    "$_builder.getType<::mlir::pdl::OperationType>()": "!pdl.operation",
    "$_builder.getType<::mlir::pdl::TypeType>()": "!pdl.type",
    "$_builder.getType<::mlir::pdl::ValueType>()": "!pdl.value",
    "$_builder.getType<mlir::smt::BoolType>()": "!smt.bool",
    "$_builder.getType<mlir::smt::IntType>()": "!smt.int",
}
_FLOAT_CLASSES = {
    "Float16Type": "f16", "Float32Type": "f32", "Float64Type": "f64", "Float80Type": "f80",
    "Float128Type": "f128", "BFloat16Type": "bf16", "FloatTF32Type": "tf32",
    "Float4E2M1FNType": "f4E2M1FN", "Float6E2M3FNType": "f6E2M3FN", "Float6E3M2FNType": "f6E3M2FN",
    "Float8E3M4Type": "f8E3M4", "Float8E4M3Type": "f8E4M3", "Float8E4M3B11FNUZType": "f8E4M3B11FNUZ",
    "Float8E4M3FNType": "f8E4M3FN", "Float8E4M3FNUZType": "f8E4M3FNUZ", "Float8E5M2Type": "f8E5M2",
    "Float8E5M2FNUZType": "f8E5M2FNUZ", "Float8E8M0FNUType": "f8E8M0FNU",
}
_INT_BUILDER = re.compile(r"\$_builder\.getIntegerType\((\d+)(?:, /\*isSigned=\*/(true|false))?\)")
_TYPE_BUILDER = re.compile(r"\$_builder\.getType<(?:::mlir::)?(\w+)>\(\)")


_IREE_TYPE = re.compile(r"mlir::iree_compiler::IREE::(\w+)::(\w+)Type")
_PDL_RANGE_BUILDER = re.compile(r"::mlir::pdl::RangeType::get\((.*)\)")
_PTR_BUILDER = re.compile(r"\$_builder\.getType<::mlir::LLVM::LLVMPointerType>\((\d+)\)")
_VECTOR_BUILDER = re.compile(r"::mlir::VectorType::get\(\{(\d+)\} ?, ?(.*)\)")
_CLASS_BUILDER = re.compile(
    r"(?:\$_builder\.getType<([\w:]+)>\(\)|([\w:]+)::get\(\$_builder\.getContext\(\)\))")


def builder_type_text(call: str, types: dict[str, str] | None = None) -> str | None:
    """The MLIR text of the type a `builderCall` builds, when it builds a fixed type (None otherwise);
    `types` (C++ class -> `!dialect.mnemonic`, see `def_classes`) names dialect types without
    parameters."""
    call = " ".join(call.split())
    known = _BUILDERS.get(call)
    if known is not None:
        return known
    m = _INT_BUILDER.fullmatch(call)
    if m is not None:
        sign = {"true": "si", "false": "ui"}.get(m.group(2) or "", "i")
        return f"{sign}{m.group(1)}"
    m = re.fullmatch(r"\$_builder\.getI(\d+)Type\(\)", call)
    if m is not None:
        return f"i{m.group(1)}"
    m = _TYPE_BUILDER.fullmatch(call)
    if m is not None and m.group(1) in _FLOAT_CLASSES:
        return _FLOAT_CLASSES[m.group(1)]
    m = _PDL_RANGE_BUILDER.fullmatch(call)
    if m is not None:
        elt = builder_type_text(m.group(1), types)
        if elt is not None and elt.startswith("!pdl."):
            return f"!pdl.range<{elt[len('!pdl.'):]}>"
    m = _PTR_BUILDER.fullmatch(call)
    if m is not None:
        return "!llvm.ptr" if m.group(1) == "0" else f"!llvm.ptr<{m.group(1)}>"
    m = _VECTOR_BUILDER.fullmatch(call)
    if m is not None:
        elt = builder_type_text(m.group(2), types)
        if elt is not None:
            return f"vector<{m.group(1)}x{elt}>"
    m = _CLASS_BUILDER.fullmatch(call)
    if m is not None:
        cls = _cpp_key(m.group(1) or m.group(2))
        found = types.get(cls) if types else None
        if found is not None:
            return found
        iree = _IREE_TYPE.fullmatch(cls)
        if iree is not None:  # IREE's types are C++ classes named `IREE::<Dialect>::<Name>Type`
            snake = re.sub(r"(?<!^)(?=[A-Z])", "_", iree.group(2)).lower()
            return f"!{iree.group(1).lower()}.{snake}"
    return None


def _norm(text: Any) -> str:
    return " ".join(str(text or "").split())


def def_classes(d: Records, kind: str) -> dict[str, str]:
    """C++ class of every AttrDef (`kind` = "AttrDef") or TypeDef with a mnemonic -> `#dialect.mnemonic`
    (`!dialect.mnemonic`): what printing such a value stripped leaves out."""
    sigil = "#" if kind == "AttrDef" else "!"
    out: dict[str, str] = {}
    for name in (d.get("!instanceof") or {}).get(kind, []):
        rec = d.get(name)
        if not isinstance(rec, dict):
            continue
        dialect = _ref(d, rec.get("dialect"))
        mnemonic = rec.get("mnemonic")
        if dialect is None or not dialect.get("name") or not isinstance(mnemonic, str) or not mnemonic:
            continue
        if str(dialect["name"]) == "builtin":
            continue  # builtin values have no stripped form (no `print(AsmPrinter &)`)
        ns = str(rec.get("cppNamespace") or dialect.get("cppNamespace") or "")
        cls = _cpp_key(f"{ns.strip().lstrip(':')}::{rec.get('cppClassName')}")
        out[cls] = f"{sigil}{dialect['name']}.{mnemonic}"
    return out


def _cpp_key(cpp: str) -> str:
    return cpp.strip().lstrip(":")


# -- operands and results --------------------------------------------------------------------------------
def _value_info(d: Records, rec: Record, types: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """(kind, info) of one operand or result constraint."""
    rec = _unwrap_arg(d, rec)
    supers = _supers(rec)
    kind = "single"
    base = rec
    if "VariadicOfVariadic" in supers:
        kind = "vov:" + str(rec.get("segmentAttrName") or "")
        base = _ref(d, rec.get("baseType")) or rec
    elif "Variadic" in supers:
        kind = "variadic"
        base = _ref(d, rec.get("baseType")) or rec
    elif "Optional" in supers:
        kind = "optional"
        base = _ref(d, rec.get("baseType")) or rec
    info: dict[str, Any] = {}
    cpp = str(base.get("cppType") or rec.get("cppType") or "::mlir::Type")
    if cpp != "::mlir::Type":
        info["cpp"] = cpp
    strip = types.get(_cpp_key(cpp))
    if strip is not None:
        info["strip"] = strip
    builder = str(base.get("builderCall") or "")
    if builder:
        text = builder_type_text(builder, types)
        if text is not None:
            info["build"] = text
        else:
            info["build_cpp"] = _norm(builder)
    return kind, info


# -- attributes -------------------------------------------------------------------------------------------
def _base_attr(d: Records, rec: Record) -> Record:
    for _ in range(16):
        inner = _ref(d, rec.get("baseAttr"))
        if inner is None:
            break
        rec = inner
    return rec


def _enum_info(d: Records, base: Record) -> dict[str, Any] | None:
    """The cases of an `EnumAttrInfo` (an integer-stored enum printed as its keyword)."""
    cases: list[list[Any]] = []
    for ref in base.get("enumerants") or []:
        case = _ref(d, ref)
        if case is None:
            return None
        cases.append([str(case.get("str", "")), int(case.get("value", 0)),
                      "BitEnumAttrCaseGroup" in _supers(case)])
    supers = _supers(base)
    info: dict[str, Any] = {"cases": cases, "width": int(base.get("bitwidth") or 64)}
    if any(s.startswith("BitEnum") for s in supers):
        info["bit"] = True
        info["sep"] = str(base.get("separator") or "|")
        if base.get("printBitEnumPrimaryGroups"):
            info["primary_groups"] = True
    return info


def _attr_info(d: Records, rec: Record, attrs: dict[str, str]) -> dict[str, Any]:
    base = _base_attr(d, rec)
    supers = _supers(base)
    info: dict[str, Any] = {}
    if rec.get("isOptional"):
        info["optional"] = True
    default = str(rec.get("defaultValue") or "").strip()
    if default:
        text = default_text(d, rec)
        if text is not None:
            info["default"] = text
        else:
            info["default_cpp"] = default
    storage = str(base.get("storageType") or rec.get("storageType") or "")
    info["storage"] = storage
    if "EnumAttrInfo" in supers and str(base.get("underlyingType") or "") and \
            str(base.get("constBuilderCall") or rec.get("constBuilderCall") or ""):
        enum = _enum_info(d, base)
        if enum is not None:
            info["kind"] = "enum"
            info["enum"] = enum
            return info
    name = str(base.get("!name", ""))
    if name == "SymbolNameAttr":
        info["kind"] = "symbol"
        return info
    if name == "UnitAttr":
        info["kind"] = "unit"
        if info.get("default_cpp") == "false":
            del info["default_cpp"]  # absent is the default of a unit attribute
        return info
    vtype = _ref(d, base.get("valueType")) or _ref(d, rec.get("valueType"))
    if vtype is not None and str(vtype.get("builderCall") or ""):
        info["kind"] = "typed"
        text = builder_type_text(str(vtype["builderCall"]))
        if text is not None:
            info["type"] = text
        else:
            info["type_cpp"] = _norm(vtype["builderCall"])
        return info
    if storage.strip() == "::mlir::Attribute":
        info["kind"] = "generic"
        return info
    strip = attrs.get(_cpp_key(storage))
    info["kind"] = "stripped" if strip is not None else "plain"
    if strip is not None:
        info["strip"] = strip
    return info


def _prop_info(d: Records, rec: Record) -> dict[str, Any]:
    info: dict[str, Any] = {"storage": str(rec.get("storageType") or ""),
                            "interface": str(rec.get("interfaceType") or "")}
    default = str(rec.get("defaultValue") or "").strip()
    if default:
        info["default_cpp"] = default
    printer = _norm(rec.get("printer"))
    if printer:
        info["printer"] = printer
    parser = _norm(rec.get("parser"))
    if parser:
        info["parser"] = parser
    return info


def derive_syntax(d: Records, op_def: str, attrs: dict[str, str], types: dict[str, str]) -> dict[str, Any]:
    """The syntax data of one op record (see the module docstring); raises OdsError."""
    r = d[op_def]
    dialect_rec = _ref(d, r.get("opDialect"))
    if dialect_rec is None:
        raise OdsError(f"{op_def} has no dialect")
    full = f"{dialect_rec.get('name')}.{r.get('opName')}"
    out: dict[str, Any] = {}
    operands: list[list[Any]] = []
    attr_infos: dict[str, dict[str, Any]] = {}
    props: dict[str, dict[str, Any]] = {}
    kinds: dict[str, str] = {}
    for arg, arg_name in (r.get("arguments") or {}).get("args", []):
        rec = _ref(d, arg)
        if rec is None:
            raise OdsError(f"{full}: argument {arg_name} is not a def")
        plain = _unwrap_arg(d, rec)
        supers = _supers(plain)
        name = str(arg_name)
        if "TypeConstraint" in supers:
            kind, info = _value_info(d, plain, types)
            operands.append([name, kind, info])
            kinds[name] = "operand"
        elif "Attr" in supers:
            attr_infos[name] = _attr_info(d, plain, attrs)
            kinds[name] = "attr"
        elif "Property" in supers:
            props[name] = _prop_info(d, plain)
            kinds[name] = "prop"
    results: list[list[Any]] = []
    for arg, arg_name in (r.get("results") or {}).get("args", []):
        rec = _ref(d, arg)
        if rec is None:
            raise OdsError(f"{full}: result {arg_name} is not a def")
        kind, info = _value_info(d, rec, types)
        results.append([str(arg_name), kind, info])
        kinds.setdefault(str(arg_name), "result")
    regions: list[list[Any]] = []
    for arg, arg_name in (r.get("regions") or {}).get("args", []):
        rec = _ref(d, arg)
        regions.append([str(arg_name), rec is not None and "VariadicRegion" in _supers(rec)])
        kinds[str(arg_name)] = "region"
    successors: list[list[Any]] = []
    for arg, arg_name in (r.get("successors") or {}).get("args", []):
        rec = _ref(d, arg)
        successors.append([str(arg_name), rec is not None and "VariadicSuccessor" in _supers(rec)])
        kinds[str(arg_name)] = "successor"
    out["operands"] = operands
    out["results"] = results
    if attr_infos:
        out["attrs"] = attr_infos
    if props:
        out["props"] = props
    order = [n for n, k in kinds.items() if k in ("attr", "prop")]
    if len(order) > 1:
        out["arg_order"] = order  # the properties struct's order (MLIR 24's key-value printing)
    if regions:
        out["regions"] = regions
    if successors:
        out["successors"] = successors

    trait_recs = trait_records(d, r.get("traits") or [])
    names = [str(t.get("!name", "")) for t in trait_recs]
    flags = []
    for t in trait_recs:
        tsup = _supers(t)
        tname = str(t.get("!name", ""))
        if "SingleBlockImplicitTerminatorImpl" in tsup:
            m = re.search(r"<([\w:]+)>", str(t.get("trait") or ""))
            out["implicit_terminator"] = m.group(1) if m else ""
        if tname in ("Terminator", "SingleBlock", "NoTerminator", "IsolatedFromAbove",
                     "AttrSizedOperandSegments", "AttrSizedResultSegments", "SameOperandsAndResultType",
                     "SameTypeOperands", "Symbol"):
            flags.append(tname)
    if "SingleBlock" in flags or "implicit_terminator" in out:
        flags.append("SingleBlock")
    out["traits"] = sorted(set(flags))

    fmt = r.get("assemblyFormat")
    if isinstance(fmt, str) and fmt.strip():
        try:
            tree = parse_format(fmt, kinds)
        except FormatError as exc:
            out["format_error"] = str(exc)
        else:
            out["format"] = tree
            resolution = _type_resolution(d, out, tree, trait_recs)
            out.update(resolution)
    elif r.get("hasCustomAssemblyFormat"):
        out["cpp"] = True
    # Which interfaces decide names and default dialects (the C++ methods are ported by hand).
    for t in trait_recs:
        iface = str(t.get("cppInterfaceName") or "")
        if iface == "OpAsmOpInterface":
            methods = t.get("alwaysOverriddenMethods")
            out["asm_interface"] = sorted(str(m) for m in methods) if isinstance(methods, list) else []
    del names
    return out


def _type_resolution(d: Records, op: dict[str, Any], tree: list[Any],
                     trait_recs: list[Record]) -> dict[str, Any]:
    """How the parser finds the types the format does not print (mlir-tblgen's `verifyOperands` /
    `verifyResults`): per operand or result name `[how, what, transformer]` with how = `var` (another
    operand's or result's type), `attr` (an attribute's type) or `build` (a fixed type's text); `infer`:
    the results come from the op's InferTypeOpInterface; `unresolved` names what no rule covers."""
    seen_operand_types: list[str] = []
    seen_result_types: list[str] = []
    seen_attrs: set[str] = set()
    all_operand_types = all_result_types = False

    def mark_type(arg: list[Any]) -> None:
        nonlocal all_operand_types, all_result_types
        if arg[0] == "operand":
            seen_operand_types.append(arg[1])
        elif arg[0] == "result":
            seen_result_types.append(arg[1])
        elif arg[0] == "operands":
            all_operand_types = True
        elif arg[0] == "results":
            all_result_types = True

    stack: list[tuple[list[Any], bool]] = [(el, False) for el in tree]
    while stack:
        el, in_ref = stack.pop()
        kind = el[0]
        if kind == "ref":
            stack.append((el[1], True))
        elif kind == "type" and not in_ref:
            mark_type(el[1])
        elif kind == "functional-type" and not in_ref:
            mark_type(el[1])
            mark_type(el[2])
        elif kind == "attr" and not in_ref:
            seen_attrs.add(el[1])
        elif kind == "optional":
            stack.extend((c, in_ref) for c in el[1] + el[2])
        elif kind == "oilist":
            for _, body in el[1]:
                stack.extend((c, in_ref) for c in body)
        elif kind == "custom":
            stack.extend((c, in_ref) for c in el[2])
    operand_names = [o[0] for o in op["operands"]]
    result_names = [r[0] for r in op["results"]]
    resolver: dict[str, list[Any]] = {}

    def seen_arg(name: str) -> list[Any] | None:
        if name in operand_names:
            return ["var", name] if name in seen_operand_types or all_operand_types else None
        if name in result_names:
            return ["var", name] if name in seen_result_types or all_result_types else None
        if name in seen_attrs:
            return ["attr", name]
        return None

    infer = False
    all_results_buildable = all("build" in r[2] or "build_cpp" in r[2] for r in op["results"]) \
        and all(r[1] == "single" for r in op["results"])
    for t in trait_recs:
        tsup = _supers(t)
        tname = str(t.get("!name", ""))
        if "AllTypesMatch" in tsup:
            values = [str(v) for v in t.get("values") or []]
            for i, v in enumerate(values):
                arg = seen_arg(v)
                if arg is None:
                    continue
                for j, other in enumerate(values):
                    if j != i:
                        resolver[other] = [*arg, None]
        elif tname in ("SameTypeOperands", "SameOperandsAndResultType"):
            include_results = tname == "SameOperandsAndResultType"
            first: list[Any] | None = None
            if seen_operand_types or all_operand_types:
                first = ["var", next((n for n in operand_names if n in seen_operand_types),
                                     operand_names[0] if operand_names else "")]
            elif include_results and (seen_result_types or all_result_types):
                first = ["var", next((n for n in result_names if n in seen_result_types),
                                     result_names[0] if result_names else "")]
            if first is not None:
                for n in operand_names:
                    if n not in seen_operand_types:
                        resolver[n] = [*first, None]
                if include_results:
                    for n in result_names:
                        if n not in seen_result_types:
                            resolver[n] = [*first, None]
        elif "TypesMatchWith" in tsup:
            arg = seen_arg(str(t.get("lhs")))
            if arg is not None:
                resolver[str(t.get("rhs"))] = [*arg, _norm(t.get("transformer"))]
        elif not all_results_buildable and str(t.get("cppInterfaceName") or "") == "InferTypeOpInterface" \
                and str(t.get("cppNamespace") or "") == "::mlir":
            infer = True
    out: dict[str, Any] = {}
    resolve: dict[str, list[Any]] = {}
    unresolved: list[str] = []
    if not all_result_types:
        if op["results"] and not seen_result_types and infer:
            out["infer"] = True
        else:
            for name, kind, info in op["results"]:
                if name in seen_result_types:
                    continue
                if name in resolver:
                    resolve[name] = resolver[name]
                elif kind == "single" and "build" in info:
                    resolve[name] = ["build", info["build"], None]
                else:
                    unresolved.append(name)
    if not all_operand_types:
        for name, _kind, info in op["operands"]:
            if name in seen_operand_types:
                continue
            if name in resolver:
                resolve[name] = resolver[name]
            elif "build" in info:
                resolve[name] = ["build", info["build"], None]
            else:
                unresolved.append(name)
    if resolve:
        out["resolve"] = resolve
    if unresolved:
        out["unresolved"] = unresolved
    if all_operand_types:
        out["all_operand_types"] = True
    if all_result_types:
        out["all_result_types"] = True
    return out


def derive_all_syntax(d: Records) -> dict[str, dict[str, Any]]:
    """The syntax data of every op of one `--dump-json` output, keyed by full op name."""
    instances = d.get("!instanceof")
    if not isinstance(instances, dict):
        raise OdsError("not llvm-tblgen --dump-json output (no !instanceof)")
    attrs = def_classes(d, "AttrDef")
    types = def_classes(d, "TypeDef")
    out: dict[str, dict[str, Any]] = {}
    classes: dict[str, str] = {}
    for op_def in instances.get("Op", []):
        r = d[op_def]
        dialect_rec = _ref(d, r.get("opDialect"))
        if dialect_rec is None:
            continue
        full = f"{dialect_rec.get('name')}.{r.get('opName')}"
        out[full] = derive_syntax(d, op_def, attrs, types)
        ns = str(r.get("cppNamespace") or dialect_rec.get("cppNamespace") or "")
        cls = op_def.split("_", 1)[1] if "_" in op_def else op_def
        classes[_cpp_key(f"{ns.strip().lstrip(':')}::{cls}")] = full
    for data in out.values():
        term = data.get("implicit_terminator")
        if term is not None:
            key = _cpp_key(term)
            found = classes.get(key) or next((v for k, v in classes.items() if k.endswith("::" + key)), None)
            data["implicit_terminator"] = found or term
    return out


