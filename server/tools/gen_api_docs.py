#!/usr/bin/env python3
"""Generate the Python API reference, `docs/api/`, from the API's docstrings with pdoc.

One page, `docs/api/mlirbc/api.html` (every public name of `mlirbc.api`, which `mlirbc` and `mlirbc.ir`
export), plus pdoc's `index.html`.  Markdown docstrings, no search index, no source listings: the page is
small enough to commit, and deterministic, so `--check` (run by the tests) fails when a docstring
changed and the page was not generated again.

    python server/tools/gen_api_docs.py [--check]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "server"))
OUT = ROOT / "docs" / "api"


def generate(out: Path) -> list[Path]:
    import pdoc
    import pdoc.render

    pdoc.render.configure(docformat="markdown", search=False, show_source=False,
                          footer_text="mlirbc Python API")
    pdoc.pdoc("mlirbc.api", output_directory=out)
    return sorted(p for p in out.rglob("*") if p.is_file())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if docs/api/ is not what pdoc makes now")
    args = ap.parse_args()
    if not args.check:
        for p in OUT.rglob("*"):
            if p.is_file():
                p.unlink()
        files = generate(OUT)
        print(f"{len(files)} files in {OUT.relative_to(ROOT)}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        made = {p.relative_to(tmp): p.read_bytes() for p in generate(Path(tmp))}
    have = {p.relative_to(OUT): p.read_bytes() for p in OUT.rglob("*") if p.is_file()} if OUT.exists() else {}
    stale = sorted(str(k) for k in made.keys() | have.keys() if made.get(k) != have.get(k))
    if stale:
        print(f"docs/api is out of date: {stale} (run server/tools/gen_api_docs.py)", file=sys.stderr)
        return 1
    print("docs/api is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
