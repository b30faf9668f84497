"""Fuzzing mlirbc: structure-aware mutators, targets, seeds and the atheris engine (docs/fuzzing.md)."""
