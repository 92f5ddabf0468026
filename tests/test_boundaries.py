"""Who may import whom: the bot never imports its playtest harness, the benchmarks import no tests,
and a folder of tests imports from no other folder of tests (only from `tests/support`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYTEST = ROOT / "handlers" / "playtest"


def imports(path: Path) -> Iterator[str]:
    """The absolute names of the modules a file imports (relative imports resolved)."""
    package = path.relative_to(ROOT).parent.parts
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            yield ".".join([*base, *([node.module] if node.module else [])])


def sources(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def test_no_module_of_the_bot_imports_the_playtest_harness() -> None:
    bot = [
        path
        for folder in ("engine", "handlers", "infra")
        for path in sources(ROOT / folder)
        if not path.is_relative_to(PLAYTEST)
    ]
    assert bot
    wrong = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in bot
        for name in imports(path)
        if name == "handlers.playtest" or name.startswith("handlers.playtest.")
    ]
    assert not wrong, wrong


def test_the_playtest_harness_and_the_benchmarks_import_no_tests() -> None:
    wrong = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sources(PLAYTEST) + sources(ROOT / "bench")
        for name in imports(path)
        if name.split(".")[0] == "tests"
    ]
    assert not wrong, wrong


def test_a_folder_of_tests_imports_only_itself_and_tests_support() -> None:
    wrong = []
    for path in sources(ROOT / "tests"):
        folder = path.relative_to(ROOT / "tests").parts[:-1]
        allowed = ["tests.support", *(f"tests.{name}" for name in folder[:1])]
        for name in imports(path):
            if name.split(".")[0] != "tests":
                continue
            if not any(name == mine or name.startswith(f"{mine}.") for mine in allowed):
                wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not wrong, wrong
