"""The fixtures every folder of tests may use, from the plugins of `tests/support`."""

import pytest

pytest_plugins = [
    "tests.support.aws",
    "tests.support.telegram",
    "tests.support.bots",
    "tests.support.tiers",
]

# Folders whose tests share one heavy resource (the deploy tool's packaging, a browser) run on
# one worker each under `pytest -n auto --dist loadgroup`; the rest spread freely.
ONE_WORKER = ("deploy", "browser")


def pytest_collection_modifyitems(config, items) -> None:
    """Keep each ONE_WORKER folder's tests on one worker."""
    for item in items:
        parts = item.path.parts
        folder = parts[parts.index("tests") + 1] if "tests" in parts else ""
        if folder in ONE_WORKER:
            item.add_marker(pytest.mark.xdist_group(folder))
