"""Settings: `initializationOptions` at start, then `workspace/configuration` (section `mlirbc`)."""

from __future__ import annotations

import asyncio

from lsprotocol import types as lsp

from ..server import MlirbcServer
from ..settings import parse_settings

SECTION = "mlirbc"


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
    if result and isinstance(result[0], dict):
        server.apply_settings(parse_settings(result[0]))


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams) -> None:
        server.apply_settings(parse_settings(params.initialization_options))

    @server.feature(lsp.INITIALIZED)
    async def initialized(params: lsp.InitializedParams) -> None:
        await _pull(server)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def changed(params: lsp.DidChangeConfigurationParams) -> None:
        ws = server.client_capabilities.workspace
        if ws is not None and ws.configuration:
            await _pull(server)  # the push payload may be partial or null: pull the section
        elif isinstance(params.settings, dict):
            server.apply_settings(parse_settings(params.settings))
