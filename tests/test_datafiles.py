"""The generated data files of ops (`models.datafiles`): every file the package ships is in the generators'
one-op-per-line layout and reads, op by op, exactly as a JSON reader reads the whole document; a file in
another layout is read whole; a damaged one never passes for data."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from corpus import REPO
from mlirbc.models.datafiles import read_ops, split_ops

PACKAGE = REPO / "server" / "mlirbc"
OP_FILES = sorted(p for p in PACKAGE.rglob("*.json.gz")
                  if isinstance(json.loads(gzip.decompress(p.read_bytes())).get("ops"), dict))


def test_the_package_has_op_files() -> None:
    assert len(OP_FILES) > 200


@pytest.mark.parametrize("path", OP_FILES, ids=[str(p.relative_to(PACKAGE)) for p in OP_FILES])
def test_each_op_reads_as_the_whole_document_says(path: Path) -> None:
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    whole = json.loads(text)
    found = split_ops(text)
    assert found is not None, "not in the generators' layout: every op would be decoded at first use"
    top, ops = found
    assert top == {k: v for k, v in whole.items() if k != "ops"}
    assert list(ops) == list(whole["ops"])
    assert {name: ops[name] for name in ops} == whole["ops"]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ops.json.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    return path


def test_another_layout_is_read_whole(tmp_path: Path) -> None:
    data = {"dialect": "d", "ops": {"a": {"x": [1, "}\n"]}, "b\\\"c": {}}}
    ops = read_ops(_write(tmp_path, json.dumps(data, indent=2)))
    assert dict(ops) == data["ops"]


def test_escaped_names_and_tricky_values_split(tmp_path: Path) -> None:
    text = '{"dialect":"d","ops":{\n"a\\"b":{"s":"\\",\\n"},\n"c":[1,2]\n}}'
    ops = read_ops(_write(tmp_path, text))
    assert dict(ops) == json.loads(text)["ops"] == {'a"b': {"s": '",\n'}, "c": [1, 2]}


@pytest.mark.parametrize("text", [
    '{"ops":{\n"a" {}\n}}',            # no colon after the name
    '{"ops":{\nnot json\n}}',          # no name
    '{"x":1 "ops":{\n"a":{}\n}}',       # a head that is not JSON
])
def test_a_damaged_file_is_an_error_not_data(tmp_path: Path, text: str) -> None:
    with pytest.raises(ValueError):
        dict(read_ops(_write(tmp_path, text)))


def test_a_damaged_op_is_an_error_when_read(tmp_path: Path) -> None:
    ops = read_ops(_write(tmp_path, '{"ops":{\n"a":{"x":\n}}'))
    with pytest.raises(ValueError):
        ops["a"]
