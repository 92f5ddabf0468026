"""The rematch Play again opens: those who played are awaited until they press I'm in; when all
have, its countdown ends at once; at its countdown it deals those in, with seats enough, and
closes otherwise."""

from __future__ import annotations

import pytest

from handlers.session import events as ev
from handlers.session.record import from_stored, to_stored
from handlers.session.rematch import REMATCH_SECONDS
from handlers.session.table import LOBBY, PLAYING, Refused, Table
from tests.support.tables import NOW, started

LATER = NOW + 600


def rematch(players: int = 5, by: int = 1, **settings) -> Table:
    """A game of `players` cancelled, and Play again pressed by user `by`."""
    table = started(players, **settings)
    table.cancel("Ann")
    new, _ = table.play_again(table.game, by, f"P{by}", LATER)
    return new


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def test_a_rematch_awaits_everyone_who_played_but_whoever_pressed_play_again() -> None:
    table = rematch(5, by=3)
    assert table.rematch.awaited() == [1, 2, 4, 5]
    assert [uid for uid, _ in table.rematch.players_in()] == [3]
    assert table.deadline() == LATER + REMATCH_SECONDS
    assert table.starts_itself()


def test_everyone_who_played_pressing_im_in_ends_the_countdown_at_once() -> None:
    table = rematch(4)
    for user in (2, 3):
        table.im_in(user, LATER + 5)
        assert table.deadline() == LATER + REMATCH_SECONDS
    assert kinds(table.im_in(4, LATER + 7)) == [ev.LOBBY_SHOWN]
    assert table.deadline() == LATER + 7
    events = table.catch_up(LATER + 7)
    assert table.status == PLAYING and len(table.state.names) == 4
    assert kinds(events)[:2] == [ev.DEALT_ITSELF, ev.SEATING]
    assert events[0]["left"] == []


def test_the_countdown_deals_those_in_and_leaves_out_who_did_not_press() -> None:
    table = rematch(5)
    for user in (2, 3, 4):
        table.im_in(user, LATER + 1)
    events = table.catch_up(LATER + REMATCH_SECONDS)
    assert table.status == PLAYING
    assert sorted(table.record.seats) == [1, 2, 3, 4]
    assert events[0] == ev.event(ev.DEALT_ITSELF, names=["P1", "Ben", "Cat", "Dan"], left=["Eve"])


def test_the_countdown_closes_a_rematch_with_fewer_than_four_seats_in() -> None:
    table = rematch(5)
    table.im_in(2, LATER + 1)
    events = table.catch_up(LATER + REMATCH_SECONDS)
    assert table.status != LOBBY and table.status != PLAYING
    assert events[0]["type"] == ev.LOBBY_EXPIRED
    assert (events[0]["reason"], events[0]["n"]) == ("few", 2)


def test_bot_seats_count_toward_the_four_a_rematch_deals() -> None:
    table = rematch(3, bot_seats=1)
    table.im_in(2, LATER + 1)  # two people and a bot seat: too few
    assert not table.rematch.deals()
    table.im_in(3, LATER + 2)
    table.catch_up(LATER + 2)
    assert table.status == PLAYING and len(table.state.names) == 4


def test_a_player_who_pressed_then_left_is_not_dealt() -> None:
    table = rematch(5)
    for user in (2, 3, 4):
        table.im_in(user, LATER + 1)
    table.leave(4, NOW)
    table.im_in(5, LATER + 2)  # everyone who is still here is in
    table.catch_up(LATER + 2)
    assert table.status == PLAYING and sorted(table.record.seats) == [1, 2, 3, 5]


def test_the_host_leaving_a_rematch_passes_it_on_and_it_still_deals() -> None:
    table = rematch(5)
    for user in (2, 3, 4, 5):
        table.im_in(user, LATER + 1)
    table.leave(1, NOW)
    assert table.creator == 2
    table.catch_up(LATER + REMATCH_SECONDS)
    assert table.status == PLAYING and sorted(table.record.seats) == [2, 3, 4, 5]


def test_start_still_deals_a_rematch_at_once_with_everyone_seated() -> None:
    table = rematch(4)
    table.start(LATER + 1, 3)
    assert table.status == PLAYING and sorted(table.record.seats) == [1, 2, 3, 4]
    assert not table.record.rematch and table.record.awaited == []


@pytest.mark.parametrize(
    ("user", "why"), [(1, "rematch_already_in"), (9, "rematch_join")], ids=["in", "stranger"]
)
def test_im_in_is_refused_to_who_is_in_already_and_to_a_stranger(user: int, why: str) -> None:
    table = rematch(4)
    with pytest.raises(Refused) as refused:
        table.im_in(user, LATER + 1)
    assert refused.value.key == why


def test_a_second_play_again_of_an_awaited_player_is_their_im_in() -> None:
    old = started(4)
    old.cancel("Ann")
    new, _ = old.play_again(old.game, 1, "Ann", LATER)
    assert new.rematch.awaits(old.game, 2)
    assert not new.rematch.awaits(old.game, 1), "who pressed is in"
    assert not new.rematch.awaits(old.game + 1, 2), "another game's button"


def test_a_rematch_is_kept_in_the_stored_part_and_an_ordinary_lobby_stores_as_before() -> None:
    table = rematch(4)
    table.im_in(2, LATER + 1)
    again = Table(from_stored(to_stored(table.record)))
    assert again.rematch.awaited() == [3, 4] and again.starts_itself()
    plain = started(4)
    assert "rematch" not in to_stored(plain.record) and "awaited" not in to_stored(plain.record)
