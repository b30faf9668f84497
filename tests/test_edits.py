"""Edits that re-read one op (`reparse_edit`) give what a full parse of the same text gives: the same
diagnostics, the same source map, the same module (printed and encoded); edits it cannot take alone are
left to the full parse."""

from __future__ import annotations

import re

import pytest

from corpus import path as corpus_path
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.module import Module
from mlirbc.view.edits import ViewState, parse_state, printed_state, reparse_edit, writing
from mlirbc.view.printer import print_module
from mlirbc.view.sourcemap import SourceMap

FILES = ["upstream/Dialect__Arith__ops.mlirbc", "upstream/Dialect__Async__ops.mlirbc",
         "upstream/Dialect__GPU__ops.mlirbc", "upstream/Bytecode__uselist_orders.p01.mlirbc"]


def _decoded(rel: str) -> tuple[bytes, Module, ViewState]:
    data = corpus_path(rel).read_bytes()
    module = decode_bytecode(data)
    assert module.error is None
    return data, module, printed_state(module, print_module(module))


def _shape(m: SourceMap) -> tuple[object, ...]:
    ops = [(s, m.op_name_span(op)) for op, s in m.ops()]
    occ = [(o.start, o.end, o.is_def, o.is_block, o.target is None)
           for o in m.occurrences_in(0, len(m.text))]
    return ops, occ, [(p.kind, p.start, p.end) for p in m.parts()]


def _diags(state: ViewState) -> list[tuple[object, ...]]:
    return [(d.message, d.severity, d.span.start, d.span.end, d.span.start_line, d.span.start_col)
            for d in state.diagnostics]


def _encode(module: Module, template: Module) -> bytes:
    with writing(module):
        return encode_bytecode(module, template=template)


def _check_same(inc: ViewState, full: ViewState, template: Module) -> None:
    assert _diags(inc) == _diags(full)
    assert _shape(inc.map) == _shape(full.map)
    assert (inc.module is None) == (full.module is None)
    if inc.module is not None and full.module is not None:
        assert print_module(inc.module).text == print_module(full.module).text
        assert _encode(inc.module, template) == _encode(full.module, template)


def _edit(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _function_edits(text: str) -> list[tuple[str, int, int, str]]:
    """Edits inside function bodies: (what, start, end, replacement)."""
    out: list[tuple[str, int, int, str]] = []
    uses = [m for m in re.finditer(r"\((%[0-9a-z]+)[,)]", text)]
    if uses:
        m = uses[len(uses) // 2]
        out.append(("break a use", m.start(1), m.end(1), m.group(1) + "999"))
    consts = [m for m in re.finditer(r"value = (-?[0-9]+) : i(32|64)", text)]
    if consts:
        m = consts[len(consts) // 3]
        out.append(("change a constant", m.start(1), m.end(1), str(int(m.group(1)) + 1)))
        line_end = text.index("\n", m.end())
        out.append(("add an op", line_end + 1, line_end + 1,
                    '    %zz_new = "arith.constant"() <{value = 7 : i32}> : () -> i32 loc(unknown)\n'))
        out.append(("type mismatch", m.start(2) - 1, m.end(2), "i16"))
    locs = [m for m in re.finditer(r'loc\("[^"\n]*":[0-9]+:[0-9]+\)', text)]
    if locs:
        m = locs[len(locs) // 2]
        out.append(("rename a location", m.start(), m.end(), 'loc("edited.mlir":1:2)'))
    returns = [m for m in re.finditer(r'\n( *)"func.return"\(\)[^\n]*', text)]
    if returns:
        m = returns[len(returns) // 2]
        out.append(("stray character", m.start(1) + len(m.group(1)), m.start(1) + len(m.group(1)),
                    "$"))
    return out


@pytest.mark.parametrize("rel", FILES)
def test_edit_inside_a_function_matches_a_full_parse(rel: str) -> None:
    data, module, base = _decoded(rel)
    text = base.text
    edits = _function_edits(text)
    assert edits
    spliced = 0
    for what, start, end, new in edits:
        new_text = _edit(text, start, end, new)
        inc = reparse_edit(base, new_text, start, end, module)
        full = parse_state(new_text, module)
        if inc is None:
            continue  # an op the edit cannot be read alone in (e.g. a function with operands)
        spliced += 1
        _check_same(inc, full, module)
        # and back: the undo (from the edited state's base, the dirty range grown) gives the original
        back = reparse_edit(base, text, start, end, module)
        assert back is not None and back.module is not None, what
        assert _encode(back.module, module) == data, what
    assert spliced >= 2


def test_edits_across_functions_or_outside_need_a_full_parse() -> None:
    _, module, base = _decoded("upstream/Dialect__Arith__ops.mlirbc")
    text = base.text
    first = text.index('"func.func"')
    second = text.index('"func.func"', first + 1)
    mid1 = text.index("\n", first) + 1
    mid2 = text.index("\n", second) + 1
    assert reparse_edit(base, _edit(text, mid1, mid2, ""), mid1, mid2, module) is None
    header_end = text.index("\n")
    assert reparse_edit(base, _edit(text, 0, header_end, "// x"), 0, header_end, module) is None
    # an edit that makes the function two ops: the text no longer reads as one op there
    third = text.index('"func.func"', second + 1)
    end = text.rfind("\n", 0, third)  # where the second function's text ends
    two = _edit(text, end, end, '\n  "func.func"() ({\n  }) : () -> ()')
    assert reparse_edit(base, two, end, end, module) is None


def test_chained_edits_keep_a_growing_dirty_range() -> None:
    """Edit, edit again, undo both: each step re-reads one function and the last is the file again."""
    data, module, base = _decoded("upstream/Dialect__Arith__ops.mlirbc")
    text = base.text
    uses = [m for m in re.finditer(r"\((%[0-9a-z]+)[,)]", text)]
    a, b = uses[len(uses) // 2], uses[len(uses) // 2 + 1]
    one = _edit(text, a.start(1), a.end(1), "%nope")
    s1 = reparse_edit(base, one, a.start(1), a.end(1), module)
    assert s1 is not None and s1.module is None and "undefined" in s1.diagnostics[0].message
    delta = len("%nope") - (a.end(1) - a.start(1))
    two = _edit(one, b.start(1) + delta, b.end(1) + delta, "%nope2")
    lo, hi = a.start(1), b.end(1)  # in the base text
    s2 = reparse_edit(base, two, lo, hi, module)
    full = parse_state(two, module)
    if s2 is None:  # the two uses are in different functions
        assert full.module is None
        return
    _check_same(s2, full, module)
    back = reparse_edit(base, text, lo, hi, module)
    assert back is not None and back.module is not None
    assert _encode(back.module, module) == data
