"""After the reveal: who knew what and when (each player's scouts, the turn the pooled scouts
decided both captains), and the silence rule the bot kept during the game lifted."""

from __future__ import annotations

import pytest

from engine.aftermath import knowable_from
from handlers.display.texts import card_name
from testing.drivers import Bot
from testing.games import after, end_now
from testing.players import Table
from testing.transcript import plain


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reveal_opens_the_floor_where_the_bot_kept_silence(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 5, lang=lang, bot_admin=True)
    table.open()
    table.start(seed=71)
    ending = end_now(table)
    assert ending.text.splitlines()[-1] == table.t("floor_open")
    said = table.players[2].say("gg")
    assert said is not None
    assert not table.fake.chat(table.group)[-1].deleted, "nobody's words are deleted now"


def test_the_reveal_says_nothing_of_the_floor_where_silence_was_left_to_trust(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=72)
    assert table.t("floor_open") not in end_now(table).text


def scout_round(table: Table, rounds: int = 1) -> list[tuple[int, int, int]]:
    """Every player in turn scouts the seat after theirs, `rounds` times round the table; each
    scout as (turn, scout, seat)."""
    scouts = []
    for _ in range(rounds * len(table.players)):
        seat = table.state.turn
        scouts.append((len(scouts) + 1, seat, after(table, seat)))
        table.scout_and_done(seat, after(table, seat))
    return scouts


def aftermath_of(text: str, table: Table) -> list[str]:
    """The reveal's aftermath lines, its title left out."""
    lines = text.splitlines()
    return lines[lines.index(table.t("aftermath_title")) + 1 :]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_aftermath_names_each_players_scouts_in_turn_order_with_what_they_saw(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.start(seed=73)
    scouts = scout_round(table, 2)
    ending = end_now(table)
    cards = table.state.deal
    lines = aftermath_of(ending.text, table)
    for seat in table.state.humans():
        told = [
            table.t("am_scouted", turn=turn, seat=seen, card=card_name(lang, cards[seen - 1]))
            for turn, scout, seen in scouts
            if scout == seat
        ]
        name = table.seat_label(seat)
        value = table.t("sep_clause").join(told)
        assert table.t("labelled", label=name, value=value) in lines


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_aftermath_says_never_for_a_game_decapitated_before_the_captains_were_knowable(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.start(seed=74)
    assert table.t("am_never") in end_now(table).text


def test_the_aftermath_names_the_turn_after_which_the_pooled_scouts_decided_both_captains(
    memory_bot: Bot,
) -> None:
    """Four seats, each scouting the next: by the fourth turn every card was seen."""
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=75)
    scout_round(table)
    text = end_now(table).text
    turn = knowable_from(table.state)
    assert turn is not None and turn <= 4
    assert table.t("am_knowable", turn=turn) in text


def test_a_twelve_seat_game_s_aftermath_fits_in_the_reveal_message(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 12)
    table.open()
    table.start(seed=76)
    scout_round(table, 3)
    ending = end_now(table)
    assert table.t("aftermath_title") in ending.text
    assert len(plain(ending.text)) <= 4096
    assert ending.text.count("\n") > 12 * 2


@pytest.mark.over_http
def test_the_aftermath_through_the_lambda_entries_and_the_local_poller(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    table.start(seed=75)
    scout_round(table)
    text = end_now(table).text
    assert table.t("aftermath_title") in text
    assert len(aftermath_of(text, table)) == 5  # four players, then when the captains were known
