"""Completion: op names known to the models (and used in the file), SSA values in scope, block labels,
symbols and types."""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from ...ir.operation import Value
from ...models.asm.api import expected_keywords
from ...view.edits import ViewState
from ...view.lexindex import LexIndex
from ..analysis import state_of
from ..server import MlirbcServer
from .hover import safe_type

_OP_CTX = re.compile(r'^\s*(?:%[^="]*=\s*)?"([\w.$-]*)$')
_CUSTOM_OP_CTX = re.compile(r'^\s*(?:%[^="]*=\s*)?([A-Za-z_][\w.$]*)$')
"""An op name in a custom form being typed (`scf.fo`, `%0 = arith.ad`)."""
_AFTER_OP_CTX = re.compile(r'^\s*(?:%[^="]*=\s*)?([A-Za-z_][\w.$]*)\s(?:.*\s)?([A-Za-z_]\w*)?$')
"""A custom op's text after its name: its format's keywords are offered."""
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


MAX_SCOPE = 4_000_000
"""Completion reads names from the text of the top-level op around the cursor, up to this size."""


def _types_in(state: ViewState | None) -> set[str]:
    out: set[str] = set()
    if state is None:
        return out
    seen: set[int] = set()
    for op, _ in state.map.ops():
        for v in op.results:
            if id(v.type) not in seen:
                seen.add(id(v.type))
                out.add(safe_type(v.type))
                if len(out) >= 300:
                    return out
    return out


def _scope_index(state: ViewState, offset: int) -> LexIndex | None:
    """A lexer index of the top-level op around `offset` (the text there may not parse: the cursor
    is usually in an unfinished op)."""
    chain = state.map.enclosing(offset)
    spans = [span for _, span in chain]
    if len(spans) >= 2:
        span = spans[-2]  # the op directly inside the root
    elif spans:
        span = spans[-1]
    else:
        return None
    if span.end - span.start > MAX_SCOPE:
        return None
    return LexIndex(state.text, span.start, span.end)


def _value_type(state: ViewState, offset: int) -> str | None:
    occ = state.map.occurrence_at(offset)
    if occ is not None and isinstance(occ.target, Value):
        return safe_type(occ.target.type)
    return None


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
        codec = view.codec
        offset = codec.offset(params.position)
        before = view.text[codec.lines.line_start(codec.lines.line_of(offset)):offset]
        state = await state_of(server, view)
        items: list[lsp.CompletionItem] = []
        custom = _CUSTOM_OP_CTX.search(before)
        if custom is not None and not before.lstrip().startswith(("loc", "//")):
            names = known_op_names(server)
            if state is not None:
                names.update(op.name for op, _ in state.map.ops())
            prefix = custom.group(1)
            chosen = sorted(n for n in names if n.startswith(prefix))
            for n in chosen[:MAX_ITEMS]:
                items.append(lsp.CompletionItem(label=n, kind=lsp.CompletionItemKind.Function,
                                                data={"op": n}))
            return lsp.CompletionList(is_incomplete=len(chosen) > MAX_ITEMS, items=items)
        after = _AFTER_OP_CTX.search(before)
        if after is not None and "." in after.group(1) and not _VALUE_CTX.search(before):
            model = server.registry().op_syntax(after.group(1)).model
            words = expected_keywords(model)
            if words:
                for w in words:
                    items.append(lsp.CompletionItem(label=w, kind=lsp.CompletionItemKind.Keyword,
                                                    detail=f"{after.group(1)} syntax"))
                return lsp.CompletionList(is_incomplete=False, items=items)
        if _OP_CTX.search(before):
            names = known_op_names(server)
            if state is not None:
                names.update(op.name for op, _ in state.map.ops())
            # docs come through completionItem/resolve: looking every model up here would load
            # every dialect
            for n in sorted(names)[:MAX_ITEMS]:
                items.append(lsp.CompletionItem(label=n, kind=lsp.CompletionItemKind.Function,
                                                data={"op": n}))
            return lsp.CompletionList(is_incomplete=len(names) > MAX_ITEMS, items=items)
        if state is None:
            return empty
        if _VALUE_CTX.search(before) or _BLOCK_CTX.search(before):
            index = _scope_index(state, offset)
            if index is None:
                return empty
            if _VALUE_CTX.search(before):
                for d in index.visible(offset)[:MAX_ITEMS]:
                    items.append(lsp.CompletionItem(label=d.name,
                                                    kind=lsp.CompletionItemKind.Variable,
                                                    detail=_value_type(state, d.start)))
            else:
                seen: set[str] = set()
                for label in index.names:
                    if label.is_block and label.is_def and label.name not in seen:
                        seen.add(label.name)
                        items.append(lsp.CompletionItem(label=label.name,
                                                        kind=lsp.CompletionItemKind.Reference))
        elif _SYMBOL_CTX.search(before):
            for op, name in state.map.symbol_ops():
                items.append(lsp.CompletionItem(label="@" + name, detail=op.name,
                                                kind=lsp.CompletionItemKind.Reference))
                if len(items) >= MAX_ITEMS:
                    break
        elif _TYPE_CTX.search(before):
            for t in BUILTIN_TYPES:
                items.append(lsp.CompletionItem(label=t, kind=lsp.CompletionItemKind.TypeParameter))
            for t in sorted(_types_in(state)):
                if t not in BUILTIN_TYPES:
                    items.append(lsp.CompletionItem(label=t,
                                                    kind=lsp.CompletionItemKind.TypeParameter))
        return lsp.CompletionList(is_incomplete=False, items=items)
