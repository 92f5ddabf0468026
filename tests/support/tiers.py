"""Plugin: the fast tier. A test is marked `slow` when it needs moto (DynamoDB, SQS, Secrets
Manager), the fake Bot API server over HTTP, or a subprocess; `make test-fast` runs the rest
(`pytest -m "not slow"`): the engine, the session, the unit tests, and whole games on the fake
Bot API answered in memory (`memory_bot`: no server, no socket).

A test gets the mark here from the fixtures it uses (SLOW_FIXTURES, directly or through other
fixtures) or from a `bot` over HTTP (a test marked `over_http`); a test that starts a server or
a subprocess itself, or gets moto through a fixture's parameter, carries the mark in its own
module. A test without the mark that starts a server or
a subprocess fails, saying so.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from typing import Any

import pytest
from moto.server import ThreadedMotoServer

from testing.fake_telegram import FakeTelegram

SLOW = "slow"
SLOW_FIXTURES = frozenset(
    {
        "moto_server",  # DynamoDB, SQS and Secrets Manager on loopback
        "dynamo_client",  # moto in the test's process (tests/infra)
        "fake_telegram",  # the fake Bot API server on loopback
        "packaged",  # `serverless package` (tests/deploy)
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())) or _bot_over_http(item):
            item.add_marker(SLOW)


def _bot_over_http(item: pytest.Item) -> bool:
    """Whether the test's `bot` is one of the HTTP entries (any `bot` not in memory)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    return "bot" in params and params["bot"] != "memory"


@pytest.fixture(autouse=True)
def _fast_tests_start_nothing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Outside the `slow` tests, starting a server or a subprocess fails the test."""
    if request.node.get_closest_marker(SLOW) is not None:
        return

    def refuse(what: str) -> Callable[..., Any]:
        def refused(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError(f"this test starts {what}: mark it @pytest.mark.{SLOW}")

        return refused

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse("a subprocess"))
    monkeypatch.setattr(FakeTelegram, "start", refuse("the fake Bot API server"))
    monkeypatch.setattr(ThreadedMotoServer, "start", refuse("a moto server"))
