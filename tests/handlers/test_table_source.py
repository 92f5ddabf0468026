"""The table's source over the bot's store: each seat's view keeps to the contract and shows what
it was told; a move is checked in the contract's order and applied once; strangers, forged or
stale initData and another game's selector get one answer whatever the game holds; a finished
game's replay comes from the group's history."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Action
from engine.actions import DECAPITATE
from engine.turns import legal_actions, waiting_for
from handlers.session.table import CANCELLED, OVER_STATUS, PLAYING, Table
from handlers.storage.host import Change, Host
from handlers.storage.keys import game_key
from handlers.table.api import handle
from handlers.table.auth import sign_init_data
from handlers.table.selector import replay_selector, table_selector
from handlers.table.view import view_problems, view_version
from handlers.telegram import render
from handlers.telegram.table_source import MOVES, MOVES_KEPT, StoreTables
from handlers.telegram.table_view import seat_view
from infra.sqlite_store import SQLiteStore
from infra.store import Item
from tests.support.tables import CHAT, NOW, lobby, started

TOKEN = "123456:TEST-table-source"
STRANGER = 999


class Game:
    """A group's table kept in a SQLite store, changed through the host as the bot changes it
    (the messages it owes are not sent: here only the store matters)."""

    def __init__(self, path: Path) -> None:
        self.store = SQLiteStore(path, clock=lambda: NOW)
        self.host = Host(self.store, clock=lambda: NOW)
        self.source = StoreTables(self.host, self.change)
        self.changes: list[Change] = []

    def change(self, chat: int, changer) -> Change:
        change = self.host.change(chat, None, changer)
        self.changes.append(change)
        return change

    def put(self, table: Table) -> Table:
        key = game_key(table.chat)
        held = self.store.load(key)
        self.store.save(Item(key, held.version if held else 0, table.data))
        return self.host.load(table.chat)

    def act(self, action: Action, now: float = NOW) -> None:
        """The seat waited for decides, through the host (the end is kept in the history)."""

        def changer(table: Table | None):
            user = table.user_at(action.seat) if action.seat else 0
            return table, render.show(table, table.act(user, action, now))

        self.host.change(CHAT, None, changer)

    def ask(
        self,
        method: str,
        path: str,
        user: int,
        query: str = "",
        body: bytes = b"",
        *,
        token: str = TOKEN,
        age: float = 0,
    ):
        init = sign_init_data(token, {"id": user, "first_name": "X"}, None, int(NOW - age))
        headers = {"Authorization": f"tma {init}"}
        return handle(method, path, query, headers, body, source=self.source, token=TOKEN, now=NOW)

    def view(self, user: int, game: int = 1):
        return self.ask("GET", "/api/table", user, "g=" + table_selector(CHAT, game))

    def move(self, user: int, kind: str, version: str, move_id: str = "m1", game: int = 1, **f):
        request = {
            "g": table_selector(CHAT, game),
            "move_id": move_id,
            "version": version,
            "move": {"kind": kind, **f},
        }
        return self.ask("POST", "/api/move", user, body=json.dumps(request).encode())


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Game]:
    made = Game(tmp_path / "games.sqlite3")
    yield made
    made.store.close()


def body(response) -> dict:
    return json.loads(response.body)


def test_every_seat_is_shown_its_own_view_through_games_with_every_variant() -> None:
    for seed in range(8):
        table = started(
            8,
            seed=seed,
            virtual_players=1,
            turncoat=True,
            bodyguards=True,
            observer=True,
            spy=True,
        )
        rng, now = random.Random(seed), NOW
        for _ in range(60):
            for seat in table.state.humans():
                view = seat_view(table, seat)
                assert view_problems(view) == [], view_problems(view)
                you = view["you"]
                assert you["card"] == table.state.cards[seat - 1] or table.data.get("hold")
                assert bool(you["moves"]) == (
                    table.status == PLAYING
                    and waiting_for(table.state) == seat
                    and not (table.data.get("hold") and table.state.phase in ("turn", "speak"))
                )
            if table.status != PLAYING:
                break
            seat = waiting_for(table.state)
            if table.data.get("hold") or not table.user_at(seat):
                now = table.deadline()
                table.catch_up(now)
                continue
            choices = [a for a in legal_actions(table.state, seat) if a.act != DECAPITATE]
            table.act(table.user_at(seat), rng.choice(choices), now)
        assert table.status in (PLAYING, OVER_STATUS, CANCELLED)


def test_a_seat_sees_no_card_it_was_not_told() -> None:
    table = started(5, seed=3)
    first = table.state.first
    target = first % 5 + 1
    table.act(table.user_at(first), Action("scout", first, target=target), NOW)
    for seat in range(1, 6):
        seats = {s["seat"]: s["card"] for s in seat_view(table, seat)["seats"]}
        told = {seat, target} if seat == first else {seat}
        assert {s for s, card in seats.items() if card} == told
        assert seats[seat] == table.state.cards[seat - 1]


@pytest.mark.parametrize("state", ["none", "lobby", "playing", "over", "cancelled"])
def test_strangers_forged_or_stale_initdata_and_other_games_get_one_answer(
    game: Game, state: str
) -> None:
    if state == "lobby":
        game.put(lobby(4))
    elif state != "none":
        table = game.put(started(4, seed=2))
        if state == "over":
            seat = table.state.turn
            game.act(Action(DECAPITATE, seat, target=seat % 4 + 1))
        elif state == "cancelled":
            cancelled = game.host.load(CHAT)
            cancelled.cancel("Host")
            game.put(cancelled)
    views = [
        game.view(STRANGER),
        game.move(STRANGER, "done", "AAAA"),
        game.view(1, game=2),  # a seat of game 1 asking about another game of the group
        game.move(1, "done", "AAAA", game=2),
    ]
    refused = [
        game.ask("GET", "/api/table", 1, "g=" + table_selector(CHAT, 1), token="1:other"),
        game.ask("GET", "/api/table", 1, "g=" + table_selector(CHAT, 1), age=25 * 3600),
        game.ask("POST", "/api/move", 1, body=b"{}", age=25 * 3600),
        game.ask("GET", "/api/replay", STRANGER, "g=" + replay_selector(CHAT, 1), token="1:x"),
    ]
    assert [(r.status, body(r)) for r in views] == [(403, {"error": "not_yours"})] * 4
    assert [(r.status, body(r)) for r in refused] == [(401, {"error": "unauthorized"})] * 4
    assert len({(r.body, tuple(sorted(r.headers.items()))) for r in views}) == 1
    assert len({(r.body, tuple(sorted(r.headers.items()))) for r in refused}) == 1
    assert game.changes == [] or all(c.saved_version is None for c in game.changes)


def test_a_move_is_judged_in_the_contracts_order_and_applied_once(game: Game) -> None:
    table = game.put(started(4, seed=5))
    first = table.state.first
    user, other = table.user_at(first), table.user_at(first % 4 + 1)
    version = body(game.view(user))["version"]
    stale = body(game.view(other))["version"]

    assert game.move(other, "scout", stale, target=first).status == 422  # not its turn
    assert game.move(user, "scout", "old", target=first % 4 + 1).status == 409
    assert game.move(user, "scout", version, target=first).status == 422  # itself
    assert game.move(user, "done", version).status == 422  # not in a turn's first step
    assert game.host.load(CHAT).state.version == table.state.version  # nothing changed

    scouted = game.move(user, "scout", version, "m1", target=first % 4 + 1)
    assert scouted.status == 200
    view = body(scouted)["view"]
    assert view["you"]["moves"] == {"done": {}} and view["version"] != version
    saved = game.store.load(game_key(CHAT)).version

    again = game.move(user, "scout", version, "m1", target=first % 4 + 1)  # sent again
    assert (again.status, body(again)["view"]) == (200, view)
    assert game.store.load(game_key(CHAT)).version == saved
    assert game.move(user, "scout", version, "m2", target=first % 4 + 1).status == 409


def test_a_table_keeps_its_latest_moves_only(game: Game) -> None:
    game.put(started(4, seed=5))
    for n in range(MOVES_KEPT + 5):
        table = game.host.load(CHAT)
        seat = waiting_for(table.state)
        user = table.user_at(seat)
        version = body(game.view(user))["version"]
        kind = "done" if table.state.phase == "speak" else "scout"
        target = {"target": seat % 4 + 1} if kind == "scout" else {}
        assert game.move(user, kind, version, f"m{n}", **target).status == 200
    kept = game.host.load(CHAT).data[MOVES]
    assert len(kept) == MOVES_KEPT and len(set(kept)) == MOVES_KEPT


def test_a_move_after_its_wait_ran_out_is_too_late(game: Game) -> None:
    table = game.put(started(4, seed=5))
    user = table.user_at(table.state.first)
    version = body(game.view(user))["version"]
    late = table.deadline() + 1

    answer = handle(
        "POST",
        "/api/move",
        "",
        {
            "Authorization": "tma "
            + sign_init_data(TOKEN, {"id": user, "first_name": "A"}, None, int(late))
        },
        json.dumps(
            {
                "g": table_selector(CHAT, 1),
                "move_id": "m1",
                "version": version,
                "move": {"kind": "scout", "target": table.state.first % 4 + 1},
            }
        ).encode(),
        source=game.source,
        token=TOKEN,
        now=late,
    )

    assert answer.status == 409 and body(answer)["error"] == "stale"
    assert game.host.load(CHAT).state.version == table.state.version


def test_a_finished_games_replay_comes_from_the_groups_history(game: Game) -> None:
    table = game.put(started(4, seed=7))
    first = table.state.first
    game.act(Action("scout", first, target=first % 4 + 1))
    game.act(Action("end_turn", first))
    seat = game.host.load(CHAT).state.turn
    game.act(Action(DECAPITATE, seat, target=first))
    finished = game.host.load(CHAT)
    assert finished.status == OVER_STATUS

    replay = game.ask("GET", "/api/replay", STRANGER, "g=" + replay_selector(CHAT, 1))
    assert replay.status == 200
    shown = body(replay)
    assert [s["card"] for s in shown["seats"]] == list(finished.state.deal)
    assert len(shown["steps"]) == 3 and shown["result"]["winner"] == finished.state.outcome.winner
    assert "scouted" in shown["steps"][0]["text"] and "(" in shown["steps"][0]["text"]
    assert shown["version"] == view_version({k: v for k, v in shown.items() if k != "version"})
    assert body(game.view(table.user_at(first)))["result"]["replay"] == replay_selector(CHAT, 1)

    for missing in (replay_selector(CHAT, 2), replay_selector(CHAT - 1, 1)):
        answer = game.ask("GET", "/api/replay", STRANGER, "g=" + missing)
        assert (answer.status, body(answer)) == (404, {"error": "not_found"})
