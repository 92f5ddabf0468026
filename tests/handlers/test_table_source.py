"""The table's source over the bot's store: each seat's view keeps to the contract and shows what
it was told; a move is checked in the contract's order on the update path; strangers, forged or
stale initData and another game's selector get one answer whatever the game holds; a player's
link to an older game says it is over (with its replay when kept); a finished game's replay comes
from the group's history, a removed seat's step with it; a long game's timeline keeps its
numbering."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine import Action, Variants
from engine.actions import DECAPITATE, REMOVE
from engine.turns import legal_actions, waiting_for
from handlers.display.table_view import TIMELINE_KEPT, plain, replay_of, seat_view
from handlers.display.texts import t
from handlers.session.ending import kept_game
from handlers.session.table import CANCELLED, OVER_STATUS, PLAYING, Table
from handlers.storage.keeper import Keeper
from handlers.storage.keys import game_key
from handlers.table.api import handle
from handlers.table.auth import sign_init_data
from handlers.table.moves import MoveRequest
from handlers.table.selector import Selector, replay_selector, table_selector
from handlers.table.view import view_problems, view_version
from handlers.telegram.context import Runtime
from handlers.telegram.item import Read, save
from handlers.telegram.table_moves import run_move
from handlers.telegram.table_source import StoreTables
from infra.sqlite_store import SQLiteStore
from infra.store import Item
from testing.deals import find_seed
from testing.players import item_of
from tests.support.tables import CHAT, NOW, lobby, started

TOKEN = "123456:TEST-table-source"
STRANGER = 999


class Game:
    """A group's table kept in a SQLite store, changed through the host as the bot changes it.
    A move runs the update path with a bot that is never called: the moves made here are all
    refused, and a refusal owes no message (moves applied are played through the bot in
    tests/e2e/test_table_view.py)."""

    def __init__(self, path: Path) -> None:
        self.now = NOW
        self.store = SQLiteStore(path, clock=lambda: self.now)
        self.host = Keeper(self.store, clock=lambda: self.now)
        runtime = Runtime(self.host, lambda: self.now)
        self.context = SimpleNamespace(runtime=runtime, bot=None)
        self.source = StoreTables(self.host, self.run, self.member)
        self.left: set[int] = set()  # players who left the group since
        self.asked: list[int] = []  # whom Telegram was asked about
        self.telegram_down = False

    def member(self, chat: int, user: int) -> bool | None:
        """Everyone but the stranger and those who left is in the group (as Telegram would
        say; None while it cannot)."""
        self.asked.append(user)
        if self.telegram_down:
            return None
        return chat == CHAT and user != STRANGER and user not in self.left

    def run(self, selector: Selector, user: int, request: MoveRequest):
        return asyncio.run(run_move(self.context, selector, user, request))

    def put(self, table: Table) -> Table:
        key = game_key(table.chat)
        held = self.store.load(key)
        self.store.save(Item(key, held.version if held else 0, item_of(table)))
        return Read.of(self.host.load(table.chat)).table

    def act(self, action: Action, now: float = NOW) -> None:
        """The seat waited for decides, saved through the host (the end kept in the history)."""
        loaded = Read.of(self.host.load(CHAT))
        table = loaded.table
        if action.act == REMOVE:  # the host's /remove
            table.remove(action.seat, "Host", now)
        else:
            table.act(table.user_at(action.seat) if action.seat else 0, action, now)
        save(self.host, loaded, table, None, [], None)

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
        start_param: str | None = None,
        headers: dict[str, str] | None = None,
    ):
        user_data = {"id": user, "first_name": "X"}
        init = sign_init_data(token, user_data, start_param, int(self.now - age))
        headers = {"Authorization": f"tma {init}", **(headers or {})}
        return handle(
            method, path, query, headers, body, source=self.source, token=TOKEN, now=self.now
        )

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
                assert you["card"] == table.state.cards[seat - 1] or table.hold
                assert bool(you["moves"]) == (
                    table.status == PLAYING
                    and waiting_for(table.state) == seat
                    and not (table.hold and table.state.phase in ("turn", "speak"))
                )
            if table.status != PLAYING:
                break
            seat = waiting_for(table.state)
            if table.hold or not table.user_at(seat):
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
            cancelled = Read.of(game.host.load(CHAT)).table
            cancelled.cancel("Host")
            game.put(cancelled)
    stored = game.store.load(game_key(CHAT))
    views = [
        game.view(STRANGER),
        game.move(STRANGER, "done", "AAAA"),
        game.view(1, game=2),  # a seat of game 1 asking about another game of the group
        game.move(1, "done", "AAAA", game=2),
        game.view(STRANGER, game=0 if state == "none" else 1),
    ]
    refused = [
        game.ask("GET", "/api/table", 1, "g=" + table_selector(CHAT, 1), token="1:other"),
        game.ask("GET", "/api/table", 1, "g=" + table_selector(CHAT, 1), age=25 * 3600),
        game.ask("POST", "/api/move", 1, body=b"{}", age=25 * 3600),
        game.ask("GET", "/api/replay", STRANGER, "g=" + replay_selector(CHAT, 1), token="1:x"),
    ]
    views = views[:4] if state == "none" else views  # game 0 is no selector at all
    assert [(r.status, body(r)) for r in views] == [(403, {"error": "not_yours"})] * len(views)
    assert [(r.status, body(r)) for r in refused] == [(401, {"error": "unauthorized"})] * 4
    assert len({(r.body, tuple(sorted(r.headers.items()))) for r in views}) == 1
    assert len({(r.body, tuple(sorted(r.headers.items()))) for r in refused}) == 1
    assert game.store.load(game_key(CHAT)) == stored  # nothing was written


def test_a_move_is_judged_in_the_contracts_order_on_the_update_path(game: Game) -> None:
    table = game.put(started(4, seed=5))
    first = table.state.first
    user, other = table.user_at(first), table.user_at(first % 4 + 1)
    version = body(game.view(user))["version"]
    stale = body(game.view(other))["version"]
    stored = game.store.load(game_key(CHAT))

    assert game.move(STRANGER, "scout", version, target=first).status == 403
    assert game.move(other, "scout", stale, target=first).status == 422  # not its turn
    assert game.move(user, "scout", "old", target=first % 4 + 1).status == 409
    assert game.move(user, "scout", version, target=first).status == 422  # itself
    answer = game.move(user, "done", version)  # not in a turn's first step
    assert answer.status == 422 and body(answer)["view"]["version"] == version
    assert game.store.load(game_key(CHAT)) == stored  # a refusal saves nothing


def test_a_move_after_its_wait_ran_out_is_too_late(game: Game) -> None:
    table = game.put(started(4, seed=5))
    user = table.user_at(table.state.first)
    version = body(game.view(user))["version"]
    stored = game.store.load(game_key(CHAT))
    game.now = table.deadline() + 1  # the wait ran out; no timer has run yet

    answer = game.move(user, "scout", version, target=table.state.first % 4 + 1)

    assert answer.status == 409 and body(answer)["error"] == "stale"
    assert game.store.load(game_key(CHAT)) == stored


def test_a_finished_games_replay_comes_from_the_groups_history(game: Game) -> None:
    table = game.put(started(4, seed=7))
    first = table.state.first
    game.act(Action("scout", first, target=first % 4 + 1))
    game.act(Action("end_turn", first))
    seat = Read.of(game.host.load(CHAT)).table.state.turn
    game.act(Action(DECAPITATE, seat, target=first))
    finished = Read.of(game.host.load(CHAT)).table
    assert finished.status == OVER_STATUS

    replay = game.ask("GET", "/api/replay", table.user_at(first), "g=" + replay_selector(CHAT, 1))
    assert replay.status == 200
    shown = body(replay)
    assert [s["card"] for s in shown["seats"]] == list(finished.state.deal)
    assert len(shown["steps"]) == 3 and shown["result"]["winner"] == finished.state.outcome.winner
    assert "scouted" in shown["steps"][0]["text"] and "(" in shown["steps"][0]["text"]
    assert shown["version"] == view_version({k: v for k, v in shown.items() if k != "version"})
    assert body(game.view(table.user_at(first)))["result"]["replay"] == replay_selector(CHAT, 1)

    for missing in (replay_selector(CHAT, 2), replay_selector(CHAT - 1, 1)):
        answer = game.ask("GET", "/api/replay", table.user_at(first), "g=" + missing)
        assert (answer.status, body(answer)) == (404, {"error": "not_found"})


def test_a_removed_seat_plays_on_as_a_virtual_one_in_the_replay(game: Game) -> None:
    table = game.put(started(4, seed=7))
    first = table.state.first
    gone = first % 4 + 1
    game.act(Action(REMOVE, gone))
    game.act(Action("scout", first, target=gone))
    game.act(Action("end_turn", first))
    seat = Read.of(game.host.load(CHAT)).table.state.turn  # the removed seat's turn passed at once
    assert seat not in (first, gone)
    watcher = body(game.view(table.user_at(first)))
    game.act(Action(DECAPITATE, seat, target=first, proxy=False))  # removed: a proxy question

    player = table.user_at(first)
    shown = body(game.ask("GET", "/api/replay", player, "g=" + replay_selector(CHAT, 1)))
    removal = shown["steps"][0]
    assert removal["action"] == {"act": "remove", "seat": gone}
    assert "removed" in removal["text"] and "virtual" in removal["text"]
    assert all(step["removed"] == [gone] for step in shown["steps"])
    assert [s["removed"] for s in watcher["seats"]] == [s == gone for s in range(1, 5)]
    assert any("removed" in line["text"] for line in watcher["timeline"])


def test_a_players_link_to_an_older_game_says_it_is_over_and_offers_its_replay(
    game: Game,
) -> None:
    table = game.put(started(4, seed=7))
    seat = table.state.turn
    player = table.user_at(seat)
    game.act(Action(DECAPITATE, seat, target=seat % 4 + 1))  # game 1 ends, kept in the history
    newer = started(4, seed=8)
    newer.record.game = 2
    game.put(newer)

    old = game.view(player, game=1)
    assert (old.status, body(old)) == (410, {"error": "gone", "replay": replay_selector(CHAT, 1)})
    assert game.view(STRANGER, game=1).status == 403  # a stranger learns nothing of it
    assert game.ask("GET", "/api/replay", player, "g=" + replay_selector(CHAT, 1)).status == 200


def test_a_players_link_to_an_older_cancelled_game_says_it_is_over_without_a_replay(
    game: Game,
) -> None:
    table = game.put(started(4, seed=7))
    player = table.user_at(1)
    cancelled = Read.of(game.host.load(CHAT))
    ended = cancelled.table
    ended.cancel("Host")
    save(game.host, cancelled, ended, None, [], None)
    newer = started(4, seed=8)
    newer.record.game = 2
    game.put(newer)

    old = game.view(player, game=1)
    assert (old.status, body(old)) == (410, {"error": "gone", "replay": None})


def test_a_long_games_timeline_keeps_its_numbering_past_the_cut() -> None:
    table = started(4, seed=5)

    def a_turn() -> None:  # scout the next seat, then Done: three public lines
        seat = table.state.turn
        table.act(table.user_at(seat), Action("scout", seat, target=seat % 4 + 1), NOW)
        table.act(table.user_at(seat), Action("end_turn", seat), NOW)

    for _ in range(TIMELINE_KEPT // 2):
        a_turn()
    lines = seat_view(table, 1)["timeline"]
    assert len(lines) == TIMELINE_KEPT
    numbers = [line["n"] for line in lines]
    assert numbers[0] > 0 and numbers == list(range(numbers[0], numbers[0] + TIMELINE_KEPT))
    assert [line["latest"] for line in lines] == [False] * (TIMELINE_KEPT - 1) + [True]
    before = {line["n"]: line["text"] for line in lines}
    a_turn()
    after = {line["n"]: line["text"] for line in seat_view(table, 1)["timeline"]}
    assert min(after) > min(before) and max(after) > max(before)
    assert all(after[n] == text for n, text in before.items() if n in after)  # same n, same line


class Reads:
    """Counts the reads of the group's store."""

    def __init__(self, game: Game) -> None:
        self.count = 0
        for name in ("load", "load_many"):
            real = getattr(game.store, name)
            setattr(game.store, name, self._counted(real))

    def _counted(self, real):
        def counted(*args, **kwargs):
            self.count += 1
            return real(*args, **kwargs)

        return counted


def finished_game(game: Game) -> Table:
    """Game 1 of the group, struck at once and kept in its history."""
    table = game.put(started(4, seed=7))
    seat = table.state.turn
    game.act(Action(DECAPITATE, seat, target=seat % 4 + 1))
    return table


def test_a_replay_is_for_the_groups_members_and_those_who_played(game: Game) -> None:
    table = finished_game(game)
    replay = "g=" + replay_selector(CHAT, 1)
    player, onlooker = table.user_at(1), 555  # 555: in the group, never seated
    game.left.add(player)  # the player left the group since

    answers = {who: game.ask("GET", "/api/replay", who, replay) for who in (player, onlooker)}
    stranger = game.ask("GET", "/api/replay", STRANGER, replay)

    assert [answers[who].status for who in (player, onlooker)] == [200, 200]
    assert (stranger.status, body(stranger)) == (404, {"error": "not_found"})


def test_a_replay_link_is_not_guessable_from_the_group_and_the_games_time(game: Game) -> None:
    finished_game(game)
    member = 555
    guessed = f"r{CHAT}_1".replace("-", "m")  # the group's id and the game's number alone
    wrong_key = guessed + "_" + "0" * 16
    reads = Reads(game)

    assert game.ask("GET", "/api/replay", member, "g=" + guessed).status == 400
    assert game.ask("GET", "/api/replay", member, "g=" + wrong_key).status == 404
    assert reads.count == 0 and game.asked == []  # refused before any read or question
    assert game.ask("GET", "/api/replay", member, "g=" + replay_selector(CHAT, 1)).status == 200


def test_a_stranger_is_refused_before_anything_is_read(game: Game) -> None:
    table = game.put(started(4, seed=5))
    version = body(game.view(table.user_at(table.state.first)))["version"]
    reads = Reads(game)

    view = game.view(STRANGER)
    move = game.move(STRANGER, "scout", version, target=1)

    assert [(r.status, body(r)) for r in (view, move)] == [(403, {"error": "not_yours"})] * 2
    assert reads.count == 0


def test_an_opening_serves_only_the_game_it_was_opened_for(game: Game) -> None:
    table = game.put(started(4, seed=5))
    user = table.user_at(1)
    opened_for_another = table_selector(CHAT, 2)  # a direct link to another game
    reads = Reads(game)

    answer = game.ask(
        "GET", "/api/table", user, "g=" + table_selector(CHAT, 1), start_param=opened_for_another
    )
    assert (answer.status, body(answer)) == (403, {"error": "not_yours"})
    assert reads.count == 0 and game.asked == []
    bound = game.ask(
        "GET",
        "/api/table",
        user,
        "g=" + table_selector(CHAT, 1),
        start_param=table_selector(CHAT, 1),
    )
    assert bound.status == 200


def test_a_seats_pass_spares_telegram_the_question_at_each_poll(game: Game) -> None:
    table = game.put(started(4, seed=5))
    user = table.user_at(1)
    first = game.view(user)
    given = first.headers["X-Table-Pass"]
    polls = [
        game.ask(
            "GET",
            "/api/table",
            user,
            "g=" + table_selector(CHAT, 1),
            headers={"X-Table-Pass": given},
        )
        for _ in range(3)
    ]
    borrowed = game.ask(  # a pass is its player's alone
        "GET",
        "/api/table",
        STRANGER,
        "g=" + table_selector(CHAT, 1),
        headers={"X-Table-Pass": given},
    )

    assert first.status == 200 and [p.status for p in polls] == [200] * 3
    assert game.asked == [user, STRANGER]  # asked once for the player, then for the stranger
    assert borrowed.status == 403


def test_the_table_asks_again_later_when_telegram_cannot_say_who_is_in_the_group(
    game: Game,
) -> None:
    table = game.put(started(4, seed=5))
    game.telegram_down = True
    reads = Reads(game)

    answer = game.ask("GET", "/api/table", table.user_at(1), "g=" + table_selector(CHAT, 1))

    assert (answer.status, body(answer)) == (503, {"error": "try_again"})
    assert answer.headers["Retry-After"] == "2" and reads.count == 0


def test_an_unchanged_view_is_answered_304_without_building_it(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    import handlers.telegram.table_source as table_source

    table = game.put(started(4, seed=5))
    first = table.state.first
    user = table.user_at(first)
    built: list[int] = []
    real = table_source.seat_view
    monkeypatch.setattr(table_source, "seat_view", lambda t, s: built.append(s) or real(t, s))

    shown = game.view(user)
    held = {"If-None-Match": shown.headers["ETag"]}
    polls = [game.ask("GET", "/api/table", user, "g=" + table_selector(CHAT, 1), headers=held)]
    polls += [game.ask("GET", "/api/table", user, "g=" + table_selector(CHAT, 1), headers=held)]
    assert [p.status for p in polls] == [304, 304] and built == [first]
    assert {p.headers["ETag"] for p in polls} == {shown.headers["ETag"]}

    game.act(Action("scout", first, target=first % 4 + 1))  # the game moves on
    moved = game.ask("GET", "/api/table", user, "g=" + table_selector(CHAT, 1), headers=held)
    assert moved.status == 200 and moved.headers["ETag"] != shown.headers["ETag"]
    assert built == [first, first]


@pytest.mark.parametrize("given", ["é" * 32, "0" * 4000, "", " "])
def test_a_pass_that_is_no_pass_is_taken_for_none(game: Game, given: str) -> None:
    table = game.put(started(4, seed=5))
    user = table.user_at(1)
    stored = game.store.load(game_key(CHAT))

    seat = game.ask(
        "GET", "/api/table", user, "g=" + table_selector(CHAT, 1), headers={"X-Table-Pass": given}
    )
    stranger = game.ask(
        "GET",
        "/api/table",
        STRANGER,
        "g=" + table_selector(CHAT, 1),
        headers={"X-Table-Pass": given},
    )

    assert seat.status == 200 and game.asked == [user, STRANGER]  # Telegram asked, as without one
    assert (stranger.status, body(stranger)) == (403, {"error": "not_yours"})
    assert game.store.load(game_key(CHAT)) == stored


def spy_after_a_prediction() -> tuple[Table, int, int]:
    """Six players with the Observer and the Spy: the Observer plays first and predicts (which
    ends their turn), the next player decapitates. Returns the table in the Spy's wait, the
    Spy's and the Observer's seats."""

    def wanted(state) -> bool:
        nxt = state.first % state.seats + 1
        return (
            state.cards[state.first - 1] == "OBS"
            and state.holder("SPY") not in (state.first, nxt)
            and state.cards[nxt - 1] not in ("OBS", "SPY")
        )

    seed, _ = find_seed(6, Variants(observer=True, spy=True), wanted)
    table = started(6, seed, observer=True, spy=True, spy_seconds=15)
    obs = table.state.first
    nxt = obs % 6 + 1
    table.act(table.user_at(obs), Action("scout", obs, target=nxt), NOW)
    table.act(table.user_at(obs), Action("predict", obs, color="red"), NOW + 1)
    target = next(s for s in range(1, 7) if s not in (obs, nxt, table.state.holder("SPY")))
    table.act(table.user_at(nxt), Action(DECAPITATE, nxt, target=target), NOW + 3)
    return table, table.state.holder("SPY"), obs


def test_the_table_view_offers_the_spy_the_captains_the_chat_offers() -> None:
    table, spy, obs = spy_after_a_prediction()
    seats = seat_view(table, spy)["you"]["moves"]["spy_guess"]["seats"]
    assert seats == [s for s in range(1, 7) if s not in (spy, obs)]


def test_the_replay_calls_a_player_who_left_left_and_one_removed_removed() -> None:
    table = started(6, seed=5)
    first = table.state.first
    leaver, removed = first % 6 + 1, (first + 1) % 6 + 1
    table.ask_leave(table.user_at(leaver), "group")
    table.leave_game(table.user_at(leaver), NOW)
    table.remove(removed, "host", NOW)
    table.act(table.user_at(first), Action("scout", first, target=leaver), NOW + 1)
    table.act(table.user_at(first), Action("end_turn", first), NOW + 2)  # two turns pass
    striker = table.state.turn
    strike = next(a for a in legal_actions(table.state, striker) if a.act == DECAPITATE)
    table.act(table.user_at(striker), strike, NOW + 3)
    assert table.status == OVER_STATUS
    for lang in ("en", "zh"):
        steps = [
            s["text"] for s in replay_of(kept_game(table, "red"), lang, "Club", CHAT)["steps"]
        ]
        label = {
            s: t(lang, "seat_label", seat=s, name=table.state.names[s - 1])
            for s in (1, 2, 3, 4, 5, 6)
        }
        assert plain(t(lang, "replay_left", name=label[leaver])) in steps
        assert plain(t(lang, "replay_removed", name=label[removed])) in steps
        assert plain(t(lang, "replay_removed", name=label[leaver])) not in steps
        assert plain(t(lang, "passed_left_line", name=label[leaver])) in steps
        assert plain(t(lang, "passed_removed_line", name=label[removed])) in steps


def test_the_table_view_tells_a_seat_whose_player_left_from_one_removed() -> None:
    table = started(6, seed=5)
    first = table.state.first
    leaver, removed = first % 6 + 1, (first + 1) % 6 + 1
    table.ask_leave(table.user_at(leaver), "group")
    table.leave_game(table.user_at(leaver), NOW)
    table.remove(removed, "host", NOW)
    seats = {s["seat"]: s for s in seat_view(table, first)["seats"]}
    assert (seats[leaver]["removed"], seats[leaver]["left"]) == (True, True)
    assert (seats[removed]["removed"], seats[removed]["left"]) == (True, False)
    assert not any(seats[s]["left"] for s in seats if s != leaver)
