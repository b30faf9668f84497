"""Hand-written syntax models and custom directives against mlir-opt, one small module per op family.

Each text (`tests/data/pretty_ports/*.mlir`) is exactly what `mlir-opt --mlir-print-local-scope` prints
for it (checked when the oracle is present): the pretty view must read it and print it back unchanged, and,
read without a template, encode to the bytes mlir-opt writes for the same text.  The families are the C++
forms this project ports (TOSA's enum handling, SPIR-V, GPU, async, scf.parallel/execute_region, vector
transfers, cf.switch, OpenACC, OpenMP and PDL directives, omp.loop_nest, nvvm.mma.sync); the corpus
oracle test counts whole files, these pin the cases the corpus lacks (masks, attributions, non-default
enums, segmented wait lists, mma shapes and PTX types).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from iree_support import IREE_SKIP_REASON, iree_opt_path, run_iree
from mlirbc.bytecode.reader import decode_bytecode, read_bytecode_file
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.models.asm import directives
from mlirbc.models.asm.directive_index import INDEX
from mlirbc.models.asm.directives import PARSERS, PRINTERS, can_parse
from mlirbc.models.build import models
from mlirbc.models.registry import Registry
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt
from pretty_oracle import view_lines

REGISTRY = models()
MLIR24 = models(model_set="mlir24")
_LOC = re.compile(r' loc\((?!\[)(?:[^()"]|"[^"]*"|\((?:[^()"]|"[^"]*")*\))*\)')
"""A location (`loc([%x])` is pdl_interp.record_match's own syntax)."""

CASES_DIR = Path(__file__).parent / "data" / "pretty_ports"
CASES = {p.stem: p.read_text("utf-8").rstrip("\n") for p in sorted(CASES_DIR.glob("*.mlir"))}
IREE_CASES = {p.stem: p.read_text("utf-8").rstrip("\n")
              for p in sorted((CASES_DIR.parent / "pretty_ports_iree").glob("*.mlir"))}
"""The same for IREE's C++ forms and MLIR 24's, against `iree-opt` (the `mlir24` model set)."""


def _pretty_local(text: str, registry: Registry = REGISTRY) -> str:
    result = parse_module(text, registry=registry, with_map=False)
    assert result.module is not None, result.errors[0].message
    printed = print_module(result.module, form="pretty", registry=registry, with_map=False, aliases=None)
    assert not printed.notes, [str(n.message) for n in printed.notes]
    return _LOC.sub("", view_lines(printed.text))


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_custom_form_reads_and_prints_back_unchanged(name: str) -> None:
    assert _pretty_local(CASES[name]) == CASES[name]


@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
@pytest.mark.parametrize("name", sorted(CASES))
def test_mlir_opt_prints_the_case_and_encodes_it_as_the_view_does(name: str) -> None:
    text = CASES[name].encode()
    proc = run_mlir_opt(["--allow-unregistered-dialect", "--mlir-print-local-scope"], text)
    assert proc.returncode == 0, proc.stderr[:300]
    assert proc.stdout.decode().rstrip("\n") == CASES[name]
    theirs = run_mlir_opt(["--allow-unregistered-dialect", "--emit-bytecode", "-o", "-"], text).stdout
    result = parse_module(CASES[name], registry=REGISTRY, with_map=False)
    assert result.module is not None
    ours = encode_bytecode(result.module, template=None, registry=REGISTRY)
    # locations mlir-opt makes up while reading (`<stdin>` positions) aside, the modules are the same
    a = _LOC.sub("", print_module(decode_bytecode(ours)).text)
    b = _LOC.sub("", print_module(decode_bytecode(theirs)).text)
    assert a == b


@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_view_of_mlir_opts_bytecode_saved_fresh_is_the_same_module(name: str) -> None:
    """What the view of a file mlir-opt wrote shows is all there is: its text, read with no template (a
    view saved as a new file), encodes the module mlir-opt wrote (an attribute the view left out, such as
    an `llvm.func`'s `sym_visibility`, would be lost); locations aside."""
    theirs = run_mlir_opt(["--allow-unregistered-dialect", "--emit-bytecode", "-o", "-"],
                          CASES[name].encode()).stdout
    view = print_module(decode_bytecode(theirs, REGISTRY), form="pretty", registry=REGISTRY, with_map=False)
    result = parse_module(view.text, registry=REGISTRY, with_map=False)
    assert result.module is not None, result.errors[0].message
    ours = encode_bytecode(result.module, template=None, registry=REGISTRY)
    # (block arguments a form does not print lose their locations, in mlir-opt's text as in the view's)
    assert _LOC.sub("", print_module(decode_bytecode(ours)).text) == \
        _LOC.sub("", print_module(decode_bytecode(theirs)).text)


@pytest.mark.parametrize("name", sorted(IREE_CASES))
def test_the_iree_form_reads_and_prints_back_unchanged(name: str) -> None:
    assert _pretty_local(IREE_CASES[name], MLIR24) == IREE_CASES[name]


@pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)
@pytest.mark.parametrize("name", sorted(IREE_CASES))
def test_iree_opt_prints_the_case_and_encodes_it_as_the_view_does(name: str) -> None:
    text = IREE_CASES[name].encode()
    proc = run_iree("iree-opt", ["--mlir-print-local-scope", "-"], text)
    assert proc.returncode == 0, proc.stderr[:300]
    assert proc.stdout.decode().rstrip("\n") == IREE_CASES[name]
    theirs = run_iree("iree-opt", ["--emit-bytecode", "-o", "-", "-"], text).stdout
    result = parse_module(IREE_CASES[name], registry=MLIR24, with_map=False)
    assert result.module is not None
    ours = encode_bytecode(result.module, template=None, registry=MLIR24)
    # the producer in the header aside (ours writes its own), the modules are the same
    a = view_lines(_LOC.sub("", print_module(decode_bytecode(ours, MLIR24)).text))
    b = view_lines(_LOC.sub("", print_module(decode_bytecode(theirs, MLIR24)).text))
    assert a == b


def test_there_are_cases() -> None:
    assert len(CASES) >= 9


def test_every_custom_directive_has_a_printer_and_a_parser() -> None:
    """A directive module that fails to import would leave its formats unreadable without a word (the
    loader runs once): each ported directive is there, in both directions."""
    for name in ("OperationOpAttributes", "SwitchOpCases", "Var", "VarPtrType", "WaitClause",
                 "DeviceTypeOperandsWithKeywordOnly", "AwaitResultType", "WorkgroupCountRegion",
                 "ExportConditionRegion", "ExplicitResourceRegion", "DispatchResources", "SizeAwareType",
                 "omp.ScheduleClause", "omp.PrivateReductionRegion", "omp.ClauseAttr"):
        assert can_parse(name), name
    assert set(PRINTERS) == set(PARSERS)


def test_directive_index_names_every_port() -> None:
    """`directive_index.INDEX` (what lets a view import only the modules of the directives it prints)
    names the module of every built-in port."""
    directives._load()
    found = {k: fn.__module__.rsplit(".", 1)[1] for table in (PRINTERS, PARSERS) for k, fn in table.items()
             if fn.__module__.startswith("mlirbc.models.asm.directives_")}
    if found != INDEX:
        rows = "".join(f'    "{k}": "{v}",\n' for k, v in sorted(found.items()))
        print("INDEX: dict[str, str] = {\n" + rows + "}")
    assert found == INDEX


_IMPORTED_BY_A_VIEW = """
import json, sys
from mlirbc.bytecode.reader import read_bytecode_file
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.printer import print_module
m = read_bytecode_file(sys.argv[1])
text = print_module(m, form="pretty", aliases=alias_rules(m)).text
ports = [n.rsplit(".", 1)[1] for n in sys.modules if n.startswith("mlirbc.models.asm.directives_")]
print(json.dumps(sorted(ports)))
print(text)
"""


def test_a_view_imports_only_the_directive_modules_it_prints() -> None:
    """A fresh process printing an IREE file imports the modules of the directives its formats name, not
    all thirteen, and prints what it prints with all of them loaded."""
    path = Path(__file__).parent / "corpus" / "iree" / "convnet.input.mlirbc"
    out = subprocess.run([sys.executable, "-c", _IMPORTED_BY_A_VIEW, str(path)], capture_output=True,
                         text=True, check=True).stdout
    first, _, text = out.partition("\n")
    loaded = set(json.loads(first))
    assert loaded and loaded < set(directives._BUILTIN), loaded
    directives._load()
    module = read_bytecode_file(str(path))
    assert text == print_module(module, form="pretty", aliases=alias_rules(module)).text + "\n"


_PLUGIN_PORT = """
from mlirbc.models.asm.directives import printer

@printer("SizeAwareType")
def size_aware_type(p, args):
    p.write("plugin")
"""

_PRECEDENCE = """
import sys
sys.path.insert(0, sys.argv[1])
from mlirbc.models.asm import directives
if sys.argv[2] == "built-in first":
    directives.can_parse("SizeAwareType", "stream.resource.size")  # imports the built-in module
directives.add_directive_module("plugin_ports")
directives.can_parse("SizeAwareType", "stream.resource.size")
directives._load()
print(directives.PRINTERS["SizeAwareType"].__module__)
"""


@pytest.mark.parametrize("order", ["built-in first", "plugin first"])
def test_a_plugins_port_replaces_the_built_in_one_whichever_loads_first(tmp_path: Path, order: str) -> None:
    (tmp_path / "plugin_ports.py").write_text(_PLUGIN_PORT)
    out = subprocess.run([sys.executable, "-c", _PRECEDENCE, str(tmp_path), order], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "plugin_ports"


_LOAD = ('"affine.load"(%arg2, %arg0, %arg1) <{{map = affine_map<{}>}}> : '
         "(memref<?x?xf32>, index, index) -> f32")
AFFINE_UNREADABLE = "\n".join([
    "module {",
    "  func.func @f(%arg0: index, %arg1: index, %arg2: memref<?x?xf32>) {",
    "    %0 = " + _LOAD.format("(d0, d1) -> (d1, d0)"),
    "    %1 = " + _LOAD.format("(d0, d1) -> (d0, d1)").replace("%arg0, %arg1", "%arg0, %arg0"),
    '    %2 = "affine.apply"(%arg0, %arg1) <{map = affine_map<(d0, d1) -> (d0)>}> : (index, index) -> index',
    '    %3 = "affine.min"(%arg0, %arg1) <{map = affine_map<(d0)[s0] -> (d0, s0)>}> : '
    "(index, index) -> index",
    "    %4 = " + _LOAD.format("(d0, d1) -> (d0, d1)"),
    "    return",
    "  }",
    "}"])


def test_an_affine_map_whose_ssa_form_would_read_back_otherwise_prints_generic() -> None:
    """`%m[%arg1, %arg0]` would read back as an identity map over swapped operands, `%m[%arg0, %arg0]` as
    a one-operand map: such ops print generic (with a note); the last ones print in their custom form."""
    result = parse_module(AFFINE_UNREADABLE, registry=REGISTRY, with_map=False)
    assert result.module is not None
    printed = print_module(result.module, form="pretty", registry=REGISTRY, with_map=False, aliases=None)
    lines = [line.strip() for line in _LOC.sub("", view_lines(printed.text)).split("\n")]
    assert len(printed.notes) == 2
    assert lines[2].startswith('%0 = "affine.load"') and lines[3].startswith('%1 = "affine.load"')
    assert lines[4:7] == ["%2 = affine.apply affine_map<(d0, d1) -> (d0)>(%arg0, %arg1)",
                          "%3 = affine.min affine_map<(d0)[s0] -> (d0, s0)>(%arg0)[%arg1]",
                          "%4 = affine.load %arg2[%arg0, %arg1] : memref<?x?xf32>"]
    again = parse_module(printed.text, registry=REGISTRY, with_map=False)
    assert again.module is not None
    assert encode_bytecode(again.module, template=None, registry=REGISTRY) == \
        encode_bytecode(result.module, template=None, registry=REGISTRY)


MISTYPED = "\n".join([
    "module {",
    "  func.func @f(%arg0: vector<4xf32>, %arg1: i64, %arg2: !smt.bv<8>, %arg3: memref<2xf32>, %arg4: i1) {",
    '    %0 = "vector.shuffle"(%arg0, %arg0) <{mask = array<i64: 0, 1>}> : '
    "(vector<4xf32>, vector<4xf32>) -> vector<3xf32>",
    '    %1 = "llvm.icmp"(%arg1, %arg1) <{predicate = 0 : i64}> : (i64, i64) -> i8',
    '    %2 = "smt.bv.concat"(%arg2, %arg2) : (!smt.bv<8>, !smt.bv<8>) -> !smt.bv<8>',
    '    %3 = "vector.shuffle"(%arg0, %arg0) <{mask = array<i64: 0, 1>}> : '
    "(vector<4xf32>, vector<4xf32>) -> vector<2xf32>",
    '    %4 = "llvm.icmp"(%arg1, %arg1) <{predicate = 0 : i64}> : (i64, i64) -> i1',
    '    %5 = "smt.bv.concat"(%arg2, %arg2) : (!smt.bv<8>, !smt.bv<8>) -> !smt.bv<16>',
    '    %6 = "smt.bv.repeat"(%arg2) : (!smt.bv<8>) -> !smt.bv<12>',
    '    %7 = "smt.eq"(%arg2, %arg2) : (!smt.bv<8>, !smt.bv<8>) -> !smt.bv<1>',
    '    "bufferization.dealloc"(%arg3, %arg4, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : '
    "(memref<2xf32>, i1, memref<2xf32>) -> ()",
    '    %8 = "bufferization.dealloc"(%arg3, %arg4, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : '
    "(memref<2xf32>, i1, memref<2xf32>) -> i1",
    "    return",
    "  }",
    "}"])


def test_an_op_whose_result_types_are_not_the_ones_its_form_infers_prints_generic() -> None:
    """A custom form that leaves out result types the parser infers (C++ inference ports, hand-written
    ports) would read back as another op when the op does not have those types (saved unverified): such
    ops print generic, as MLIR prints an op that does not verify; the others print in their custom form."""
    result = parse_module(MISTYPED, registry=REGISTRY, with_map=False)
    assert result.module is not None
    printed = print_module(result.module, form="pretty", registry=REGISTRY, with_map=False, aliases=None)
    lines = [line.strip() for line in _LOC.sub("", view_lines(printed.text)).split("\n")]
    assert [line.split(" ")[2] for line in lines[2:10]] == [
        '"vector.shuffle"(%arg0,', '"llvm.icmp"(%arg1,', '"smt.bv.concat"(%arg2,',
        "vector.shuffle", "llvm.icmp", "smt.bv.concat", '"smt.bv.repeat"(%arg2)', '"smt.eq"(%arg2,']
    assert lines[10].startswith('"bufferization.dealloc"(')
    assert lines[11].startswith("%8 = bufferization.dealloc (")
    again = parse_module(printed.text, registry=REGISTRY, with_map=False)
    assert again.module is not None
    assert encode_bytecode(again.module, template=None, registry=REGISTRY) == \
        encode_bytecode(result.module, template=None, registry=REGISTRY)


_MMA_ATTRS = ("layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, {}operandSegmentSizes = "
              "array<i32: {}>, shape = #nvvm.shape<m = 16, n = 8, k = 16>")
_F16 = "multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<{}>, "
_H2 = "vector<2xf16>"
_MMA_RESULT = "!llvm.struct<(vector<2xf16>, vector<2xf16>)>"


def _mma(n: int, operands: str, types: list[str], ptx: str, sizes: str) -> str:
    return (f'    %{n} = "nvvm.mma.sync"({operands}) <{{{_MMA_ATTRS.format(ptx, sizes)}}}> : '
            f'({", ".join(types)}) -> {_MMA_RESULT}')


MMA_UNPRINTABLE = "\n".join([
    "module {",
    f"  llvm.func @f(%arg0: {_H2}, %arg1: i32) {{",
    # a group of two types: the form prints one type per group
    _mma(0, "%arg0, %arg1, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0", [_H2, "i32"] + [_H2] * 6,
         _F16.format("f16"), "4, 2, 2"),
    # B's PTX type left out (inferred from A's f16), read back as f16 from B's type: mlir-opt prints it so
    _mma(1, ", ".join(["%arg0"] * 8), [_H2] * 8, _F16.format("s8"), "4, 2, 2"),
    # no PTX types and i32 multiplicands: printed without them, they would read back as s32
    _mma(2, "%arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg0, %arg0", ["i32"] * 6 + [_H2] * 2, "", "4, 2, 2"),
    # an empty C group (upstream's printer reads each group's first operand)
    _mma(3, ", ".join(["%arg0"] * 6), [_H2] * 6, _F16.format("f16"), "4, 2, 0"),
    _mma(4, ", ".join(["%arg0"] * 8), [_H2] * 8, _F16.format("f16"), "4, 2, 2"),
    "    llvm.return",
    "  }",
    "}"])


def test_an_mma_sync_its_form_would_not_read_back_prints_generic() -> None:
    """nvvm.mma.sync's form prints one type per operand group and leaves out the multiplicands' PTX types
    when the first group's type implies one, which its parser infers from each group's own type another
    way: an op that would not read back (as mlir-opt's print of it does not) prints generic, with a
    note; the last one prints in its custom form, and the whole view reads back to the same bytes."""
    result = parse_module(MMA_UNPRINTABLE, registry=REGISTRY, with_map=False)
    assert result.module is not None, result.errors[0].message
    printed = print_module(result.module, form="pretty", registry=REGISTRY, with_map=False, aliases=None)
    lines = [line.strip() for line in _LOC.sub("", view_lines(printed.text)).split("\n")]
    assert len(printed.notes) == 4
    assert [line.split(" ")[2] for line in lines[2:7]] == ['"nvvm.mma.sync"(%arg0,', '"nvvm.mma.sync"(%arg0,',
                                                          '"nvvm.mma.sync"(%arg1,', '"nvvm.mma.sync"(%arg0,',
                                                          "nvvm.mma.sync"]
    assert lines[6].startswith("%4 = nvvm.mma.sync A[%arg0, %arg0, %arg0, %arg0]  B[%arg0, %arg0]  C[")
    again = parse_module(printed.text, registry=REGISTRY, with_map=False)
    assert again.module is not None
    assert encode_bytecode(again.module, template=None, registry=REGISTRY) == \
        encode_bytecode(result.module, template=None, registry=REGISTRY)


@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
def test_mlir_opt_reads_its_own_print_of_a_left_out_ptx_type_as_another_op() -> None:
    """Why such an op prints generic here: mlir-opt prints the op with B's PTX type s8 in its custom form,
    without that type, and reads the print back with B's type f16."""
    op = _mma(0, ", ".join(["%arg0"] * 8), [_H2] * 8, _F16.format("s8"), "4, 2, 2")
    text = f"llvm.func @f(%arg0: {_H2}) {{\n{op}\n  llvm.return\n}}\n"
    first = run_mlir_opt(["--mlir-print-local-scope"], text.encode())
    assert first.returncode == 0, first.stderr[:300]
    assert b"nvvm.mma.sync A[" in first.stdout and b"mma_type<s8>" not in first.stdout
    again = run_mlir_opt(["--mlir-print-op-generic"], first.stdout)
    assert again.returncode == 0, again.stderr[:300]
    assert b"multiplicandBPtxType = #nvvm.mma_type<f16>" in again.stdout


SMT_WIDTHS = "\n".join([
    "module {",
    "  func.func @f() {",
    '    %0 = "smt.int.constant"() <{value = 5 : ui64}> : () -> !smt.int',
    '    %1 = "smt.int.constant"() <{value = 5 : ui4}> : () -> !smt.int',
    "    return",
    "  }",
    "}"])


def test_an_smt_int_constant_whose_width_the_literal_would_not_give_prints_generic() -> None:
    """`smt.int.constant 5` reads back as a 4-bit value (parseInteger's width): a 64-bit 5 prints generic
    (named as mlir-opt names it), so the view reads back to the same attribute."""
    result = parse_module(SMT_WIDTHS, registry=REGISTRY, with_map=False)
    assert result.module is not None
    printed = print_module(result.module, form="pretty", registry=REGISTRY, with_map=False, aliases=None)
    lines = [line.strip() for line in _LOC.sub("", view_lines(printed.text)).split("\n")]
    assert lines[2] == '%c5 = "smt.int.constant"() <{value = 5 : ui64}> : () -> !smt.int'
    assert lines[3] == "%c5_0 = smt.int.constant 5"
    assert len(printed.notes) == 1
    again = parse_module(printed.text, registry=REGISTRY, with_map=False)
    assert again.module is not None
    assert encode_bytecode(again.module, template=None, registry=REGISTRY) == \
        encode_bytecode(result.module, template=None, registry=REGISTRY)


OMP_UNPRINTABLE = "\n".join([
    "module {",
    "  func.func @f(%arg0: index, %arg1: memref<i32>) {",
    '    "omp.parallel"(%arg1) <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 1, 0>}> ({',
    "    ^bb0(%arg2: memref<i32>):",
    "      omp.terminator",
    "    }) : (memref<i32>) -> ()",
    '    "omp.wsloop"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0>, '
    "schedule_kind = #omp<schedulekind static>, schedule_simd}> ({",
    '      "omp.loop_nest"(%arg0, %arg0, %arg0) <{collapse_num_loops = 1 : i64}> ({',
    "      ^bb0(%arg2: index):",
    "        omp.yield",
    "      }) {tag} : (index, index, index) -> ()",
    "    }) : () -> ()",
    "    omp.wsloop {",
    '      "omp.loop_nest"(%arg0, %arg0, %arg0) <{collapse_num_loops = 1 : i64}> ({',
    "      ^bb0(%arg2: index):",
    "        omp.yield",
    "      }) : (index, index, index) -> ()",
    "    }",
    "    return",
    "  }",
    "}"])


def test_omp_ops_their_clauses_would_not_read_back_print_generic() -> None:
    """A private variable without its symbol (upstream's parser stores one for each), `simd` without its
    first schedule modifier (read back as `none, simd`) and an attribute upstream's loop_nest printer
    leaves out print generic, each with a note; the last loop prints in its custom form (its stored
    collapse of 1 left out, as mlir-opt does), and the view reads back to the same bytes."""
    result = parse_module(OMP_UNPRINTABLE, registry=REGISTRY, with_map=False)
    assert result.module is not None, result.errors[0].message
    data = encode_bytecode(result.module, template=None, registry=REGISTRY)
    module = decode_bytecode(data, REGISTRY)
    printed = print_module(module, form="pretty", registry=REGISTRY, with_map=False, aliases=None)
    lines = [line.strip() for line in _LOC.sub("", view_lines(printed.text)).split("\n")]
    assert len(printed.notes) == 3
    generic = ['"omp.parallel"', '"omp.wsloop"', '"omp.loop_nest"']
    assert [lines[i].split("(")[0] for i in (2, 6, 7)] == generic
    assert lines[12:14] == ["omp.wsloop {",
                            "omp.loop_nest (%arg2) : index = (%arg0) to (%arg0) step (%arg0) {"]
    again = parse_module(printed.text, template=module, registry=REGISTRY, with_map=False)
    assert again.module is not None
    assert encode_bytecode(again.module, template=module, registry=REGISTRY) == data


BROADCAST_OTHER_BODY = "\n".join([
    "func.func @f(%arg0: tensor<16xf32>, %arg1: tensor<16x4xf32>) -> tensor<16x4xf32> {",
    '  %0 = "linalg.broadcast"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({',
    "  ^bb0(%arg2: f32, %arg3: f32):",
    '    "linalg.yield"(%arg3) : (f32) -> ()',
    "  }) : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>",
    "  return %0 : tensor<16x4xf32>",
    "}"])


def test_a_broadcast_whose_body_the_form_would_not_rebuild_prints_generic() -> None:
    """linalg.broadcast's form implies the identity body (yield of the input's element): a body yielding
    anything else prints generic, with a note, and reads back to the same module."""
    result = parse_module(BROADCAST_OTHER_BODY, registry=REGISTRY, with_map=False)
    assert result.module is not None
    printed = print_module(result.module, form="pretty", registry=REGISTRY, with_map=False, aliases=None)
    assert '%broadcasted = "linalg.broadcast"(%arg0, %arg1)' in printed.text  # (named as MLIR names it)
    assert [n.op.name for n in printed.notes] == ["linalg.broadcast"]
    again = parse_module(printed.text, registry=REGISTRY, with_map=False)
    assert again.module is not None
    assert encode_bytecode(again.module, template=None, registry=REGISTRY) == \
        encode_bytecode(result.module, template=None, registry=REGISTRY)


MALFORMED = {
    "weights": "spirv.BranchConditional %arg0 [5], ^bb1, ^bb1",
    "weight kind": "spirv.BranchConditional %arg0 [5, x], ^bb1, ^bb1",
    "successor": "spirv.BranchConditional %arg0, %arg0, ^bb1",
    "control": "spirv.mlir.selection control() {\n  spirv.mlir.merge\n}",
    "selection types": "spirv.mlir.selection -> {\n  spirv.mlir.merge\n}",
    "permutation": "%t = linalg.transpose ins(%arg1 : tensor<2x3xf32>) outs(%arg2 : tensor<3x2xf32>) "
                   "permutation = [1, x]",
    "dimensions": "%b = linalg.broadcast ins(%arg1 : tensor<2x3xf32>) outs(%arg2 : tensor<3x2xf32>) "
                  "dimensions [0]",
}


@pytest.mark.parametrize("what", sorted(MALFORMED))
def test_a_malformed_form_of_a_new_port_is_a_located_error(what: str) -> None:
    """The forms this stop ported, written wrong: the parser answers with an error on the op's line, never
    an exception or a module."""
    text = "\n".join([
        "func.func @f(%arg0: i1, %arg1: tensor<2x3xf32>, %arg2: tensor<3x2xf32>) {",
        "  " + MALFORMED[what].replace("\n", "\n  "),
        "^bb1:",
        "  return",
        "}"])
    result = parse_module(text, registry=REGISTRY, with_map=False)
    assert result.module is None and result.errors
    first = result.errors[0]
    assert first.span.start_line == 1, (first.span, first.message)


MALFORMED_IREE = {
    "operand types": "%0 = util.call @g(%arg0) : (i32 -> i32",
    "tied result": "%0 = util.call @g(%arg0) : (i32) -> %nope as i32",
    "tied target": "%0 = flow.tensor.update %arg2, %arg1[%arg3] : tensor<1xi32> -> %arg1 tensor<4xi32>",
    "dims": "%0 = flow.tensor.update %arg2, %arg1[%arg3] : tensor<1xi32> -> %arg1 as tensor<?xi32>{x}",
    "masked alignment": "%0 = llvm.intr.masked.load(%arg4, %arg5), alignment(x) : (!llvm.ptr, vector<4xi1>) "
                        "-> vector<4xf32>",
    "matmul maps": "%0 = linalg.matmul indexing_maps = [1 ins(%arg6, %arg6 : tensor<2x2xf32>, "
                   "tensor<2x2xf32>) outs(%arg6 : tensor<2x2xf32>) -> tensor<2x2xf32>",
}


@pytest.mark.parametrize("what", sorted(MALFORMED_IREE))
def test_a_malformed_iree_form_is_a_located_error(what: str) -> None:
    """The IREE and MLIR 24 forms the IREE held-out run brought (util.call's type lists, tied results, the
    masked intrinsics, matmul's maps), written wrong: an error on the op's line, never an exception or a
    module."""
    text = "\n".join([
        "util.func public @f(%arg0: i32, %arg1: tensor<4xi32>, %arg2: tensor<1xi32>, %arg3: index, "
        "%arg4: !llvm.ptr, %arg5: vector<4xi1>, %arg6: tensor<2x2xf32>) {",
        "  " + MALFORMED_IREE[what],
        "  util.return",
        "}"])
    result = parse_module(text, registry=MLIR24, with_map=False)
    assert result.module is None and result.errors
    first = result.errors[0]
    assert first.span.start_line == 1, (first.span, first.message)


MALFORMED_HELD_OUT = {
    "forall bounds": "scf.forall (%i, %j) in (8) {\n}",
    "forall step": "scf.forall (%i) = (0) to (8) {\n}",
    "parameter reference": "%r, %t = stream.async.parameter.load %arg7::[%arg8] : "
                           "!stream.resource<constant>{%arg3} => !stream.timepoint",
    "dispatch operands": "%0 = stream.async.dispatch @ex::@fn(%arg9[%arg3 to %arg3]) : "
                         "(!stream.resource<*>{%arg3}) -> !stream.resource<*>{%arg3}",
    "pack slices": "%0 = stream.resource.pack slices({ [0, x] = %arg3 }) : index",
    "range list": "%0:2 = util.range.extents [%arg3 to %arg3] : index",
    "list type": "%0 = util.list.get %arg10[%arg3] : !util.list<i32> -> ,",
    "cond_fail": "vm.cond_fail %arg0, 5",
    "mma property": "%0 = nvvm.mma.sync A[%arg0]  B[%arg0]  C[%arg0]  shape = <m = 8, n = 8, k = 4>, "
                    "bogus = row : (i32, i32, i32) -> i32",
    "bare enum": "%0 = nvvm.shfl.sync <bfly> %arg0, %arg11, %arg0, %arg0 : f32 -> f32",
    "shaped operand list": 'flow.tensor.trace "k" = [%arg11 : tensor<?xf32>]',
    "encoded resource operands": 'stream.tensor.trace "k" = [%arg9 : tensor<4xf32> : '
                                 '!stream.resource<*>{%arg3}]',
    "encoded function type": "%0 = stream.tensor.dispatch @ex::@fn(%arg9) : (tensor<4xf32> in "
                             "!stream.resource<*>{%arg3}) -> %arg5{%arg3}",
    "constant values": "%0, %t = stream.resource.constants : !stream.resource<constant>{%arg3} dense<1> : "
                       "tensor<1xi8> => !stream.timepoint",
    "value type list": "%0 = util.list.construct [%arg3, %arg3] : !util.list<?>",
    "dispatch bindings": "hal_loader.executable.dispatch executable(%arg7 : !hal.executable)[%arg8] "
                         "workgroups([%arg3, %arg3, %arg3]) bindings([(%arg7 : !util.buffer)[%arg3]])",
    "collective param": "%0 = stream.async.collective<all_gather : f32>[%arg3] channel(%arg7) source(%arg0) "
                        "%arg9[%arg3 to %arg3 for %arg3], %arg9[%arg3 to %arg3 for %arg3] : "
                        "!stream.resource<*>{%arg3} -> %arg9 as !stream.resource<*>{%arg3}",
    "constant block keys": 'hal.executable.constant.block() -> (i32, i32) as "a" {\n'
                           "  hal.return %arg0, %arg0 : i32, i32\n}",
    "hoistable tags": '%0 = util.hoistable_conversion pack inverts("unpack") () : () -> i32 {\n'
                      "  util.return %arg0 : i32\n}",
    "parallel body": "pcf.loop scope(#pcf.test_scope) count(%arg3) execute(%r = %arg9)[%i: index] : "
                     "(!pcf.sref<?xi32, #pcf.test_scope>) -> tensor<?xi32> {\n  pcf.return\n}",
    "knobs dictionary": "iree_codegen.smt.constraints target = <set = 0>, pipeline = "
                        "#iree_gpu.pipeline<TileAndFuse>, knobs = [1] dims(%arg3) {\n}",
    "hoistable types": '%0 = util.hoistable_conversion "pack" inverts("unpack") (%x = %arg0) : () -> i32 {\n'
                       "  util.return %arg0 : i32\n}",
}


@pytest.mark.parametrize("what", sorted(MALFORMED_HELD_OUT))
def test_a_malformed_form_from_the_held_out_runs_is_a_located_error(what: str) -> None:
    """The forms the GPU and IREE-test held-out runs brought (scf.forall, IREE's parameter, dispatch, pack,
    range and list directives, vm.cond_fail, MLIR 24's nvvm forms), written wrong: an error on the op's
    line, never an exception or a module."""
    text = "\n".join([
        "util.func public @f(%arg0: i32, %arg3: index, %arg7: !util.buffer, %arg8: i64, "
        "%arg9: !stream.resource<*>, %arg10: !util.list<i32>, %arg11: f32) {",
        "  " + MALFORMED_HELD_OUT[what].replace("\n", "\n  "),
        "  util.return",
        "}"])
    result = parse_module(text, registry=MLIR24, with_map=False)
    assert result.module is None and result.errors
    first = result.errors[0]
    assert first.span.start_line == 1, (first.span, first.message)
