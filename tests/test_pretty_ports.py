"""Hand-written syntax models and custom directives against mlir-opt, one small module per op family.

Each text below is exactly what `mlir-opt --mlir-print-local-scope` prints for it (checked when the oracle
is present): the pretty view must read it and print it back unchanged, and, read without a template, encode
to the bytes mlir-opt writes for the same text.  The families are the C++ forms this project ports (TOSA's
enum handling, SPIR-V, GPU, async, scf.parallel/execute_region, vector transfers, cf.switch, OpenACC and
PDL directives); the corpus oracle test counts whole files, these pin the cases the corpus lacks (masks,
attributions, non-default enums, segmented wait lists).
"""

from __future__ import annotations

import re

import pytest

from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.models.asm.directives import PARSERS, PRINTERS, can_parse
from mlirbc.models.build import models
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt
from pretty_oracle import view_lines

REGISTRY = models()
_LOC = re.compile(r' loc\((?:[^()"]|"[^"]*"|\((?:[^()"]|"[^"]*")*\))*\)')

CASES = {
    "acc": """\
module {
  func.func @f(%arg0: memref<10xf32>, %arg1: i64, %arg2: i32) {
    %0 = acc.create varPtr(%arg0 : memref<10xf32>) varType(tensor<10xf32>) async(%arg1 : i64) -> memref<10xf32>
    acc.enter_data async(%arg1 : i64) wait(%arg2 : i32) dataOperands(%0 : memref<10xf32>)
    %1 = acc.update_device varPtr(%arg0 : memref<10xf32>) varType(tensor<10xf32>) -> memref<10xf32>
    acc.update async(%arg1 : i64) wait({devnum: %arg2 : i32, %arg2 : i32} [#acc.device_type<nvidia>]) dataOperands(%1 : memref<10xf32>)
    acc.delete accPtr(%0 : memref<10xf32>)
    return
  }
}""",
    "async": """\
module {
  func.func @f(%arg0: !async.value<f32>, %arg1: !async.token) -> f32 {
    %token, %bodyResults:2 = async.execute [%arg1] (%arg0 as %arg2: !async.value<f32>) -> (!async.value<f32>, !async.value<f32>) {
      async.yield %arg2, %arg2 : f32, f32
    }
    %0 = async.await %bodyResults#1 : !async.value<f32>
    async.await %token : !async.token
    return %0 : f32
  }
}""",
    "cf": """\
module {
  func.func @f(%arg0: i32, %arg1: i32) {
    cf.switch %arg0 : i32, [
      default: ^bb1(%arg1 : i32),
      42: ^bb3,
      7: ^bb2(%arg1 : i32)
    ]
  ^bb1(%0: i32):  // pred: ^bb0
    return
  ^bb2(%1: i32):  // pred: ^bb0
    return
  ^bb3:  // pred: ^bb0
    return
  }
}""",
    "gpu": """\
module attributes {gpu.container_module} {
  func.func @f(%arg0: index, %arg1: !gpu.async.token, %arg2: i32) {
    %0 = gpu.launch async [%arg1] blocks(%arg3, %arg4, %arg5) in (%arg9 = %arg0, %arg10 = %arg0, %arg11 = %arg0) threads(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0) dynamic_shared_memory_size %arg2 {
      %thread_id_x = gpu.thread_id  x
      gpu.terminator
    }
    return
  }
  gpu.module @kernels {
    gpu.func @k(%arg0: f32) workgroup(%arg1 : memref<4xf32, 3>) private(%arg2 : memref<2xf32, 5>) kernel attributes {foo = "bar"} {
      gpu.return
    }
  }
}""",
    "pdl": """\
module {
  pdl.pattern @p : benefit(1) {
    %0 = attribute
    %1 = types
    %2 = operation "foo.op"  {"a" = %0, "b" = %0} -> (%1 : !pdl.range<type>)
    rewrite %2 with "r"
  }
}""",
    "scf": """\
module {
  func.func @f(%arg0: index, %arg1: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%arg0, %arg0) step (%c1, %c1) init (%arg1) -> f32 {
      %2 = arith.index_cast %arg2 : index to i32
      %3 = arith.sitofp %2 : i32 to f32
      scf.reduce(%3 : f32) {
      ^bb0(%arg4: f32, %arg5: f32):
        %4 = arith.addf %arg4, %arg5 : f32
        scf.reduce.return %4 : f32
      }
    }
    %1 = scf.execute_region -> f32 no_inline {
      scf.yield %0 : f32
    }
    return %1 : f32
  }
}""",
    "spirv": """\
module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
    spirv.GlobalVariable @var bind(1, 2) : !spirv.ptr<f32, StorageBuffer>
    spirv.func @f(%arg0: f32, %arg1: i32) "None" {
      %cst_f32 = spirv.Constant 1.000000e+00 : f32
      %0 = spirv.Variable init(%cst_f32) : !spirv.ptr<f32, Function>
      %1 = spirv.Load "Function" %0 ["Volatile|Aligned", 4] : f32
      spirv.Store "Function" %0, %1 ["Aligned", 8] : f32
      %2 = spirv.GL.FClamp %1, %1, %1 : f32
      %3 = spirv.IAddCarry %arg1, %arg1 : !spirv.struct<(i32, i32)>
      %4 = spirv.CompositeExtract %3[1 : i32] : !spirv.struct<(i32, i32)>
      %5 = spirv.CompositeInsert %4, %3[0 : i32] : i32 into !spirv.struct<(i32, i32)>
      spirv.Return
    }
  }
}""",
    "tosa": """\
module {
  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<1x4x4x1xf32>) -> tensor<4xf32> {
    %0 = tosa.clamp %arg0 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32, nan_mode = IGNORE} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = tosa.max_pool2d %arg1 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
    return %0 : tensor<4xf32>
  }
}""",
    "vector": """\
module {
  func.func @f(%arg0: memref<?x?xf32>, %arg1: index, %arg2: vector<4xi1>, %arg3: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = vector.transfer_read %arg0[%arg1, %arg1], %cst, %arg2 {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
    %1 = vector.transfer_read %arg0[%arg1, %arg1], %cst {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
    %2 = vector.transfer_write %0, %arg3[%arg1, %arg1] : vector<4xf32>, tensor<?x?xf32>
    vector.transfer_write %1, %arg0[%arg1, %arg1], %arg2 : vector<4xf32>, memref<?x?xf32>
    return %2 : tensor<?x?xf32>
  }
}""",
}


def _pretty_local(text: str) -> str:
    result = parse_module(text, registry=REGISTRY, with_map=False)
    assert result.module is not None, result.errors[0].message
    printed = print_module(result.module, form="pretty", registry=REGISTRY, with_map=False, aliases=False)
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


def test_every_custom_directive_has_a_printer_and_a_parser() -> None:
    """A directive module that fails to import would leave its formats unreadable without a word (the
    loader runs once): each ported directive is there, in both directions."""
    for name in ("OperationOpAttributes", "SwitchOpCases", "Var", "VarPtrType", "WaitClause",
                 "DeviceTypeOperandsWithKeywordOnly", "AwaitResultType", "WorkgroupCountRegion",
                 "ExportConditionRegion", "ExplicitResourceRegion", "DispatchResources", "SizeAwareType"):
        assert can_parse(name), name
    assert set(PRINTERS) == set(PARSERS)
