"""What the table view costs: the page's size, a poll's reads and time, and the requests and
dollars its polling adds to a game.

Run: `python bench/table_polls.py`. An 8-player game is played on a SQLite store (random scouts,
40 decisions); after each decision every seat's view is asked twice through the table's routes,
as the pages poll it (with the version each holds: the second answer is a 304): it counts the
store reads per poll and times them. Then, from the page's poll intervals (1.5 s while the
viewer must act or is next, 4 s otherwise), the polls of a 10-minute game with 4 of its 8
players watching, and their price with bench/bot/cost.py's list prices. Asserts nothing.
"""

from __future__ import annotations

import gzip
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot.cost import CPU_SHARE, LAMBDA_GB, LOG_BYTES, PRICE
from engine.turns import legal_actions, waiting_for
from handlers.session.table import PLAYING, Table
from handlers.storage.keeper import Keeper
from handlers.storage.keys import game_key
from handlers.table.api import handle
from handlers.table.auth import sign_init_data
from handlers.table.page import table_page
from handlers.table.selector import table_selector
from handlers.telegram.table_source import StoreTables
from infra.sqlite_store import SQLiteStore
from infra.store import Item
from testing.players import item_of

TOKEN = "123456:BENCH-table"
CHAT, NOW = -1001234567890, 1_800_000_000.0
PLAYERS, WATCHING, GAME_SECONDS = 8, 4, 600
FAST, SLOW = 1.5, 4.0  # the page's poll intervals (handlers/table/static/table.html)
DYNAMODB_WAIT = 0.006  # seconds a GetItem takes inside AWS (a few ms), added to billed time


def game() -> Table:
    table, _ = Table.open_lobby(CHAT, 1, 1, "Player 1", "en", {}, NOW, "Bench")
    for user in range(2, PLAYERS + 1):
        table.join(user, f"Player {user}")
    table.start(NOW, 11)
    return table


def polls_per_game() -> float:
    """Polls of one 10-minute game: each watcher polls fast while it must act or is next (2 of
    the 8 seats' turns), slowly otherwise."""
    fast_share = 2 / PLAYERS
    per_second = fast_share / FAST + (1 - fast_share) / SLOW
    return WATCHING * GAME_SECONDS * per_second


def main() -> int:
    page = table_page().body
    print(f"the page: {len(page):,} bytes, {len(gzip.compress(page, 9)):,} gzipped")
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.sqlite3", clock=lambda: NOW)
        asked: list[int] = []  # the users Telegram is asked about (once per opening)
        source = StoreTables(
            Keeper(store, clock=lambda: NOW), member=lambda chat, user: asked.append(user) or True
        )
        table, rng = game(), random.Random(1)
        etags: dict[int, str] = {}
        passes: dict[int, str] = {}  # each page's seat pass, as the first answer gave it
        times, reads, answers = [], [], {200: 0, 304: 0}
        for _ in range(40):
            held = store.load(game_key(CHAT))
            store.save(Item(game_key(CHAT), held.version if held else 0, item_of(table)))
            for seat in [*range(1, PLAYERS + 1)] * 2:  # each page polls twice per decision
                user = {"id": table.user_at(seat), "first_name": "P"}
                headers = {"Authorization": "tma " + sign_init_data(TOKEN, user, None, int(NOW))}
                if seat in etags:
                    headers["If-None-Match"] = etags[seat]
                if seat in passes:
                    headers["X-Table-Pass"] = passes[seat]
                before, start = store.reads, time.process_time()
                answer = handle(
                    "GET",
                    "/api/table",
                    "g=" + table_selector(CHAT, 1),
                    headers,
                    b"",
                    source=source,
                    token=TOKEN,
                    now=NOW,
                )
                times.append(time.process_time() - start)
                reads.append(store.reads - before)
                answers[answer.status] += 1
                etags[seat] = answer.headers["ETag"]
                passes[seat] = answer.headers["X-Table-Pass"]
            if table.status != PLAYING:
                break
            seat = waiting_for(table.state)
            scouts = [a for a in legal_actions(table.state, seat) if a.act != "decapitate"]
            table.act(table.user_at(seat), rng.choice(scouts), NOW)
        store.close()
    cpu = statistics.median(times)
    print(
        f"a poll: {statistics.mean(reads):.2f} store reads (the game's item), "
        f"{cpu * 1000:.1f} ms CPU (median; {answers[200]} answers 200, {answers[304]} 304); "
        f"Telegram asked whether a user is in the group {len(asked)} times in {len(times)} polls"
    )
    polls = polls_per_game()
    billed = cpu / CPU_SHARE + DYNAMODB_WAIT
    each = {
        "HTTP API": PRICE["HTTP API request"],
        "Lambda requests": PRICE["lambda request"],
        "Lambda GB-seconds": billed * LAMBDA_GB * PRICE["lambda GB-second (arm64)"],
        "DynamoDB reads (1 RRU)": PRICE["DynamoDB read unit"],
        "CloudWatch Logs": LOG_BYTES / 1e9 * PRICE["CloudWatch Logs GB"],
    }
    print(
        f"a {GAME_SECONDS // 60}-minute game of {PLAYERS}, {WATCHING} watching: "
        f"{polls:.0f} polls (every {FAST} s while acting or next, {SLOW} s otherwise)"
    )
    for label, price in each.items():
        print(f"  {label:26} ${polls * price:.6f} a game")
    total = polls * sum(each.values())
    print(f"  {'total':26} ${total:.4f} a game, ${total * 1000:.2f} a thousand games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
