"""IREE's alias names (its dialects' `OpAsmDialectInterface::getAlias`): `#executable_target_<format>`,
`#device_target_<id>`, `#pipeline_layout`, `#composite_of_<N>b`, `#translation`, `#config`, ...

Read from each value's plain text (`models.asm.aliases.mnemonic`), which is the same whether a model
structured the value or the file's text form is kept.
"""

from __future__ import annotations

import re

from ...ir.attributes import Attribute
from ...ir.types import Type
from ..asm.aliases import mnemonic, mnemonic_rule, plain_text
from ..registry import Registry

_STRINGS = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ORDINAL = re.compile(r"\bordinal = (-?\d+) : index\b")
_COMPOSITE = re.compile(r"#util\.composite<(\d+)x")


def _symbol_fragment(name: str) -> str:
    """IREE's sanitizeSymbolName: anything but letters, digits and `_` becomes `_`."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def hal_alias(value: Attribute | Type) -> str | None:
    m = mnemonic(value)
    if m == "pipeline.layout":
        return "pipeline_layout"
    if m not in ("device.target", "executable.target"):
        return None
    text = plain_text(value)
    strings = _STRINGS.findall(text)
    if m == "executable.target":
        # `#hal.executable.target<"backend", "format", ...>`: named by its format.
        return "executable_target_" + _symbol_fragment(strings[1].lower()) if len(strings) > 1 else None
    if not strings:
        return None
    name = strings[0].lower()
    ordinal = _ORDINAL.search(text)
    if ordinal is not None:
        name += f"_{ordinal.group(1)}_"  # a trailing `_`: the alias may not end in digits
    return "device_target_" + _symbol_fragment(name)


def util_alias(value: Attribute | Type) -> str | None:
    if mnemonic(value) != "composite":
        return None
    m = _COMPOSITE.match(plain_text(value))
    return f"composite_of_{m.group(1)}b" if m else None


def register_alias_rules(registry: Registry, origin: str) -> None:
    registry.register_alias_rule("hal", hal_alias, origin)
    registry.register_alias_rule("util", util_alias, origin)
    registry.register_alias_rule("iree_codegen", mnemonic_rule(frozenset(), {
        "translation_info": "translation", "compilation_info": "compilation", "lowering_config": "config"}),
        origin)
    registry.register_alias_rule("iree_cpu", mnemonic_rule(frozenset(), {"lowering_config": "config"}),
                                 origin)
    registry.register_alias_rule("iree_encoding", mnemonic_rule(frozenset(), {
        "encoding": "encoding", "layout": "encoding", "testing": "encoding", "unknown": "encoding"}), origin)
    registry.register_alias_rule("iree_map", mnemonic_rule(frozenset({"pack_map", "pack_layout"})), origin)
    registry.register_alias_rule("iree_vector_ext", mnemonic_rule(frozenset(), {"nested_layout": "nested"}),
                                 origin)
