"""Plugin: under `pytest -n auto --dist loadgroup`, the folders whose tests share one heavy
resource (the deploy tool's packaging, a browser) each keep to one worker; the rest spread freely.

xdist's own grouping reads an `xdist_group` mark through a node id it rewrites, which the pytest
this suite runs on no longer lets it rewrite; the scheduler here groups by folder instead.
"""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadGroupScheduling

# The folders of tests/ that each keep to one worker.
ONE_WORKER = ("deploy", "browser")


def group_of(nodeid: str) -> str:
    """The work unit of a test: its folder for a ONE_WORKER folder, else the test itself."""
    parts = nodeid.split("::", 1)[0].split("/")
    if len(parts) > 2 and parts[0] == "tests" and parts[1] in ONE_WORKER:
        return parts[1]
    return nodeid


class FolderGroups(LoadGroupScheduling):
    """xdist's load-by-group scheduling, with the groups of `group_of`."""

    def _split_scope(self, nodeid: str) -> str:
        return group_of(nodeid)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> FolderGroups | None:
    if config.getvalue("dist") != "loadgroup":
        return None
    return FolderGroups(config, log)
