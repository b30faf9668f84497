"""Bytecode encoding and decoding: one module per section, each holding its read and write side by side."""
