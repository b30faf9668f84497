"""mlirbc: a pure-Python reader, faithful writer and language server for MLIR bytecode."""

__version__ = "0.1.0"
