"""Verification on keystrokes: re-reading one op in place re-verifies that op and what depends on it.

After each edit, the state `reparse_edit` builds (one function re-read) must carry exactly the verifier
diagnostics a full parse of the new text has: an edit inside a function, a function renamed away from its
callers (a call elsewhere now names nothing), renamed back, renamed onto another symbol (a redefinition).
And it must do so without verifying the functions the edit did not touch.
"""

from __future__ import annotations

import pytest

from mlirbc.models.build import models
from mlirbc.verifier import engine
from mlirbc.view.edits import ViewState, parse_state, reparse_edit

TEXT = """\
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: i32):
    %0 = "func.call"(%a) <{callee = @g}> : (i32) -> i32
    "func.return"(%0) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
  ^bb0(%b: i32):
    %1 = "arith.addi"(%b, %b) : (i32, i32) -> i32
    "func.return"(%1) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "h"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"""


def _faults(state: ViewState) -> list[tuple[str, int, int]]:
    return [(d.message, d.span.start, d.span.end) for d in state.diagnostics if d.code == "verify"]


def _edit(base: ViewState, old: str, new: str, occurrence: int = 0) -> ViewState:
    at = -1
    for _ in range(occurrence + 1):
        at = base.text.index(old, at + 1)
    text = base.text[:at] + new + base.text[at + len(old):]
    spliced = reparse_edit(base, text, at, at + len(old), None, models())
    assert spliced is not None and spliced.how == "spliced"
    full = parse_state(text, None, models())
    assert _faults(spliced) == _faults(full)
    return spliced


def test_edits_reverify_the_op_and_its_dependents() -> None:
    base = parse_state(TEXT, None, models())
    assert base.module is not None and not _faults(base)
    # inside g: a type error, found in g
    s1 = _edit(base, '"arith.addi"(%b, %b) : (i32, i32) -> i32', '"arith.addf"(%b, %b) : (i32, i32) -> i32')
    addf = "'arith.addf' op operand #0 must be floating-point-like, but got 'i32'"
    assert [m for m, _, _ in _faults(s1)] == [addf]
    # g renamed: the call in f (another function, not re-read) names nothing any more
    s2 = _edit(base, 'sym_name = "g"', 'sym_name = "g2"')
    assert [m for m, _, _ in _faults(s2)] == ["'func.call' op 'g' does not reference a valid function"]
    # and back: the call is fine again
    s3 = _edit(s2, 'sym_name = "g2"', 'sym_name = "g"')
    assert not _faults(s3)
    # h renamed onto g: a redefinition, located on the later one
    s4 = _edit(s3, 'sym_name = "h"', 'sym_name = "g"')
    faults = _faults(s4)
    assert [m for m, _, _ in faults] == ["redefinition of symbol named 'g'"]
    assert s4.text[faults[0][1]:].startswith("sym_name")
    # g's signature changed (and its body with it): the call no longer matches
    s5 = _edit(s3, 'function_type = (i32) -> i32, sym_name = "g"}> ({\n  ^bb0(%b: i32):',
               'function_type = (i32, i32) -> i32, sym_name = "g"}> ({\n  ^bb0(%b: i32, %c: i32):')
    assert [m for m, _, _ in _faults(s5)] == ["'func.call' op incorrect number of operands for callee"]


def test_an_edit_verifies_only_the_function_it_is_in(monkeypatch: pytest.MonkeyPatch) -> None:
    base = parse_state(TEXT, None, models())
    walked: list[str] = []
    original = engine.Verifier.walk

    def spy(self: engine.Verifier, root: object, *args: object, **kwargs: object) -> object:
        walked.append(getattr(root, "name", "?"))
        return original(self, root, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.Verifier, "walk", spy)
    _edit(base, '"arith.addi"(%b, %b)', '"arith.muli"(%b, %b)')
    # the spliced state walked g alone; the full parse the test compares with walked all three
    assert walked[0] == "func.func" and walked.count("func.func") == 1 + 3


def _corpus_views_with_calls() -> list[str]:
    from corpus import CORPUS
    from mlirbc.bytecode.reader import read_bytecode_file
    from mlirbc.view.printer import print_module

    out = []
    for path in sorted((CORPUS / "upstream").glob("*.mlirbc")):
        if ".v" in "".join(path.suffixes[:-1]) or path.stat().st_size > 20000:
            continue
        if b"call" not in path.read_bytes():
            continue
        module = read_bytecode_file(str(path), models())
        if module.error is not None:
            continue
        view = print_module(module, with_map=False).text
        if '"func.call"' in view and view.count('"func.func"') >= 2:
            out.append(view)
        if len(out) >= 6:
            break
    return out


def test_random_symbol_edits_in_corpus_views_match_a_full_parse() -> None:
    import random
    import re

    rng = random.Random(7)
    views = _corpus_views_with_calls()
    assert views
    for view in views:
        state = parse_state(view, None, models())
        if state.module is None:
            continue
        names = sorted(set(re.findall(r'sym_name = "([\w.$-]+)"', view)))
        for _ in range(6):
            callees = [m for m in re.finditer(r"callee = @([\w.$-]+)", state.text)]
            syms = [m for m in re.finditer(r'sym_name = "([\w.$-]+)"', state.text)]
            pick = rng.choice(callees + syms) if callees or syms else None
            if pick is None:
                break
            other = rng.choice(names + ["mlirbc_missing"])
            new = pick.group(0).replace(pick.group(1), other)
            text = state.text[:pick.start()] + new + state.text[pick.end():]
            spliced = reparse_edit(state, text, pick.start(), pick.end(), None, models())
            full = parse_state(text, None, models())
            if spliced is not None:
                assert _faults(spliced) == _faults(full), (pick.group(0), new)
                state = spliced
            else:
                state = full
