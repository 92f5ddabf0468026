"""Presses and their one codec: what a button carries, in Telegram's 64 bytes, and join links."""

from __future__ import annotations

import re

import pytest

from handlers.display import presses
from handlers.display.presses import (
    BOARD,
    LOBBY,
    MAX_BYTES,
    PROMPT,
    RECORDS,
    REMOVAL,
    Button,
    Choose,
    Decapitate,
    Declaring,
    Done,
    ListSeats,
    Predict,
    Scout,
    SpyGuess,
    Toggle,
)
from handlers.session.settings import CHOICES

SUPERGROUP = -1_009_999_999_999
GROUP = -4_100_000_001

EVERY_PRESS = [
    (LOBBY, presses.Leave()),
    (LOBBY, presses.Settings(True)),
    (LOBBY, presses.Settings(False)),
    (LOBBY, presses.Start()),
    (LOBBY, presses.PlayAgain()),
    (LOBBY, Toggle("spy")),
    (LOBBY, Toggle("lang")),
    (LOBBY, Choose("turn_seconds")),
    (LOBBY, Choose("turn_seconds", 120)),
    (PROMPT, Scout(3)),
    (PROMPT, Done()),
    (PROMPT, Decapitate(12)),
    (PROMPT, Decapitate(5, True, False)),
    (PROMPT, Decapitate(5, None, True)),
    (PROMPT, presses.Swap()),
    (PROMPT, presses.Keep()),
    (PROMPT, Predict("red")),
    (PROMPT, Predict("blue")),
    (PROMPT, SpyGuess(3, 11)),
    (PROMPT, presses.ScoutMenu()),
    (PROMPT, presses.StrikeMenu()),
    (PROMPT, presses.TurnMenu()),
    (PROMPT, Declaring(4)),
    (PROMPT, Declaring(4, False)),
    (PROMPT, Declaring(4, True, True)),
    (PROMPT, presses.SpyRed(7)),
    (BOARD, presses.MyCard()),
    (BOARD, ListSeats(True)),
    (BOARD, ListSeats(False)),
    (BOARD, Scout(2)),
    (BOARD, Done()),
    (RECORDS, presses.SendRecord()),
    (RECORDS, presses.CallNext()),
    (RECORDS, presses.StopWaiting()),
    (presses.AWAY, presses.ImBack()),
    (REMOVAL, presses.RemoveSeat(3)),
    (REMOVAL, presses.RemovePlayer(123456789)),
    (REMOVAL, presses.RemoveNobody()),
    (presses.LEAVING, presses.LeaveGame(123456789)),
    (presses.LEAVING, presses.StayInGame(9_999_999_999)),
]


@pytest.mark.parametrize("where, press", EVERY_PRESS)
@pytest.mark.parametrize("chat", [GROUP, SUPERGROUP, 42])
def test_every_button_decodes_to_what_it_was_made_of(chat: int, where: str, press) -> None:
    button = Button(where, chat, 12, 345, press)
    assert presses.decode(presses.encode(button)) == button


@pytest.mark.parametrize(
    "data, button",
    [
        ("c|-4100000001|4000000000|11|e", Button(BOARD, GROUP, 4_000_000_000, 11, Done())),
        (
            "c|-4100000001|4000000000|0|me",
            Button(BOARD, GROUP, 4_000_000_000, 0, presses.MyCard()),
        ),
        ("g|-4100000001|4000000000|11|s3", Button(PROMPT, GROUP, 4_000_000_000, 11, Scout(3))),
        ("g|-4100000001|7|2|x5p1b0", Button(PROMPT, GROUP, 7, 2, Decapitate(5, True, False))),
        ("g|-4100000001|7|2|d3b1", Button(PROMPT, GROUP, 7, 2, Declaring(3, None, True))),
        ("g|-4100000001|7|2|y1.2", Button(PROMPT, GROUP, 7, 2, SpyGuess(1, 2))),
        (
            "l|-4100000001|7|0|v:lobby_minutes:10",
            Button(LOBBY, GROUP, 7, 0, Choose("lobby_minutes", 10)),
        ),
        (
            "r|-4100000001|7|0|u500000001",
            Button(REMOVAL, GROUP, 7, 0, presses.RemovePlayer(500000001)),
        ),
        ("h|-4100000001|0|0|stop", Button(RECORDS, GROUP, 0, 0, presses.StopWaiting())),
    ],
)
def test_buttons_sent_by_the_version_before_still_decode(data: str, button: Button) -> None:
    # A deploy mid-game: the buttons already in the chats carry the same form; their game and
    # version then say whether they are still current.
    assert presses.decode(data) == button
    assert presses.encode(button) == data


def test_the_longest_buttons_the_bot_makes_fit_in_64_bytes() -> None:
    longest = [
        Toggle("no_first_round_decapitation"),
        *(Choose(key, value) for key, values in CHOICES.items() for value in values),
        Declaring(12, True, True),
        Decapitate(12, False, True),
        SpyGuess(12, 12),
        presses.PlayAgain(),
        presses.StayInGame(9_999_999_999),  # a user id as long as Telegram's grow
    ]
    for press in longest:
        data = presses.encode(Button(PROMPT, SUPERGROUP, 999_999, 99_999, press))
        assert len(data.encode()) <= MAX_BYTES


@pytest.mark.parametrize(
    "arg", ["t:", "v:", "v::90", "v:turn_seconds:", "v:turn_seconds:x", "v:turn_seconds:9:9"]
)
def test_malformed_settings_buttons_are_not_ours(arg: str) -> None:
    assert presses.decode(f"{LOBBY}|{GROUP}|1|0|{arg}") is None


@pytest.mark.parametrize(
    "arg", ["d", "dx", "d5p2", "d5b", "d5b1p1", "d-1", "d5q1", "x", "s", "y1."]
)
def test_malformed_game_buttons_are_not_ours(arg: str) -> None:
    assert presses.decode(f"{PROMPT}|{GROUP}|1|0|{arg}") is None


def test_a_press_is_ours_only_where_its_button_sits() -> None:
    assert presses.decode(f"{BOARD}|{GROUP}|1|0|pr") is None  # a prediction is private
    assert presses.decode(f"{LOBBY}|{GROUP}|1|0|e") is None
    assert presses.decode(f"{PROMPT}|{GROUP}|1|0|S").press == presses.ScoutMenu()
    assert presses.decode(f"{BOARD}|{GROUP}|1|0|S").press == ListSeats(True)


def test_data_over_64_bytes_is_never_made() -> None:
    with pytest.raises(ValueError, match="too long"):
        presses.encode(Button(LOBBY, SUPERGROUP, 1, 1, Toggle("x" * 50)))


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "garbage",
        "g|1|2|3",
        "g|1|2|3|4|5",
        "z|1|2|3|S",
        "g|one|2|3|S",
        "g|1|2|v3|S",
        "g|-1|1|0|" + "S" * 60,
        "g|1|2|3|é" + "é" * 30,
    ],
)
def test_anything_else_is_not_one_of_our_buttons(data: str | None) -> None:
    assert presses.decode(data) is None


@pytest.mark.parametrize("chat", [GROUP, SUPERGROUP, -1])
def test_join_link_payload_survives_telegram_and_names_the_lobby(chat: int) -> None:
    payload = presses.join_payload(chat, 7)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload)
    assert presses.parse_join(payload) == (chat, 7)


@pytest.mark.parametrize("payload", ["", "hi", "j", "j_", "jabc_1", "j12", "jm12_x", "x1_2"])
def test_other_start_payloads_join_nothing(payload: str) -> None:
    assert presses.parse_join(payload) is None


def test_a_press_is_equal_hashed_and_immutable_by_its_values_and_kind() -> None:
    """Presses stand in sets and dict keys: equal by kind and values, and never changed."""
    from dataclasses import FrozenInstanceError

    from handlers.display.presses import Decapitate, Declaring, RemovePlayer, RemoveSeat

    assert Decapitate(3) == Decapitate(target=3, proxy=None) and Decapitate(3) != Decapitate(4)
    assert hash(Declaring(2, True)) == hash(Declaring(2, proxy=True))
    assert RemoveSeat(3) != RemovePlayer(3) and len({RemoveSeat(3), RemovePlayer(3)}) == 2
    assert Declaring(2).replace(proxy=False) == Declaring(2, False, None)
    assert repr(Declaring(2)) == "Declaring(target=2, proxy=None, bodyguard=None)"
    with pytest.raises(FrozenInstanceError):
        RemoveSeat(3).seat = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        Decapitate()  # type: ignore[call-arg]
