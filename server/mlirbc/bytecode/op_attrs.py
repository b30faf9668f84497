"""How an op's inherent attributes move between its properties and its attribute dictionary.

Below version 5 there are no properties: inherent attributes join the dictionary, sorted by name, and native
properties (not attributes) are lost, as upstream loses them.  IR read from such a file and written at v5+
needs the opposite: the model's fields are taken out of the dictionary, and native properties get the value
upstream's default-initialized storage has.
"""

from __future__ import annotations

from ..ir.attributes import Attribute, DictionaryAttr, StringAttr
from ..models.api import OpModel


def merge_properties(values: dict[str, Attribute], attrs: DictionaryAttr | None) -> DictionaryAttr:
    """Inherent and discardable attributes in one dictionary sorted by name (what versions < 5 store)."""
    merged: dict[bytes, tuple[StringAttr, Attribute]] = {}
    for name, v in values.items():
        key = StringAttr.get(name)
        merged[key.value] = (key, v)
    if attrs is not None:
        for k, v in attrs.entries:
            merged.setdefault(k.value, (k, v))
    return DictionaryAttr.get(tuple(merged[k] for k in sorted(merged)))


def split_properties(model: OpModel, attrs: DictionaryAttr | None
                     ) -> tuple[dict[str, Attribute], DictionaryAttr | None]:
    """Inherent attributes (the model's fields) out of a merged dictionary; the rest stays discardable."""
    names = {f.name for f in getattr(model, "attributes", ())}
    names |= {f.name for f in getattr(model, "natives", ())}
    values: dict[str, Attribute] = {}
    rest: list[tuple[StringAttr, Attribute]] = []
    if attrs is not None:
        for k, v in attrs.entries:
            name = k.text
            if name in names:
                values[name] = v
            else:
                rest.append((k, v))
    for f in getattr(model, "natives", ()):
        if f.name not in values:
            default = _zero_native(f.kind)
            if default is not None:
                values[f.name] = default
    if attrs is None or len(rest) == len(attrs.entries):
        return values, attrs
    return values, DictionaryAttr.get(tuple(rest))


class _ZeroReader:
    """An entry reader over an endless run of zero values: decodes a native property's zero state."""

    version = 6

    def varint(self) -> int:
        return 0

    def signed_varint(self) -> int:
        return 0

    def byte(self) -> int:
        return 0

    def at_end(self) -> bool:
        return True


def _zero_native(kind: str) -> Attribute | None:
    """The value of a native property whose storage was default-initialized (all zero): what upstream
    holds for an op read from a file older than v5, where native properties are not stored."""
    from ..models.layout import native_codec

    codec = native_codec(kind.removeprefix("native:"))
    if codec is None:
        return None
    try:
        return codec[0](_ZeroReader())  # type: ignore[arg-type]
    except Exception:  # a codec that needs more than numbers (strings, attributes) has no zero state
        return None
