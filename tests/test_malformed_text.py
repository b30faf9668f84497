"""Broken text views: the parser reports located errors, never crashes, never hangs; encode refuses them.

The files in tests/data/malformed/ are made by make_malformed.py there from real corpus views (truncated,
unbalanced, bad fallback payloads, type mismatches, undefined/redefined values and blocks, values used out
of scope, wrong result counts, bad locations/attributes/resources, garbage, empty, binary, deep nesting,
huge strings).  Each starts with `// expect: LINE:COL substring` for its FIRST error (more `expect` lines
for further errors, `// expect-count: N` where several independent errors must ALL be reported).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from corpus import CORPUS, REPO
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.cli.main import main as cli_main
from mlirbc.ir.module import Module
from mlirbc.models.build import models
from mlirbc.models.registry import Registry
from mlirbc.view.parser import ParseResult, parse_module
from mlirbc.view.printer import print_module

MALFORMED = REPO / "tests" / "data" / "malformed"
FILES = sorted(MALFORMED.glob("*.mlir"))
PARSE_SECONDS = 5.0
"""Per file; the slowest (1 MB strings, 10k-deep nesting) take a fraction of a second."""


@dataclass(frozen=True)
class Expect:
    line: str  # 1-based, or "*"
    col: str
    message: str

    def matches(self, line: int, col: int, message: str) -> bool:
        return (self.line in ("*", str(line)) and self.col in ("*", str(col))
                and self.message in message)


@dataclass(frozen=True)
class Spec:
    expects: tuple[Expect, ...]
    count: int | None
    like: str
    disabled: tuple[str, ...]


def _spec(data: bytes) -> Spec:
    expects: list[Expect] = []
    count = None
    like = ""
    disabled: tuple[str, ...] = ()
    for raw in data.split(b"\n"):
        line = raw.decode("utf-8", "replace")
        if not line.startswith("// ") or line.startswith("// mlirbc:"):
            break
        key, _, value = line[3:].partition(": ")
        if key == "expect":
            m = re.fullmatch(r"(\d+|\*):(\d+|\*) (.+)", value)
            assert m is not None, line
            expects.append(Expect(*m.groups()))
        elif key == "expect-count":
            count = int(value)
        elif key == "like":
            like = value
        elif key == "disable-model":
            disabled = tuple(value.split(","))
    assert expects and like, "a malformed file needs `// expect:` and `// like:` header lines"
    return Spec(tuple(expects), count, like, disabled)


@functools.cache
def _registry(disabled: tuple[str, ...]) -> Registry:
    return models(disabled=list(disabled))


@functools.cache
def _template(like: str, disabled: tuple[str, ...]) -> Module:
    module = decode_bytecode((CORPUS / like).read_bytes(), _registry(disabled))
    assert module.error is None
    return module


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")  # as `mlirbc encode` reads a view


def _check_diagnostics(result: ParseResult, text: str) -> None:
    """Errors exist, lie inside the text, come sorted by position, and there is no module."""
    assert result.module is None
    assert result.errors, "no error reported"
    lines = text.split("\n")
    for d in result.diagnostics:
        s = d.span
        assert 0 <= s.start_line < len(lines) and 0 <= s.start_col <= len(lines[s.start_line]), d
        assert (s.end_line, s.end_col) >= (s.start_line, s.start_col), d
        assert d.message, d
    keys = [(d.span.start_line, d.span.start_col) for d in result.diagnostics]
    assert keys == sorted(keys)


def _parse_timed(text: str, template: Module | None = None,
                 registry: Registry | None = None) -> ParseResult:
    start = time.perf_counter()
    result = parse_module(text, template=template, registry=registry)  # any exception fails the test
    elapsed = time.perf_counter() - start
    assert elapsed < PARSE_SECONDS, f"parsing took {elapsed:.1f} s"
    return result


# -- the corpus itself -------------------------------------------------------------------------------
def _generator() -> object:
    spec = importlib.util.spec_from_file_location("make_malformed", MALFORMED / "make_malformed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def test_corpus_is_large_and_up_to_date() -> None:
    assert len(FILES) >= 50
    specs = [_spec(f.read_bytes()) for f in FILES]
    assert sum(1 for s in specs if s.count is not None and s.count >= 2) >= 3
    # The committed files are exactly what the generator makes (regenerate after changing it).
    gen = _generator()
    views = {key: print_module(_template(path, disabled)).text
             for key, (path, disabled) in gen.SOURCES.items()}  # type: ignore[attr-defined]
    cases = gen.cases()  # type: ignore[attr-defined]
    assert [f"{i:02d}_{c.name}.mlir" for i, c in enumerate(cases)] == [f.name for f in FILES]
    for case, path in zip(cases, FILES, strict=True):
        assert gen.build(case, views) == path.read_bytes(), f"{path.name} is stale: run {gen.__file__}"  # type: ignore[attr-defined]


# -- the parser --------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_parser_reports_located_errors(path: Path) -> None:
    data = path.read_bytes()
    spec = _spec(data)
    text = _text(data)
    result = _parse_timed(text, _template(spec.like, spec.disabled), _registry(spec.disabled))
    _check_diagnostics(result, text)
    got = [(d.span.start_line + 1, d.span.start_col + 1, d.message) for d in result.errors]
    shown = "\n".join(f"  {ln}:{col}: {msg}" for ln, col, msg in got[:10])
    first = spec.expects[0]
    assert first.matches(*got[0]), f"first error should be {first}, got:\n{shown}"
    for expect in spec.expects[1:]:
        assert any(expect.matches(*g) for g in got), f"missing {expect}, got:\n{shown}"
    if spec.count is not None:
        assert len(got) == spec.count, f"expected {spec.count} errors, got:\n{shown}"


# -- the CLI -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_encode_refuses_and_leaves_the_output_alone(path: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    spec = _spec(path.read_bytes())
    out = tmp_path / "out.mlirbc"
    before = b"ML\xefR previous contents, must survive a refused encode\n"
    out.write_bytes(before)
    listing = sorted(os.listdir(MALFORMED))
    args = ["encode", str(path), "-o", str(out), "--like", str(CORPUS / spec.like)]
    for d in spec.disabled:
        args += ["--disable-model", d]
    rc = cli_main(args)
    err = capsys.readouterr().err
    assert rc == 1, err
    first = spec.expects[0]
    line = r"\d+" if first.line == "*" else first.line
    col = r"\d+" if first.col == "*" else first.col
    pattern = rf"^{re.escape(str(path))}:{line}:{col}: error: .*{re.escape(first.message)}"
    assert re.search(pattern, err, re.M), err[:2000]
    assert "not written" in err
    assert out.read_bytes() == before
    assert os.listdir(tmp_path) == ["out.mlirbc"], "encode left files behind"
    assert sorted(os.listdir(MALFORMED)) == listing


# -- beyond the corpus: inputs no header can describe, and mechanical damage to real views ----------
# (Text without an op, "" or "//", is an empty module, as mlir-opt reads it: tests/test_implicit_module.py;
# a view without one is an error, below.)
@pytest.mark.parametrize("text", [
    "// mlirbc: {}\n", "// mlirbc: {\"version\": 6}\n \n", "\ufeff", "\x00", '"', "@", "%", "^", "#", "!",
    "{-#", "#-}", "\udcff\udcfe",
    "(" * 10_000, ")" * 10_000, "{" * 10_000, "<" * 10_000, '"builtin.module"() ({' * 3_000,
    '"a.b"() {x = ' + "[" * 10_000 + "} : () -> ()",
    '"a.b"() : () -> () loc(' + "callsite(" * 5_000,
    '"a.b"() {x = "' + "y" * 2_000_000,
    '"a.b"() {x = "' + "\\" * 999_999 + '"} : () -> ()',
], ids=lambda t: repr(t[:12]) + f"..{len(t)}")
def test_odd_inputs_give_errors_not_exceptions(text: str) -> None:
    _check_diagnostics(_parse_timed(text), text)


def test_binary_input_without_header() -> None:
    for path in sorted((CORPUS / "jax").glob("*.mlirbc"))[:3]:
        text = _text(path.read_bytes())
        _check_diagnostics(_parse_timed(text), text)


def test_truncations_and_byte_damage_never_raise() -> None:
    """Every prefix cut at many points, and random character damage, of real views: located errors
    or (rarely, when the damage happens to be valid) a module, never an exception."""
    rng = random.Random(1234)
    sources = [("upstream/Dialect__SCF__ops.f08.mlirbc", ("arith",)), ("jax/mlp2.mlirbc", ()),
               ("upstream/Dialect__ControlFlow__ops.f01.mlirbc", ()),
               ("upstream/Bytecode__resources.mlirbc", ())]
    junk = list('(){}[]<>"%^#!@:,=-x0 \n\\') + ["\x00", "§", "0x", "loc(", "{-#", "#-}"]
    checked = expected = 0
    start = time.perf_counter()
    for like, disabled in sources:
        template, registry = _template(like, disabled), _registry(disabled)
        view = print_module(template).text
        cuts = sorted({rng.randrange(len(view)) for _ in range(60)})
        variants = [view[:k] for k in cuts]
        for _ in range(60):
            chars = list(view)
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(len(chars))
                op = rng.randrange(3)
                if op == 0:
                    del chars[at]
                elif op == 1:
                    chars.insert(at, rng.choice(junk))
                else:
                    chars[at] = rng.choice(junk)
            variants.append("".join(chars))
        expected += len(variants)
        for text in variants:
            result = _parse_timed(text, template, registry)
            if result.module is None:
                _check_diagnostics(result, text)
            checked += 1
    assert checked == expected > 400
    assert time.perf_counter() - start < 30
