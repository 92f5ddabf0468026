"""A group's table without Telegram: the lobby, turns, deadlines, holds and what each says."""

from __future__ import annotations

import contextlib

import pytest

from engine import Action, captains
from engine.actions import END_TURN, SCOUT, SWAP
from engine.variants import Variants
from handlers.session import events as ev
from handlers.session.holds import Hold
from handlers.session.settings import CHOICES, DEFAULT_SETTINGS, clean_settings, set_setting
from handlers.session.table import LOBBY_SECONDS, Refused, Table
from testing.deals import find_seed, lone_x, x_apart
from tests.support.tables import CHAT, NOW, lobby, started


def line_kinds(shown: dict) -> list[str]:
    """The kinds of the lines of a turn message as shown (engine events, or [kind, ...])."""
    return [
        line["type"] if isinstance(line, dict) else line[0] for line in shown["board"]["lines"]
    ]


def refusal(call) -> str:
    with pytest.raises(Refused) as caught:
        call()
    return caught.value.key


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def test_new_lobby_seats_its_creator_and_closes_unstarted_when_its_countdown_ends() -> None:
    table, events = Table.open_lobby(CHAT, 3, 1, "Ann", "en", {}, NOW, "Club")
    assert table.players == [[1, "Ann"]] and table.game == 3
    assert table.deadline() == NOW + 300 < NOW + LOBBY_SECONDS
    assert kinds(events) == [ev.LOBBY_OPENED]
    events = table.catch_up(NOW + 300)
    assert table.status == "cancelled" and table.deadline() is None
    assert kinds(events) == [ev.LOBBY_EXPIRED]


def test_lobby_takes_twelve_players_once_each() -> None:
    table = lobby(12)
    assert refusal(lambda: table.join(13, "Mo")) == "lobby_full"
    assert refusal(lambda: table.join(2, "Ben")) == "already_joined"
    table.leave(2, NOW)
    assert refusal(lambda: table.leave(2, NOW)) == "not_in_lobby"
    table.join(13, "Mo")
    assert len(table.players) == 12


def test_start_needs_four_players() -> None:
    table = lobby(3)
    assert refusal(lambda: table.start(NOW, 1)) == "need_players"
    table.join(4, "Dan")
    table.start(NOW, 1)
    assert table.status == "playing"
    assert refusal(lambda: table.join(5, "Eve")) == "lobby_gone"
    assert refusal(lambda: table.start(NOW, 1)) == "lobby_gone"
    assert refusal(lambda: table.change_setting("spy")) == "lobby_gone"


def test_players_with_the_same_name_are_told_apart() -> None:
    table, _ = Table.open_lobby(CHAT, 1, 1, "Sam", "en", {}, NOW)
    for uid in (2, 3, 4):
        table.join(uid, "Sam")
    table.start(NOW, 1)
    assert sorted(table.state.names) == ["Sam·A", "Sam·B", "Sam·C", "Sam·D"]
    for seat, name in enumerate(table.state.names, 1):
        assert table.user_at(seat) == "ABCD".index(name[-1]) + 1


def test_switches_toggle_and_unknown_keys_or_choices_are_refused() -> None:
    table = lobby()
    table.change_setting("spy")
    assert table.settings["spy"] is True
    table.change_setting("lang")
    assert table.lang == "zh"
    assert refusal(lambda: table.change_setting("nonsense")) == "bad_button"
    assert refusal(lambda: table.change_setting("chat")) == "bad_button"
    # A choice is set to a value, never stepped.
    assert refusal(lambda: table.change_setting("turn_seconds")) == "bad_button"
    assert table.settings["turn_seconds"] == 90


def test_set_setting_takes_only_a_value_listed_in_choices() -> None:
    table = lobby()
    for key, options in CHOICES.items():
        for value in reversed(options):
            assert table.set_setting(key, value) == [{"type": "lobby_shown"}]
            assert table.settings[key] == value
    table.set_setting("turn_seconds", 30)
    for key, value in [
        ("turn_seconds", 100),  # not a choice
        ("turn_seconds", "60"),
        ("turn_seconds", 60.0),
        ("virtual_players", True),  # a bool is no count of players
        ("virtual_players", 3),
        ("spy", True),  # a switch has no choices
        ("lang", 1),
        ("nonsense", 1),
    ]:
        assert refusal(lambda k=key, v=value: table.set_setting(k, v)) == "bad_button"
    assert table.settings["turn_seconds"] == 30 and table.settings["virtual_players"] == 0
    table.start(NOW, 1)
    assert refusal(lambda: table.set_setting("turn_seconds", 60)) == "lobby_gone"


def test_set_setting_on_a_settings_dict_says_whether_it_took_the_value() -> None:
    settings = clean_settings({})
    assert set_setting(settings, "spy_seconds", 30) and settings["spy_seconds"] == 30
    assert not set_setting(settings, "spy_seconds", 25) and settings["spy_seconds"] == 30
    assert not set_setting(settings, "observer", True) and settings["observer"] is False


def test_saved_settings_out_of_range_or_of_the_wrong_type_are_ignored() -> None:
    saved = {
        "turn_seconds": 7,
        "virtual_players": True,
        "spy": "yes",
        "speak_seconds": 45,
        "observer": True,
        "unknown": 1,
    }
    settings = clean_settings(saved)
    assert settings == {**DEFAULT_SETTINGS, "speak_seconds": 45, "observer": True}
    assert clean_settings(None) == DEFAULT_SETTINGS


def test_only_the_seat_waited_for_may_act() -> None:
    table = started()
    first = table.state.first
    user = table.user_at(first)
    other = table.user_at(first % 4 + 1)
    version = table.state.version
    assert refusal(lambda: table.act(99, Action(SCOUT, 1, target=2), NOW)) == "not_a_player"
    seat = first % 4 + 1
    scout = Action(SCOUT, seat, target=first)
    assert refusal(lambda: table.act(other, scout, NOW)) == "not_your_turn"
    assert refusal(lambda: table.act(user, scout, NOW)) == "bad_button"  # someone else's seat
    assert refusal(lambda: table.act(user, Action(END_TURN, first), NOW)) == "too_late"
    assert table.state.version == version
    table.act(user, Action(SCOUT, first, target=seat), NOW)
    assert table.speaker() == user


def test_turn_deadline_skips_the_turn_and_idle_round_cancels() -> None:
    table = started(turn_seconds=30)
    first = table.state.first
    assert table.deadline() == NOW + 30
    assert table.catch_up(NOW + 14) == []
    events = table.catch_up(NOW + 29)
    assert table.state.turn == first, "a reminder is not a timeout"
    assert kinds(events) == [ev.BOARD_SHOWN, ev.HURRY]
    assert events[0]["seconds"] == 1 and not events[0]["final"]
    assert (events[1]["seat"], events[1]["seconds"]) == (first, 1)
    assert table.catch_up(NOW + 29) == [], "the countdown is refreshed once"
    events = table.catch_up(NOW + 30)
    assert table.state.turn == first % 4 + 1
    closed = next(e for e in events if e["type"] == ev.BOARD_SHOWN and e["final"])
    assert closed["board"]["lines"][-1]["type"] == "timed_out"
    told = next(e for e in events if e["type"] == ev.PROMPT_CLOSED)
    assert (told["seat"], told["quiet"], told["tell"]) == (first, False, True)
    assert told["outcome"] == {"act": "timeout", "phase": "turn"}
    for step in (2, 3, 4):
        table.catch_up(NOW + 30 * step)
    assert table.status == "cancelled"
    *_, last, closing = table.record.board.lines
    assert last["type"] == "timed_out"
    assert closing == ["cancelled"]  # the turn message says the game was cancelled


def test_countdown_is_refreshed_once_shortly_before_the_deadline() -> None:
    table = started(turn_seconds=60)
    assert table.next_wake() == NOW + 45
    events = table.catch_up(NOW + 45)
    assert kinds(events) == [ev.BOARD_SHOWN, ev.HURRY]
    assert events[0]["seconds"] == 15
    assert table.next_wake() == table.deadline() == NOW + 60


def test_secret_windows_get_no_countdown_refresh() -> None:
    table = started(7, turn_seconds=30, turncoat=True, turncoat_seconds=30)
    first = table.state.first
    table.act(table.user_at(first), Action(SCOUT, first, target=first % 7 + 1), NOW)
    assert table.next_wake() == table.deadline() == NOW + 30, "the Turncoat's window is fixed"


def test_late_wake_skips_one_turn_and_gives_the_next_player_a_whole_turn() -> None:
    table = started(6, turn_seconds=30)
    table.catch_up(NOW + 10_000)
    assert table.status == "playing"
    assert table.record.skips == 1
    assert table.deadline() == NOW + 10_030


def test_turncoat_window_holds_the_group_news_and_the_scout() -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = started(7, seed, turncoat=True, turncoat_seconds=10)
    first = table.state.first
    holder = lone_x(table.state)
    scout_user, holder_user = table.user_at(first), table.user_at(holder)
    events = table.act(scout_user, Action(SCOUT, first, target=holder), NOW)
    shown = [e for e in events if e["type"] == ev.BOARD_SHOWN]
    assert len(shown) == 1 and "speak" not in line_kinds(shown[0])
    assert table.deadline() == NOW + 10 and table.speaker() is None
    end = Action(END_TURN, first)
    assert refusal(lambda: table.act(scout_user, end, NOW)) == "not_your_turn"
    events = table.act(holder_user, Action(SWAP, holder), NOW + 1)
    assert set(kinds(events)) == {ev.PRIVATE, ev.PROMPT_CLOSED}  # new cards, the offer closed
    closed = next(e for e in events if e["type"] == ev.PROMPT_CLOSED)
    assert (closed["user"], closed["quiet"]) == (holder_user, True)
    assert closed["outcome"] == {"act": "swap", "seat": holder, "scout": first}
    private = [e["event"] for e in events if e["type"] == ev.PRIVATE]
    cards = [e["to"] for e in private if e["type"] == "new_card"]
    assert [table.user_at(seat) for seat in cards] == [scout_user, holder_user]
    assert table.catch_up(NOW + 9) == []
    events = table.catch_up(NOW + 10)
    board = next(e for e in events if e["type"] == ev.BOARD_SHOWN)
    assert {"speak", "swapped"} <= set(line_kinds(board))
    assert table.speaker() == scout_user
    table.act(scout_user, end, NOW + 11)
    assert table.state.turn != first


def test_cancel_closes_the_lobby_or_the_turn_message_once() -> None:
    table = lobby()
    events = table.cancel("Ann")
    assert events == [{"type": ev.CANCELLED, "by": "Ann", "was_lobby": True}]
    assert refusal(lambda: table.cancel("Ann")) == "cancel_none"
    table = started()
    tag = table.record.board.tag
    events = table.cancel("Ann")
    assert kinds(events) == [ev.BOARD_SHOWN, ev.CANCELLED, ev.PROMPT_CLOSED]
    assert events[2]["outcome"] == {"act": "cancelled"} and table.record.prompts == {}
    assert events[0]["board"]["tag"] == tag and events[0]["final"]
    state = table.state
    assert events[1] == {
        "type": ev.CANCELLED,
        "by": "Ann",
        "was_lobby": False,
        "cards": list(state.cards),
        "set_aside": list(state.set_aside),
        "captains": captains(state.cards),
    }
    assert table.deadline() is None and table.speaker() is None


def test_a_lost_player_back_during_a_secret_wait_is_not_announced() -> None:
    table = started(7, seed=1, turncoat=True)
    user = table.user_at(2)
    assert table.lost_touch([user]) and not table.lost_touch([user])
    table.hold = Hold(NOW + 20)  # a Turncoat's window runs
    assert table.back_in_touch(user) == []
    assert table.unreachable() == [] and table.back_in_touch(user) is None


def test_a_wait_whose_prompt_failed_is_cut_to_thirty_seconds_once() -> None:
    table = started()
    user = table.user_at(table.state.turn)
    assert table.deadline() == NOW + 90
    news = table.out_of_reach([user], [user], NOW + 5)
    assert kinds(news) == [ev.REACH_SHOWN, ev.BOARD_SHOWN] and news[1]["seconds"] == 30
    assert table.deadline() == NOW + 35 and table.next_wake() == NOW + 20  # refreshed once
    assert table.out_of_reach([user], [user], NOW + 6) is None  # known, and cut already
    assert table.blocked() == [user]


def test_only_the_waited_players_failed_prompt_cuts_the_wait() -> None:
    table = started()
    other = table.user_at(table.state.turn % 4 + 1)
    assert kinds(table.out_of_reach([other], [], NOW + 5)) == [ev.REACH_SHOWN]
    assert table.deadline() == NOW + 90 and table.blocked() == []
    late = table.user_at(table.state.turn)
    assert kinds(table.out_of_reach([late], [], NOW + 70)) == [ev.REACH_SHOWN]
    assert table.deadline() == NOW + 90  # 20 s left: nothing to cut


def test_a_secret_wait_is_never_cut() -> None:
    table = started(7, seed=1, turncoat=True)
    user = table.user_at(table.state.turn)
    table.hold = Hold(NOW + 20)  # a Turncoat's window runs
    table.record.deadline = NOW + 20
    assert kinds(table.out_of_reach([user], [], NOW + 1)) == [ev.REACH_SHOWN]
    assert table.deadline() == NOW + 20


def test_who_is_back_in_a_game_is_kept_until_they_are_lost_again() -> None:
    table = started()
    user = table.user_at(2)
    table.out_of_reach([user], [user], NOW)
    assert kinds(table.back_in_touch(user)) == [ev.BACK]
    assert table.reached_again() == [user] and table.blocked() == []
    table.out_of_reach([user], [], NOW + 1)
    assert table.reached_again() == [] and table.unreachable() == [user]


def test_a_comeback_in_a_secret_wait_shows_on_the_warning_only_at_its_next_redraw_after() -> None:
    table = started(7, seed=1, turncoat=True)
    held, other, later = (table.user_at(seat) for seat in (2, 3, 4))
    table.out_of_reach([held], [held], NOW)
    table.hold = Hold(NOW + 20)  # a Turncoat's window runs
    assert table.back_in_touch(held) == []
    assert kinds(table.out_of_reach([other], [], NOW + 1)) == [ev.REACH_SHOWN]
    # Drawn again in the window, the warning reads as before the comeback (and the new one).
    assert table.out_of_touch() == [held, other] and table.blocked() == [held]
    assert table.reached_again() == []
    table.hold = None  # the window closed
    assert table.out_of_touch() == [held, other]  # its end tells nothing
    assert kinds(table.out_of_reach([later], [], NOW + 30)) == [ev.REACH_SHOWN]
    assert table.out_of_touch() == [other, later] and table.reached_again() == [held]


def test_extend_adds_two_minutes_up_to_an_hour_after_the_lobby_opened() -> None:
    table = lobby(3)
    assert table.deadline() == NOW + 300
    events = table.extend("Ben", NOW + 10)
    assert kinds(events) == [ev.LOBBY_SHOWN, ev.EXTENDED] and table.deadline() == NOW + 420
    for _ in range(30):
        with contextlib.suppress(Refused):
            table.extend("Ben", NOW + 10)
    assert table.deadline() == NOW + LOBBY_SECONDS
    assert refusal(lambda: table.extend("Ben", NOW + 10)) == "extend_max"
