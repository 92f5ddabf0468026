"""A group's finished games as its members read them: the entry kept for each, the /history
list, a record's file and caption, its text cut into messages, and the buttons that ask for
them."""

from __future__ import annotations

import json
import time
from typing import Any

from handlers.display import presses
from handlers.display.presses import RECORDS, Button, CallNext, SendRecord
from handlers.display.render.common import Keyboard, shown_name
from handlers.display.render.table_links import TABLE_LINKS, replay_button, replay_buttons
from handlers.display.texts import colour_name, t
from handlers.session.table import Table

PER_ROW = 5  # Record buttons in a row of the /history list
MESSAGE_LIMIT = 4096  # the characters of one Telegram message


def record_button(lang: str, chat: int, game: int, label: str | None = None) -> list[str]:
    """The button that sends a finished game's record privately to whoever presses it."""
    data = presses.encode(Button(RECORDS, chat, game, 0, SendRecord()))
    return [label or t(lang, "btn_record"), data]


def next_game_button(lang: str, chat: int) -> list[str]:
    """The button that asks to be told privately when the group's next lobby opens."""
    return [t(lang, "btn_next_game"), presses.encode(Button(RECORDS, chat, 0, 0, CallNext()))]


def end_buttons(table: Table) -> list[list[str]]:
    """The row under an end (or a cancelled game) message: its record, the next game's call
    (none in practice, which keeps no record and has no next game to call)."""
    if table.practice:
        return []
    return [
        record_button(table.lang, table.chat, table.game),
        next_game_button(table.lang, table.chat),
        *replay_buttons(table),
    ]


def when(at: float) -> str:
    """A game's date and time as each reader's app shows it, in their own time zone (in UTC
    where it cannot)."""
    shown = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))
    return f'<tg-time unix="{int(at)}" format="dt">{shown}</tg-time>'


def players(entry: dict[str, Any]) -> list[str]:
    """The names of a kept game's human players, in seating order."""
    seats = (entry.get("record") or {}).get("seats") or []
    return [seat["name"] for seat in seats if not seat.get("virtual")]


def history_list(lang: str, chat: int, entries: list[dict[str, Any]]) -> tuple[str, Keyboard]:
    """/history: the group's last games, the newest first, each with its Record button."""
    if not entries:
        return t(lang, "history_none"), None
    lines = [t(lang, "history_title")]
    buttons, replays = [], []
    for n, entry in enumerate(reversed(entries), 1):
        winner = entry.get("winner")
        result = (
            t(lang, "history_won", colour=colour_name(lang, winner))
            if winner
            else t(lang, "history_cancelled")
        )
        names = t(lang, "sep_list").join(shown_name(name) for name in players(entry))
        line = t(lang, "history_line", n=n, date=when(entry["at"]), names=names, result=result)
        lines.append(line)
        if entry.get("record"):
            buttons.append(record_button(lang, chat, entry["game"], t(lang, "btn_record_n", n=n)))
        if entry.get("record") and winner and TABLE_LINKS["app"]:
            label = t(lang, "btn_replay_n", n=n)
            replays.append(replay_button(lang, chat, entry["game"], label))
    lines += ["", t(lang, "history_hint")]
    rows = [buttons[i : i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]
    rows += [replays[i : i + PER_ROW] for i in range(0, len(replays), PER_ROW)]
    return "\n".join(lines), rows or None


def record_file(entry: dict[str, Any]) -> tuple[bytes, str]:
    """A kept game's record as the file sent (`decapitation/1` JSON) and the file's name."""
    body = json.dumps(entry["record"], ensure_ascii=False, indent=1) + "\n"
    return body.encode(), f"decapitation-{entry['game']}.json"


def pages(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """`lines` cut, between lines, into messages of at most `limit` characters each (counted
    with their markup, which Telegram does not count)."""
    out: list[str] = []
    page: list[str] = []
    size = 0
    for line in lines:
        line = line[:limit]
        if page and size + 1 + len(line) > limit:
            out.append("\n".join(page).strip("\n"))
            page, size = [], 0
        size += len(line) + (1 if page else 0)
        page.append(line)
    if page:
        out.append("\n".join(page).strip("\n"))
    return [text for text in out if text]


def record_caption(lang: str, title: str, entry: dict[str, Any]) -> str:
    """The caption of a record's file sent privately: which game, and what the file is."""
    group = shown_name(title) if title else "—"
    return t(lang, "record_caption", group=group, date=when(entry["at"]))


def next_lobby_call(lang: str, group: str, join: str) -> tuple[str, Keyboard]:
    """The private message that tells someone waiting that the group's next lobby is open."""
    return t(lang, "next_opened", group=group), [[[t(lang, "btn_join"), join]]]
