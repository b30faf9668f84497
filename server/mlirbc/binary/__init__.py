"""Byte-level primitives of MLIR's bytecode, below every layer that reads or writes it: varints, strings,
blobs and alignment (`stream`), arbitrary-width integers (`apint`).  The bytecode sections and the dialect
models both build on them; this package imports nothing of mlirbc but `errors`."""
