"""Starts the mlirbc language server that the VS Code extension carries in `bundled/libs`.

The extension runs `<python> bundled/tool/start_server.py [args]` with a Python 3.11+ it found. The bundled
folder goes first on `sys.path`, ahead of `PYTHONPATH` and site-packages, so the server and its
dependencies are the ones this extension was built and tested with, whatever else that Python has
installed; plugin packages installed there are still found after them. Without `bundled/libs` (an
extension run from its source tree) the interpreter's own mlirbc is used. Runs on any Python so that an
Python older than 3.11 gets a clear message.
"""

import os
import sys

MIN_VERSION = (3, 11)
LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")


def main() -> int:
    if sys.version_info[:2] < MIN_VERSION:
        need, have = (".".join(map(str, v)) for v in (MIN_VERSION, sys.version_info[:2]))
        sys.stderr.write("mlirbc: the language server needs Python " + need + " or newer; "
                         + sys.executable + " is " + have + "\n")
        return 2
    if os.path.isdir(LIBS):
        sys.path.insert(0, LIBS)
    import mlirbc
    from mlirbc.lsp.__main__ import main as serve

    where = os.path.dirname(os.path.abspath(mlirbc.__file__))
    origin = "bundled" if where.startswith(LIBS + os.sep) else "from the environment"
    # stderr reaches the extension's output channel; stdout is the protocol channel.
    sys.stderr.write(f"mlirbc {mlirbc.__version__} ({origin}: {where}) "
                     f"on Python {sys.version.split()[0]} ({sys.executable})\n")
    sys.stderr.flush()
    return serve(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
