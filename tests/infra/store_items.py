"""The key and the game data the store tests save, and a helper that stores a fresh item."""

from __future__ import annotations

from typing import Any

from infra.store import GameStore, Item

KEY = "game#-100123"
GAME = {
    "phase": "投票",
    "players": [[42, "张三"], [43, "李四"], [44, "Ana 🐉"]],
    "hands": {"42": [["刺客", 1], ["平民", 0]], "43": []},
    "log": ["王者归来", {"nested": [[1, 2], [3, [4, 5]]]}],
    "active": True,
    "timer": None,
    "score": -1.5,
}


def create(store: GameStore, key: str = KEY, **data: Any) -> Item:
    """Store a fresh item under `key` and return it as stored."""
    return store.save(Item(key, 0, data or {"round": 1}))
