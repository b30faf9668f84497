"""StableHLO versions: the producer string is the serialization target (`StableHLO_v1.15.0`).

Facts: `shared/docs/vhlo-format.md` sections 1 and 5.  Versions run from 0.9.0 (the oldest any reader
accepts) to `KNOWN_VERSION` (the newest this model's tables describe); a file whose target is newer is read
as far as the tables go, and what they do not know stays a fallback saying so.
"""

from __future__ import annotations

import re

Version = tuple[int, int, int]

MINIMUM_VERSION: Version = (0, 9, 0)
KNOWN_VERSION: Version = (1, 20, 0)
"""The newest StableHLO release whose VHLO op set, attribute and type codes this model knows."""

SERIALIZER_VERSION: Version = (1, 17, 0)
"""The oldest StableHLO whose serializer fresh output imitates (jaxlib 0.10.2's; a newer target needs a newer
serializer).  It matters for use-list orders only: a serializer downgrades the ops newer than the target,
and its own current op versions are the starting point (custom_call_v2 is current only from 1.18.0)."""

_PRODUCER = re.compile(r"StableHLO_v(\d+)\.(\d+)\.(\d+)\Z")


def parse_version(text: str) -> Version:
    parts = text.strip().split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ValueError(f"not a version: {text!r}")
    return int(parts[0]), int(parts[1]), int(parts[2])


def version_text(v: Version) -> str:
    return f"{v[0]}.{v[1]}.{v[2]}"


def target_of(producer: str) -> Version | None:
    """The target version a producer string names (`StableHLO_v1.15.0` -> (1, 15, 0)), else None."""
    m = _PRODUCER.match(producer.strip())
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def bytecode_version_for(target: Version) -> int:
    """The bytecode version StableHLO writes for a target (facts section 1)."""
    if target < (0, 10, 0):
        return 0
    if target < (0, 12, 0):
        return 1
    if target < (0, 14, 0):
        return 3
    if target < (0, 15, 0):
        return 4
    return 6
