"""The `mlirbc` command line."""
