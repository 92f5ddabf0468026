"""A whole game played through the bot by five people, printed as they saw it: every message,
edit and popup in order, each under the move that caused it.

    python -m handlers.playtest.transcript [--lang zh] [--seed 33]

The bot runs as `make play` runs it (long polling, SQLite in a temporary folder) against the fake
Bot API on loopback; nothing reaches Telegram.
"""

from __future__ import annotations

import argparse
import html
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from handlers.playtest.drivers import START, FakeClock, LocalBot
from handlers.playtest.fake_telegram import TEST_TOKEN, FakeTelegram
from handlers.playtest.players import Table

SHOWN = ("sendMessage", "editMessageText", "sendDocument", "answerCallbackQuery")


def plain(text: str) -> str:
    """A message's HTML as a reader sees it (tags gone, isolates dropped)."""
    text = re.sub(r"<[^>]+>", "", text or "")
    return html.unescape(text).replace("\u2068", "").replace("\u2069", "")


def buttons(params: dict[str, Any]) -> str:
    """The inline keyboard of a call, as [label] [label] rows."""
    rows = (params.get("reply_markup") or {}).get("inline_keyboard") or []
    return plain(" / ".join(" ".join(f"[{b['text']}]" for b in row) for row in rows))


class Transcript:
    """Prints what the bot said since the last move, under the move's own line."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seen = 0
        self.names = {p.id: p.name for p in table.players}

    def where(self, chat: Any) -> str:
        chat = int(chat)
        if chat == self.table.chat:
            return "group"
        return f"→ {self.names.get(chat, chat)}"

    def line(self, call: Any) -> str | None:
        p = call.params
        if call.method == "answerCallbackQuery":
            return f"    (popup) {plain(p['text'])}" if p.get("text") else None
        if call.method == "sendDocument":
            return f"    [{self.where(p['chat_id'])}] 📄 {plain(p.get('caption', ''))}"
        mark = "✎ " if call.method == "editMessageText" else ""
        text = plain(p.get("text", "")).replace("\n", "\n        ")
        kb = buttons(p)
        return f"    [{self.where(p['chat_id'])}] {mark}{text}" + (f"\n        {kb}" if kb else "")

    def flush(self) -> None:
        calls = self.table.fake.calls
        for call in calls[self.seen :]:
            if call.kind == "ok" and call.method in SHOWN:
                shown = self.line(call)
                if shown:
                    print(shown)
        self.seen = len(calls)

    @contextmanager
    def move(self, what: str) -> Iterator[None]:
        print(f"» {what}")
        yield
        self.flush()


def play(table: Table, seed: int, move: Callable[[str], Any]) -> None:
    """A short game: a lobby, a scout from the group, a private scout, a turn left to run out,
    and a decapitation."""
    names = [p.name for p in table.players]
    with move(f"{names[0]} sends /newgame; the others press Join"):
        table.open()
    with move(f"{names[0]} presses Start"):
        state = table.start(seed=seed)
    first = state.first
    second, third = first % 5 + 1, (first + 1) % 5 + 1
    with move(f"{table.player_at(first).name} scouts seat {second} from the group"):
        table.scout_in_group(first, second)
    with move(f"{table.player_at(first).name} speaks, then presses Done in the group"):
        table.done_in_group(first)
    with move(f"{table.player_at(second).name} scouts seat {third} privately and presses Done"):
        table.scout_and_done(second, third)
    with move(f"{table.player_at(third).name} does nothing; the turn runs out"):
        table.bot.advance(table.data()["settings"]["turn_seconds"])
    attacker = table.state.turn
    target = attacker % 5 + 1
    with move(f"{table.player_at(attacker).name} decapitates seat {target}"):
        table.decapitate(attacker, target)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args(argv)
    with FakeTelegram(TEST_TOKEN) as fake, tempfile.TemporaryDirectory() as home:
        bot = LocalBot(fake, FakeClock(START), Path(home) / "games.sqlite3").start()
        try:
            table = Table.of(bot, 5, lang=args.lang)
            transcript = Transcript(table)
            play(table, args.seed, transcript.move)
        finally:
            bot.close()


if __name__ == "__main__":
    main()
