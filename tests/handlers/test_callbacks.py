"""Callback data and join links: what a button carries, in Telegram's 64 bytes."""

from __future__ import annotations

import re

import pytest

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
    for arg in ("t:no_first_round_decapitation", "d12p1b1", "x12p0b1", "y12.12", "again"):
        data = callbacks.encode(GAME, SUPERGROUP, 999_999, 99_999, arg)
        assert len(data.encode()) <= MAX_BYTES


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
