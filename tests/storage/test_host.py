"""The host against SQLite: saved versions, redeliveries, owed batches and their lease."""

from __future__ import annotations

import pytest

from handlers.session.table import Table
from handlers.storage.host import LEASE, Host
from handlers.storage.keys import game_key, prefs_key
from handlers.storage.retry import ATTEMPTS
from infra.store import Conflict, Item

CHAT = -100
HELLO = {"op": "send", "chat": CHAT, "text": "hello"}
AGAIN = {"op": "send", "chat": CHAT, "text": "again"}


def lobby(table: Table | None) -> Table:
    """A bare lobby: only what the host reads of a table."""
    return table or Table({"chat": CHAT, "game": 1, "status": "lobby", "opened": 50.0})


def saying(out: dict):
    """A changer that saves the table and owes `out`."""

    def changer(table: Table | None):
        return lobby(table), [out]

    return changer


def unchanged(table: Table | None):
    return None, []


@pytest.fixture
def host(store, clock) -> Host:
    return Host(store, clock=clock)


def test_a_change_reports_the_version_it_saved(host: Host) -> None:
    first = host.change(CHAT, 1, saying(HELLO))
    second = host.change(CHAT, 2, saying(AGAIN))
    assert (first.saved_version, second.saved_version) == (1, 2)
    assert host.store.load(game_key(CHAT)).version == 2
    assert not hasattr(second.table, "saved_version")  # on the result, not the table


def test_a_change_that_saves_nothing_reports_no_version(host: Host) -> None:
    host.change(CHAT, 1, saying(HELLO))
    assert host.change(CHAT, 2, unchanged).saved_version is None


def test_remember_says_latest_only_when_no_change_came_between(host: Host) -> None:
    first = host.change(CHAT, 1, saying(HELLO))
    assert host.remember(CHAT, 1, {}, None, first.keys, saved_version=first.saved_version)
    second = host.change(CHAT, 2, saying(AGAIN))
    host.change(CHAT, 3, saying(HELLO))
    assert not host.remember(CHAT, 1, {}, None, second.keys, saved_version=second.saved_version)


def test_a_redelivered_update_is_not_applied_again(host: Host) -> None:
    calls: list[int] = []

    def counting(table: Table | None):
        calls.append(1)
        return lobby(table), [HELLO]

    first = host.change(CHAT, 1, counting)
    host.remember(CHAT, 1, {}, None, first.keys)
    again = host.change(CHAT, 1, counting)
    assert calls == [1]
    assert again.repeated and again.busy_until is None and again.outs == []


def test_a_redelivery_during_the_lease_is_busy_and_sends_nothing(host: Host, clock) -> None:
    host.change(CHAT, 1, saying(HELLO))  # its run has not reported the message delivered
    start = clock.now
    clock.now += LEASE - 1
    again = host.change(CHAT, 1, saying(HELLO))
    assert again.repeated and again.outs == []
    assert again.busy_until == start + LEASE  # when a timer sends it, should that run have died


def test_a_dead_runs_messages_go_out_with_the_next_change_after_the_lease(
    host: Host, clock
) -> None:
    dead = host.change(CHAT, 1, saying(HELLO))  # this run dies before delivering
    clock.now += LEASE
    nxt = host.change(CHAT, 2, saying(AGAIN))
    assert nxt.outs == [HELLO, AGAIN]
    assert nxt.keys == [*dead.keys, "u2"]
    owed = host.store.load(game_key(CHAT)).data["owed"]
    assert owed == [
        {"key": "u1", "at": clock.now, "outs": [HELLO]},  # claimed: its lease starts again
        {"key": "u2", "at": clock.now, "outs": [AGAIN]},
    ]


def test_a_dead_runs_messages_are_claimed_even_by_a_change_that_saves_nothing(
    host: Host, clock
) -> None:
    host.change(CHAT, 1, saying(HELLO))
    clock.now += LEASE
    claimed = host.change(CHAT, 2, unchanged)
    assert claimed.outs == [HELLO] and claimed.keys == ["u1"]
    assert host.change(CHAT, 3, unchanged).outs == []  # claimed once


def test_acknowledged_batches_are_never_sent_again(host: Host, clock) -> None:
    first = host.change(CHAT, 1, saying(HELLO))
    host.remember(CHAT, 1, {}, None, first.keys)
    clock.now += LEASE * 3
    assert host.change(CHAT, 2, unchanged).outs == []
    assert host.store.load(game_key(CHAT)).data["owed"] == []


def test_messages_telegram_refused_stay_owed_until_their_wait_is_over(host: Host, clock) -> None:
    woken: list[tuple[int, float]] = []
    host.wake = lambda chat, when: woken.append((chat, when))
    first = host.change(CHAT, 1, saying(HELLO))
    host.remember(CHAT, 1, {}, None, first.keys, retry=[HELLO], wait=30.0)
    assert woken == [(CHAT, clock.now + 30.0)]
    clock.now += 29
    assert host.change(CHAT, 2, unchanged).outs == []
    clock.now += 1
    assert host.change(CHAT, 3, unchanged).outs == [HELLO]


def test_put_newer_takes_the_version_the_change_saved(host: Host) -> None:
    key = prefs_key(CHAT)
    early = host.change(CHAT, 1, saying(HELLO))
    late = host.change(CHAT, 2, saying(AGAIN))
    host.put_newer(key, {"lang": "zh"}, late.table, late.saved_version)
    host.put_newer(key, {"lang": "en"}, early.table, early.saved_version)
    assert host.get(key) == {"lang": "zh", "made_from": [50.0, 2]}


def test_a_change_gives_up_with_conflict_after_every_attempt_lost(host: Host, store) -> None:
    saves: list[Item] = []

    def losing(item: Item) -> Item:
        saves.append(item)
        raise Conflict(item.key, item.version)

    store.save = losing
    with pytest.raises(Conflict):
        host.change(CHAT, 1, saying(HELLO))
    assert len(saves) == ATTEMPTS


def test_a_refused_change_is_not_retried(host: Host) -> None:
    calls: list[int] = []

    def refusing(table: Table | None):
        calls.append(1)
        raise ValueError("refused")

    with pytest.raises(ValueError):
        host.change(CHAT, 1, refusing)
    assert calls == [1]
    assert host.load(CHAT) is None


def test_an_upgraded_groups_old_id_finds_its_table(host: Host) -> None:
    new = -1009
    host.change(new, 1, saying(HELLO))
    host.change(CHAT, 2, saying(AGAIN))
    host.point(CHAT, new)
    assert host.store.load(game_key(CHAT)).data["moved_to"] == new
    assert host.change(CHAT, 3, saying(HELLO)).table.data["applied"] == [1, 3]
    assert host.load(CHAT).data["applied"] == [1, 3]


def test_a_delivery_mark_that_cannot_be_written_leaves_the_batch_to_a_timer(
    host: Host, store, clock, caplog: pytest.LogCaptureFixture
) -> None:
    """The messages are out; the mark finds no answer: the update does not fail, and a timer
    at the lease's end sends what is still owed."""
    woken: list[tuple[int, float]] = []
    host.wake = lambda chat, when: woken.append((chat, when))
    first = host.change(CHAT, 1, saying(HELLO))
    save = store.save

    def unanswered(item: Item) -> Item:
        raise TimeoutError("no answer")

    store.save = unanswered
    assert not host.remember(CHAT, 1, {}, None, first.keys, saved_version=1)
    store.save = save

    assert woken == [(CHAT, clock.now + LEASE)]
    assert "could not mark delivered messages: TimeoutError" in caplog.text
    clock.now += LEASE
    assert host.change(CHAT, 2, unchanged).outs == [HELLO]  # the timer's run


def test_a_delivery_mark_losing_every_race_leaves_the_batch_to_a_timer(
    host: Host, store, clock
) -> None:
    woken: list[tuple[int, float]] = []
    host.wake = lambda chat, when: woken.append((chat, when))
    first = host.change(CHAT, 1, saying(HELLO))

    def losing(item: Item) -> Item:
        raise Conflict(item.key, item.version)

    store.save = losing
    assert not host.remember(CHAT, 1, {}, None, first.keys)
    assert woken == [(CHAT, clock.now + LEASE)]


def test_a_change_whose_save_has_no_answer_sets_a_timer_at_its_lease_end(
    host: Host, store, clock
) -> None:
    """The write may have been applied with its messages owed: should nobody come back, the
    timer at the lease's end sends them, as for a run busy elsewhere."""
    woken: list[tuple[int, float]] = []
    host.wake = lambda chat, when: woken.append((chat, when))
    save = store.save

    def applied_unanswered(item: Item) -> Item:
        save(item)
        raise TimeoutError("no answer")

    store.save = applied_unanswered
    with pytest.raises(TimeoutError):
        host.change(CHAT, 1, saying(HELLO))
    store.save = save

    assert woken == [(CHAT, clock.now + LEASE)]
    clock.now += LEASE
    assert host.change(CHAT, None, unchanged).outs == [HELLO]  # the timer's run
