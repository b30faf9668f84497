"""Aliases in the view (`syntax.aliases`, `view.aliasing`): MLIR's rules on inputs made to exercise them
(checked against mlir-opt), the names and the text scanning on their own, the dialects' rules against
their declarations, and the aliased view of every corpus file saving back to the original bytes (also
with elided values and after an edit)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from corpus import CORPUS, manifest
from iree_support import differing_lines
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.attributes import DialectAttr
from mlirbc.ir.module import Module
from mlirbc.ir.types import DialectType
from mlirbc.models.alias_rules import LLVM_MNEMONIC_ALIASES, UPSTREAM_ALIASES
from mlirbc.models.build import default_registry
from mlirbc.models.iree.aliases import composite_alias, device_target_alias, executable_target_alias
from mlirbc.models.registry import Registry
from mlirbc.syntax.aliases import nested_values, sanitize
from mlirbc.view.aliasing import alias_rules, collect_generic
from mlirbc.view.edits import parse_state, printed_state, reparse_edit, writing
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from oracle import SKIP_REASON, TBLGEN_SKIP_REASON, dump_ods_json, mlir_opt_path, run_mlir_opt

needs_mlir_opt = pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)

# -- MLIR's rules, on inputs that exercise them -----------------------------------------------------

PROBES = {
    # A block argument's location prints inline but is aliased (with what it holds) before the module;
    # ops' locations after it; regions are visited before their op's attributes; a distinct attribute of a
    # value and a tuple of more than 16 types have aliases, a distinct of unit has none.
    "order_and_deferral": """
module {
  "test.outer"() <{m = affine_map<(d0) -> (d0 + 1)>}> ({
  ^bb0(%a: i32 loc(callsite("x"("f":1:1) at "g":2:2))):
    "test.inner"() {m = affine_map<(d0) -> (d0 + 2)>, q = distinct[0]<42 : i32>, r = distinct[1]<>}
      : () -> () loc("inner":3:3)
    "test.inner2"() {z = affine_map<(d0) -> (d0 + 3)>, a = affine_map<(d0) -> (d0 + 2)>}
      : () -> tuple<i1,i1,i1,i1,i1,i1,i1,i1,i1,i1,i1,i1,i1,i1,i1,i1,i1> loc(fused["a":1:1, "b":2:2])
  }) {k = affine_map<(d0) -> (d0 + 3)>} : () -> () loc("outer":4:4)
} loc(unknown)
""",
    # A registered op's inherent attributes are visited with its discardable ones, sorted by name.
    "registered_op_attributes": """
module {
  func.func @f(%x: index) -> index {
    %0 = "affine.apply"(%x) <{map = affine_map<(d0) -> (d0 + 5)>}> {a.x = affine_map<(d0) -> (d0 + 6)>}
      : (index) -> index
    %1 = "affine.apply"(%x) <{map = affine_map<(d0) -> (d0 + 7)>}> {z.x = affine_map<(d0) -> (d0 + 8)>}
      : (index) -> index
    return %0 : index
  }
}
""",
    # llvm debug info: names from the dialect, depth orders the definitions, a value printed without its
    # mnemonic (`compileUnit = <...>`) is its alias; a location's metadata needs its alias first.
    "llvm_debug_info": """
#file = #llvm.di_file<"foo.c" in "/tmp">
#bt = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #file, producer = "x",
  isOptimized = true, emissionKind = Full>
#st = #llvm.di_subroutine_type<types = #bt>
#sp = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #cu, scope = #file, name = "f", file = #file,
  line = 1, subprogramFlags = Definition, type = #st>
#lv = #llvm.di_local_variable<scope = #sp, name = "a", file = #file, line = 2, type = #bt>
#root = #llvm.tbaa_root<id = "r">
#lu = #llvm.loop_unroll<disable = true>
module {
  llvm.func @f(%p: !llvm.ptr) attributes {x.a = #lv, x.b = #root, x.c = #llvm.loop_annotation<unroll = #lu>,
      x.g = #llvm.di_expression<[DW_OP_deref]>} {
    llvm.return
  } loc(fused<#sp>["foo.c":1:1])
}
""",
    # sparse_tensor and ml_program name theirs; memref layouts and sets are builtin aliases.
    "dialect_names": """
#enc = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
module {
  ml_program.global private @g(#ml_program.extern : tensor<4xi32>) : tensor<4xi32>
  func.func @f(%t: tensor<8x8xf32, #enc>, %m: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>) {
    %c0 = arith.constant 0 : index
    affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%c0) { }
    return
  }
}
""",
}


def _probe_bytes(text: str) -> bytes:
    proc = run_mlir_opt(["--allow-unregistered-dialect", "--mlir-print-debuginfo", "--emit-bytecode", "-o",
                         "-"], text.encode())
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc.stdout


@needs_mlir_opt
@pytest.mark.parametrize("name", sorted(PROBES))
def test_probe_prints_as_mlir_opt(name: str) -> None:
    data = _probe_bytes(PROBES[name])
    m = decode_bytecode(data)
    assert m.error is None
    ours = print_module(m, aliases=alias_rules(m)).text
    proc = run_mlir_opt(["--allow-unregistered-dialect", "--mlir-print-op-generic", "--mlir-print-debuginfo"],
                        data)
    assert proc.returncode == 0
    theirs = proc.stdout.decode()
    assert "#" in theirs.split('"builtin.module"')[0] + theirs.rsplit("loc(", 1)[-1]  # aliases to check
    diff = differing_lines(ours, theirs)
    assert not diff, "\n" + ours + "\n---\n" + theirs
    # and it reads back as the same module
    result = parse_module(ours, template=m)
    assert result.module is not None and not result.errors
    assert encode_bytecode(result.module, template=m) == data


# -- names and text ---------------------------------------------------------------------------------

def test_sanitize_follows_mlir() -> None:
    assert sanitize("loc") == "loc"
    assert sanitize("executable_target_embedded_elf_x86_64") == "executable_target_embedded_elf_x86_64"
    assert sanitize("a-b$c") == "a-b$c"
    assert sanitize("9lives") == "_9lives"
    assert sanitize("a b.c") == "a_b2Ec"


def test_nested_values_of_text_are_the_values_the_parser_makes() -> None:
    target = '#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "#not.this<>"}>'
    outer = DialectAttr.get("hal", f'#hal.device.target<"local", [{target}, #x.y]> : !hal.device')
    found = nested_values(outer)
    assert [v for _, _, v in found] == [DialectAttr.get("hal", target), DialectAttr.get("x", "#x.y"),
                                        DialectType.get("hal", "!hal.device")]
    assert [outer.text[s:e] for s, e, _ in found] == [target, "#x.y", "!hal.device"]
    t = DialectType.get("d", "!d.t<tensor<4xf32, #e.enc<1>>, affine_map<(d0) -> (d0)>, !d.u>")
    assert [v for _, _, v in nested_values(t)] == [
        DialectAttr.get("e", "#e.enc<1>"), DialectAttr.get("builtin", "affine_map<(d0) -> (d0)>"),
        DialectType.get("d", "!d.u")]
    typed = DialectAttr.get("a", "#a.b<[#a.c<2> : i32, #a.d]>")
    assert [typed.text[s:e] for s, e, _ in nested_values(typed)] == ["#a.c<2> : i32", "#a.d"]
    assert nested_values(DialectAttr.get("a", '#a.b<"#a.c<>">')) == []
    assert nested_values(DialectAttr.get("a", "#a.b<x, #a.c<y")) == []


def test_iree_names() -> None:
    assert executable_target_alias('#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>') == \
        "executable_target_embedded_elf_x86_64"
    assert device_target_alias('#hal.device.target<"local", [#x]> : !hal.device') == "device_target_local"
    assert device_target_alias('#hal.device.target<"Vulkan", {ordinal = 1 : index}, []>') == \
        "device_target_vulkan_1_"
    assert composite_alias("#util.composite<4096xi8, [\n]>") == "composite_of_4096b"


# -- the dialects' rules -----------------------------------------------------------------------------

def test_llvm_rules_are_the_attributes_that_generate_a_mnemonic_alias(tmp_path: Path) -> None:
    from oracle import _package_dir

    mlir = _package_dir("mlir")
    found: set[str] = set()
    for td in ("mlir/Dialect/LLVMIR/LLVMAttrDefs.td", "mlir/Dialect/MLProgram/IR/MLProgramAttributes.td"):
        out = tmp_path / "defs.json"
        if mlir is None or not dump_ods_json(mlir / "include" / td, out):
            pytest.skip(TBLGEN_SKIP_REASON)
        records = json.loads(out.read_text())
        found |= {f"#{v['dialect']['def']}.{v['mnemonic']}" for v in records.values()
                  if isinstance(v, dict) and v.get("genMnemonicAlias") == 1 and v.get("mnemonic")}
    ours = {h for h in UPSTREAM_ALIASES if h.startswith(("#llvm.", "#ml_program."))}
    dialects = {"#LLVM_Dialect.": "#llvm.", "#MLProgram_Dialect.": "#ml_program."}
    for a, b in dialects.items():
        found = {h.replace(a, b) for h in found}
    assert found == ours
    assert len(LLVM_MNEMONIC_ALIASES) == len(set(LLVM_MNEMONIC_ALIASES))


def test_registered_rules_follow_model_sets_and_disabling() -> None:
    reg = Registry()
    reg.register_alias("#a.x", "x", "test")
    reg.register_alias("#a.x", "y", "test", model_set="mlir24")
    reg.register_alias("!b.t", lambda text: "t" if "<1>" in text else None, "test")
    assert reg.alias_rules()["#a.x"] == "x"
    assert reg.with_set("mlir24").alias_rules()["#a.x"] == "y"
    with pytest.raises(ValueError):
        reg.register_alias("#nodialect", "n", "test")
    reg.disable("a")
    assert set(reg.alias_rules()) == {"!b.t"}
    rules = default_registry().alias_rules()
    assert rules["#llvm.di_file"] == "di_file" and "#hal.executable.target" in rules


# -- saving back -----------------------------------------------------------------------------------

ROWS = manifest()


def _folder(row: dict[str, str]) -> str:
    return row["path"].split("/")[0]


def _aliased_text_path(data: bytes, elide: int = 0) -> tuple[bytes, Module, str]:
    m = decode_bytecode(data)
    assert m.error is None, m.error
    text = print_module(m, aliases=alias_rules(m), elide_larger_than=elide).text
    result = parse_module(text, template=m)
    assert result.module is not None and not result.errors, \
        [f"{d.span}: {d.message}" for d in result.errors[:3]]
    return encode_bytecode(result.module, template=m), m, text


@pytest.mark.parametrize("folder", sorted({_folder(r) for r in ROWS}))
def test_aliased_view_saves_to_the_original_bytes(folder: str) -> None:
    """Every valid corpus file, every version and producer: the aliased view, parsed with the file as
    template, encodes to the file."""
    rows = [r for r in ROWS if _folder(r) == folder]
    failures = []
    aliased = 0
    for row in rows:
        data = (CORPUS / row["path"]).read_bytes()
        out, _, text = _aliased_text_path(data)
        aliased += "\n#loc" in text
        if out != data:
            failures.append(row["path"])
    print(f"\n{folder}: {len(rows) - len(failures)} of {len(rows)} identical ({aliased} with aliases)")
    assert aliased > 0
    assert not failures, f"{len(failures)} of {len(rows)}:\n" + "\n".join(failures[:20])


@pytest.mark.parametrize("rel", ["iree/mlp2.executable-configurations.mlirbc",
                                 "iree/rnn_scan_while.executable-targets.mlirbc",
                                 "jax/convnet.mlirbc"])
def test_aliased_view_with_elided_values_saves_back(rel: str) -> None:
    data = (CORPUS / rel).read_bytes()
    out, _, text = _aliased_text_path(data, elide=16)
    assert "mlirbc.elided" in text and "\n#" in text
    assert out == data


def test_an_edit_in_an_aliased_view_matches_a_full_parse() -> None:
    data = (CORPUS / "upstream/Dialect__Arith__ops.mlirbc").read_bytes()
    module = decode_bytecode(data)
    base = printed_state(module, print_module(module, aliases=alias_rules(module)))
    text = base.text
    # a new op inside a function, its location an alias the view defines
    at = [x.end() for x in re.finditer(r"\n    %[0-9]+ = \"arith\.[^\n]*", text)][10] + 1
    op = '    %zz = "arith.constant"() <{value = 7 : i32}> : () -> i32 loc(#loc3)\n'
    new_text = text[:at] + op + text[at:]
    inc = reparse_edit(base, new_text, at, at, module)
    full = parse_state(new_text, module)
    assert inc is not None and inc.module is not None and full.module is not None
    assert not inc.diagnostics and not full.diagnostics
    with writing(inc.module):
        a = encode_bytecode(inc.module, template=module)
    with writing(full.module):
        b = encode_bytecode(full.module, template=module)
    assert a == b != data
    back = reparse_edit(base, text, at, at, module)
    assert back is not None and back.module is not None
    with writing(back.module):
        assert encode_bytecode(back.module, template=module) == data


# -- the source map ------------------------------------------------------------------------------------

def test_source_map_finds_aliases_their_definitions_and_uses() -> None:
    data = (CORPUS / "upstream/Dialect__Affine__ops.p01.mlirbc").read_bytes()
    m = decode_bytecode(data)
    printed = print_module(m, aliases=alias_rules(m))
    for smap in (printed.map, parse_module(printed.text, template=m).map):
        assert smap is not None
        text = smap.text
        use = text.index("#map", text.index('"builtin.module"'))
        name, span = smap.alias_at(use + 2) or ("", None)
        assert span is not None and text[span.start:span.end] == name and name.startswith("#map")
        where = smap.alias_definition(name)
        assert where is not None and text.startswith(name + " = affine_map<", where.start)
        assert use in [s.start for s in smap.alias_uses(name)]
        assert where.start not in [s.start for s in smap.alias_uses(name)]
        hit = smap.attribute_at(use + 1)
        assert hit is not None and hit.value is smap.aliases[0][name[1:]]
        loc_use = text.index("loc(#loc", use)
        hit = smap.attribute_at(loc_use + 5)
        assert hit is not None and type(hit.value).__name__.endswith("Loc")
    assert collect_generic(m.root, {}).aliases  # type: ignore[arg-type]


def test_a_recorded_print_finds_the_aliases_the_generic_walk_finds() -> None:
    """`attr_printer.recording`, for a printer that finds its aliases by printing once (the custom form):
    the generic printer recorded finds the same aliased values, each deferred or not alike."""
    from mlirbc.syntax.aliases import AliasCollector
    from mlirbc.syntax.attr_printer import recording

    for rel in ("upstream/Dialect__Affine__ops.p01.mlirbc", "iree/rnn_scan_while.executable-targets.mlirbc"):
        m = decode_bytecode((CORPUS / rel).read_bytes())
        assert m.root is not None
        rules = alias_rules(m)
        c = AliasCollector(rules)
        with recording(c.visit):
            print_module(m)
        recorded = {v: deferred for v, _, deferred in c.finish().entries}
        walked = {v: deferred for v, _, deferred in collect_generic(m.root, rules).entries}
        assert recorded == walked and len(walked) > 10


def test_the_default_view_is_pretty_with_aliases(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24: unless told otherwise (CLI flags, server settings), a file without a dialect-level view
    shows in custom forms with aliases (`#map`, `#loc` definitions), as mlir-opt prints it; `--form
    generic --local-scope` is the generic view of old, exactly: what the printer gives when asked for
    nothing."""
    from mlirbc.cli.main import main
    from mlirbc.lsp.settings import Settings, parse_settings

    path = str(CORPUS / "upstream/Dialect__Linalg__roundtrip.p10.mlirbc")
    assert main(["decode", path]) == 0
    default = capsys.readouterr().out
    assert re.search(r"^#map\d* = affine_map<", default, re.M) and "loc(#loc" in default
    assert re.search(r"^#loc\d+ = loc\(", default, re.M)
    assert "  linalg.generic {indexing_maps = [#map, #map1]" in default and '"linalg.generic"' not in default
    assert main(["decode", path, "--form", "pretty", "--aliases"]) == 0
    assert capsys.readouterr().out == default
    assert main(["decode", path, "--form", "generic", "--local-scope"]) == 0
    generic = capsys.readouterr().out
    assert generic == print_module(decode_bytecode(Path(path).read_bytes())).text
    assert "#map" not in generic and "loc(#" not in generic and '"linalg.generic"' in generic
    # The server's defaults are the same, with no settings and with settings that leave the view alone.
    for settings in (Settings(), parse_settings({}), parse_settings({"mlirbc": {"view": {}}})):
        assert (settings.view_form, settings.view_aliases) == ("auto", True)
    assert parse_settings({"view.aliases": False}).view_aliases is False
