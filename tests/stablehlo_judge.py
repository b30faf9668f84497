"""A subprocess that judges VHLO texts with jaxlib (tests only): one JSON string per input line, one
verdict per output line (`ok` or `rejected <message>`).  Run apart from the tests because jaxlib aborts the
whole process on some invalid IR (an assertion in a legalization): the caller restarts it after the text
that killed it (`agreement.judge_jaxlib`)."""

from __future__ import annotations

import io
import json
import sys


def main() -> None:
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]
    from jaxlib.mlir.dialects import stablehlo  # type: ignore[import-not-found,unused-ignore]

    from stablehlo_oracle import context

    seen: list[str] = []

    def handler(d: object) -> bool:
        seen.append(str(getattr(d, "message", d)))
        return True

    with context() as ctx:
        ctx.allow_unregistered_dialects = True
        ctx.attach_diagnostic_handler(handler)
        for line in sys.stdin:
            text = json.loads(line)
            seen.clear()
            try:
                module = ir.Module.parse(text)
                buf = io.BytesIO()
                module.operation.write_bytecode(buf)
                stablehlo.deserialize_portable_artifact(ctx, buf.getvalue())
                verdict = "ok"
            except Exception as exc:  # jaxlib's MLIRError: the text was refused
                why = seen[0] if seen else str(exc)
                verdict = "rejected " + " ".join(why.split())[:300]
            sys.stdout.write(verdict + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
