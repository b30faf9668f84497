"""The generic MLIR text view: lexing, printing and parsing of attributes, types, locations, ops."""
