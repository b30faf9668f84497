"""Allows `python -m mlirbc.cli`."""

from .main import main

raise SystemExit(main())
