"""Faults the robustness and deploy tests put into the bot's own parts."""

from __future__ import annotations

from collections.abc import Callable, Collection

import pytest

from handlers.storage.host import Host, Loaded


def break_reading(monkeypatch: pytest.MonkeyPatch, chat: int) -> Callable[[], None]:
    """Make every read of the group's item fail, as a store that keeps failing would; hands
    back what mends it."""
    broken = {chat}
    load = Host.load

    def failing(host: Host, asked: int, also: Collection[str] = ()) -> Loaded:
        if asked in broken:
            raise RuntimeError("the store keeps failing")
        return load(host, asked, also)

    monkeypatch.setattr(Host, "load", failing)
    return broken.clear
