"""The session keeps its stored part to itself: the Telegram side, the table view, storage and the
entries ask a table through its methods and properties, never through the dict it stores
(`Table.data`), which the import contracts cannot see."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = ("handlers/telegram", "handlers/table", "handlers/storage", "handlers/entry")
# The names a table goes by outside the session (a stored record's `item.data` is not one).
TABLE_NAMES = {"table", "current", "lobby", "new", "old", "latest", "fresh", "game", "seats"}


def table_data_reads(path: Path, root: Path = ROOT) -> list[str]:
    """Where a module reads `<a table>.data`, as `file:line` (the file relative to `root`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Attribute) and node.attr == "data"):
            continue
        owner = node.value
        name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
        if name in TABLE_NAMES:
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


@pytest.mark.parametrize("folder", OUTSIDE)
def test_no_layer_outside_the_session_reads_a_tables_stored_dict(folder: str) -> None:
    modules = sorted((ROOT / folder).rglob("*.py"))
    assert modules, f"no modules under {folder}"
    reads = [where for path in modules for where in table_data_reads(path)]
    assert reads == [], "ask the table through a method or property instead: " + ", ".join(reads)


def test_the_scan_finds_a_tables_stored_dict_read(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text(
        "def f(table, item):\n    item.data.get('games')\n    return table.data.get('hold')\n",
        encoding="utf-8",
    )
    assert table_data_reads(module, tmp_path) == ["probe.py:3"]
