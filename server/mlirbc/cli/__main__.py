"""Allows `python -m mlirbc.cli`."""

from .main import run

run()
