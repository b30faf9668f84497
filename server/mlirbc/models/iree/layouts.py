"""IREE's memref layout attributes for the text parser: `#iree_tensor_ext.ragged_shape<N>` implements
MemRefLayoutAttrInterface (TensorExtAttrs.td), so a lone one in `memref<?x3x?xf32, #...>` is the layout, as
iree-opt reads it, not the memory space (upstream's rule for an attribute it cannot place).  Its values
stay text: no structure of them is modeled."""

from __future__ import annotations

from ...ir.attributes import Attribute
from ...ir.types import Type
from ...syntax.attr_parser import Parser


class LayoutAttrs:
    """A dialect syntax that reads nothing itself (values stay text) and names the dialect's memref
    layouts (`is_memref_layout`, see `syntax.attr_parser.DialectSyntax`)."""

    def __init__(self, layouts: frozenset[str]) -> None:
        self.layouts = layouts

    def parse_attribute(self, p: Parser, ident: str) -> Attribute | None:
        return None

    def parse_type(self, p: Parser, ident: str) -> Type | None:
        return None

    def is_memref_layout(self, ident: str) -> bool:
        return ident in self.layouts


TENSOR_EXT_LAYOUTS = frozenset({"iree_tensor_ext.ragged_shape"})
