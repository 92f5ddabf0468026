"""Nothing the table view answers a seat depends on a secret that seat was not told.

Seeded pairs of games are played as in `test_secrets`, on two deals that differ in a few seats
only (often an X holder's or the Spy's), with the same public decisions at the same moments,
and with the table's buttons on: the group sees the same (its turn messages' "Table" link
included). After every step, each seat whose private news is the same in both games (its card,
its scouts) and that is not deciding in secret asks the table's API for its view, as its page
does, naming the version it last got: the answers (status, headers, body, ETag, a 304 or a
200) are the same in both games, in the same order at the same moments, so a seat's page can
tell no more than that seat was told. (The API reads each game from a SQLite store, the bot's
own source over its own host.)
"""

from __future__ import annotations

import json
import random

import pytest

from engine.state import SPY_PHASE, TURNCOAT, GameState, start_state
from engine.turns import waiting_for
from engine.views import all_events
from handlers.display.render import table_links
from handlers.session.table import PLAYING, Table
from handlers.storage.keeper import Keeper
from handlers.storage.keys import game_key
from handlers.table.api import Response, handle
from handlers.table.auth import sign_init_data
from handlers.table.selector import table_selector
from handlers.table.view import view_problems
from handlers.telegram.table_source import StoreTables
from infra.sqlite_store import SQLiteStore
from infra.store import Item
from testing.players import item_of
from tests.robustness.test_secrets import (
    Pair,
    Seen,
    public_move,
    seated,
    secret_moves,
    twin_deals,
)

TOKEN = "123456:TEST-table-secrets"
FIRST, PAIRS = 2000, 30
# The seeds are played in shares, each share a test of its own so that the workers play them
# side by side: share k plays every SHARES-th seed from FIRST + k, which spreads the long games.
SHARES = 5


def near_twin(rng: random.Random) -> tuple[GameState, GameState, dict]:
    """Two deals for one seating and first player that differ in two to four seats (an X
    holder's or the Spy's among them more often than not) and the cards set aside."""
    a, _, lobby = twin_deals(rng)
    seats = list(range(1, a.seats + 1))
    moved = set(rng.sample(seats, rng.randint(2, min(4, a.seats - 1))))
    for card in ("RX", "BX", "SPY"):
        if card in a.deal and rng.random() < 0.8:
            moved.add(a.deal.index(card) + 1)
    pool = [a.deal[s - 1] for s in sorted(moved)] + list(a.set_aside)
    rng.shuffle(pool)
    cards = list(a.deal)
    for s in sorted(moved):
        cards[s - 1] = pool.pop()
    b = start_state(
        variants=a.variants,
        names=a.names,
        virtual=a.virtual,
        deal=tuple(cards),
        set_aside=tuple(sorted(pool)),
        first=a.first,
        seed=a.seed,
    )
    return a, b, lobby


class Api:
    """The table's routes over one game's store, asked as each seat's page asks."""

    def __init__(self) -> None:
        self.store = SQLiteStore(":memory:")
        self.source = StoreTables(Keeper(self.store), member=lambda chat, user: True)
        self.etags: dict[int, str] = {}

    def put(self, table: Table) -> None:
        """The game as the bot would have saved it."""
        key = game_key(table.chat)
        held = self.store.load(key)
        self.store.save(Item(key, held.version if held else 0, item_of(table)))

    def view(self, table: Table, seat: int, now: float) -> Response:
        user = {"id": table.user_at(seat), "first_name": table.name_of(seat)}
        init = sign_init_data(TOKEN, user, None, int(now))
        headers = {"Authorization": f"tma {init}"}
        if seat in self.etags:
            headers["If-None-Match"] = self.etags[seat]
        query = "g=" + table_selector(table.chat, table.game)
        answer = handle(
            "GET", "/api/table", query, headers, b"", source=self.source, token=TOKEN, now=now
        )
        if answer.status == 200:
            self.etags[seat] = answer.headers["ETag"]
        return answer


class WatchedPair(Pair):
    """The pair, with each seat's table view compared after every step."""

    def __init__(self, a: Table, b: Table, seen: Seen, counts: dict) -> None:
        super().__init__(a, b, seen)
        self.apis = (Api(), Api())
        self.involved: set[int] = set()
        self.counts = counts

    def same(self, outs_a: list[dict], outs_b: list[dict], what: str) -> None:
        super().same(outs_a, outs_b, what)
        self.watch(what)

    def advance(self, until: float) -> None:
        self.watch("a secret decision, or none")
        super().advance(until)

    def watch(self, what: str) -> None:
        """Every seat not party to a secret gets the same answers in both games."""
        playing = self.a.status == PLAYING  # the reveal shows every card, as it should
        for api, table in zip(self.apis, (self.a, self.b), strict=True):
            api.put(table)
        told = [private_news(t) for t in (self.a, self.b)]
        hidden = [hidden_decision(t) for t in (self.a, self.b)]
        asymmetric = hidden[0] != hidden[1]  # one deal decides in secret, the other does not
        for seat in self.a.state.humans():
            deciding = any(
                t.state.phase in (TURNCOAT, SPY_PHASE) and waiting_for(t.state) == seat
                for t in (self.a, self.b)
            )
            if deciding or told[0].get(seat) != told[1].get(seat):
                self.involved.add(seat)
            if seat in self.involved or not playing:
                continue
            answers = [
                api.view(t, seat, self.now)
                for api, t in zip(self.apis, (self.a, self.b), strict=True)
            ]
            for answer in answers:
                assert answer.status in (200, 304), answer
                if answer.status == 200:
                    assert view_problems(json.loads(answer.body)) == []
            first, second = answers
            assert (first.status, first.headers, first.body) == (
                second.status,
                second.headers,
                second.body,
            ), f"seat {seat} after {what}"
            self.counts["compared"] += 1
            self.counts["one_deal_deciding"] += asymmetric
            self.counts["changed"] += first.status == 200


def hidden_decision(table: Table) -> bool:
    """Whether a human Turncoat or Spy decides in secret now."""
    state = table.state
    seat = waiting_for(state)
    return state.phase in (TURNCOAT, SPY_PHASE) and bool(seat and table.user_at(seat))


def private_news(table: Table) -> dict[int, list[dict]]:
    """What each seat was told privately so far (its card included)."""
    news: dict[int, list[dict]] = {}
    for event in all_events(table.state):
        if event["to"] != "all":
            news.setdefault(event["to"], []).append(event)
    return news


def play_watched(seed: int, seen: Seen, counts: dict, monkeypatch) -> None:
    rng = random.Random(seed)
    deal_a, deal_b, lobby = near_twin(rng)
    silence = rng.random() < 0.5
    a, outs_a = seated(deal_a, lobby, silence, monkeypatch)
    b, outs_b = seated(deal_b, lobby, silence, monkeypatch)
    pair = WatchedPair(a, b, seen, counts)
    pair.same(outs_a, outs_b, "the deal")
    counts["pairs"] += 1
    for _ in range(400):
        if a.status != PLAYING:
            break
        if a.hold is not None:
            if secret_moves(pair, rng):
                pair.watch("a swap in the window")
                return
        else:
            public_move(pair, rng)


@pytest.mark.slow  # thirty pairs of games, every seat's view asked after every step
@pytest.mark.parametrize("share", range(SHARES), ids=lambda k: f"share{k}")
def test_a_seat_not_party_to_a_secret_gets_the_same_answers_on_two_deals(
    share: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each share of the seeds is a test of its own (the workers play them side by side)."""
    table_links.configure("https://table.example.org/table", "table", "decapitation_bot")
    try:
        seen = Seen()
        counts = {"pairs": 0, "compared": 0, "one_deal_deciding": 0, "changed": 0}
        for seed in range(FIRST + share, FIRST + PAIRS, SHARES):
            play_watched(seed, seen, counts, monkeypatch)
    finally:
        table_links.configure(None, None, "")
    # The pairs met what a seat must not notice, many times over in every share.
    assert counts["pairs"] == PAIRS // SHARES, counts
    assert counts["compared"] >= 1200, counts
    assert counts["one_deal_deciding"] >= 10, counts
    assert counts["changed"] >= 480, counts  # versions moved on: 200s, not only 304s
    assert seen.x_only_in_one >= 1 and seen.spy_only_in_one >= 1, seen
    assert seen.early_secret_moves >= 3, seen
