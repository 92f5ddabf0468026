"""The host against SQLite: one read, one conditional save with what is owed, redeliveries,
owed batches and their lease, and the acknowledgement that follows the sending."""

from __future__ import annotations

import threading

import pytest

from handlers.storage.keeper import APPLIED_KEPT, LEASE, Change, Keeper, Loaded, Saved
from handlers.storage.keys import game_key, prefs_key
from infra.store import Conflict, Item
from tests.storage.conftest import START

CHAT = -100
HELLO = {"op": "send", "chat": CHAT, "text": "hello"}
AGAIN = {"op": "send", "chat": CHAT, "text": "again"}


def lobby(session: dict | None) -> dict:
    """A bare lobby's stored session part (the host never reads inside it)."""
    return session or {"form": 2, "chat": CHAT, "game": 1, "status": "lobby", "opened": 50.0}


def saying(host: Keeper, update_id: int | None, out: dict | None) -> Saved:
    """A change to the group's table that owes `out` (None: a change that saves nothing)."""
    loaded = host.load(CHAT)
    session = loaded.session
    if loaded.applied(update_id):
        return host.answer_again(loaded, update_id, session and session.get("deadline"))
    part = lobby(session) if out is not None else None
    return host.save(loaded, Change(part, None, [out] if out else []), update_id)


def delivered(host: Keeper, saved: Saved, **kw) -> bool:
    """The change's messages went out: the second phase."""
    return host.acknowledge(CHAT, 1, saved.item, kw.pop("ids", {}), None, saved.keys, **kw)


@pytest.fixture
def host(store, clock) -> Keeper:
    return Keeper(store, clock=clock)


def test_a_change_reports_the_version_it_saved(host: Keeper) -> None:
    first = saying(host, 1, HELLO)
    second = saying(host, 2, AGAIN)
    assert (first.version, second.version) == (1, 2)
    assert host.store.load(game_key(CHAT)).version == 2


def test_a_change_that_saves_nothing_reports_no_version(host: Keeper) -> None:
    saying(host, 1, HELLO)
    assert saying(host, 2, None).version is None


def test_a_save_over_an_item_changed_since_it_was_read_is_a_conflict(host: Keeper) -> None:
    saying(host, 1, HELLO)
    loaded = host.load(CHAT)
    saying(host, 2, AGAIN)  # another run saves first
    with pytest.raises(Conflict):
        host.save(loaded, Change(loaded.session, None, [HELLO]), 3)
    assert host.load(CHAT).item.data["applied"] == [1, 2]


def test_the_acknowledgement_writes_over_the_item_as_saved_without_reading_it(
    host: Keeper, store
) -> None:
    first = saying(host, 1, HELLO)
    reads = store.reads
    assert delivered(host, first)
    assert store.reads == reads
    assert host.load(CHAT).owed() == []


def test_the_acknowledgement_says_latest_only_when_no_change_came_between(host: Keeper) -> None:
    second = saying(host, 1, HELLO)
    saying(host, 2, AGAIN)
    assert not delivered(host, second)  # written all the same, over the newer item
    owed = host.load(CHAT).owed()
    assert [batch.key for batch in owed] == ["u2"]


def test_redelivered_update_ids_are_remembered_but_only_the_recent_ones(host: Keeper) -> None:
    for update_id in range(100):
        saying(host, update_id, HELLO)
    loaded = host.load(CHAT)
    assert loaded.applied(99) and loaded.applied(100 - APPLIED_KEPT)
    assert not loaded.applied(99 - APPLIED_KEPT)
    assert saying(host, 99, HELLO).repeated


def test_a_redelivered_update_is_answered_from_the_item_as_read(host: Keeper) -> None:
    first = saying(host, 1, HELLO)
    delivered(host, first)
    loaded = host.load(CHAT)
    assert loaded.applied(1) and not loaded.applied(2)
    again = host.answer_again(loaded, 1, None)
    assert again.repeated and again.busy_until is None and again.outs == []


def test_a_redelivery_during_the_lease_is_busy_and_sends_nothing(host: Keeper, clock) -> None:
    saying(host, 1, HELLO)  # its run has not reported the message delivered
    start = clock.now
    clock.now += LEASE - 1
    again = saying(host, 1, HELLO)
    assert again.repeated and again.outs == []
    assert again.busy_until == start + LEASE  # when a timer sends it, should that run have died


def test_a_dead_runs_messages_go_out_with_the_next_change_after_the_lease(
    host: Keeper, clock
) -> None:
    dead = saying(host, 1, HELLO)  # this run dies before delivering
    clock.now += LEASE
    nxt = saying(host, 2, AGAIN)
    assert nxt.outs == [HELLO, AGAIN]
    assert nxt.keys == [*dead.keys, "u2"]
    owed = host.store.load(game_key(CHAT)).data["owed"]
    assert owed == [
        {"key": "u1", "at": clock.now, "outs": [HELLO]},  # claimed: its lease starts again
        {"key": "u2", "at": clock.now, "outs": [AGAIN]},
    ]


def test_a_dead_runs_messages_are_claimed_even_by_a_change_that_saves_nothing(
    host: Keeper, clock
) -> None:
    saying(host, 1, HELLO)
    clock.now += LEASE
    claimed = saying(host, 2, None)
    assert claimed.outs == [HELLO] and claimed.keys == ["u1"]
    assert saying(host, 3, None).outs == []  # claimed once


def test_acknowledged_batches_are_never_sent_again(host: Keeper, clock) -> None:
    delivered(host, saying(host, 1, HELLO))
    clock.now += LEASE * 3
    assert saying(host, 2, None).outs == []
    assert host.store.load(game_key(CHAT)).data["owed"] == []


def test_messages_telegram_refused_stay_owed_until_their_wait_is_over(host: Keeper, clock) -> None:
    woken: list[tuple[int, float]] = []
    host.wake = lambda chat, when: woken.append((chat, when))
    delivered(host, saying(host, 1, HELLO), retry=[HELLO], wait=30.0)
    assert woken == [(CHAT, clock.now + 30.0)]
    clock.now += 29
    assert saying(host, 2, None).outs == []
    clock.now += 1
    assert saying(host, 3, None).outs == [HELLO]


def test_put_newer_takes_the_version_the_change_saved(host: Keeper) -> None:
    key = prefs_key(CHAT)
    early = saying(host, 1, HELLO)
    late = saying(host, 2, AGAIN)
    host.put_newer(key, {"lang": "zh"}, 50.0, late)
    host.put_newer(key, {"lang": "en"}, 50.0, early)
    assert host.get(key) == {"lang": "zh", "made_from": [50.0, 2]}


def test_an_item_is_read_in_its_three_parts_each_as_its_owner_stored_it(host: Keeper) -> None:
    saying(host, 1, HELLO)
    loaded = host.load(CHAT)
    data = loaded.item.data
    assert (loaded.session, loaded.telegram) == (data["session"], data["telegram"])
    assert loaded.envelope.applied == (1,) and [b.key for b in loaded.owed()] == ["u1"]


def test_small_records_are_read_in_the_same_call(host: Keeper, store) -> None:
    saying(host, 1, HELLO)
    store.save(Item(prefs_key(CHAT), 0, {"lang": "zh"}))
    loaded = host.load(CHAT, [prefs_key(CHAT)])
    assert isinstance(loaded, Loaded) and loaded.session is not None
    assert loaded.records[prefs_key(CHAT)].data == {"lang": "zh"}


def test_an_upgraded_groups_old_id_finds_its_table(host: Keeper) -> None:
    new = -1009
    loaded = host.load(new)
    host.save(loaded, Change({**lobby(None), "chat": new}, None, [HELLO]), 1)
    saying(host, 2, AGAIN)
    host.point(CHAT, new)
    assert host.store.load(game_key(CHAT)).data["moved_to"] == new
    moved = host.load(CHAT)
    assert moved.chat == new
    host.save(moved, Change(moved.session, None, [HELLO]), 3)
    assert host.load(CHAT).item.data["applied"] == [1, 3]


def test_a_delivery_mark_that_cannot_be_written_leaves_the_batch_to_a_timer(
    host: Keeper, store, clock, caplog: pytest.LogCaptureFixture
) -> None:
    """The messages are out; the mark finds no answer: the update does not fail, and a timer
    at the lease's end sends what is still owed."""
    woken: list[tuple[int, float]] = []
    host.wake = lambda chat, when: woken.append((chat, when))
    first = saying(host, 1, HELLO)
    save = store.save

    def unanswered(item: Item) -> Item:
        raise TimeoutError("no answer")

    store.save = unanswered
    assert not delivered(host, first)
    store.save = save

    assert woken == [(CHAT, clock.now + LEASE)]
    assert "could not mark delivered messages: TimeoutError" in caplog.text
    clock.now += LEASE
    assert saying(host, 2, None).outs == [HELLO]  # the timer's run


def test_a_delivery_mark_losing_every_race_leaves_the_batch_to_a_timer(
    host: Keeper, store, clock
) -> None:
    woken: list[tuple[int, float]] = []
    host.wake = lambda chat, when: woken.append((chat, when))
    first = saying(host, 1, HELLO)

    def losing(item: Item) -> Item:
        raise Conflict(item.key, item.version)

    store.save = losing
    assert not delivered(host, first)
    assert woken == [(CHAT, clock.now + LEASE)]


def test_a_change_whose_save_has_no_answer_sets_a_timer_at_its_lease_end(
    host: Keeper, store, clock
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
        saying(host, 1, HELLO)
    store.save = save

    assert woken == [(CHAT, clock.now + LEASE)]
    clock.now += LEASE
    assert saying(host, None, None).outs == [HELLO]  # the timer's run


def counting_down(loaded: Loaded) -> Change:
    """A change to a lobby with a deadline (so it sets a timer), owing HELLO."""
    part = {**lobby(loaded.session), "deadline": START + 60}
    return Change(part, None, [HELLO], wake=START + 60)


def test_an_updates_timer_goes_out_while_its_save_is_under_way(store, clock) -> None:
    """Off the critical path: the timer message and the conditional write travel together."""
    saving = threading.Event()
    seen: list[bool] = []
    save = store.save

    def save_seen(item: Item) -> Item:
        saving.set()
        return save(item)

    def wake(chat: int, when: float) -> None:
        seen.append(saving.wait(2.0))  # a wake sent before the save never sees it begin

    store.save = save_seen
    host = Keeper(store, wake, clock, aside=True)
    loaded = host.load(CHAT)
    host.save(loaded, counting_down(loaded), 1)
    assert seen == [True]
    assert host.load(CHAT).session["deadline"] == START + 60


def test_a_redelivery_sets_the_timer_again_after_a_run_that_lost_it(store, clock) -> None:
    """A run that dies (or fails) once its save is in but before its timer is: Telegram
    delivers the update again, and that redelivery sets the table's timer."""
    woken: list[tuple[int, float]] = []

    def wake(chat: int, when: float) -> None:
        if len(woken) < 2:  # the timer beside the save, and the try after it
            woken.append((0, 0.0))
            raise TimeoutError("no answer")
        woken.append((chat, when))

    host = Keeper(store, wake, clock, aside=True)
    loaded = host.load(CHAT)
    with pytest.raises(TimeoutError):
        host.save(loaded, counting_down(loaded), 1)
    assert host.load(CHAT).applied(1)
    again = saying(host, 1, HELLO)
    assert again.repeated and woken[2:] == [(CHAT, START + 60)]


def test_a_timer_lost_beside_the_save_is_sent_again_at_once(store, clock) -> None:
    """The save is in: one lost timer message is sent again before the run goes on."""
    woken: list[tuple[int, float]] = []

    def wake(chat: int, when: float) -> None:
        woken.append((chat, when))
        if len(woken) == 1:
            raise TimeoutError("no answer")

    host = Keeper(store, wake, clock, aside=True)
    loaded = host.load(CHAT)
    saved = host.save(loaded, counting_down(loaded), 1)
    assert saved.version == 1 and woken == [(CHAT, START + 60)] * 2


def test_a_timers_run_sets_the_next_timer_before_its_save(store, clock) -> None:
    """A run with no update to be delivered again (a timer's) keeps the order that loses no
    timer: the timer first, then the save."""
    saves: list[int] = []
    save = store.save

    def save_counted(item: Item) -> Item:
        saves.append(1)
        return save(item)

    store.save = save_counted
    seen: list[int] = []
    host = Keeper(store, lambda chat, when: seen.append(len(saves)), clock, aside=True)
    loaded = host.load(CHAT)
    host.save(loaded, counting_down(loaded), None)
    assert seen == [0] and saves == [1]
