"""Ops' custom assembly forms (the pretty view): syntax models and the data they are made from.

`api` is what a syntax model speaks to (the view's op printer and op parser) and what it offers;
`format` compiles ODS declarative formats, `derive` derives each op's syntax data from ODS records,
`data` loads the generated data (`data/`, one file per dialect, read on first use) and registers it,
`declarative` is the one syntax model that interprets declarative formats, `directives` the `custom<...>`
directives it knows; the other modules are hand-written syntax models of ops whose form upstream writes
in C++, one module per dialect.
"""
