"""Where the bot's items are stored and until when: the store keys and expiry times."""

from __future__ import annotations

from collections.abc import Callable


def game_key(chat: int) -> str:
    """The store key of a group's table."""
    return f"game#{chat}"


def prefs_key(chat: int) -> str:
    """The store key of a group's saved settings."""
    return f"prefs#{chat}"


def history_key(chat: int) -> str:
    """The store key of a group's last finished games and their records."""
    return f"history#{chat}"


def waiting_key(chat: int) -> str:
    """The store key of the people waiting to be told when a group's next game opens."""
    return f"nextgame#{chat}"


def user_key(user: int) -> str:
    """The store key that points a user at the groups they joined, opened a lobby in or asked
    to hear of the next game from."""
    return f"user#{user}"


def failure_key(update_id: int) -> str:
    """The store key that counts an update's failed deliveries."""
    return f"failed#{update_id}"


def unreadable_key(key: str, version: int) -> str:
    """The store key an unreadable item is kept under, for inspection, once set aside."""
    return f"unreadable#{key}#v{version}"


def group_stats_key(chat: int) -> str:
    """The store key of a group's statistics (its finished games and its leaderboard)."""
    return f"stats#group#{chat}"


def player_stats_key(user: int) -> str:
    """The store key of a player's own statistics, across groups."""
    return f"stats#user#{user}"


def expiry(clock: Callable[[], float], ttl: int) -> int:
    """The expiry (whole epoch seconds) of an item written now that lasts `ttl` seconds."""
    return int(clock()) + ttl
