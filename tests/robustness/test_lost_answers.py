"""A write DynamoDB applied whose answer was lost on the way back (the AWS client sends it again,
and that second try fails its condition) counts as done: the messages it owes go out at once,
and the game is where the write left it. Played through the Lambda entries, DynamoDB reached
through a proxy that loses answers, with each AWS client."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine.codec import state_from_dict, state_to_dict
from handlers.storage.keeper import LEASE
from infra.aws import MAX_ATTEMPTS, SWITCH
from testing.aws_proxy import PUT_ITEM, AwsProxy, proxy
from testing.drivers import LambdaBot
from testing.players import Table
from tests.support.faults import give_up_on_stalls_soon

SEED = 11


@pytest.fixture(params=["own", "boto3"])
def faults(
    request: pytest.FixtureRequest, aws: Any, moto_server: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[AwsProxy]:
    """The proxy, set as the bot's DynamoDB endpoint (with the AWS client under test) before
    the bot's first call builds its client, which gives up on a stalled answer soon."""
    monkeypatch.setenv(SWITCH, request.param)
    give_up_on_stalls_soon(monkeypatch)
    with proxy(moto_server) as started:
        monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", started.url)
        yield started


def game_saves(table: Table) -> Any:
    """Matches the PutItems of the group's table."""
    key = f"game#{table.chat}"
    return lambda body: body.get("Item", {}).get("pk", {}).get("S") == key


def turn_message_for(table: Table, seat: int) -> bool:
    """The group's last message is the turn message naming `seat`."""
    texts = table.group_texts()
    return bool(texts) and texts[-1].startswith(f"▶️ {table.seat_label(seat)}'s turn")


def consistent(table: Table) -> None:
    """The stored game replays exactly, owes no message and waits for its next deadline."""
    data = table.data()
    assert state_to_dict(state_from_dict(data["engine"])) == data["engine"]
    assert data["status"] == "playing"
    assert data.get("owed", []) == []
    assert data["deadline"] is not None


def finish(table: Table) -> None:
    seat = table.state.turn
    table.decapitate(seat, seat % 4 + 1)
    assert table.ending() is not None
    assert table.data()["status"] == "over"


def test_a_turn_timeout_whose_save_loses_its_answer_moves_the_game_on_at_once(
    faults: AwsProxy, lambda_bot: LambdaBot
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=SEED)
    late = state.first
    faults.drop_answers(PUT_ITEM, where=game_saves(table))

    lambda_bot.advance(90)  # the turn runs out; the timer's save loses its answer

    assert faults.dropped == [PUT_ITEM]
    skipped = table.t("skipped_line", name=table.seat_label(late))
    assert skipped in table.group_texts()[-2]
    assert turn_message_for(table, late % 4 + 1)  # no extra wait for a lease or a timer
    assert table.player_at(late).labels() == []  # the prompt is closed
    player = table.player_at(late)  # their first turn's prompt, below the card dealt with it
    assert f"{table.dealt(player, state)}\n⌛ Time ran out: turn skipped." in player.texts()
    assert table.state.turn == late % 4 + 1
    consistent(table)
    finish(table)


def test_a_press_whose_save_loses_its_answer_is_answered_and_its_messages_sent(
    faults: AwsProxy, lambda_bot: LambdaBot
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    seat = table.start(seed=SEED).first
    table.scout(seat, seat % 4 + 1)
    faults.drop_answers(PUT_ITEM, where=game_saves(table))

    table.done(seat)  # the press's save loses its answer

    assert faults.dropped == [PUT_ITEM]
    assert turn_message_for(table, seat % 4 + 1)
    assert table.state.turn == seat % 4 + 1
    consistent(table)
    finish(table)


def test_a_press_whose_save_answer_stalls_is_sent_again_and_its_messages_go_out_at_once(
    faults: AwsProxy, lambda_bot: LambdaBot
) -> None:
    """DynamoDB applied the save; its answer stalls past the client's read timeout. The client
    sends it again within the call's deadline, the store finds its own write, and the same
    webhook run sends the next turn message."""
    table = Table.of(lambda_bot, 4)
    table.open()
    seat = table.start(seed=SEED).first
    table.scout(seat, seat % 4 + 1)
    faults.stall_answers(PUT_ITEM, where=game_saves(table))

    table.done(seat)  # the press's save: applied, its answer held back until the client gives up

    assert faults.dropped == [PUT_ITEM]
    assert faults.requests.count(PUT_ITEM) >= 2  # sent again: the write-token check ran
    assert turn_message_for(table, seat % 4 + 1)
    assert table.state.turn == seat % 4 + 1
    consistent(table)
    finish(table)


def test_a_timeout_whose_save_never_gets_an_answer_is_sent_by_a_timer_at_the_lease_end(
    faults: AwsProxy, lambda_bot: LambdaBot
) -> None:
    """Every try's answer stalls: the timer's run fails with its write applied and its messages
    owed. The timer it set at its lease's end sends them, well before the next turn's own."""
    table = Table.of(lambda_bot, 4)
    table.open()
    late = table.start(seed=SEED).first
    faults.stall_answers(PUT_ITEM, times=MAX_ATTEMPTS, where=game_saves(table))

    lambda_bot.advance(90)  # the turn runs out; no try of the timer's save hears back

    assert [type(error) for error in lambda_bot.errors] != []
    lambda_bot.errors.clear()  # the failure this test made on purpose
    assert table.state.turn == late % 4 + 1  # applied,
    assert not turn_message_for(table, late % 4 + 1)  # its messages owed
    lambda_bot.advance(LEASE)
    assert turn_message_for(table, late % 4 + 1)
    assert table.player_at(late).labels() == []
    consistent(table)
    finish(table)
