"""Generates the malformed text views in this folder from real corpus views.

    PYTHONPATH=server python tests/data/malformed/make_malformed.py

Each case breaks the text view of a corpus file the way an editing user (or a bad tool) might, and marks
where the parser must report each error with `⟨k⟩` (k: the index of the expected message); the markers are
removed and their positions written into the header, so expectations come from the edit, never from a run
of the parser.  Header lines (all `//` comments, so every position below them counts them):

    // expect: LINE:COL substring of the message     the FIRST error (one line per expected error, in
                                                      text order; `*` matches any line or column)
    // expect-count: N                               exactly N errors (files with independent errors)
    // like: upstream/NAME.mlirbc                    the corpus file the view came from (encode --like)
    // disable-model: arith                          the models disabled when the view was printed

Files are `NN_name.mlir` (written in UTF-8, or as raw bytes for the binary case); running the script
again rewrites them all and removes stale ones.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path[:0] = [str(REPO / "server"), str(REPO / "tests")]

from corpus import CORPUS  # noqa: E402
from mlirbc.bytecode.reader import decode_bytecode  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402

MARK = re.compile(r"⟨(\d+)⟩")

# The views the cases start from: (corpus path, disabled models).
SOURCES: dict[str, tuple[str, tuple[str, ...]]] = {
    # func + scf.for/scf.if + memref, arith ops as fallbacks (`{mlirbc.properties = "0x.."}`)
    "scf": ("upstream/Dialect__SCF__ops.f08.mlirbc", ("arith",)),
    # several isolated functions, func.call, gpu/llvm/nvvm ops
    "gpu": ("upstream/Dialect__GPU__ops.mlirbc", ()),
    # `%8:2` results, use-list comments, arith fallbacks
    "canon": ("upstream/Dialect__GPU__canonicalize.p02.mlirbc", ("arith",)),
    # blocks and successors
    "cf": ("upstream/Dialect__ControlFlow__ops.f01.mlirbc", ()),
    # a resource trailer
    "res": ("upstream/Bytecode__resources.mlirbc", ()),
    # a JAX export with the StableHLO models off: vhlo ops, attributes and types are fallbacks
    "jax": ("jax/mlp2.mlirbc", ("vhlo",)),
}


@dataclass
class Case:
    name: str
    source: str
    mutate: Callable[[str], str | bytes]
    messages: list[str]
    count: int | None = None
    wild: dict[int, str] = field(default_factory=dict)
    """Expected error index -> "line", "col" or "both": positions that depend on the recursion limit."""


def sub(text: str, old: str, new: str, nth: int = 0) -> str:
    """`text` with the `nth` occurrence of `old` replaced (it must exist)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old):]


def line_of(text: str, needle: str) -> str:
    """The whole line holding the first `needle`."""
    at = text.index(needle)
    start = text.rfind("\n", 0, at) + 1
    end = text.index("\n", at)
    return text[start:end]


def unterminated_loc(body: str) -> Callable[[str], str]:
    """The gpu.launch op's location becomes a string that runs to the end of its line."""
    def mutate(v: str) -> str:
        loc = 'loc("Dialect__GPU__canonicalize.p02.mlir":20:3)'
        return sub(v, loc, 'loc(⟨0⟩"' + body)
    return mutate


def truncate_at(needle: str, keep: int = 0, nth: int = 0) -> Callable[[str], str]:
    """Cut the view just before (keep=0) or `keep` characters into the `nth` `needle`; EOF is the error."""
    def mutate(v: str) -> str:
        at = -1
        for _ in range(nth + 1):
            at = v.index(needle, at + 1)
        return v[:at + keep] + "⟨0⟩"
    return mutate


def eof(v: str, cut: int) -> str:
    return v[:cut] + "⟨0⟩"


HUGE = 1_000_000
DEEP = 10_000


def cases() -> list[Case]:
    c: list[Case] = []
    add = c.append

    # -- truncated views ------------------------------------------------------------------------------
    add(Case("trunc_after_header", "scf", lambda v: v[:v.index("\n") + 1] + "⟨0⟩",
             ["expected an op in generic form"]))
    add(Case("trunc_in_op_name", "scf", lambda v: v[:v.index('"func.func"')] + '⟨0⟩"func.fu',
             ["expected '\"' in string literal"]))
    add(Case("trunc_after_properties", "scf", truncate_at('({\n  ^bb0(%arg0'),
             ["expected ':' and the op's function type, found end of input"]))
    add(Case("trunc_in_block_args", "scf", truncate_at("%arg1: index"),
             ["expected a block argument name, found end of input"]))
    add(Case("trunc_in_type", "scf", truncate_at("memref<1024xf32>", keep=len("memref<1024x")),
             ["end of input"]))
    add(Case("trunc_in_location", "scf", truncate_at('.mlir":2:12)', keep=len('.mlir":2:')),
             ["expected integer column number in FileLineColRange, found end of input"]))
    add(Case("trunc_in_fallback_payload", "scf", lambda v: v[:v.index('"0x03"')] + '⟨0⟩"0x0',
             ["expected '\"' in string literal"]))
    add(Case("trunc_in_function_type", "scf", truncate_at(": (memref<1024xf32>, index) -> f32",
                                                           keep=len(": (memref<1024xf32>, ")),
             ["expected type, found end of input"]))
    add(Case("trunc_before_module_end", "scf", truncate_at("}) : () -> () loc(", nth=1),
             ["expected '}' to end the region, found end of input"]))
    add(Case("trunc_mid_region", "scf", truncate_at('      "scf.yield"(%5)'),
             ["expected '}' to end the region, found end of input"]))
    add(Case("trunc_in_resources", "res", truncate_at('      resource_2'),
             ["expected a resource key, found end of input"]))
    add(Case("trunc_in_jax_type", "jax", truncate_at('!mlirbc.fallback<"vhlo", "0x2903020807">',
                                                     keep=len('!mlirbc.fallback<"vhlo", ')),
             ["expected hex string in mlirbc.fallback, found end of input"]))

    # -- unbalanced regions, braces, parentheses ---------------------------------------------------------
    add(Case("extra_closing_brace", "scf",
             lambda v: sub(v, '      %4 = "arith.cmpf"', '      }\n      ⟨0⟩%4 = "arith.cmpf"'),
             ["expected ')' after regions"]))
    add(Case("extra_closing_paren", "scf", lambda v: sub(v, '(%arg0, %arg4)', '(%arg0, %arg4)⟨0⟩)'),
             ["expected ':' and the op's function type, found ')'"]))
    add(Case("missing_closing_paren", "scf", lambda v: sub(v, '(%arg0, %arg4) :', '(%arg0, %arg4 ⟨0⟩:'),
             ["expected ')' after the operand list, found ':'"]))
    add(Case("unclosed_properties", "scf", lambda v: sub(v, '"conditional_reduce"}> ({',
                                                         '"conditional_reduce" ⟨0⟩({'),
             ["expected"]))
    add(Case("unclosed_attribute_dict", "scf",
             # `"0x6725" : (f32, f32) -> i1` is a typed string attribute: the dictionary ends at `loc`
             lambda v: sub(v, '{mlirbc.properties = "0x6725"} : (f32, f32) -> i1 ',
                           '{mlirbc.properties = "0x6725" : (f32, f32) -> i1 ⟨0⟩'),
             ["expected '}' in attribute dictionary, found 'loc'"]))
    # `, index` reads as the memref's layout attribute (a type attribute): `)` is where `>` is missing
    add(Case("unclosed_type", "scf", lambda v: sub(v, "(memref<1024xf32>, index) -> f32",
                                                   "(memref<1024xf32, index⟨0⟩) -> f32"),
             ["expected '>' in memref type"]))
    add(Case("unclosed_array", "canon", lambda v: sub(v, "array<i32: 0, 0>", "array<i32: 0, 0⟨0⟩}>"),
             ["expected"]))
    add(Case("func_region_never_closed", "scf",
             lambda v: v.replace(line_of(v, '  }) : () -> () loc(') + "\n", "", 1).rstrip("\n") + "\n⟨0⟩",
             ["expected '}' to end the region, found end of input"]))

    # -- bad fallback payloads -----------------------------------------------------------------------
    def props(new: str, nth: int = 0) -> Callable[[str], str]:
        return lambda v: sub(v, '{mlirbc.properties = "0x03"}', "⟨0⟩{mlirbc.properties = " + new + "}", nth)

    props_msg = ['mlirbc.properties must be a string of hex bytes "0x..."']
    add(Case("props_not_hex", "scf", props('"0xZZ"'), props_msg))
    add(Case("props_odd_length", "scf", props('"0x035"'), props_msg))
    add(Case("props_no_prefix", "scf", props('"03"'), props_msg))
    add(Case("props_not_a_string", "scf", props("3 : i64"), props_msg))
    add(Case("props_empty_prefix_only", "scf", props('"0xG"', nth=1), props_msg))
    add(Case("props_and_native_properties", "scf",
             lambda v: sub(v, '"arith.constant"() {mlirbc',
                           '"arith.constant"() ⟨0⟩<{value = 1.0 : f32}> {mlirbc'),
             ["cannot also have <{...}> properties"]))
    add(Case("fallback_attr_nothex", "jax",
             lambda v: sub(v, '}) {jax.uses_shape_polymorphism',
                           '}) {bad = #mlirbc.fallback<"vhlo", ⟨0⟩"nothex">, jax.uses_shape_polymorphism'),
             ["expected string containing hex digits starting with `0x`"]))
    add(Case("fallback_type_odd_hex", "jax",
             lambda v: sub(v, '!mlirbc.fallback<"vhlo", "0x2903020807">',
                           '!mlirbc.fallback<"vhlo", ⟨0⟩"0x290302080">'),
             ["expected string containing hex digits starting with `0x`"]))
    add(Case("fallback_type_unquoted_dialect", "jax",
             lambda v: sub(v, '!mlirbc.fallback<"vhlo", "0x2903020807">',
                           '!mlirbc.fallback<⟨0⟩vhlo, "0x2903020807">'),
             ["expected string literal"]))
    add(Case("fallback_props_jax_bad", "jax",
             lambda v: sub(v, '{mlirbc.properties = "0xBF"}', '⟨0⟩{mlirbc.properties = "0xBFZ"}'),
             props_msg))

    # -- types: uses against definitions, result counts ----------------------------------------------
    add(Case("use_type_mismatch", "scf",
             lambda v: sub(v, '"arith.cmpf"(%3, %1)', '"arith.cmpf"(%3, ⟨0⟩%arg4)'),
             ["use of %arg4 expects type f32 but it is defined with type index"]))
    add(Case("yield_type_mismatch", "scf", lambda v: sub(v, '"scf.yield"(%arg5)', '"scf.yield"(⟨0⟩%arg4)'),
             ["use of %arg4 expects type f32 but it is defined with type index"]))
    add(Case("forward_use_type_mismatch", "cf",
             lambda v: sub(v, '"func.return"() : () -> ()', '"test.use"(⟨0⟩%2) : (i64) -> ()'),
             ["use of %2 expects type i64 but it is defined with type i32"]))
    add(Case("too_many_results_named", "scf", lambda v: sub(v, '%3 = "memref.load"(%arg0, %arg4) : ',
                                                            '%3:2 = "memref.load"(%arg0, %arg4) : ⟨0⟩'),
             ["the op's type has 1 results but 2 are named"]))
    add(Case("result_named_for_no_result_op", "scf",
             lambda v: sub(v, '"func.return"(%2) : ', '%9 = "func.return"(%2) : ⟨0⟩'),
             ["the op's type has 0 results but 1 are named"]))
    add(Case("too_many_operands", "scf", lambda v: sub(v, '"scf.yield"(%5) : ', '"scf.yield"(%5, %5) : ⟨0⟩'),
             ["the op's type has 1 operands but 2 are listed"]))
    add(Case("zero_result_count", "canon", lambda v: sub(v, "%8:2 =", "%8:⟨0⟩0 ="),
             ["expected a positive result count"]))
    add(Case("result_name_with_number", "canon", lambda v: sub(v, "%8:2 =", "⟨0⟩%8#1:2 ="),
             ["result names cannot carry a result number"]))

    # -- names: undefined, redefined, out of scope, successors ------------------------------------------
    add(Case("undefined_value", "scf", lambda v: sub(v, "(%arg0, %arg4)", "(%arg0, ⟨0⟩%arg44)"),
             ["use of undefined SSA value %arg44"]))
    add(Case("undefined_result_number", "canon", lambda v: sub(v, "(%7, %8#0, %6)", "(%7, ⟨0⟩%8#5, %6)"),
             ["use of undefined SSA value %8#5"]))
    add(Case("redefined_value", "scf",
             lambda v: sub(v, line_of(v, '%1 = "arith.constant"'),
                           line_of(v, '%1 = "arith.constant"') + "\n    ⟨0⟩"
                           + line_of(v, '%1 = "arith.constant"').lstrip()),
             ["redefinition of SSA value %1"]))
    add(Case("redefined_block_argument", "scf", lambda v: sub(v, "%arg5: f32", "⟨0⟩%arg4: f32"),
             ["redefinition of SSA value %arg4"]))
    add(Case("redefined_block_label", "cf",
             lambda v: sub(sub(v, "^bb3(%2", "⟨0⟩^bb2(%2"), "[^bb1, ^bb2, ^bb3]", "[^bb1, ^bb2, ^bb2]"),
             ["redefinition of block ^bb2"]))
    add(Case("undefined_successor", "cf", lambda v: sub(v, "[^bb1, ^bb2, ^bb3]", "[^bb1, ⟨0⟩^bb9, ^bb3]"),
             ["reference to an undefined block ^bb9"]))
    # ^bb0 labels the function's entry block, not a block of the scf.if region holding the branch
    add(Case("successor_in_other_region", "scf",
             lambda v: sub(v, '"scf.yield"(%6) : (f32) -> ()', '"cf.br"(%6)[⟨0⟩^bb0] : (f32) -> ()'),
             ["reference to an undefined block ^bb0"]))
    add(Case("value_from_other_function", "gpu",
             lambda v: sub(v, '"func.return"(%arg0) : (!gpu.async.token)',
                           '"func.return"(⟨0⟩%arg50) : (!gpu.async.token)'),
             ["use of undefined SSA value %arg50"]))
    add(Case("value_from_inner_region", "scf", lambda v: sub(v, '"func.return"(%2)', '"func.return"(⟨0⟩%6)'),
             ["use of undefined SSA value %6"]))

    # -- locations --------------------------------------------------------------------------------------
    add(Case("loc_bare_word", "scf",
             lambda v: sub(v, 'loc("Dialect__SCF__ops.f08.mlir":2:12)', "loc(⟨0⟩bad)"),
             ["expected location instance, found 'bad'"]))
    add(Case("loc_missing_column", "scf", lambda v: sub(v, '.mlir":2:12)', '.mlir":2:⟨0⟩)'),
             ["expected integer column number in FileLineColRange"]))
    add(Case("loc_bad_callsite", "scf",
             lambda v: sub(v, 'loc("Dialect__SCF__ops.f08.mlir":2:12)', 'loc(callsite("a" at ⟨0⟩))'),
             ["expected location instance, found ')'"]))
    add(Case("loc_negative_line", "scf", lambda v: sub(v, '.mlir":2:12)', '.mlir":⟨0⟩-2:12)'),
             ["expected"]))
    add(Case("loc_not_a_location", "scf",
             lambda v: sub(v, 'loc("Dialect__SCF__ops.f08.mlir":2:12)', "loc(⟨0⟩42)"),
             ["expected location instance"]))

    # -- attribute syntax ------------------------------------------------------------------------------
    def op_attr(attr: str) -> Callable[[str], str]:
        """A new attribute `attr` in the gpu.launch op's attribute dictionary."""
        key = "{workgroup_attributions = 0 : i64}"
        return lambda v: sub(v, key, "{" + attr + ", " + key[1:])

    add(Case("attr_missing_value", "canon", op_attr("a = ⟨0⟩"), ["expected attribute value"]))
    add(Case("attr_duplicate_key", "canon", op_attr("a = 1, ⟨0⟩a = 2"), ["duplicate key 'a' in dictionary"]))
    add(Case("attr_bad_dense", "canon", op_attr("a = dense<[1, 2⟨0⟩> : tensor<2xi32>"),
             ["expected ']' in tensor literal"]))
    add(Case("attr_int_out_of_range", "canon", op_attr("a = ⟨0⟩300 : i8"),
             ["integer constant out of range"]))
    add(Case("attr_bad_array_element", "canon", op_attr("a = array<i32: 1, ⟨0⟩x>"), ["expected"]))
    add(Case("attr_unknown_type", "canon", op_attr("a = 3 : ⟨0⟩f32x"), ["expected type, found 'f32x'"]))
    add(Case("attr_bad_escape", "canon", op_attr('a = "x⟨0⟩\\q"'), ["unknown escape in string literal"]))
    add(Case("attr_unbalanced_dialect_attr", "canon", op_attr("a = #foo.bar<[1, 2⟨0⟩>"),
             ["unbalanced"]))
    add(Case("attr_unterminated_string", "canon", unterminated_loc("abc"),
             ["expected '\"' in string literal"]))

    # -- resource trailers --------------------------------------------------------------------------------
    def resource(new: str) -> Callable[[str], str]:
        entry = 'resource_2: "0x08000000010000000000000002000000000000000300000000000000"'
        return lambda v: sub(v, entry, new)

    add(Case("resource_blob_too_short", "res", resource('resource_2: ⟨0⟩"0x0800"'),
             ["a resource blob needs 4 bytes of alignment"]))
    add(Case("resource_bad_alignment", "res", resource('resource_2: ⟨0⟩"0x0300000001"'),
             ["resource blob alignment 3 is not a power of two"]))
    add(Case("resource_missing_colon", "res", resource('resource_2 ⟨0⟩"0x0800000001"'),
             ["expected ':'"]))
    add(Case("resource_number_value", "res", resource("resource_2: ⟨0⟩12"),
             ["expected a resource value"]))
    add(Case("resource_unknown_section", "res",
             lambda v: sub(v, "  dialect_resources:", "  ⟨0⟩weird_resources:"),
             ["expected 'dialect_resources' or 'external_resources'"]))
    add(Case("resource_unterminated", "res", lambda v: v[:v.index("#-}")] + "⟨0⟩",
             ["end of input"]))

    # -- garbage, empty, binary ------------------------------------------------------------------------
    add(Case("garbage_in_op", "scf", lambda v: sub(v, '"scf.yield"(%6)', '"scf.yield"(%6) ⟨0⟩$$$'),
             ["unexpected character '$'"]))
    add(Case("garbage_line", "scf",
             lambda v: sub(v, '    "func.return"', '    ⟨0⟩§§ garbage\n    "func.return"'),
             ["unexpected character '§'"]))
    add(Case("nul_bytes", "scf", lambda v: sub(v, '"memref.load"', '"memref.load"⟨0⟩\x00\x00'),
             ["unexpected character '\\x00'"]))
    add(Case("trailing_garbage", "scf", lambda v: v + "⟨0⟩}}} ) garbage\n",
             ["expected an op in generic form"]))
    add(Case("empty", "scf", lambda v: "⟨0⟩", ["expected an op in generic form"]))
    add(Case("only_comments", "scf", lambda v: "// nothing here\n// mlirbc: uselist 0=[1,0]\n⟨0⟩",
             ["expected an op in generic form"]))
    add(Case("binary_bytecode", "jax", lambda v: (CORPUS / SOURCES["jax"][0]).read_bytes(),
             ["expected an op in generic form"]))
    add(Case("two_top_level_ops", "scf", lambda v: v + '⟨0⟩"builtin.module"() ({\n}) : () -> ()\n',
             ["the view must hold exactly one top-level op, the file's 'builtin.module': MLIR would wrap "
              "them all in a new implicit module"]))
    add(Case("bad_header_json", "scf", lambda v: "⟨0⟩// mlirbc: {\"version\": 6,\n" + v.split("\n", 1)[1],
             ["malformed mlirbc header comment"]))

    # -- bounded but pathological input ----------------------------------------------------------------
    add(Case("deep_brackets", "canon", op_attr("a = ⟨0⟩" + "[" * DEEP), ["nesting too deep"],
             wild={0: "col"}))
    add(Case("deep_function_type", "scf",
             lambda v: sub(v, ": (memref<1024xf32>, index) -> f32",
                           ": ⟨0⟩" + "(" * DEEP + "memref<1024xf32>, index) -> f32"),
             ["nesting too deep"], wild={0: "col"}))
    add(Case("deep_regions", "scf",
             lambda v: sub(v, '    "func.return"', '    "t.r"() ({\n' * DEEP + '    "func.return"'),
             ["nested deeper than 512 levels"], wild={0: "both"}))
    add(Case("huge_unterminated_string", "canon", unterminated_loc("x" * HUGE),
             ["expected '\"' in string literal"]))
    add(Case("huge_string_then_error", "canon",
             lambda v: sub(op_attr('a = "' + "x" * HUGE + '"')(v),
                           '"gpu.wait"(%7) :', '"gpu.wait"(⟨0⟩%77) :'),
             ["use of undefined SSA value %77"]))

    # -- several independent errors in one file: every one is reported ---------------------------------
    add(Case("multi_three_kinds", "scf", lambda v: sub(sub(sub(
        v, '{mlirbc.properties = "0x03"}', '⟨0⟩{mlirbc.properties = "0x0"}'),
        '"arith.cmpf"(%3, %1)', '"arith.cmpf"(%3, ⟨1⟩%arg4)'),
        '"func.return"(%2)', '"func.return"(⟨2⟩%zz)'),
        [props_msg[0], "use of %arg4 expects type f32", "use of undefined SSA value %zz"], count=3))
    add(Case("multi_garbage_redefinition_successor", "cf", lambda v: sub(sub(sub(
        v, "[^bb1, ^bb2, ^bb3]", "[^bb1, ^bb2, ⟨1⟩^bb7]"),
        "^bb3(%2", "^bb3(⟨2⟩%1"),
        '"func.return"() : () -> () loc("Dialect__ControlFlow__ops.f01.mlir":9:5)',
        '"func.return"() : () -> () ⟨0⟩$ loc("Dialect__ControlFlow__ops.f01.mlir":9:5)'),
        ["unexpected character '$'", "reference to an undefined block ^bb7", "redefinition of SSA value %1"],
        count=3))
    add(Case("multi_across_functions", "gpu", lambda v: sub(sub(sub(
        v, 'loc("Dialect__GPU__ops.mlir":8:5)', "loc(⟨0⟩nowhere)"),
        '%5:2 = "gpu.alloc"(%4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : ',
        '%5:3 = "gpu.alloc"(%4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : ⟨1⟩'),
        '"func.return"(%arg0) : (!gpu.async.token)', '"func.return"(⟨2⟩%arg50) : (!gpu.async.token)'),
        ["expected location instance", "the op's type has 2 results but 3 are named",
         "use of undefined SSA value %arg50"], count=3))
    add(Case("multi_broken_op_results_used_later", "scf", lambda v: sub(sub(sub(
        v, '%3 = "memref.load"(%arg0, %arg4) :', '%3 = "memref.load"(%arg0, %arg4) ⟨0⟩@@ :'),
        '"arith.addf"(%arg5, %3)', '"arith.addf"(%arg5, ⟨1⟩%nope)'),
        '"func.return"(%2) : (f32)', '"func.return"(%2) : ⟨2⟩(f32, f32)'),
        ["invalid symbol name", "use of undefined SSA value %nope", "the op's type has 2 operands but 1"],
        count=3))
    add(Case("multi_ir_and_resources", "res", lambda v: sub(sub(
        v, "dense_resource<resource> : tensor<4xf64>", "dense_resource<resource> : tensor<4x⟨0⟩>"),
        'resource_2: "0x08', 'resource_2: ⟨1⟩"0x03'),
        ["expected type", "resource blob alignment 3"], count=2))
    add(Case("multi_uses_in_nested_regions", "canon", lambda v: sub(sub(sub(sub(
        v, '"memref.store"(%0, %6,', '"memref.store"(⟨0⟩%x0, %6,'),
        '"memref.load"(%8#0, %18,', '"memref.load"(⟨1⟩%x1, %18,'),
        '"memref.load"(%8#0, %20,', '"memref.load"(⟨2⟩%x2, %20,'),
        '"memref.store"(%19, %8#0,', '"memref.store"(⟨3⟩%x3, %8#0,'),
        [f"use of undefined SSA value %x{i}" for i in range(4)], count=4))
    return c


def _positions(text: str) -> tuple[str, dict[int, tuple[int, int]]]:
    """Remove the markers; 1-based (line, column) of each."""
    out: list[str] = []
    found: dict[int, tuple[int, int]] = {}
    line, col, pos = 1, 1, 0
    for m in MARK.finditer(text):
        chunk = text[pos:m.start()]
        out.append(chunk)
        nl = chunk.count("\n")
        if nl:
            line += nl
            col = len(chunk) - chunk.rfind("\n")
        else:
            col += len(chunk)
        found[int(m.group(1))] = (line, col)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out), found


def build(case: Case, views: dict[str, str]) -> bytes:
    path, disabled = SOURCES[case.source]
    body = case.mutate(views[case.source])
    header_lines = len(case.messages) + (case.count is not None) + 1 + bool(disabled)
    header_after = [f"// like: {path}"] + ([f"// disable-model: {','.join(disabled)}"] if disabled else [])
    if case.count is not None:
        header_after.insert(0, f"// expect-count: {case.count}")
    if isinstance(body, bytes):
        found = {0: (header_lines + 1, 1)}
        raw = body
    else:
        text, found = _positions(body)
        found = {k: (ln + header_lines, c) for k, (ln, c) in found.items()}
        raw = text.encode("utf-8", "surrogateescape")
    # One line per expected error, in text order (the first is the first error).
    order = sorted(range(len(case.messages)), key=lambda k: found.get(k, (1 << 30, 0)))
    expects = []
    for k in order:
        wild = case.wild.get(k, "")
        if k not in found and wild != "both":
            raise SystemExit(f"{case.name}: no marker for expected error {k}")
        line, col = found.get(k, (0, 0))
        where = f"{'*' if wild in ('line', 'both') else line}:{'*' if wild in ('col', 'both') else col}"
        expects.append(f"// expect: {where} {case.messages[k]}")
    header = "\n".join(expects + header_after) + "\n"
    assert header.count("\n") == header_lines, case.name
    return header.encode("utf-8") + raw


def main() -> None:
    views: dict[str, str] = {}
    for key, (path, disabled) in SOURCES.items():
        module = decode_bytecode((CORPUS / path).read_bytes(), models(disabled=list(disabled)))
        assert module.error is None, path
        views[key] = print_module(module).text
    all_cases = cases()
    names = [c.name for c in all_cases]
    assert len(set(names)) == len(names), "duplicate case names"
    for old in HERE.glob("*.mlir"):
        old.unlink()
    for i, case in enumerate(all_cases):
        (HERE / f"{i:02d}_{case.name}.mlir").write_bytes(build(case, views))
    print(f"wrote {len(all_cases)} files to {HERE}")


if __name__ == "__main__":
    main()
