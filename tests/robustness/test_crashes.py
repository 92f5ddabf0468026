"""An instance dies at each step of handling an update (after the load, after the save, between
two outgoing messages, before the messages are marked delivered); then Telegram delivers the
update again, or the next timer fires. The game goes on from a consistent state, and every
message that belongs to the saved state reaches its player (at least once: a message that went
out just before the death may go out twice)."""

from __future__ import annotations

import json

import pytest

from engine.codec import state_from_dict, state_to_dict
from handlers.entry import lambda_webhook as lambda_entry
from handlers.storage.keeper import LEASE
from testing.drivers import LambdaBot
from testing.fake_telegram import NOT_MODIFIED
from testing.instances import webhook_event
from testing.players import Table
from tests.robustness.crashes import STEPS, Crash, cold_start, crash_at
from tests.robustness.scenes import SCENES, game_of, once, transcript

SAVED = [step for step in STEPS if step != "after_load"]


def after_the_death(bot: LambdaBot, since: int) -> None:
    """Telegram's answers that follow from a death, not from a mistake of the bot: a request
    cut off when its instance died (Telegram got no parameters), and an edit sent again that
    finds its message already as it should be ("not modified", which the bot takes as done)."""
    for call in bot.fake.calls[since:]:
        if call.kind == "refused" and (call.description == NOT_MODIFIED or not call.params):
            call.kind = "error"


def without_times(game: dict) -> dict:
    """A game compared where a redelivery some seconds later may move its deadlines."""
    return {k: v for k, v in game.items() if k not in ("deadline", "hold")}


def consistent(bot: LambdaBot, table: Table) -> None:
    """The stored game replays, owes nothing, and can be played to its end."""
    data = table.data()
    assert data.get("owed", []) == []
    state = state_from_dict(data["engine"])
    assert state_to_dict(state) == data["engine"]
    assert data["status"] == "playing" and data["deadline"] is not None
    seat = table.state.turn
    table.decapitate(seat, seat % 4 + 1)
    assert table.ending() is not None and table.data()["status"] == "over"


def reference(bot: LambdaBot, scene: str, then=None) -> tuple[dict, dict]:
    """What the scene's update, delivered once without a death, sends and saves; or, with
    `then`, what happens after it."""
    table, deed = SCENES[scene](bot)
    update = deed()
    bot.fake.next_updates()
    mark, t0 = len(bot.fake.calls), bot.clock()
    bot.post(update)
    if then is not None:
        mark = len(bot.fake.calls)
        then()
    result = transcript(table, mark), game_of(bot, table, t0)
    table.host.say("/cancel")  # its timers must not fire in the test that follows
    return result


DIES = [("done", step) for step in STEPS] + [("start", "between_messages")]


@pytest.mark.parametrize("scene, step", DIES)
def test_instance_dies_at_each_step_then_telegram_delivers_again_and_all_is_sent(
    lambda_bot: LambdaBot, scene: str, step: str
) -> None:
    expected, expected_game = reference(lambda_bot, scene)

    table, deed = SCENES[scene](lambda_bot)
    update = deed()
    lambda_bot.fake.next_updates()
    mark, t0 = len(lambda_bot.fake.calls), lambda_bot.clock()
    with crash_at(lambda_bot, step, table.chat), pytest.raises(Crash):
        lambda_entry.webhook(webhook_event(update))
    cold_start(lambda_bot)
    lambda_bot.clock.advance(LEASE)  # Telegram tries again a little later
    lambda_bot.post(update)
    after_the_death(lambda_bot, mark)

    assert once(transcript(table, mark)) == once(expected)
    assert without_times(game_of(lambda_bot, table, t0)) == without_times(expected_game)
    consistent(lambda_bot, table)


@pytest.mark.parametrize("step", SAVED)
def test_instance_dies_after_saving_then_the_next_timer_sends_what_it_owed(
    lambda_bot: LambdaBot, step: str
) -> None:
    expected, _ = reference(lambda_bot, "done")
    after, after_game = reference(lambda_bot, "done", lambda: lambda_bot.advance(90))

    table, deed = SCENES["done"](lambda_bot)
    update = deed()
    lambda_bot.fake.next_updates()
    mark, t0 = len(lambda_bot.fake.calls), lambda_bot.clock()
    with crash_at(lambda_bot, step, table.chat), pytest.raises(Crash):
        lambda_entry.webhook(webhook_event(update))
    cold_start(lambda_bot)
    lambda_bot.advance(90)  # Telegram never delivers it again; the turn's timers fire
    after_the_death(lambda_bot, mark)

    expected = {role: expected.get(role, []) + after.get(role, []) for role in {*expected, *after}}
    assert once(transcript(table, mark)) == once(expected)
    assert game_of(lambda_bot, table, t0) == after_game
    consistent(lambda_bot, table)


def test_instance_dies_before_saving_then_the_next_timer_moves_the_game_on(
    lambda_bot: LambdaBot,
) -> None:
    table, deed = SCENES["done"](lambda_bot)
    scout = table.state.turn
    update = deed()
    lambda_bot.fake.next_updates()
    with crash_at(lambda_bot, "after_load", table.chat), pytest.raises(Crash):
        lambda_entry.webhook(webhook_event(update))
    cold_start(lambda_bot)
    lambda_bot.advance(60)  # the press is lost; the speaking moment runs out instead
    over = table.t("speak_over_line", name=table.seat_label(scout))
    assert over in table.group_texts()[-2]
    assert table.state.turn == scout % 4 + 1
    consistent(lambda_bot, table)


@pytest.mark.parametrize("step", STEPS)
def test_timer_instance_dies_at_each_step_then_sqs_delivers_again_and_all_is_sent(
    lambda_bot: LambdaBot, step: str
) -> None:
    expected, expected_game = reference(lambda_bot, "scout", lambda: lambda_bot.advance(60))

    table, deed = SCENES["scout"](lambda_bot)
    t0 = lambda_bot.clock()
    lambda_bot.act(deed)
    mark = len(lambda_bot.fake.calls)
    lambda_bot.clock.advance(60)
    records = [{"messageId": str(i), "body": b} for i, b in enumerate(lambda_bot.due_timers())]
    chats = {json.loads(record["body"])["chat"] for record in records}
    assert chats >= {table.chat}
    with crash_at(lambda_bot, step, table.chat), pytest.raises(Crash):
        lambda_entry.timer({"Records": records})
    cold_start(lambda_bot)
    lambda_bot.clock.advance(LEASE)  # SQS makes the message visible again a while later
    assert lambda_entry.timer({"Records": records}) == {"batchItemFailures": []}
    lambda_bot.settle()
    after_the_death(lambda_bot, mark)

    assert once(transcript(table, mark)) == once(expected)
    if step == "after_load":  # the timeout is applied when the message comes back
        assert without_times(game_of(lambda_bot, table, t0)) == without_times(expected_game)
    else:
        assert game_of(lambda_bot, table, t0) == expected_game
    consistent(lambda_bot, table)
