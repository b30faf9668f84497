"""The errors the Python API raises: one base class for everything mlirbc refuses.

* `Error` (the package's `MlirbcError`): every refusal below is one;
* `DecodeError`: a damaged file, with the section and byte offset, and what was read (`partial_module`);
* `EncodeError`: a module that cannot be written (nothing is written);
* `IRError`: IR a program asked for that the format or the op's model does not allow, raised at the call
  that asked (also a `ValueError`, as MLIR's bindings raise for misuse);
* `OpaqueError`: reading or changing what a fallback op keeps as opaque bytes as if it were decoded (also
  a `TypeError`).
"""

from __future__ import annotations

from ..errors import DecodeError, EncodeError, MlirbcError

Error = MlirbcError


class IRError(MlirbcError, ValueError):
    """IR that the format or the op's model does not allow, refused where it was asked for."""


class OpaqueError(MlirbcError, TypeError):
    """A fallback op's opaque properties read or changed as if they were decoded."""


__all__ = ["Error", "DecodeError", "EncodeError", "IRError", "OpaqueError"]
