"""The data-flow graph of a function (or any region): ops as nodes, SSA uses and control flow as edges.

Format-independent analysis of the IR.  `builder` makes the graph (the JSON the server's `mlirbc/graph`
request answers); `scope` finds which op a graph shows; `source` is the small "op -> text range"
interface the builder reads positions through; `dot`, `layout` and `svg` turn a graph into Graphviz DOT
or a self-laid-out SVG for the CLI.  `schema.json` beside this file is the JSON Schema of that answer,
shipped in the wheel for clients; `docs/graph-schema.json` is the same file for readers of the repository
(a test keeps the two identical).
"""
