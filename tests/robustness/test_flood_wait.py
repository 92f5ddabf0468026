"""Telegram's flood waits (a 429 and its retry_after) are never sat out while an update is
handled: what they hold back stays owed behind a timer, an owed message's edits collapse to the
latest, and the turn's deadline moves by the wait. For both entries (the Lambda webhook and
timer on DynamoDB, the local poller on SQLite)."""

from __future__ import annotations

import pytest

from handlers.telegram import outbox
from testing.drivers import Bot
from testing.players import Table

SEED = 71
WAIT = 5  # the longest wait the bot once sat out inside an update


@pytest.fixture(params=["lambda_bot", "local_bot"])
def bot(request: pytest.FixtureRequest) -> Bot:
    """The bot behind its Lambda entries (DynamoDB) and as the local poller runs it (SQLite)."""
    return request.getfixturevalue(request.param)


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every pause the outbox takes before trying a call again, recorded (and not slept)."""
    taken: list[float] = []

    async def recorded(seconds: float) -> None:
        taken.append(seconds)

    monkeypatch.setattr(outbox, "pause", recorded)
    return taken


def dealt(bot: Bot) -> Table:
    table = Table.of(bot, 4)
    table.open()
    table.start(seed=SEED)
    return table


def turn_message_for(table: Table, seat: int) -> bool:
    """The group's current turn message names `seat`."""
    if table.ids().board is None:
        return False
    return table.board().text.startswith(f"▶️ {table.seat_label(seat)}'s turn")


def test_a_flood_wait_is_not_sat_out_in_the_update_and_its_message_arrives_after_the_timer(
    bot: Bot, pauses: list[float]
) -> None:
    table = dealt(bot)
    seat = table.state.turn
    table.scout(seat, seat % 4 + 1)
    bot.fake.fail_next("sendMessage", status=429, retry_after=WAIT, chat_id=table.group)
    table.done(seat)
    assert pauses == []
    assert not turn_message_for(table, seat % 4 + 1)
    bot.advance(WAIT)  # the retry_after has passed: the timer set for it fires
    assert turn_message_for(table, seat % 4 + 1)
    assert table.envelope().get("owed", []) == []


def test_a_flood_wait_moves_the_turns_deadline_by_the_wait(bot: Bot, pauses: list[float]) -> None:
    table = dealt(bot)
    seat = table.state.turn
    table.scout(seat, seat % 4 + 1)
    bot.fake.fail_next("sendMessage", status=429, retry_after=WAIT, chat_id=table.group)
    table.done(seat)
    turn = table.data()["settings"]["turn_seconds"]
    assert table.data()["deadline"] == bot.clock() + turn + WAIT
    bot.advance(turn)  # the turn's own time has passed, not the wait the bot held it
    assert table.refresh() is not None and table.state.turn == seat % 4 + 1
    assert table.state.phase == "turn"


def test_only_the_latest_of_two_owed_edits_of_a_message_is_sent(
    bot: Bot, pauses: list[float]
) -> None:
    table = Table.of(bot, 3)
    table.host.say("/newgame")
    group = table.group
    bot.fake.fail_next("editMessageText", status=429, retry_after=10, times=2, chat_id=group)
    for player in table.players[1:]:
        table.join(player)
    edits = len(bot.fake.calls_to("editMessageText"))
    bot.advance(10)
    sent = [c for c in bot.fake.calls_to("editMessageText")[edits:] if c.kind == "ok"]
    assert len(sent) == 1
    assert all(player.name in sent[0].params["text"] for player in table.players)
    assert all(player.name in table.lobby_message().text for player in table.players)
