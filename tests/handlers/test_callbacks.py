"""Callback data and join links: what a button carries, in Telegram's 64 bytes."""

from __future__ import annotations

import re

import pytest

from handlers.session.settings import CHOICES
from handlers.telegram import buttondata as callbacks
from handlers.telegram.buttondata import BOARD, GAME, LOBBY, MAX_BYTES, Press

SUPERGROUP = -1_009_999_999_999
GROUP = -4_100_000_001


@pytest.mark.parametrize("kind", [LOBBY, GAME, BOARD])
@pytest.mark.parametrize("chat", [GROUP, SUPERGROUP, 42])
def test_every_button_decodes_to_what_it_was_made_of(kind: str, chat: int) -> None:
    data = callbacks.encode(kind, chat, 12, 345, "d5p1b0")
    assert callbacks.decode(data) == Press(kind, chat, 12, 345, "d5p1b0")


def test_the_longest_buttons_the_bot_makes_fit_in_64_bytes() -> None:
    longest_choice = max(
        (callbacks.choice_arg(key, value) for key, values in CHOICES.items() for value in values),
        key=len,
    )
    for arg in (
        "t:no_first_round_decapitation",
        longest_choice,
        "d12p1b1",
        "x12p0b1",
        "y12.12",
        "again",
    ):
        data = callbacks.encode(GAME, SUPERGROUP, 999_999, 99_999, arg)
        assert len(data.encode()) <= MAX_BYTES


@pytest.mark.parametrize(
    "arg, parsed",
    [
        ("t:spy", ("t", "spy", None)),
        ("t:lang", ("t", "lang", None)),
        ("v:turn_seconds:120", ("v", "turn_seconds", 120)),
        ("v:virtual_players:0", ("v", "virtual_players", 0)),
        ("v:spy_seconds", ("v", "spy_seconds", None)),  # the row's name, no value
        ("start", None),
        ("again", None),
    ],
)
def test_settings_buttons_decode_to_a_switch_or_a_choice(arg: str, parsed: tuple | None) -> None:
    assert callbacks.parse_setting(arg) == parsed
    if parsed and parsed[0] == "v":
        assert callbacks.choice_arg(parsed[1], parsed[2]) == arg
    if parsed and parsed[0] == "t":
        assert callbacks.switch_arg(parsed[1]) == arg


@pytest.mark.parametrize(
    "arg", ["t:", "v:", "v::90", "v:turn_seconds:", "v:turn_seconds:x", "v:turn_seconds:9:9"]
)
def test_malformed_settings_buttons_are_refused(arg: str) -> None:
    with pytest.raises(ValueError):
        callbacks.parse_setting(arg)


def test_data_over_64_bytes_is_never_made() -> None:
    with pytest.raises(ValueError, match="too long"):
        callbacks.encode(GAME, SUPERGROUP, 1, 1, "x" * 50)


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
    assert callbacks.decode(data) is None


@pytest.mark.parametrize("chat", [GROUP, SUPERGROUP, -1])
def test_join_link_payload_survives_telegram_and_names_the_lobby(chat: int) -> None:
    payload = callbacks.join_payload(chat, 7)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload)
    assert callbacks.parse_join(payload) == (chat, 7)


@pytest.mark.parametrize("payload", ["", "hi", "j", "j_", "jabc_1", "j12", "jm12_x", "x1_2"])
def test_other_start_payloads_join_nothing(payload: str) -> None:
    assert callbacks.parse_join(payload) is None
