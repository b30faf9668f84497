"""The aliases upstream MLIR's dialects give their values (`OpAsmDialectInterface::getAlias` and ODS
`genMnemonicAlias`), as rules for `Registry.register_alias`; the builtin ones (`#map`, `#loc`, ...) are in
`syntax.aliases`.

* `llvm`: every attribute declared with `genMnemonicAlias = 1` in `LLVMAttrDefs.td` is aliased by its
  mnemonic (`#di_file`, `#loop_annotation`, `#tbaa_tag`, ...); the same list in MLIR 22 and 24;
* `ml_program`: `#ml_program.extern` (`genMnemonicAlias`) is `#extern`;
* `sparse_tensor`: an encoding is `#sparse` (the dialect's `getAlias`).
"""

from __future__ import annotations

from .registry import Registry

LLVM_MNEMONIC_ALIASES = (
    "access_group", "alias_scope", "alias_scope_domain", "di_basic_type", "di_common_block",
    "di_compile_unit", "di_composite_type", "di_derived_type", "di_file", "di_global_variable",
    "di_global_variable_expression", "di_imported_entity", "di_label", "di_lexical_block",
    "di_lexical_block_file", "di_local_variable", "di_module", "di_namespace", "di_null_type",
    "di_string_type", "di_subprogram", "di_subroutine_type", "loop_annotation", "loop_distribute",
    "loop_interleave", "loop_licm", "loop_peeled", "loop_pipeline", "loop_unroll", "loop_unroll_and_jam",
    "loop_unswitch", "loop_vectorize", "mmra_tag", "tbaa_root", "tbaa_tag", "tbaa_type_desc",
)
"""The `llvm` attributes whose ODS definition sets `genMnemonicAlias` (checked against the oracle's
`LLVMAttrDefs.td` by the tests)."""

UPSTREAM_ALIASES = {
    **{f"#llvm.{m}": m for m in LLVM_MNEMONIC_ALIASES},
    "#ml_program.extern": "extern",
    "#sparse_tensor.encoding": "sparse",
}


def register_upstream_aliases(reg: Registry, origin: str) -> None:
    for head, name in UPSTREAM_ALIASES.items():
        reg.register_alias(head, name, origin)
