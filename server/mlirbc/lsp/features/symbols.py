"""Document symbols: the module, and every op that defines a symbol (`sym_name`), nested as the ops nest;
from the view's source map."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ir.operation import Operation
from ...view.edits import ViewState
from ..analysis import state_of
from ..positions import PositionCodec
from ..server import MlirbcServer


def _kind(name: str) -> lsp.SymbolKind:
    short = name.rsplit(".", 1)[-1]
    if name == "builtin.module" or short in ("module", "executable", "variant"):
        return lsp.SymbolKind.Module
    if "func" in short or short in ("kernel",):
        return lsp.SymbolKind.Function
    if "global" in short:
        return lsp.SymbolKind.Variable
    return lsp.SymbolKind.Object


def document_symbols(state: ViewState, codec: PositionCodec,
                     names: dict[int, str] | None = None) -> list[lsp.DocumentSymbol]:
    """`names`: symbol names a model's note hook gives for ops whose text has no `sym_name = "..."`
    (by id of the op), e.g. a vhlo function's name."""
    names = names or {}
    smap = state.map
    roots: list[lsp.DocumentSymbol] = []
    made: dict[int, lsp.DocumentSymbol] = {}
    kids: dict[int, list[lsp.DocumentSymbol]] = {}

    def add(op: Operation, name: str) -> None:
        span = smap.op_span(op)
        if span is None:
            return
        sel = smap.symbol_name_span(op) or smap.op_name_span(op) or span
        sym = lsp.DocumentSymbol(name=name, detail=op.name, kind=_kind(op.name),
                                 range=codec.range(span.start, span.end),
                                 selection_range=codec.range(sel.start, sel.end), children=[])
        made[id(op)] = sym
        kids[id(op)] = []
        sym.children = kids[id(op)]
        parent = smap.parent_op(op)
        while parent is not None and id(parent) not in made:
            parent = smap.parent_op(parent)
        if parent is not None:
            kids[id(parent)].append(sym)
        else:
            roots.append(sym)

    root = smap.root
    symbols = dict((id(op), name) for op, name in smap.symbol_ops())
    if root is not None:
        name = symbols.pop(id(root), None) or names.get(id(root))
        add(root, "@" + name if name is not None else root.name)
    noted = {k: v for k, v in names.items() if root is None or k != id(root)}
    if noted:
        for op, _ in smap.ops():
            if op is not root:
                name = symbols.get(id(op)) or noted.get(id(op))
                if name is not None:
                    add(op, "@" + name)
    else:
        for op, name in smap.symbol_ops():
            if op is not root:
                add(op, "@" + name)
    return roots


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        view = server.view(params.text_document.uri)
        if view is None:
            return []
        state = await state_of(server, view)
        if state is None:
            return []
        return document_symbols(state, view.codec, noted_names(server, state))


def noted_names(server: MlirbcServer, state: ViewState) -> dict[int, str]:
    """Symbol names from note hooks, for the ops with regions whose text names no symbol."""
    registry = server.registry()
    if not registry.has_note_hooks():
        return {}
    smap = state.map
    out: dict[int, str] = {}
    for op, _ in smap.ops():
        if not op.regions or smap.symbol_name(op) is not None:
            continue
        for note in registry.op_notes(op, op.name):
            if note.symbol:
                out[id(op)] = note.symbol
                break
    return out
