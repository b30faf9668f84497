"""Settings: `initializationOptions` at start, then `workspace/configuration` (section `mlirbc`)."""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types as lsp

from ..server import MlirbcServer
from ..settings import parse_settings

SECTION = "mlirbc"


MAX_DEPTH = 32
"""Settings nest two levels; anything deeper in the options a client sends is no setting (and, nested
thousands deep, would exhaust Python's stack: the long server fuzzing run's `initialize`)."""


def plain(x: Any, depth: int = 0) -> Any:
    """JSON objects arrive as namedtuples from pygls' decoder: turn them back into dicts.  What nests
    deeper than MAX_DEPTH is left out (None), as no setting is there."""
    if depth >= MAX_DEPTH:
        return None
    if hasattr(x, "_asdict"):
        return {k: plain(v, depth + 1) for k, v in x._asdict().items()}
    if isinstance(x, dict):
        return {k: plain(v, depth + 1) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v, depth + 1) for v in x]
    return x


async def _pull(server: MlirbcServer) -> None:
    ws = server.client_capabilities.workspace
    if ws is None or not ws.configuration:
        return
    try:
        result = await asyncio.wait_for(server.workspace_configuration_async(
            lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section=SECTION)])), 10)
    except Exception as exc:
        server.log(f"workspace/configuration failed: {exc!r}")
        return
    item = plain(result[0]) if result else None
    if isinstance(item, dict):
        server.apply_settings(parse_settings(item))


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams) -> None:
        server.apply_settings(parse_settings(plain(params.initialization_options)))

    @server.feature(lsp.INITIALIZED)
    async def initialized(params: lsp.InitializedParams) -> None:
        await _pull(server)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def changed(params: lsp.DidChangeConfigurationParams) -> None:
        ws = server.client_capabilities.workspace
        if ws is not None and ws.configuration:
            await _pull(server)  # the push payload may be partial or null: pull the section
        elif params.settings is not None:
            server.apply_settings(parse_settings(plain(params.settings)))
