"""The mlirbc language server: opens `.mlirbc` files as editable MLIR generic text (pygls 2).

Orchestration only: decoding, printing, parsing and encoding live in `bytecode/`, `syntax/` and `view/`.
"""
