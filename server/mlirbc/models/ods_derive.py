"""Derives op models from TableGen's JSON (`llvm-tblgen --dump-json`) following the ODS property rules.

Shared by the data generator (`server/tools/gen_ods_models.py`) and by user-named ODS JSON files at run time.
The output per op is a plain JSON-able dict (see `derive_op`); `ods.op_model_from_data` turns it into a
`LayoutOpModel`.  The rules are those of the shared notes *properties-from-ods*: inherent attributes sorted
byte-wise, flagged when optional or default-valued, native properties in declaration order with their codec
recognised from the property's C++ snippets, then the segment sizes.
"""

from __future__ import annotations

import re
from typing import Any

Record = dict[str, Any]
Records = dict[str, Any]

DESCRIPTION_LIMIT = 600
"""Characters kept of an op's description (its first prose paragraph): hover text, not documentation."""


class OdsError(Exception):
    """The JSON does not look like `llvm-tblgen --dump-json` output for MLIR ops."""


# -- records --------------------------------------------------------------------------------------------
def _ref(d: Records, value: Any) -> Record | None:
    if isinstance(value, dict) and value.get("kind") == "def":
        rec = d.get(value["def"])
        return rec if isinstance(rec, dict) else None
    return None


def _supers(rec: Record) -> list[str]:
    sc = rec.get("!superclasses")
    return sc if isinstance(sc, list) else []


def _unwrap_arg(d: Records, rec: Record) -> Record:
    # `Arg<constraint, ...>` / `Res<...>` (OpVariable) wrap the real constraint.
    seen = 0
    while "OpVariable" in _supers(rec) and seen < 16:
        inner = _ref(d, rec.get("constraint"))
        if inner is None:
            break
        rec = inner
        seen += 1
    return rec


def trait_records(d: Records, traits: list[Any]) -> list[Record]:
    """An op's trait records in order, `TraitList`s flattened into what they list."""
    out: list[Record] = []
    stack = list(reversed(traits or []))
    while stack:
        t = stack.pop()
        rec = _ref(d, t)
        if rec is None:
            continue
        if "TraitList" in _supers(rec):
            stack.extend(reversed(rec.get("traits") or []))
            continue
        out.append(rec)
    return out


def _flat_traits(d: Records, traits: list[Any]) -> list[str]:
    return [str(rec.get("!name", "")) for rec in trait_records(d, traits)]


def _names(dag: Any) -> list[str]:
    if not isinstance(dag, dict):
        return []
    return [str(n or "") for _, n in dag.get("args", [])]


def _byte_key(s: str) -> bytes:
    return s.encode("utf-8")


# -- text helpers ---------------------------------------------------------------------------------------
def first_paragraph(text: str | None) -> str:
    """The first prose paragraph of an ODS description, whitespace-normalised and capped."""
    if not text:
        return ""
    paragraphs = re.split(r"\n\s*\n", text.strip("\n"))
    in_fence = False
    for para in paragraphs:
        stripped = para.strip()
        fences = stripped.count("```")
        if in_fence or stripped.startswith("```"):
            in_fence = (fences % 2 == 1) != in_fence
            continue
        if not stripped or stripped.endswith(":") and len(stripped) < 40:
            continue  # "Syntax:", "Example:" headings
        if re.match(r"^(\s{4,}|\t)", para) and not re.match(r"^\s*[A-Za-z`*]", para.strip("\n")):
            continue
        flat = " ".join(stripped.split())
        if len(flat) > DESCRIPTION_LIMIT:
            cut = flat.rfind(" ", 0, DESCRIPTION_LIMIT)
            flat = flat[:cut if cut > 0 else DESCRIPTION_LIMIT] + " ..."
        return flat
    return ""


def _norm(code: Any) -> str:
    return " ".join(str(code or "").split())


# -- native properties ----------------------------------------------------------------------------------
_INT_STORAGE = re.compile(r"^(?:::)?(?:std::)?(u?)int(8|16|32|64)_t$")


def _int_codec(storage: str) -> str | None:
    m = _INT_STORAGE.match(storage.strip())
    if m is None:
        return None
    return f"{m.group(1) and 'u'}int{m.group(2)}"


def _strip_optional(storage: str) -> str:
    m = re.match(r"^(?:::)?std::optional<(.*)>$", storage.strip())
    return m.group(1).strip() if m else storage.strip()


def _codec_from_snippet(write: str, storage: str, to_attr: str) -> str:
    """Recognise the bytecode encoding of a property from its writeToMlirBytecode snippet."""
    # Nested snippets end in stray `;` (an inner `...;` followed by the wrapper's own `;`).
    w = re.sub(r"[;\s]+$", "", write)
    if w == "$_writer.writeOwnedBool($_storage)":
        return "unit" if "UnitAttr" in to_attr else "bool"
    if w == "$_writer.writeVarInt(static_cast<uint64_t>($_storage))":
        m = re.search(r"IntegerType::get\(\$_ctxt, (\d+)\)", to_attr)
        width = int(m.group(1)) if m else 32
        return "enum" if width == 32 else f"uint{width}"
    if w == "$_writer.writeVarInt($_storage)":
        return _int_codec(storage) or "unknown"
    if w == "$_writer.writeOwnedString($_storage)":
        return "string"
    if w == "$_writer.writeAttribute(convertToAttribute($_ctxt, $_storage))":
        return "attr"
    opt = re.fullmatch(r"\$_writer\.writeOwnedBool\(\$_storage\.has_value\(\)\); "
                       r"if \(\$_storage\.has_value\(\)\) \{ (.*) \}", w)
    if opt:
        inner = opt.group(1).replace("(*($_storage))", "$_storage")
        return f"opt({_codec_from_snippet(inner, _strip_optional(storage), '')})"
    arr = re.fullmatch(r"\$_writer\.writeVarInt\(\$_storage\.size\(\)\); "
                       r"for \(const auto& elemVal : \$_storage\) \{ \[&\]\(\) \{ (.*) \}\(\); \}", w)
    if arr:
        inner = arr.group(1).replace("elemVal", "$_storage")
        m = re.match(r"^(?:::llvm::)?SmallVector<(.*)>$", storage.strip())
        elem = m.group(1).strip() if m else ""
        codec = _codec_from_snippet(inner, elem, "")
        if to_attr.strip().rstrip(";").strip() == "return convertToAttribute($_ctxt, $_storage)" \
                and codec in ("int64", "int32", "int16", "int8"):
            return f"intarray({codec})"
        return f"array({codec})"
    return "unknown"


def native_codec(rec: Record) -> str:
    """The codec name (see layout.native_codec) of a `Property` record."""
    return _codec_from_snippet(_norm(rec.get("writeToMlirBytecode")), str(rec.get("storageType", "")),
                               _norm(rec.get("convertToAttribute")))


# -- default values (informational) ---------------------------------------------------------------------
_INT_TYPE = re.compile(r"^(S|U)?I(\d+)$")


def _int_literal(text: str) -> int | None:
    t = text.strip()
    m = re.fullmatch(r"static_cast<\s*[\w:]+\s*>\((.*)\)", t)
    if m:
        t = m.group(1).strip()
    try:
        return int(t, 0)
    except ValueError:
        return None


def _enum_case(d: Records, enum: Record, default: str) -> Record | None:
    symbol = default.strip().rsplit("::", 1)[-1]
    for ref in enum.get("enumerants") or []:
        case = _ref(d, ref)
        if case is None:
            continue
        # `{}` value-initialises a (bit) enum: the case whose value is 0
        if case.get("symbol") == symbol or (default.strip() == "{}" and case.get("value") == 0):
            return case
    return None


_CPP_DEFAULTS = {
    # C++ default expressions of attributes with hand-written printers, as mlir-opt 22 prints them
    ("::mlir::LLVM::CConvAttr", "CConv::C"): "#llvm.cconv<ccc>",
    ("::mlir::LLVM::TailCallKindAttr", "TailCallKind::None"): "#llvm.tailcallkind<none>",
    ("::mlir::LLVM::LinkageAttr", "Linkage::External"): "#llvm.linkage<external>",
    ("::mlir::ub::PoisonAttrInterface", "{}"): "#ub.poison",
}


def _enum_attr_text(d: Records, base: Record, default: str) -> str | None:
    enum = _ref(d, base.get("enum"))
    dialect = _ref(d, base.get("dialect"))
    if enum is None or dialect is None or "|" in default:
        return None
    case = _enum_case(d, enum, default)
    if case is None:
        return None
    fmt = "".join(str(base.get("assemblyFormat") or "").split()).replace("``", "")
    mnemonic = base.get("mnemonic")
    if fmt == "`<`$value`>`":
        return f"#{dialect.get('name')}.{mnemonic}<{case.get('str')}>"
    if fmt == "$value":
        return f"#{dialect.get('name')}<{mnemonic} {case.get('str')}>"
    return None


def default_text(d: Records, rec: Record) -> str | None:
    """MLIR text of an attribute's default value when it can be materialised without running C++."""
    default = str(rec.get("defaultValue") or "").strip()
    if not default:
        return None
    base = rec
    for _ in range(16):
        inner = _ref(d, base.get("baseAttr"))
        if inner is None:
            break
        base = inner
    supers = _supers(base)
    storage = str(base.get("storageType", "")).strip()
    known = _CPP_DEFAULTS.get((storage, default))
    if known is not None:
        return known
    if "EnumAttr" in supers:
        return _enum_attr_text(d, base, default)
    if "EnumAttrInfo" in supers:
        case = _enum_case(d, base, default)
        if case is None or "|" in default:
            return None
        return f"{case.get('value')} : i{base.get('bitwidth', 32)}"
    if storage == "::mlir::BoolAttr":
        return default if default in ("true", "false") else None
    if storage == "::mlir::IntegerAttr":
        value = _int_literal(default)
        vtype = _ref(d, base.get("valueType"))
        if value is None or vtype is None:
            return None
        name = str(vtype.get("!name", ""))
        if name == "Index":
            return f"{value} : index"
        m = _INT_TYPE.match(name)
        if m is None:
            return None
        width = int(m.group(2))
        if width == 1:
            return "true" if value & 1 else "false"
        bits = value & ((1 << width) - 1)
        shown = bits if m.group(1) == "U" else bits - ((bits >> (width - 1)) << width)
        prefix = {"S": "si", "U": "ui"}.get(m.group(1) or "", "i")
        return f"{shown} : {prefix}{width}"
    if storage == "::mlir::StringAttr":
        return default if re.fullmatch(r'"[^"\\]*"', default) else None
    if default == "{}":
        m = re.fullmatch(r"::mlir::Dense(I\d+|Bool|F32|F64)ArrayAttr", storage)
        if m:
            elt = {"Bool": "i1", "F32": "f32", "F64": "f64"}.get(m.group(1), m.group(1).lower())
            return f"array<{elt}>"
        if storage == "::mlir::ArrayAttr":
            return "[]"
        if storage == "::mlir::DictionaryAttr":
            return "{}"
    return None


# -- ops ------------------------------------------------------------------------------------------------
BUILTIN_STORAGE = frozenset({
    "AffineMapAttr", "ArrayAttr", "BoolAttr", "DenseBoolArrayAttr", "DenseElementsAttr", "DenseF32ArrayAttr",
    "DenseF64ArrayAttr", "DenseFPElementsAttr", "DenseI16ArrayAttr", "DenseI32ArrayAttr", "DenseI64ArrayAttr",
    "DenseI8ArrayAttr", "DenseIntElementsAttr", "DictionaryAttr", "ElementsAttr", "FlatSymbolRefAttr",
    "FloatAttr", "IntegerAttr", "IntegerSetAttr", "LocationAttr", "StringAttr", "SymbolRefAttr", "TypeAttr",
    "TypedAttr", "UnitAttr"})
"""The builtin storage classes (C++ `::mlir::X`) whose check `models.storage` knows."""


def attr_classes(d: Records) -> dict[str, str]:
    """C++ class of every AttrDef in the records -> `#dialect.mnemonic` (or `#dialect` without a
    mnemonic)."""
    out: dict[str, str] = {}
    for name in (d.get("!instanceof") or {}).get("AttrDef", []):
        rec = d.get(name)
        if not isinstance(rec, dict):
            continue
        dialect = _ref(d, rec.get("dialect"))
        cls = f"{str(rec.get('cppNamespace') or '').strip().lstrip(':')}::{rec.get('cppClassName')}"
        if dialect is None or not dialect.get("name"):
            continue
        mnemonic = rec.get("mnemonic")
        out[cls] = f"#{dialect['name']}" + (f".{mnemonic}" if isinstance(mnemonic, str) and mnemonic else "")
    return out


def storage_spec(rec: Record, classes: dict[str, str]) -> str | None:
    """What an attribute argument's stored value must be, as upstream's bytecode reader checks it (it
    reads the attribute as the constraint's C++ storage class and refuses anything else): a builtin class
    name, `int-enum:N` (an integer enum: a signless N-bit IntegerAttr), `#dialect[.mnemonic]` for a
    dialect's attribute class, or None when no check is known (`::mlir::Attribute`, interfaces)."""
    storage = str(rec.get("storageType") or "").strip().lstrip(":")
    if not storage:
        return None
    if storage.startswith("mlir::") and storage.count("::") == 1:
        short = storage.removeprefix("mlir::")
        if short in BUILTIN_STORAGE:
            return short
    found = classes.get(storage)
    if found is not None:
        return None if found.startswith("#builtin") else found
    supers = _supers(rec)
    if "IntEnumAttr" in supers or "BitEnumAttr" in supers:
        m = re.fullmatch(r"I(\d+)", str((rec.get("valueType") or {}).get("def", "")))
        if m:
            return f"int-enum:{m.group(1)}"
    return None


def derive_op(d: Records, op_def: str, classes: dict[str, str] | None = None) -> dict[str, Any]:
    """The model data of one op record: names, docs, and its property layout."""
    r = d[op_def]
    dialect_rec = _ref(d, r.get("opDialect"))
    if dialect_rec is None:
        raise OdsError(f"{op_def} has no dialect")
    dialect = str(dialect_rec.get("name", ""))
    name = str(r.get("opName", ""))
    operands: list[str] = []
    attributes: list[str] = []
    fields: list[list[Any]] = []
    defaults: dict[str, str] = {}
    natives: list[list[str]] = []
    storage: dict[str, str] = {}
    for arg, arg_name in (r.get("arguments") or {}).get("args", []):
        rec = _ref(d, arg)
        if rec is None:
            raise OdsError(f"{dialect}.{name}: argument {arg_name} is not a def")
        rec = _unwrap_arg(d, rec)
        supers = _supers(rec)
        if "TypeConstraint" in supers:
            operands.append(str(arg_name))
        elif "Attr" in supers:
            attributes.append(str(arg_name))
            flagged = bool(rec.get("isOptional")) or bool(str(rec.get("defaultValue") or "").strip())
            fields.append([str(arg_name), "flagged" if flagged else "required"])
            spec = storage_spec(rec, attr_classes(d) if classes is None else classes)
            if spec is not None:
                storage[str(arg_name)] = spec
            # Only non-optional default-valued attributes hold their default when absent: mlir-opt
            # prints it and fills it in when it reads a `<{...}>` dictionary; a DefaultValuedOptionalAttr
            # stays absent.
            if flagged and not rec.get("isOptional"):
                text = default_text(d, rec)
                if text is not None:
                    defaults[str(arg_name)] = text
        elif "Property" in supers:
            attributes.append(str(arg_name))
            natives.append([str(arg_name), native_codec(rec)])
        else:
            raise OdsError(f"{dialect}.{name}: cannot classify argument {arg_name} ({rec.get('!name')})")
    traits = _flat_traits(d, r.get("traits") or [])
    results = _names(r.get("results"))
    # A segment-size field has one entry per ODS operand (result) declaration; the v6 sparse form
    # does not store trailing zeros, so the count is part of the layout.
    if "AttrSizedOperandSegments" in traits:
        fields.append(["operandSegmentSizes", "segments", len(operands)])
    if "AttrSizedResultSegments" in traits:
        fields.append(["resultSegmentSizes", "segments", len(results)])
    fields.sort(key=lambda f: _byte_key(str(f[0])))
    op: dict[str, Any] = {
        "name": name,
        "summary": " ".join(str(r.get("summary") or "").split()),
        "description": first_paragraph(r.get("description")),
        "operands": operands,
        "results": results,
        "attributes": attributes,
        "regions": _names(r.get("regions")),
        "successors": _names(r.get("successors")),
        "fields": fields,
        "natives": natives,
    }
    if defaults:
        op["defaults"] = defaults
    if storage:
        op["storage"] = storage
    if "IsolatedFromAbove" in traits:
        op["isolated"] = True
    if r.get("useCustomPropertiesEncoding"):
        op["custom_encoding"] = True
    op["dialect"] = dialect
    return op


def dialect_info(d: Records, dialect_def: str) -> dict[str, str]:
    rec = d[dialect_def]
    return {"summary": " ".join(str(rec.get("summary") or "").split()),
            "description": first_paragraph(rec.get("description"))}


_VARIADIC = ("Variadic", "Optional", "VariadicOfVariadic", "VariadicRegion", "VariadicSuccessor")
COUNT_KINDS = ("results", "operands", "regions", "successors")


def op_counts(d: Records, op_def: str) -> tuple[str, list[int]]:
    """(full name, [results, operands, regions, successors]) of one op record: how many of each the op
    has, -1 where ODS does not fix the number (a variadic or optional one among them)."""
    r = d[op_def]
    dialect_rec = _ref(d, r.get("opDialect"))
    if dialect_rec is None:
        raise OdsError(f"{op_def} has no dialect")
    full = f"{dialect_rec.get('name', '')}.{r.get('opName', '')}"

    def count(dag: Any, keep: str | None = None) -> int:
        n = 0
        for arg, _ in (dag.get("args", []) if isinstance(dag, dict) else []):
            rec = _ref(d, arg)
            if rec is None:
                return -1
            rec = _unwrap_arg(d, rec)
            supers = _supers(rec)
            if keep is not None and keep not in supers:
                continue  # (an attribute or property among the arguments)
            if any(v in supers for v in _VARIADIC):
                return -1
            n += 1
        return n

    return full, [count(r.get("results")), count(r.get("arguments"), "TypeConstraint"),
                  count(r.get("regions")), count(r.get("successors"))]


def derive_ops(d: Records) -> dict[str, dict[str, Any]]:
    """Every op of one `--dump-json` output, keyed by full name (`dialect.op`)."""
    instances = d.get("!instanceof")
    if not isinstance(instances, dict):
        raise OdsError("not llvm-tblgen --dump-json output (no !instanceof)")
    out: dict[str, dict[str, Any]] = {}
    classes = attr_classes(d)
    for op_def in instances.get("Op", []):
        op = derive_op(d, op_def, classes)
        out[f"{op['dialect']}.{op['name']}"] = op
    return out


def dialects_of(d: Records) -> dict[str, dict[str, str]]:
    """Name -> summary/description of every dialect record in the JSON."""
    out: dict[str, dict[str, str]] = {}
    for ddef in (d.get("!instanceof") or {}).get("Dialect", []):
        rec = d.get(ddef)
        if isinstance(rec, dict) and rec.get("name") is not None:
            out[str(rec["name"])] = dialect_info(d, ddef)
    return out
