"""`mlirbc-lsp` / `python -m mlirbc.lsp`: start the language server on stdio (default) or TCP."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from .. import __version__


def _host_port(spec: str) -> tuple[str, int]:
    host, sep, port = spec.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {spec!r}")
    return host or "127.0.0.1", int(port)


SWITCH_INTERVAL = 0.0005
"""Seconds a thread holding the interpreter lock keeps it while another waits for it."""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="mlirbc-lsp",
                                description="Language server for MLIR bytecode (.mlirbc) files.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="speak LSP on stdin/stdout (default)")
    mode.add_argument("--tcp", metavar="HOST:PORT", type=_host_port, help="listen on a TCP port")
    p.add_argument("--log-file", help="write the server's log here")
    p.add_argument("--log-level", default="WARNING",
                   choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    p.add_argument("--version", action="version", version=f"mlirbc-lsp {__version__}")
    args = p.parse_args(argv)
    if args.log_file:
        logging.basicConfig(filename=args.log_file, level=args.log_level,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    else:
        # stdout is the protocol channel: logs must go to stderr only
        logging.basicConfig(stream=sys.stderr, level=args.log_level)
    from .guard import preload, quiet_lost_aborts
    from .server import create_server

    # The jobs run in threads that a cancellation interrupts; none of them may be importing then (see
    # guard.importing): the server imports all of itself before it serves (about 0.2 s).
    preload()

    # The event loop answers while decodes, encodes and checks run on worker threads: it waits for the
    # interpreter lock up to one switch interval per step of reading, dispatching and answering a message.
    # At the default 5 ms a cancelled large decode was answered 7-63 ms after `$/cancelRequest`; threads
    # only switch this often while one waits for the lock, so work alone runs as before.
    sys.setswitchinterval(SWITCH_INTERVAL)
    quiet_lost_aborts()
    server = create_server()
    if args.tcp:
        server.start_tcp(*args.tcp)
    else:
        server.start_io()
    # Worker threads are daemons and may still hold locks; the interpreter's own shutdown would wait on them
    # (a server that never exits after `exit`).  Everything the server writes is written before it answers.
    code = 0 if getattr(server.protocol, "_shutdown", True) else 1
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed with the protocol's writer, or gone with the client
            pass
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
