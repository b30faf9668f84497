"""The view's source map on real files: what the printer records is what the parser records for the same
text, and every record points at the text that shows its object."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import CORPUS, expect, manifest
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.attributes import FallbackAttr
from mlirbc.ir.operation import PROPS_DECODED, Block, Operation
from mlirbc.ir.types import FallbackType
from mlirbc.models.build import default_registry
from mlirbc.view import printer
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.parser import ParseResult, parse_module
from mlirbc.view.printer import print_module, stream_module
from mlirbc.view.sourcemap import (
    PART_FALLBACK_ATTRIBUTE,
    PART_FALLBACK_PROPERTIES,
    PART_FALLBACK_TYPE,
    PIECE_ATTRIBUTES,
    PIECE_LOCATION,
    PIECE_PROPERTIES,
    PIECE_TYPE,
    SourceMap,
)

SMALL = [r["path"] for r in manifest()
         if not r["path"].startswith("large/") and not r["path"].startswith("invalid/")]
PIECES = (PIECE_PROPERTIES, PIECE_ATTRIBUTES, PIECE_TYPE, PIECE_LOCATION)
SAMPLE = list(dict.fromkeys(SMALL[::expect(full=29, core=4)] +
                            [p for p in SMALL if p.startswith(("jax/", "iree/"))]))
"""About 170 files of either corpus: a slice of it, every JAX export and every IREE file (their custom forms
name things in signatures that are not values)."""
REGISTRY = default_registry()


def _decoded(rel: str, form: str = "generic") -> tuple[Operation, str, SourceMap, SourceMap]:
    """The file's root op, its view in `form` (`pretty`: with aliases, the default view) and the maps the
    printer and the parser record for that text."""
    module = decode_bytecode((CORPUS / rel).read_bytes(), REGISTRY)
    if module.error is not None or module.root is None:
        pytest.skip(f"{rel} does not decode completely")
    if form == "pretty":
        rules = alias_rules(module, REGISTRY)
        printed = print_module(module, form="pretty", registry=REGISTRY, aliases=rules)
    else:
        printed = print_module(module)
    parsed = parse_module(printed.text, template=module, registry=REGISTRY)
    assert parsed.module is not None and parsed.map is not None
    return module.root, printed.text, printed.map, parsed.map


def _shape(m: SourceMap) -> tuple[object, ...]:
    ops = [(s, m.op_name_span(op), [tuple(r) for r in m.region_spans(op)],
            [m.piece_span(op, p) for p in PIECES]) for op, s in m.ops()]
    occ = [(o.start, o.end, o.is_def, o.is_block, o.target is None)
           for o in m.occurrences_in(0, len(m.text))]
    parts = [(p.kind, p.start, p.end) for p in m.parts()]
    return ops, occ, parts


@pytest.mark.parametrize("form", ["generic", "pretty"])
@pytest.mark.parametrize("rel", SAMPLE)
def test_printer_and_parser_record_the_same_map(rel: str, form: str) -> None:
    _, _, printed, parsed = _decoded(rel, form)
    assert _shape(printed) == _shape(parsed)


@pytest.mark.parametrize("rel", [*SAMPLE, *[p for p in SMALL if "iree/" in p][:3]])
def test_printing_without_a_map_gives_the_same_text(rel: str) -> None:
    """`mlirbc decode` prints without recording a map (`NoMapBuilder`): the text is the one the server
    shows, elided or not, and the map is empty."""
    module = decode_bytecode((CORPUS / rel).read_bytes())
    for elide in (0, 16):
        with_map = print_module(module, elide_larger_than=elide)
        bare = print_module(module, elide_larger_than=elide, with_map=False)
        assert bare.text == with_map.text and bare.elided == with_map.elided
        assert list(bare.map.ops()) == [] and list(bare.map.parts()) == []
        assert module.root is None or list(with_map.map.ops())


@pytest.mark.parametrize("rel", SAMPLE[::2])
def test_streaming_the_view_gives_the_same_text_in_pieces(rel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`mlirbc decode` writes the view out as it is printed (`stream_module`): the same text, elided or
    not, in pieces (here every 8 chunks, so that small files make several)."""
    monkeypatch.setattr(printer, "_JOIN_EVERY", 8)
    module = decode_bytecode((CORPUS / rel).read_bytes())
    for elide in (0, 16):
        whole = print_module(module, elide_larger_than=elide, with_map=False)
        pieces: list[str] = []
        elided = stream_module(module, pieces.append, elide_larger_than=elide)
        assert "".join(pieces) == whole.text and elided == whole.elided
        ops = 0 if module.root is None else sum(1 for _ in module.root.walk())
        assert len(pieces) > 1 or ops < 4, (ops, len(pieces))


@pytest.mark.parametrize("rel", SAMPLE[::3])
def test_parsing_without_a_map_gives_the_same_module(rel: str) -> None:
    """`mlirbc encode` parses without recording a map: the same bytes, and for damaged text the same
    diagnostics (error recovery does not lean on the map)."""
    module = decode_bytecode((CORPUS / rel).read_bytes())
    text = print_module(module).text
    for damaged in (text, text.replace(") : ", ") :: ", 3).replace("}", "", 1)):
        full = parse_module(damaged, template=None)
        bare = parse_module(damaged, template=None, with_map=False)
        def said(r: ParseResult) -> list[tuple[str, object]]:
            return [(d.message, d.span) for d in r.diagnostics]

        assert said(bare) == said(full)
        assert (bare.module is None) == (full.module is None)
        if full.module is not None and bare.module is not None and not full.errors:
            assert encode_bytecode(bare.module, template=None) == encode_bytecode(full.module, template=None)
        assert bare.map is None or list(bare.map.ops()) == []


@pytest.mark.parametrize("form", ["generic", "pretty"])
@pytest.mark.parametrize("rel", SAMPLE)
def test_every_op_value_and_block_points_at_its_text(rel: str, form: str) -> None:
    root, text, smap, _ = _decoded(rel, form)
    uses: dict[int, int] = {}
    blocks: list[Block] = []
    hidden: set[int] = set()
    by_maps: set[int] = set()
    for op in root.walk():
        span = smap.op_span(op)
        name = smap.op_name_span(op)
        parent = op.parent.parent.parent if op.parent is not None and op.parent.parent is not None else None
        if form == "pretty" and span is None and (
                id(parent) in hidden or op is op.parent.operations[-1]  # type: ignore[union-attr]
                or not smap.region_spans(parent)):  # type: ignore[arg-type]
            # what the custom form leaves out: an implicit terminator, the body a linalg named op
            # implies (its region is not in the text)
            hidden.add(id(op))
            continue
        assert span is not None and name is not None, op.name
        shown = text[name.start:name.end]
        if form == "pretty":  # the name in full, quoted (generic), or without the default dialect's prefix
            assert shown.strip('"') == op.name or op.name.endswith("." + shown), (shown, op.name)
        else:
            assert shown == '"' + op.name + '"' or op.name not in shown or text[name.start] == '"'
        assert smap.op_at(name.start) is op and smap.op_name_at(name.start + 1) is op
        for v in op.operands:
            uses[id(v)] = uses.get(id(v), 0) + 1
            if form == "pretty" and op.name.startswith("affine."):
                # an affine map prints an operand once per use of its dimension: twice, or not at all
                by_maps.add(id(v))
        for succ in op.successors:
            uses[id(succ)] = uses.get(id(succ), 0) + 1
        for r in op.results:
            d = smap.definition(r)
            assert d is not None and text[d.start] == "%"
            assert smap.occurrence_at(d.start) is not None
        for region in op.regions:
            if form == "pretty" and not smap.region_spans(op):
                continue  # a region the form implies (linalg named ops): no text, nothing to point at
            blocks += region.blocks
            for b in region.blocks:
                for a in b.arguments:
                    d = smap.definition(a)
                    assert d is not None and smap.name(a) == text[d.start:d.end], (op.name, smap.name(a))
    for op in root.walk():
        for v in list(op.results) + [a for r in op.regions for b in r.blocks for a in b.arguments]:
            spans = smap.uses(v)
            assert len(spans) == uses.get(id(v), 0) or id(v) in by_maps
            for s in spans:
                occ = smap.occurrence_at(s.start)
                assert occ is not None and occ.target is v and not occ.is_def
                assert text[s.start:s.end].split("#")[0] == smap.name(v)
    for b in blocks:
        assert len(smap.uses(b)) == uses.get(id(b), 0)


@pytest.mark.parametrize("rel", SAMPLE)
def test_fallback_parts_are_the_objects_of_the_ir(rel: str) -> None:
    root, text, smap, _ = _decoded(rel)
    for part in smap.parts():
        if part.kind == PART_FALLBACK_PROPERTIES:
            assert part.op is not None and part.op.properties is part.obj
            assert text[part.start:part.end].startswith("mlirbc.properties = \"0x")
        elif part.kind == PART_FALLBACK_ATTRIBUTE:
            assert isinstance(part.obj, FallbackAttr)
            assert text.startswith("#mlirbc.fallback<", part.start)
        elif part.kind == PART_FALLBACK_TYPE:
            assert isinstance(part.obj, FallbackType)
            assert text.startswith("!mlirbc.fallback<", part.start)
    fallback_ops = [op for op in root.walk() if op.is_fallback]
    assert len(fallback_ops) == len(list(smap.parts(PART_FALLBACK_PROPERTIES)))


@pytest.mark.parametrize("rel", SAMPLE)
def test_attribute_at_gives_the_very_object_of_the_ir(rel: str) -> None:
    root, text, smap, _ = _decoded(rel)
    checked = 0
    for op in root.walk():
        p = op.properties
        piece = smap.piece_span(op, PIECE_PROPERTIES)
        if p is None or p.kind != PROPS_DECODED or piece is None:
            continue
        for key, value in p.values.items():
            at = text.find(f"{key} = ", piece.start, piece.end)
            if at < 0:
                continue
            hit = smap.attribute_at(at + len(key) + 3)
            assert hit is not None and hit.op is op
            # the innermost attribute at the value's first character: the value or one it contains
            assert hit.start == at + len(key) + 3
            assert hit.value is value or text[hit.start:hit.end] in text[hit.start:piece.end]
            checked += 1
    assert checked or not any(op.properties is not None and op.properties.kind == PROPS_DECODED
                              and op.properties.values for op in root.walk())


def test_symbols_resolve_through_nested_tables() -> None:
    root, text, smap, _ = _decoded("upstream/Rewrite__pdl-bytecode.p01.mlirbc")
    names = [name for _, name in smap.symbol_ops()]
    assert {"patterns", "ir", "matcher", "rewriters", "success"} <= set(names)
    at = text.index("@rewriters::@success")
    ref = smap.symbol_at(at + len("@rewriters::@s"))
    assert ref is not None and ref.names == ("rewriters", "success")
    target = smap.resolve_symbol(ref)
    assert target is not None and smap.symbol_name(target) == "success"
    span = smap.symbol_name_span(target)
    assert span is not None and text[span.start:span.end] == '"success"'
    outer = smap.resolve_symbol(ref, 1)
    assert outer is not None and smap.symbol_name(outer) == "rewriters"
    assert any(text[s.start:s.end] == "@success" for s in smap.symbol_references(target))


def test_broken_text_keeps_a_map_of_what_parsed(tmp_path: Path) -> None:
    _, text, _, _ = _decoded("upstream/Bytecode__uselist_orders.p01.mlirbc")
    at = text.index('"test.addi"')
    close = text.index(")", at)
    broken = text[:at] + '"test.addi"(%0 %0' + text[close:]  # a missing comma
    r = parse_module(broken)
    assert r.module is None and r.errors and r.map is not None
    spans = r.map.broken_spans()
    assert any(s.start <= at <= s.end for s in spans)
    # ops after the broken one are still mapped
    later = broken.index('"func.return"', at)
    op = r.map.op_name_at(later + 1)
    assert op is not None and op.name == "func.return"


def test_an_affine_operand_named_twice_points_at_its_value_both_times() -> None:
    """`max(%arg0, %arg1), ..., max(%arg0, %arg2)`: one operand of the op, two places in the text; the
    parser's map resolves both to it, as the printer's does."""
    text = "\n".join([
        "func.func @f(%arg0: index, %arg1: index, %arg2: index) {",
        "  affine.parallel (%arg3, %arg4) = (max(%arg0, %arg1), max(%arg0, %arg2)) to (%arg2, %arg1) {",
        "  }",
        "  return",
        "}"])
    parsed = parse_module(text, registry=REGISTRY)
    assert parsed.module is not None and parsed.map is not None and not parsed.errors
    func = next(op for op in parsed.module.root.walk() if op.name == "func.func")  # type: ignore[union-attr]
    arg0 = func.regions[0].blocks[0].arguments[0]
    line = text.split("\n")[1]
    at = text.index(line)
    starts = [at + i for i in range(len(line)) if line.startswith("%arg0", i)]
    assert len(starts) == 2
    for s in starts:
        occ = parsed.map.occurrence_at(s)
        assert occ is not None and occ.target is arg0 and not occ.is_def
