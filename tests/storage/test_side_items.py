"""Small records against SQLite: user pointers, once-per-update changes, newest-save-wins."""

from __future__ import annotations

import pytest

from handlers.storage import side_items
from handlers.storage.keys import prefs_key, user_key
from handlers.storage.side_items import (
    APPLIED_PREFS,
    POINTED,
    POINTER_KEEPS,
    PREFS_TTL,
    all_pointed,
    pointed_chats,
)
from infra.sqlite_store import SQLiteStore
from infra.store import Conflict, Item


class Racing:
    """A store whose next saves each lose a race: a rival writes first (`rival()` per save)."""

    def __init__(self, store: SQLiteStore, rivals: list) -> None:
        self.store = store
        self.rivals = rivals

    def load(self, key: str) -> Item | None:
        return self.store.load(key)

    def save(self, item: Item) -> Item:
        if self.rivals:
            self.rivals.pop(0)()
        return self.store.save(item)


def test_private_commands_look_in_the_latest_four_groups_forget_in_all(store, clock) -> None:
    for chat in (-1, -2, -3, -4, -5, -6):
        side_items.point_user(store, 7, chat, clock)
    assert pointed_chats(side_items.get(store, user_key(7))) == [-6, -5, -4, -3]
    assert all_pointed(side_items.get(store, user_key(7))) == [-6, -5, -4, -3, -2, -1]
    assert POINTED == 4


def test_pointing_again_at_a_group_moves_it_first_without_doubling_it(store, clock) -> None:
    for chat in (-1, -2, -3, -1):
        side_items.point_user(store, 7, chat, clock)
    assert side_items.get(store, user_key(7))["chats"] == [-1, -3, -2]


def test_a_group_leaves_the_pointer_two_months_after_it_was_last_put_first(store, clock) -> None:
    day = 24 * 3600
    for chat in (-1, -2, -3, -4):  # one every twenty days: the pointer never expires
        side_items.point_user(store, 7, chat, clock)
        clock.now += 20 * day
    clock.now += POINTER_KEEPS - 80 * day  # -1 was put first POINTER_KEEPS ago
    side_items.point_user(store, 7, -5, clock)
    assert all_pointed(side_items.get(store, user_key(7))) == [-5, -4, -3, -2]
    assert set(side_items.get(store, user_key(7))["at"]) == {"-5", "-4", "-3", "-2"}


def test_a_pointer_from_before_groups_were_dated_keeps_them(store, clock) -> None:
    store.save(Item(user_key(7), 0, {"chats": [-1, -2]}, int(clock.now) + 60))
    side_items.point_user(store, 7, -3, clock)
    assert all_pointed(side_items.get(store, user_key(7))) == [-3, -1, -2]


def test_a_fresh_pointer_already_first_is_not_written_again(store, clock) -> None:
    side_items.point_user(store, 7, -1, clock)
    writes = store.writes
    clock.now += PREFS_TTL / 2 - 60
    side_items.point_user(store, 7, -1, clock)
    assert store.writes == writes
    clock.now += 120  # past half its time to live: renewed
    side_items.point_user(store, 7, -1, clock)
    assert store.writes == writes + 1
    assert store.load(user_key(7)).expires_at == int(clock.now) + PREFS_TTL


def test_a_pointer_names_no_group_when_there_is_none() -> None:
    assert pointed_chats(None) == []
    assert pointed_chats({}) == []


def test_a_pointer_that_lost_a_race_keeps_the_rivals_group_too(store, clock) -> None:
    racing = Racing(store, [lambda: side_items.point_user(store, 7, -2, clock)])
    side_items.point_user(racing, 7, -1, clock)
    assert pointed_chats(side_items.get(store, user_key(7))) == [-1, -2]


def test_put_once_applies_a_change_once_per_update_id(store, clock) -> None:
    key = prefs_key(-1)

    def count(data: dict) -> dict:
        return {**data, "n": data.get("n", 0) + 1}

    assert side_items.put_once(store, key, 10, count, clock) is True
    assert side_items.put_once(store, key, 10, count, clock) is False  # redelivered
    assert side_items.put_once(store, key, 11, count, clock) is True
    data = side_items.get(store, key)
    assert data["n"] == 2 and data["applied"] == [10, 11]


def test_put_once_remembers_the_last_updates_only(store, clock) -> None:
    key = prefs_key(-1)
    for update_id in range(APPLIED_PREFS + 2):
        side_items.put_once(store, key, update_id, lambda data: data, clock)
    assert side_items.get(store, key)["applied"] == list(range(2, APPLIED_PREFS + 2))


def test_put_once_that_lost_a_race_applies_its_change_on_the_rivals_record(store, clock) -> None:
    key = prefs_key(-1)

    def rival() -> None:
        side_items.put_once(store, key, 1, lambda data: {**data, "lang": "zh"}, clock)

    racing = Racing(store, [rival])
    assert side_items.put_once(racing, key, 2, lambda data: {**data, "x": 1}, clock) is True
    assert side_items.get(store, key) == {"lang": "zh", "x": 1, "applied": [1, 2]}


def test_put_once_raises_conflict_when_every_attempt_loses(store, clock) -> None:
    key = prefs_key(-1)
    counter = iter(range(1000, 2000))

    def rival() -> None:
        side_items.put_once(store, key, next(counter), lambda data: data, clock)

    racing = Racing(store, [rival] * 1000)
    with pytest.raises(Conflict):
        side_items.put_once(racing, key, 1, lambda data: data, clock)


def test_put_newer_keeps_the_record_of_the_later_save(store, clock) -> None:
    key = prefs_key(-1)
    side_items.put_newer(store, key, {"lang": "zh"}, [100.0, 3], clock)
    side_items.put_newer(store, key, {"lang": "en"}, [100.0, 2], clock)  # an earlier save, late
    assert side_items.get(store, key) == {"lang": "zh", "made_from": [100.0, 3]}
    side_items.put_newer(store, key, {"lang": "en"}, [200.0, 1], clock)  # a later lobby
    assert side_items.get(store, key) == {"lang": "en", "made_from": [200.0, 1]}


def test_small_records_last_a_month(store, clock) -> None:
    side_items.put_newer(store, prefs_key(-1), {}, [1.0, 1], clock)
    side_items.put_once(store, prefs_key(-2), 1, lambda data: data, clock)
    for key in (prefs_key(-1), prefs_key(-2)):
        assert store.load(key).expires_at == int(clock.now) + PREFS_TTL
