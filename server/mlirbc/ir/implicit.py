"""MLIR's implicit `module`: what its parsers put around text or bytes whose top level is not one
`builtin.module`, and when a writer may leave it out again.

MLIR 22's `parseSourceFile<ModuleOp>` (what `mlir-opt` and the Python bindings' `Module.parse` use) reads
every top-level op into one block; unless that block holds exactly one `builtin.module`, it builds a new
`builtin.module` (no name, no attributes) located at `loc("<buffer name>":0:0)` and moves the ops into its
body.  The buffer name is the path as given to `mlir-opt`, `<stdin>` for its standard input, and `-` for a
string given to the Python bindings.  Bytecode goes through the same rule: its reader yields the file's
top-level op (one, as MLIR's writer always writes), which gets wrapped when it is not a module.

Text read this way makes a real module (`mlir-opt --emit-bytecode` writes it).  A file whose top-level
op is not a module is read with an *implicit* module (`Module.implicit_module`): it is shown, walked and
verified as MLIR shows it, and `stored_top` gives back the op the file holds, so that it saves unchanged.
"""

from __future__ import annotations

from .attributes import Attribute, FileLineColLoc, StringAttr
from .operation import PROPS_DECODED, Block, Operation, OpName, Properties

MODULE = OpName("builtin", "module")
MODULE_NAME = "builtin.module"


def source_location(name: str) -> Attribute:
    """`loc("name":0:0)`: where MLIR's parser puts the implicit module of a buffer called `name`."""
    return FileLineColLoc.get(StringAttr.get(name.encode("utf-8", "surrogateescape")), 0, 0)


def needs_module(ops: list[Operation]) -> bool:
    """Whether MLIR's parser wraps these top-level ops in an implicit module (all but one module)."""
    return len(ops) != 1 or ops[0].name != MODULE_NAME


def wrap(ops: list[Operation], location: Attribute, properties: Properties | None) -> Operation:
    """A `builtin.module` at `location` holding `ops` (moved into its one block), itself alone in a block
    of its own as a root op is.  `properties`: the empty properties of a module in the bytecode version
    at hand (None below version 5)."""
    module = Operation(MODULE, location, properties=properties)
    body = module.add_region().add_block()
    for op in ops:
        body.append(op)
    Block().append(module)
    return module


def stored_top(root: Operation) -> Operation:
    """The op a file holds at top level for a module read with an implicit one: the one op inside
    `root` when a reader would wrap it again in a module like `root` (a module with no attributes
    around a single op that is not a module); else `root` itself (the program or the view changed it:
    it is written as a module of its own)."""
    if root.name != MODULE_NAME or root.attributes is not None and root.attributes.entries:
        return root
    props = root.properties
    if props is not None and (props.kind != PROPS_DECODED or props.values):
        return root
    if len(root.regions) != 1 or len(root.regions[0].blocks) != 1:
        return root
    block = root.regions[0].blocks[0]
    if block.arguments or len(block.operations) != 1:
        return root
    inner = block.operations[0]
    return root if inner.name == MODULE_NAME else inner
