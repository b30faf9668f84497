"""The hand-written verifiers of the ops real files use most, one module per dialect group, and the
verifiers of the interfaces those ops share.

Each module's `VERIFIERS` maps an op name to its `OpVerifier`; `INTERFACES` an interface name (as the op's
constraint data lists it) to one.  A plugin replaces one op's verifier with `Registry.register_verifier`.
"""

from __future__ import annotations

from ..core import OpVerifier


def builtin_verifiers() -> dict[str, OpVerifier]:
    """Op name -> its hand-written verifier, for every op one module here knows."""
    from . import func

    out: dict[str, OpVerifier] = {}
    for module in (func,):
        out.update(module.VERIFIERS)
    return out


def interface_verifiers() -> dict[str, OpVerifier]:
    """Interface name -> the verifier every op declaring it gets."""
    from . import func

    out: dict[str, OpVerifier] = {}
    for module in (func,):
        out.update(getattr(module, "INTERFACES", {}))
    return out
