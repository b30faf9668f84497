"""Document symbols: the module, and every op that defines a symbol (`sym_name`), nested by region."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..analysis import indexed
from ..server import MlirbcServer
from ..textindex import OpEntry, TextIndex


def _kind(name: str) -> lsp.SymbolKind:
    short = name.rsplit(".", 1)[-1]
    if name == "builtin.module" or short in ("module", "executable", "variant"):
        return lsp.SymbolKind.Module
    if "func" in short or short in ("kernel",):
        return lsp.SymbolKind.Function
    if "global" in short:
        return lsp.SymbolKind.Variable
    return lsp.SymbolKind.Object


def document_symbols(index: TextIndex, names: dict[int, str] | None = None) -> list[lsp.DocumentSymbol]:
    """`names`: symbol names a model's note hook gives for ops whose text has no `sym_name = "..."`
    (by op index), e.g. a vhlo function's name."""
    names = names or {}
    lines = index.lines
    roots: list[lsp.DocumentSymbol] = []
    made: dict[int, lsp.DocumentSymbol] = {}
    children: dict[int, list[lsp.DocumentSymbol]] = {}

    def parent_symbol(op: OpEntry) -> int | None:
        owner = index.regions[op.region].owner
        while owner >= 0:
            if owner in made:
                return owner
            owner = index.regions[index.ops[owner].region].owner
        return None

    for op in index.ops:
        is_top = op.region == 0
        sym_name = op.sym_name if op.sym_name is not None else names.get(op.index)
        if sym_name is None and not (is_top and op.regions):
            continue
        end = max(op.end, op.name_end)
        sym = lsp.DocumentSymbol(
            name="@" + sym_name if sym_name is not None else op.name,
            detail=op.name, kind=_kind(op.name),
            range=lines.range(op.start, end),
            selection_range=lines.range(*(op.sym_span or (op.name_start, op.name_end))),
            children=children.setdefault(op.index, []))
        made[op.index] = sym
        parent = parent_symbol(op)
        if parent is not None:
            children[parent].append(sym)
        else:
            roots.append(sym)
    return roots


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        index = await indexed(server, params.text_document.uri)
        return document_symbols(index, noted_names(server, params.text_document.uri)) \
            if index is not None else []


def noted_names(server: MlirbcServer, uri: str) -> dict[int, str]:
    """Symbol names from note hooks, for the ops with regions whose text names no symbol."""
    snap = server.snapshot(uri)
    if snap is None:
        return {}
    registry = server.registry()
    out: dict[int, str] = {}
    for entry in snap.index.ops:
        if entry.sym_name is not None or not entry.regions:
            continue
        op = snap.op(entry)
        if op is None:
            continue
        for note in registry.op_notes(op, entry.name):
            if note.symbol:
                out[entry.index] = note.symbol
                break
    return out
