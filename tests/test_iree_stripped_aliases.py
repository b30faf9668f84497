"""Aliases of values IREE prints stripped inside another value: `translation_info = <...>` in
`#iree_codegen.compilation_info` (an `AttrParameter<"TranslationInfoAttr">`) prints as
`translation_info = #translation` when iree-opt aliases it, and stays stripped in local scope.

The pinned text (`tests/data/aliases_iree/`) is what `iree-opt` prints for it with aliases (checked when
iree-opt is present).  Without the stripped-parameter rule the view printed the whole compilation info
inline and never defined `#translation` (8 modules of IREE's own codegen tests differed so).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from iree_support import IREE_SKIP_REASON, iree_opt_path, run_iree
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.attributes import DialectAttr
from mlirbc.models.build import models
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from pretty_oracle import view_lines

MLIR24 = models(model_set="mlir24")
CASES = {p.stem: p.read_text("utf-8")
         for p in sorted((Path(__file__).parent / "data" / "aliases_iree").glob("*.mlir"))}
_LOC_ALIASES = re.compile(r"^#loc[0-9]* = .*\n", re.M)
"""The locations the parser gives a text that has none (its own positions), aliased."""
_LOC = re.compile(r" loc\((?:[^()\"]|\"[^\"]*\"|\((?:[^()\"]|\"[^\"]*\")*\))*\)")


def _views(text: str) -> tuple[str, str, bytes]:
    """(aliased view, local-scope view, bytes written fresh) of a text read by the view's parser."""
    result = parse_module(text, registry=MLIR24, with_map=False)
    assert result.module is not None, result.errors[0].message
    m = result.module
    aliased = print_module(m, form="pretty", registry=MLIR24, with_map=False, aliases=alias_rules(m, MLIR24))
    local = print_module(m, form="pretty", registry=MLIR24, with_map=False, aliases=None)
    shown = _LOC_ALIASES.sub("", view_lines(aliased.text))
    return (_LOC.sub("", shown), _LOC.sub("", view_lines(local.text)),
            encode_bytecode(m, template=None, registry=MLIR24))


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_aliased_text_reads_and_prints_back_unchanged(name: str) -> None:
    aliased, local, _ = _views(CASES[name])
    assert aliased.rstrip("\n") == CASES[name].rstrip("\n")
    assert "#translation =" in aliased and "translation_info = #translation" in aliased
    assert "#translation" not in local and "translation_info = <pipeline" in local


@pytest.mark.parametrize("name", sorted(CASES))
def test_both_views_hold_the_same_values(name: str) -> None:
    """The alias stands for the stripped text: reading either view gives the same attribute, the one whose
    text is local scope's (the value's identity), so both encode to the same bytes."""
    aliased, local, data = _views(CASES[name])
    assert _views(local)[2] == data
    held = [a.text for a in _dialect_attrs(decode_bytecode(data, MLIR24))
            if a.text.startswith("#iree_codegen.compilation_info")]
    assert held and all("translation_info = <" in t and "#translation" not in t for t in held)


def _dialect_attrs(module: object) -> list[DialectAttr]:
    from mlirbc.ir.walk import held_values

    out: list[DialectAttr] = []
    root = module.root  # type: ignore[attr-defined]
    for op in root.walk():
        for v in (op.attributes.entries if op.attributes is not None else ()):
            out.extend(a for a in held_values(v[1]) if isinstance(a, DialectAttr))
            if isinstance(v[1], DialectAttr):
                out.append(v[1])
    return out


def test_a_later_registration_replaces_the_rule() -> None:
    """The rule is the IREE model's registration (`register_stripped_parameter`): a later one for the same
    parameter replaces it (here: one naming another kind, so nothing there is the aliased translation info
    and the compilation info prints it stripped again); with the dialect disabled there is none."""
    text = next(iter(CASES.values()))
    m = parse_module(text, registry=MLIR24, with_map=False).module
    assert m is not None
    reg = models(model_set="mlir24")
    assert reg.alias_rules().stripped["#iree_codegen.compilation_info"] == {
        "translation_info": "#iree_codegen.translation_info"}
    reg.register_stripped_parameter("#iree_codegen.compilation_info", "translation_info",
                                    "#iree_codegen.other_info", "test")
    printed = print_module(m, form="pretty", registry=reg, with_map=False, aliases=alias_rules(m, reg)).text
    assert "translation_info = <pipeline = #iree_cpu.pipeline<Default>>" in printed
    assert "#translation1" not in printed
    reg.disable("iree_codegen")
    assert "#iree_codegen.compilation_info" not in reg.alias_rules().stripped
    with pytest.raises(ValueError):
        reg.register_stripped_parameter("iree_codegen.compilation_info", "x", "#iree_codegen.y", "test")


@pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)
@pytest.mark.parametrize("name", sorted(CASES))
def test_iree_opt_prints_the_case_and_the_view_of_its_bytes_equals_its_print(name: str) -> None:
    text = CASES[name].encode()
    proc = run_iree("iree-opt", ["-"], text)
    assert proc.returncode == 0, proc.stderr[:300]
    assert proc.stdout.decode() == CASES[name]
    theirs = run_iree("iree-opt", ["--emit-bytecode", "-o", "-", "-"], text).stdout
    module = decode_bytecode(theirs, MLIR24)
    view = print_module(module, form="pretty", registry=MLIR24, aliases=alias_rules(module, MLIR24))
    printed = run_iree("iree-opt", ["--mlir-print-debuginfo", "-"], theirs).stdout.decode()
    assert view_lines(view.text).rstrip("\n") == printed.rstrip("\n")
    back = parse_module(view.text, registry=MLIR24, template=module)
    assert back.module is not None, back.errors[:1]
    assert encode_bytecode(back.module, template=module, registry=MLIR24) == theirs
