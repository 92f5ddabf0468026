"""What `pip install` puts in place: the bot's packages, and not the playtest harness (the fake
Telegram and the simulated players), which the tests and benchmarks import from the source
tree, as the Lambda zip leaves it out too (`test_lambda_zip.py`)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed() -> set[str]:
    """The packages a build of the project ships, as setuptools reads pyproject.toml."""
    pytest.importorskip(
        "setuptools",
        reason="setuptools, the build backend, is not installed here (a venv of "
        "Python 3.12 or later leaves it out)",
    )
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # [tool.setuptools] is "beta" in setuptools' words
        distribution = apply_configuration(Distribution(), ROOT / "pyproject.toml")
    return set(distribution.packages)


def test_the_installed_bot_has_no_playtest_harness(installed: set[str]) -> None:
    assert (ROOT / "testing" / "__init__.py").is_file()
    assert not [name for name in installed if name.split(".")[0] in ("testing", "tests")]


def test_the_installed_bot_has_every_package_of_the_bot(installed: set[str]) -> None:
    sources = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("engine", "handlers", "infra")
        for path in (ROOT / top).rglob("__init__.py")
    }
    bot = {name for name in sources if not name.startswith("testing")}
    assert installed == bot
