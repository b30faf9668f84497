"""The bytecode-DSL interpreter (`models.dsl`) on real bytes.

* upstream MLIR 22's `llvm` dialect: debug-info attributes, loop annotations and the other custom-encoded
  llvm attributes in files made by `mlir-opt --emit-bytecode` decode with no fallback, re-encode identically
  (template and fresh), and print exactly as mlir-opt prints them;
* Shardy's `sdy` declaration as a user's `--ods-json` file: decoded, printed generically, parsed back;
* a hand-written helper without a hook keeps its entries as fallbacks saying which snippet; a hook fixes it;
* hostile list lengths fail fast.
"""

from __future__ import annotations

import copy
import json
import tracemalloc
from functools import cache
from typing import Any

import pytest

from corpus import CORPUS, ODS
from mlirbc.binary.stream import ByteReader, encode_varint
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.structured import StructuredAttr
from mlirbc.models.api import ModelError
from mlirbc.models.build import models
from mlirbc.models.dsl import (
    FIELD_HOOKS,
    OptionalVarIntHook,
    dsl_dialect,
    load_records,
    read_dsl,
    register_dsl,
    register_field_hook,
)
from mlirbc.models.ods import DATA_DIR
from mlirbc.models.registry import Registry
from mlirbc.syntax.attr_parser import parse_attribute_text
from mlirbc.syntax.attr_printer import print_attribute
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from oracle import GENERIC_FLAGS, SKIP_REASON, mlir_opt_path, run_mlir_opt

LLVM_DSL = DATA_DIR / "dsl" / "llvm.json.gz"
SDY_DSL = ODS / "sdy_bytecode.json"

DEBUG_INFO = """
#file = #llvm.di_file<"lib.c" in "/src">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C11, file = #file,
  producer = "cc", isOptimized = true, emissionKind = LineTablesOnly, nameTableKind = None>
#int = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
#ptr = #llvm.di_derived_type<tag = DW_TAG_pointer_type, baseType = #int, sizeInBits = 64,
  dwarfAddressSpace = 1>
#null = #llvm.di_null_type
#rec_self = #llvm.di_composite_type<recId = distinct[4]<>, isRecSelf = true>
#node = #llvm.di_derived_type<tag = DW_TAG_member, name = "next", baseType = #rec_self, sizeInBits = 64>
#rec = #llvm.di_composite_type<recId = distinct[4]<>, tag = DW_TAG_structure_type, name = "list",
  file = #file, line = 2, flags = "Public|TypePassByValue", sizeInBits = 64, elements = #node>
#range = #llvm.di_subrange<count = 8 : i64, lowerBound = 0 : i64, stride = 4 : i64>
#arr = #llvm.di_composite_type<tag = DW_TAG_array_type, baseType = #int, sizeInBits = 256,
  dataLocation = #llvm.di_expression<[DW_OP_push_object_address, DW_OP_deref]>, elements = #range>
#sty = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #null, #ptr, #rec, #arr>
#sp = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #cu, scope = #file, name = "walk",
  linkageName = "_walk", file = #file, line = 5, scopeLine = 6, subprogramFlags = "Definition|Optimized",
  type = #sty>
#block = #llvm.di_lexical_block<scope = #sp, file = #file, line = 7, column = 3>
#var = #llvm.di_local_variable<scope = #block, name = "p", file = #file, line = 8, arg = 1,
  alignInBits = 64, type = #ptr, flags = Artificial>
#label = #llvm.di_label<scope = #sp, name = "again", file = #file, line = 9>
#ns = #llvm.di_namespace<name = "ns", scope = #file, exportSymbols = false>
#ie = #llvm.di_imported_entity<tag = DW_TAG_imported_module, scope = #sp, entity = #ns, file = #file,
  line = 4>
#gv = #llvm.di_global_variable<scope = #ns, name = "g", linkageName = "_g", file = #file, line = 1,
  type = #int, isLocalToUnit = false, isDefined = true, alignInBits = 32>
#gve = #llvm.di_global_variable_expression<var = #gv, expr = <[DW_OP_LLVM_fragment(0, 16), DW_OP_constu(3)]>>
#access = #llvm.access_group<id = distinct[2]<>>
#loop = #llvm.loop_annotation<disableNonforced = true,
  vectorize = #llvm.loop_vectorize<disable = false, width = 4 : i32>,
  unroll = #llvm.loop_unroll<count = 2 : i32>, licm = #llvm.loop_licm<disable = true>,
  mustProgress = true, isVectorized = false,
  startLoc = loc(fused<#sp>["lib.c":10:1]), endLoc = loc(fused<#sp>["lib.c":12:1]),
  parallelAccesses = #access>
module {
  llvm.mlir.global external @g(42 : i32) {dbg_exprs = [#gve]} : i32
  llvm.func @walk(%p: !llvm.ptr, %n: i32) -> i32 {
    %c = llvm.mlir.constant(1 : i32) : i32
    llvm.intr.dbg.value #var = %p : !llvm.ptr loc(fused<#block>["lib.c":8:5])
    llvm.intr.dbg.label #label
    llvm.br ^loop(%c : i32) {loop_annotation = #loop}
  ^loop(%i: i32):
    llvm.return %i : i32
  } loc(fused<#sp>["lib.c":5:1])
  llvm.func @other() attributes {dbg_entities = [#ie]} {
    llvm.return
  }
}
"""


@cache
def llvm_registry() -> Registry:
    reg = models()
    assert reg.attr_codec_registration("llvm") is not None  # shipped: mlirbc's own llvm DSL model
    return reg


def _bytecode(text: str, version: int) -> bytes:
    proc = run_mlir_opt(["--emit-bytecode", f"--emit-bytecode-version={version}", "-o", "-"],
                        text.encode())
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
@pytest.mark.parametrize("version", [1, 5, 6])
def test_llvm_debug_info_and_loop_annotations_decode_and_reencode(version: int) -> None:
    data = _bytecode(DEBUG_INFO, version)
    reg = llvm_registry()
    m = decode_bytecode(data, reg)
    assert m.error is None
    assert [(n.kind, n.name, n.reason) for n in m.fallbacks] == []
    assert m.source is not None
    llvm = [e for e in m.source.attrs if m.source.dialects[e.dialect].name == "llvm" and e.custom]
    kinds = {e.value.kind.name for e in llvm if isinstance(e.value, StructuredAttr)}
    assert len(llvm) >= 20 and len(kinds) == len({e.value.kind.name for e in llvm})  # type: ignore[union-attr]
    assert {"DICompositeTypeAttr", "DISubprogramAttr", "LoopAnnotationAttr", "DIExpressionAttr",
            "DIImportedEntityAttr", "DIGlobalVariableExpressionAttr", "DISubrangeAttr"} <= kinds
    assert encode_bytecode(m, registry=reg) == data
    text = print_module(m).text
    parsed = parse_module(text, template=m, registry=reg)
    assert parsed.module is not None, [d.message for d in parsed.errors[:3]]
    assert encode_bytecode(parsed.module, template=m, registry=reg) == data
    assert encode_bytecode(parsed.module, template=None, registry=reg) == data


@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
def test_llvm_attributes_print_as_mlir_opt_prints_them() -> None:
    """The view of such a file is mlir-opt's own generic print (distinct attributes numbered as it
    numbers them), and mlir-opt reads it."""
    data = _bytecode(DEBUG_INFO, 6)
    ours = print_module(decode_bytecode(data, llvm_registry())).text
    theirs = run_mlir_opt(GENERIC_FLAGS, data).stdout.decode()
    assert "#llvm.di_subprogram<" in ours and "#llvm.loop_annotation<" in ours
    assert [ln for ln in ours.splitlines() if not ln.lstrip().startswith("// mlirbc")] == theirs.splitlines()
    proc = run_mlir_opt(["--allow-unregistered-dialect", "-o", "/dev/null"], ours.encode())
    assert proc.returncode == 0, proc.stderr.decode()


def test_the_shipped_declarations() -> None:
    llvm = read_dsl(load_records(LLVM_DSL))["LLVM"]
    assert [e.code for e in llvm.attributes] == list(range(19)) and not llvm.types
    tosa = read_dsl(load_records(DATA_DIR / "dsl" / "tosa.json.gz"))
    assert {k: (len(v.attributes), len(v.types)) for k, v in tosa.items()} == {"Tosa": (0, 0)}
    sdy = read_dsl(load_records(DATA_DIR / "dsl" / "sdy.json.gz"))["sdy"]
    assert len(sdy.attributes) == 18
    unsupported = [m.codec.name for e in [*llvm.attributes, *sdy.attributes] for m in e.members
                   if m.codec.op == "unsupported"]
    assert unsupported == []
    hooks = {m.codec.name for e in [*llvm.attributes, *sdy.attributes] for m in e.members
             if m.codec.op == "hook"}
    assert hooks == {"readOptionalArrayRef", "readOptionalInt", "readOptionalVarInt"}


# -- a user's DSL file -------------------------------------------------------------------------------------

def test_a_users_ods_json_file_declares_codecs() -> None:
    """Shardy's own declaration given as `--ods-json`, without mlirbc's StableHLO plugin: the sdy entries
    decode (generic syntax), print and parse back, and the file re-encodes identically."""
    reg = models(ods_json=[str(SDY_DSL)], entry_points=False)
    assert reg.attr_codec_registration("sdy").origin == f"ods-json {SDY_DSL}"  # type: ignore[union-attr]
    assert reg.attr_codec_registration("builtin") is not None
    assert reg.attr_codec_registration("builtin").origin == "builtin (mlirbc)"  # type: ignore[union-attr]
    data = (CORPUS / "vhlo" / "shard_map_collectives.mlirbc").read_bytes()
    m = decode_bytecode(data, reg)
    # no op models here (neither vhlo's nor sdy's): only those are fallbacks, every sdy attribute decodes
    assert {(n.kind, n.name.split(".")[0]) for n in m.fallbacks} == {
        ("op", "vhlo"), ("op", "sdy"), ("attribute", "vhlo"), ("type", "vhlo")}
    assert m.source is not None
    sdy = [e.value for e in m.source.attrs if m.source.dialects[e.dialect].name == "sdy"]
    assert sdy and all(isinstance(a, StructuredAttr) for a in sdy)
    for a in sdy:
        generic = print_attribute(a)
        assert generic.startswith("#sdy.Sdy_"), generic
        assert parse_attribute_text(generic, reg.syntax) is a
    text = print_module(m).text
    parsed = parse_module(text, template=m, registry=reg)
    assert parsed.module is not None, [d.message for d in parsed.errors[:3]]
    assert encode_bytecode(parsed.module, template=m, registry=reg) == data


def _records_with_unknown_helper() -> dict[str, Any]:
    """The LLVM declaration with `readOptionalInt` (DIDerivedTypeAttr's dwarfAddressSpace) renamed."""
    records: dict[str, Any] = copy.deepcopy(load_records(LLVM_DSL))
    args = records["DIDerivedTypeAttr"]["members"]["args"]
    ref = next(a for a, name in args if name == "dwarfAddressSpace")
    rec = records[ref["def"]]
    assert rec["cParser"] == "succeeded(readOptionalInt($_reader, $_var))"
    rec["cParser"] = "succeeded(readFancyInt($_reader, $_var))"
    return records


@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
def test_a_helper_without_a_hook_keeps_its_entries_as_fallbacks() -> None:
    data = _bytecode(DEBUG_INFO, 6)
    reg = models(entry_points=False)
    register_dsl(reg, _records_with_unknown_helper(), "test", dialect="llvm", cpp_dialect="LLVM")
    m = decode_bytecode(data, reg)
    reasons = {n.reason for n in m.fallbacks}
    assert reasons and all("no hook for the hand-written DSL helper 'readFancyInt'" in r for r in reasons)
    assert all(n.name == "llvm" for n in m.fallbacks)  # only the entries with that member
    assert encode_bytecode(m, registry=reg) == data
    register_field_hook("readFancyInt", OptionalVarIntHook())
    try:
        assert not decode_bytecode(data, reg).fallbacks
    finally:
        del FIELD_HOOKS["readFancyInt"]


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.r = ByteReader(data, 0, len(data), "test")
        self.version = 6

    @property
    def remaining(self) -> int:
        return self.r.remaining

    def varint(self) -> int:
        return self.r.varint()

    def byte(self) -> int:
        return self.r.byte()


def test_hostile_list_lengths_fail_fast() -> None:
    sdy = dsl_dialect(load_records(DATA_DIR / "dsl" / "sdy.json.gz"), dialect="sdy", cpp_dialect="sdy")
    mesh = sdy.entries["Sdy_MeshAttrBc"]
    tracemalloc.start()
    try:
        with pytest.raises(ModelError, match="longer than the"):
            sdy.decode_attribute(_Reader(encode_varint(mesh.codes[0]) + encode_varint(1 << 62)))  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_records_survive_json() -> None:
    """The trimmed data keeps exactly what the lists reach (it is what the generator ships)."""
    records = load_records(LLVM_DSL)
    assert json.loads(json.dumps(records)) == records
    assert set(records["!instanceof"]) <= {"DialectAttributes", "DialectTypes", "DialectAttribute",
                                           "DialectType", "AttributeKind", "TypeKind", "Bytecode",
                                           "WithParser", "WithBuilder", "WithPrinter", "WithType",
                                           "WithGetter", "DialectAttrOrType", "CompositeBytecode", "Array",
                                           "List", "LocalVar", "KnownWidthAPInt", "KnownSemanticsAPFloat",
                                           "ResourceHandle", "Attr", "OptionalAttribute", "OptionalInt",
                                           "OptionalArrayRef", "EnumClassFlag"}
