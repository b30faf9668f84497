"""Completion: op names known to the models (and used in the file), SSA values in scope, block labels,
symbols and types."""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from .. import backend
from ..analysis import ensure_index
from ..documents import Snapshot
from ..server import MlirbcServer

_OP_CTX = re.compile(r'^\s*(?:%[^="]*=\s*)?"([\w.$-]*)$')
_VALUE_CTX = re.compile(r"%[\w$.\-#]*$")
_BLOCK_CTX = re.compile(r"\^[\w$.\-]*$")
_SYMBOL_CTX = re.compile(r"@[\w$.\-]*$")
_TYPE_CTX = re.compile(r"(?::|->|\(|,|<|!)\s*[\w.!]*$")

BUILTIN_TYPES = ["i1", "i8", "i16", "i32", "i64", "i128", "si32", "ui32", "index", "f16", "bf16",
                 "f32", "f64", "f80", "f128", "tf32", "none", "tensor<", "memref<", "vector<",
                 "complex<", "tuple<"]
MAX_ITEMS = 2000


def known_op_names(server: MlirbcServer) -> set[str]:
    return server.registry().op_names()


def _types_in(snap: Snapshot | None) -> set[str]:
    out: set[str] = set()
    if snap is None or snap.ops is None:
        return out
    seen: set[int] = set()
    for op in snap.ops:
        for v in op.results:
            if id(v.type) not in seen:
                seen.add(id(v.type))
                out.add(backend.safe_type(v.type))
                if len(out) >= 300:
                    return out
    return out


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.COMPLETION_ITEM_RESOLVE)
    def resolve(item: lsp.CompletionItem) -> lsp.CompletionItem:
        name = item.data.get("op") if isinstance(item.data, dict) else None
        if isinstance(name, str):
            lookup = server.registry().op(name)
            if lookup.model is not None:
                try:
                    info = lookup.model.info()
                except Exception:
                    return item
                item.detail = info.summary or None
                if info.description:
                    item.documentation = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown,
                                                           value=info.description)
        return item

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=['"', "%", "^", "@", ":", "!"],
                                          resolve_provider=True))
    async def complete(params: lsp.CompletionParams) -> lsp.CompletionList:
        view = server.view(params.text_document.uri)
        empty = lsp.CompletionList(is_incomplete=False, items=[])
        if view is None:
            return empty
        await ensure_index(server, view)
        index = view.index
        line = view.lines.line_text(params.position.line)
        before = line[:view.lines.offset(params.position) - view.lines.starts[params.position.line]]
        items: list[lsp.CompletionItem] = []
        if _OP_CTX.search(before):
            names = known_op_names(server)
            if index is not None:
                names.update(op.name for op in index.ops)
            # docs come through completionItem/resolve: looking every model up here would load
            # every dialect
            for n in sorted(names)[:MAX_ITEMS]:
                items.append(lsp.CompletionItem(label=n, kind=lsp.CompletionItemKind.Function,
                                                data={"op": n}))
            return lsp.CompletionList(is_incomplete=len(names) > MAX_ITEMS, items=items)
        if index is None:
            return empty
        offset = index.lines.offset(params.position)
        snap = server.snapshot(view.uri)
        if _VALUE_CTX.search(before):
            for d in index.visible_values(offset)[:MAX_ITEMS]:
                v = snap.value(d) if snap is not None else None
                items.append(lsp.CompletionItem(
                    label=d.name, kind=lsp.CompletionItemKind.Variable,
                    detail=backend.safe_type(v.type) if v is not None else None))
        elif _BLOCK_CTX.search(before):
            rid = index.region_at(offset)
            for i in index.regions[rid].labels:
                items.append(lsp.CompletionItem(label=index.occurrences[i].name,
                                                kind=lsp.CompletionItemKind.Reference))
        elif _SYMBOL_CTX.search(before):
            for op in index.ops:
                if op.sym_name is not None:
                    items.append(lsp.CompletionItem(label="@" + op.sym_name, detail=op.name,
                                                    kind=lsp.CompletionItemKind.Reference))
                    if len(items) >= MAX_ITEMS:
                        break
        elif _TYPE_CTX.search(before):
            for t in BUILTIN_TYPES:
                items.append(lsp.CompletionItem(label=t, kind=lsp.CompletionItemKind.TypeParameter))
            for t in sorted(_types_in(snap)):
                if t not in BUILTIN_TYPES:
                    items.append(lsp.CompletionItem(label=t,
                                                    kind=lsp.CompletionItemKind.TypeParameter))
        return lsp.CompletionList(is_incomplete=False, items=items)
