"""Run by a release's own code (its tree first on the path): open a SQLite file another release
wrote, read a group's item as that code reads it, and let a timer wake the group at a moment;
print what it found as JSON. It uses only what every release since 2026-12-02 has."""

from __future__ import annotations

import importlib
import json
import sys
from types import ModuleType
from typing import Any


def harness(name: str) -> ModuleType:
    """A module of the release's playtest harness: `testing.<name>`, or where releases before
    the harness left the bot's package kept it (`handlers.playtest.<name>`)."""
    try:
        return importlib.import_module(f"testing.{name}")
    except ModuleNotFoundError:
        return importlib.import_module(f"handlers.playtest.{name}")


def run(ask: dict[str, Any]) -> dict[str, Any]:
    """What this release makes of the group's item in `ask["db"]`, before and after its timer."""
    from handlers.telegram.group import Wake
    from handlers.telegram.item import Read

    drivers, fakes = harness("drivers"), harness("fake_telegram")
    FakeClock, MemoryBot = drivers.FakeClock, drivers.MemoryBot
    TEST_TOKEN, FakeTelegram = fakes.TEST_TOKEN, fakes.FakeTelegram

    fake = FakeTelegram(TEST_TOKEN)
    users = [fake.add_user(name, user_id=uid, started=True) for uid, name in ask["users"]]
    fake.add_group(ask["title"], users, owner=users[0], chat_id=ask["chat"])
    clock = FakeClock(ask["now"])
    bot = MemoryBot(fake, clock, ask["db"])
    try:
        runtime = bot.application.bot_data["runtime"]
        host = getattr(runtime, "keeper", None) or runtime.host  # named host before 2026-12-07
        chat = ask["chat"]
        before = seen(Read.of(host.load(chat)))
        clock.now = ask.get("wake_at") or clock.now
        for _ in range(5):  # each deadline passed by then, in turn (a reminder, then the turn)
            due = Read.of(host.load(chat)).wake
            if due is None or due > clock.now:
                break
            bot._handle(Wake(chat))
            bot.settle()
        after = seen(Read.of(host.load(chat)))
        aside = list(host.store.keys("unreadable#"))
        errors = [f"{type(error).__name__}: {error}" for error in bot.errors]
    finally:
        bot.close()
    return {"before": before, "after": after, "aside": aside, "errors": errors}


def seen(read: Any) -> dict[str, Any] | None:
    """The table as a release reads it: its status, game, next wake and engine version."""
    table = read.table
    if table is None:
        return None
    state = getattr(table, "state", None) if table.status != "lobby" else None
    return {
        "status": table.status,
        "game": table.game,
        "wake": read.wake,
        "version": getattr(state, "version", None),
        "turn": getattr(state, "turn", None),
        "item_version": read.item.version if read.item is not None else None,
    }


def play(ask: dict[str, Any]) -> dict[str, Any]:
    """Play a game to its first turn (dealt with `ask["seed"]`) on a new SQLite file
    `ask["db"]`, as this release plays it; what `run` needs to open the group again."""
    drivers, fakes = harness("drivers"), harness("fake_telegram")
    START, FakeClock, MemoryBot = drivers.START, drivers.FakeClock, drivers.MemoryBot
    TEST_TOKEN, FakeTelegram = fakes.TEST_TOKEN, fakes.FakeTelegram
    Table = harness("players").Table

    bot = MemoryBot(FakeTelegram(TEST_TOKEN), FakeClock(START), ask["db"])
    try:
        table = Table.of(bot, 4)
        table.open()
        table.start(seed=ask["seed"])
        users = [[player.user.id, player.user.first_name] for player in table.players]
        errors = [f"{type(error).__name__}: {error}" for error in bot.errors]
        return {
            "chat": table.group.id,
            "title": table.title,
            "users": users,
            "now": bot.clock(),
            "errors": errors,
        }
    finally:
        bot.close()


if __name__ == "__main__":
    ask = json.loads(sys.argv[1])
    print(json.dumps(play(ask) if "seed" in ask else run(ask)))
