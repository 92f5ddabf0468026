"""A group's history and its list for the next game, on every backend: a game kept once by its
number, the last ten kept, ten long 12-player games well inside DynamoDB's 400 KB an item, and
the list's changes made once per update."""

from __future__ import annotations

import random

from engine import Variants
from engine.records import to_record
from engine.simulate import play
from handlers.storage import history
from handlers.storage.keys import history_key, waiting_key
from infra.store import GameStore, Item, size_of
from testing.drivers import FakeClock

DYNAMODB_ITEM_LIMIT = 400 * 1024
EVERY_VARIANT = Variants(
    virtual_players=0,
    no_first_round_decapitation=True,
    turncoat=True,
    bodyguards=True,
    observer=True,
    spy=True,
)


def entry(game: int, record: dict | None = None, winner: str | None = "red") -> dict:
    return {"game": game, "at": 4_000_000_000 + game, "winner": winner, "record": record or {}}


def keep(store: GameStore, chat: int, game: dict, clock: FakeClock) -> bool:
    """Add a game to the group's history as the end's write does; False if it is there."""
    added = history.with_game(store.load(history_key(chat)), chat, game, clock)
    if added is not None:
        store.save(added)
    return added is not None


def long_game(seed: int) -> dict:
    """The record of a long 12-player game (informed play, every variant), with the longest
    names a player can have."""
    state, _, _ = play(12, EVERY_VARIANT, seed, "informed")
    record = to_record(state)
    for n, seat in enumerate(record["seats"]):
        seat["name"] = f"{n:02d}" + "斩首行动的玩家" * 5  # 32 characters, as long as names go
    return record


def test_a_game_is_kept_once_by_its_number(store: GameStore, clock: FakeClock) -> None:
    assert keep(store, -5, entry(7), clock) is True
    assert keep(store, -5, entry(7, winner="blue"), clock) is False
    assert history.games(store, -5) == [entry(7)]
    assert history.game(store, -5, 7) == entry(7) and history.game(store, -5, 8) is None


def test_the_last_ten_games_are_kept_the_oldest_first(store: GameStore, clock: FakeClock) -> None:
    for game in (3, 1, 2, *range(4, 13)):
        keep(store, -5, entry(game), clock)
    assert [g["game"] for g in history.games(store, -5)] == list(range(3, 13))
    assert history.GAMES_KEPT == 10


def test_ten_long_twelve_player_games_fit_in_one_item(store: GameStore, clock: FakeClock) -> None:
    for game in range(1, 11):
        keep(store, -5, entry(game, long_game(game)), clock)
    kept = history.games(store, -5)
    assert len(kept) == 10 and all(g["record"]["seats"] for g in kept)
    assert min(len(g["record"]["actions"]) for g in kept) > 50
    size = size_of(Item(history_key(-5), 10, {"games": kept}))
    assert size < history.HISTORY_BYTES < DYNAMODB_ITEM_LIMIT


def test_a_history_past_its_size_drops_its_oldest_games() -> None:
    noise = [random.Random(g).randbytes(100_000).hex() for g in range(1, 5)]  # incompressible
    fat = [entry(g, {"filler": noise[g - 1]}) for g in range(1, 5)]
    kept = history.kept(fat, history_key(-5))
    assert 0 < len(kept) < 4 and kept[-1]["game"] == 4
    assert size_of(Item(history_key(-5), 1, {"games": kept})) <= history.HISTORY_BYTES
    huge = entry(9, {"filler": "".join(noise)})  # too big alone: kept without its record
    assert history.kept([huge], history_key(-5)) == [{**huge, "record": None}]


def test_the_list_for_the_next_game_changes_once_per_update(
    store: GameStore, clock: FakeClock
) -> None:
    assert history.wait_for_next(store, -5, 7, "zh", 100, None, clock) == history.ON
    assert history.wait_for_next(store, -5, 7, "zh", 100, None, clock) is None  # redelivered
    assert history.waiting(store, -5) == {7: "zh"}
    assert history.wait_for_next(store, -5, 8, None, 101, True, clock) == history.ON
    assert history.wait_for_next(store, -5, 7, "zh", 102, None, clock) == history.OFF
    assert history.wait_for_next(store, -5, 7, "zh", 103, False, clock) == history.OFF
    assert history.waiting(store, -5) == {8: None}
    history.drop_waiting(store, -5, 8)
    assert history.waiting(store, -5) == {}


def test_the_list_is_bounded_and_those_told_leave_it(store: GameStore, clock: FakeClock) -> None:
    for user in range(history.WAITING_MAX):
        history.wait_for_next(store, -5, user, "en", 1000 + user, True, clock)
    assert history.wait_for_next(store, -5, 999, "en", 5000, True, clock) == history.FULL
    assert len(history.waiting(store, -5)) == history.WAITING_MAX
    history.told(store, -5, list(range(history.WAITING_MAX - 1)), 6000, clock)
    assert history.waiting(store, -5) == {history.WAITING_MAX - 1: "en"}
    assert store.load(waiting_key(-5)).expires_at is not None
