"""Shardy's own text syntax for its attributes (placeholder: generic DSL syntax)."""

from __future__ import annotations

from ...ir.attributes import Attribute
from ...ir.structured import StructuredAttr, StructuredType
from ...ir.types import Type
from ...syntax.attr_parser import Parser
from ..dsl import DslDialect


class SdySyntax:
    def print_value(self, value: StructuredAttr | StructuredType) -> str | None:
        return None

    def parse(self, p: Parser, ident: str, is_type: bool, dsl: DslDialect) -> Attribute | Type | None:
        return None
