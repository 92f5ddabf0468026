"""How many messages an 8-player game costs each chat: the group's and every player's.

Run: `python bench/messages.py [--seed 8] [--lang en] [--lost]`. A seeded 8-player game is
played through the bot on the fake Bot API (in memory): /newgame and seven Joins, two /extends
and a /cancel the bot refuses (not the host), Start, then turns taken in seat order (odd turns
scout from the group's turn message, even ones from the private menu; the fourth turn runs
out), then a decapitation. With `--lost`, the fourth turn's player has blocked the bot since
the deal, so their turn's prompt fails. It prints, per chat, the new messages, edits, deletions
and popups with text (a new message is what makes a phone ring). Asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from testing.games import TURN, after
from testing.players import Table
from testing.transcript import private_names, running

PLAYERS = 8
KINDS = {
    "sendMessage": "new",
    "sendDocument": "new",
    "editMessageText": "edits",
    "editMessageReplyMarkup": "edits",
    "deleteMessage": "deletions",
}
COLUMNS = ("new", "edits", "deletions", "popups")


def play(table: Table, seed: int, lost: bool = False) -> None:
    """The game: a lobby of eight (two /extends, a refused /cancel), seven turns (a mix of
    group and private scouts, one left to run out), then a decapitation."""
    table.open()
    for player in table.players[1:3]:
        player.say("/extend")  # two players push the countdown back
    table.players[3].say("/cancel")  # refused: only the host or an admin may
    state = table.start(seed=seed)
    seat = state.first
    if lost:  # the player of the fourth turn blocks the bot: their prompt cannot reach them
        table.fake.block(table.player_at((seat + 2) % PLAYERS + 1).user)
    for turn in range(1, 8):
        if turn == 4:
            table.bot.advance(TURN)
        elif turn % 2:
            table.scout_in_group(seat, after(table, seat))
            table.done_in_group(seat)
        else:
            table.scout_and_done(seat, after(table, seat))
        seat = table.state.turn
    table.decapitate(seat, after(table, seat))
    assert table.ending() is not None, "the game did not end"


def counts(table: Table) -> dict[str, Counter[str]]:
    """The bot's successful calls in the game, by chat (the group, then each player) and kind."""
    names = private_names(table)
    by_chat: dict[str, Counter[str]] = {}
    for call in table.fake.calls:
        kind = KINDS.get(call.method)
        if call.kind != "ok" or kind is None:
            continue
        chat = int(call.params["chat_id"])
        where = "group" if chat == table.chat else names.get(chat, str(chat))
        by_chat.setdefault(where, Counter())[kind] += 1
    for answer in table.fake.callback_answers:
        if answer.text:  # an empty answer only stops the button's spinner
            by_chat.setdefault(names.get(answer.user_id, "?"), Counter())["popups"] += 1
    return by_chat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=8, help="the deal (default 8)")
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--lost", action="store_true", help="the fourth turn's player blocks")
    args = parser.parse_args(argv)
    with running("memory") as bot:
        table = Table.of(bot, PLAYERS, lang=args.lang)
        play(table, args.seed, args.lost)
        by_chat = counts(table)
    print(f"{'chat':14}" + "".join(f"{c:>10}" for c in COLUMNS))
    total: Counter[str] = Counter()
    for where, counted in by_chat.items():
        total.update(counted)
        print(f"{where:14}" + "".join(f"{counted[c]:>10}" for c in COLUMNS))
    print(f"{'all':14}" + "".join(f"{total[c]:>10}" for c in COLUMNS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
