"""MLIR's attribute, type and location syntax: the lexer, printer, parser and float formats.

The bytecode reader needs it for entries stored as text (as upstream's reader needs its AsmParser), so it
sits below the view and imports nothing from it.
"""
