"""The checks every IREE file passes, corpus files and files compiled in the tests alike (see
`test_iree_corpus.py` for what they assert and why)."""

from __future__ import annotations

from iree_support import bytecode_version, differing_lines, generic_print, iree_opt
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.module import Module
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module

IR_SECTION = 4


def decode(data: bytes) -> Module:
    m = read_bytecode(data)
    assert m.error is None and m.root is not None, m.error
    return m


def view_of(m: Module) -> str:
    return print_module(m).text


def without_use_lists(text: str) -> str:
    """A view without its `// mlirbc: uselist` / `block-uselist` lines (what text can carry of a file)."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.lstrip().startswith(("// mlirbc: uselist", "// mlirbc: block-uselist")))


def stores_use_lists(m: Module) -> bool:
    assert m.root is not None
    for op in m.root.walk():
        if any(r.use_order is not None for r in op.results):
            return True
        for region in op.regions:
            for block in region.blocks:
                if any(a.use_order is not None for a in block.arguments):
                    return True
    return False


def sections(data: bytes) -> dict[int, bytes]:
    m = read_bytecode(data)
    assert m.source is not None
    return {sid: bytes(data[a:b]) for sid, (a, b) in m.source.sections.items()}


def emit(text: str | bytes, version: int) -> bytes:
    src = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    return iree_opt(["--emit-bytecode", f"--emit-bytecode-version={version}"], src)


def check_no_fallbacks_and_round_trip(data: bytes) -> Module:
    m = decode(data)
    assert m.model_set == "mlir24", m.model_set_note
    assert not m.fallbacks, "\n".join(f"{f.kind} {f.name}: {f.reason}" for f in m.fallbacks[:10])
    parsed = parse_module(view_of(m), template=m)
    assert parsed.module is not None, parsed.errors[:3]
    assert encode_bytecode(parsed.module, template=m) == data
    return m


def check_view_against_print(data: bytes, reference: str | None = None) -> None:
    """The view equals iree-opt's generic print (`reference`, else printed now).

    Below version 5 a file has no properties: inherent attributes are stored in the op's attribute
    dictionary and the view shows them there, while iree-opt moves them into `<{...}>` when it prints.
    Those lines are the listed exception; iree-opt must read the view into the same IR as the file
    (its print of the view equals its print of the file)."""
    m = decode(data)
    view = view_of(m)
    if m.version < 5:
        assert generic_print(view.encode("utf-8", "surrogateescape")) == generic_print(data)
        theirs = generic_print(data)
        for _, ours, printed in differing_lines(view, theirs):
            head = "<{" in printed and "<{" not in ours  # an op's first line: `<{...}>` vs nothing
            tail = ours.lstrip().startswith("}) {") and printed.lstrip().startswith("})")  # after regions
            assert head or tail, f"not a properties placement:\n{ours}\n{printed}"
        return
    theirs = reference if reference is not None else generic_print(data)
    diff = differing_lines(view, theirs)
    assert not diff, "\n".join(f"line {n}:\n  ours:     {a[:300]}\n  iree-opt: {b[:300]}"
                               for n, a, b in diff[:5])


def check_iree_opt_reencodes(data: bytes) -> None:
    m = decode(data)
    view = view_of(m)
    version = bytecode_version(data)
    out = emit(view, version)
    if out == data:
        return
    # Text has no syntax for use-list orders: a file that stores them cannot come back from any text,
    # iree-opt's own print included, which gives exactly the bytes our view gives.
    assert stores_use_lists(m), "iree-opt's encoding of the view differs, and not by use-list orders"
    assert out == emit(generic_print(data), version), "iree-opt encodes our view and its print differently"
    assert without_use_lists(view_of(decode(out))) == without_use_lists(view)


def check_fresh_encoding(data: bytes) -> None:
    """Our encoding of the view with no original file equals iree-opt's encoding of the same text.

    Where they differ, only the IR section may differ, and only by use-list orders: MLIR's text parser
    creates the uses inside an op's regions before the op's own operands (the op is built after its
    regions are parsed), so iree-opt finds orders that differ from what its reader would make and stores
    them; mlirbc's fresh writer stores the orders the view carries (none here).  This is the same in
    MLIR 22 (not a difference of MLIR 24's writer)."""
    m = decode(data)
    text = without_use_lists(view_of(m))
    version = bytecode_version(data)
    parsed = parse_module(text)
    assert parsed.module is not None, parsed.errors[:3]
    assert parsed.module.model_set == "mlir24"
    ours = encode_bytecode(parsed.module, template=None)
    theirs = emit(text, version)
    if ours == theirs:
        return
    theirs_module = decode(theirs)
    assert stores_use_lists(theirs_module), "fresh encoding differs from iree-opt, and not by use-list orders"
    assert without_use_lists(view_of(decode(ours))) == without_use_lists(view_of(theirs_module))
    a, b = sections(ours), sections(theirs)
    assert a.keys() == b.keys()
    assert [sid for sid in a if a[sid] != b[sid]] == [IR_SECTION]
