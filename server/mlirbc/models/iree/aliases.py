"""The aliases IREE's dialects give their attributes (each dialect's `OpAsmDialectInterface::getAlias`
in IREE 3.13), as rules for `Registry.register_alias`.

Two names come from the value: a HAL executable target is `executable_target_` and its format, a device
target `device_target_` and its device id (and `_N_` for a configured ordinal N), both lower-cased with
every character but a letter, digit or `_` made `_` (IREE's `sanitizeSymbolName`); a composite is
`composite_of_` and its total length in bytes, then `b`.
"""

from __future__ import annotations

import re

from ...syntax.aliases import AliasRule
from ..registry import Registry

_STRING_RE = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"')
_ORDINAL_RE = re.compile(r"[{ ,]ordinal = (-?[0-9]+) : ")
_COMPOSITE_RE = re.compile(r"#util\.composite<([0-9]+)xi8,")
_SYMBOL_CHARS_RE = re.compile(r"[^A-Za-z0-9_]")


def _symbol_fragment(name: str) -> str:
    return _SYMBOL_CHARS_RE.sub("_", name.lower())


def _strings(text: str) -> list[str]:
    return [m.group(1) for m in _STRING_RE.finditer(text)]


def executable_target_alias(text: str) -> str | None:
    """`#hal.executable.target<"backend", "format", ...>`: `executable_target_<format>`."""
    strings = _strings(text)
    return None if len(strings) < 2 else "executable_target_" + _symbol_fragment(strings[1])


def device_target_alias(text: str) -> str | None:
    """`#hal.device.target<"id", {ordinal = N : i64, ...}, [...]>`: `device_target_<id>[_N_]`."""
    strings = _strings(text)
    if not strings:
        return None
    name = strings[0].lower()
    body_end = text.find("[")
    m = _ORDINAL_RE.search(text, 0, body_end if body_end >= 0 else len(text))
    if m is not None:
        name += f"_{m.group(1)}_"
    return "device_target_" + _symbol_fragment(name)


def composite_alias(text: str) -> str | None:
    """`#util.composite<Nxi8, [...]>`: `composite_of_<N>b`."""
    m = _COMPOSITE_RE.match(text)
    return None if m is None else f"composite_of_{m.group(1)}b"


IREE_ALIASES: dict[str, AliasRule] = {
    "#hal.device.target": device_target_alias,
    "#hal.executable.target": executable_target_alias,
    "#hal.pipeline.layout": "pipeline_layout",
    "#iree_codegen.translation_info": "translation",
    "#iree_codegen.compilation_info": "compilation",
    "#iree_codegen.lowering_config": "config",
    "#iree_cpu.lowering_config": "config",
    "#iree_encoding.encoding": "encoding",
    "#iree_encoding.layout": "encoding",
    "#iree_encoding.testing": "encoding",
    "#iree_encoding.unknown": "encoding",
    "#iree_map.pack_layout": "pack_layout",
    "#iree_map.pack_map": "pack_map",
    "#iree_vector_ext.nested_layout": "nested",
    "#util.composite": composite_alias,
}


IREE_STRIPPED: list[tuple[str, str, str]] = [
    # CompilationInfoAttr's `AttrParameter<"TranslationInfoAttr">` (IREECodegenAttrs.td): iree-opt prints
    # `translation_info = #translation` with aliases, `translation_info = <...>` in local scope
    ("#iree_codegen.compilation_info", "translation_info", "#iree_codegen.translation_info"),
]
"""(outer head, parameter, inner head) of the parameters IREE's attributes print stripped."""


def register_iree_aliases(reg: Registry, origin: str) -> None:
    for head, rule in IREE_ALIASES.items():
        reg.register_alias(head, rule, origin)
    for outer, parameter, inner in IREE_STRIPPED:
        reg.register_stripped_parameter(outer, parameter, inner, origin)
