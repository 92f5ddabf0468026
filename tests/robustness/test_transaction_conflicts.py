"""A plain write that meets the end's transaction is a lost race, never a failure. The end of a
game saves the table, the statistics and the history in one TransactWriteItems; while it is in
progress DynamoDB refuses a plain write to the table's item (TransactionConflictException).
Here the run that passed the turn has sent the next turn message and prompt and goes to mark
them delivered just as the next player's decapitation, a moment later on another Lambda
instance, is ending the game: the mark is refused, reloaded and written after the end. Nothing
is sent twice, not even once the lease has passed and a timer comes, and no button is left
live. Played through the Lambda entries on warm instances, DynamoDB reached through a proxy
that holds the end's transaction open, with each AWS client."""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from handlers.display import presses
from handlers.entry import lambda_webhook as lambda_entry
from handlers.storage.keeper import LEASE
from infra.aws import SWITCH
from testing.aws_proxy import PUT_ITEM, AwsProxy, proxy
from testing.instances import PoolBot, timer_event, webhook_event
from testing.players import Table

from .conftest import Pool, bot_on, open_pool

SEED = 11


@pytest.fixture(scope="module", params=["own", "boto3"])
def faults(moto_server: str, request: pytest.FixtureRequest) -> Iterator[tuple[Pool, AwsProxy]]:
    """Warm Lambda instances reaching DynamoDB through the proxy, with the AWS client under
    test."""
    with (
        proxy(moto_server) as started,
        open_pool(moto_server, endpoint=started.url, count=4, **{SWITCH: request.param}) as opened,
    ):
        yield opened, started


@pytest.fixture
def bot(faults: tuple[Pool, AwsProxy]) -> Iterator[PoolBot]:
    pool, started = faults
    started.clear()
    with bot_on(pool) as pooled:
        yield pooled


def stored(body: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The table a PutItem of `key` writes (None for another item)."""
    item = body.get("Item") or {}
    if item.get("pk", {}).get("S") != key:
        return None
    return json.loads(zlib.decompress(base64.b64decode(item["data"]["B"])))


def delivery_mark(key: str) -> Any:
    """Matches the PutItem that marks the table's messages delivered (it leaves none owed)."""
    return lambda body: (stored(body, key) or {"owed": ["other"]}).get("owed") == []


def the_end(key: str) -> Any:
    """Matches the end's TransactWriteItems, which saves the table with its statistics."""
    return lambda body: any(
        entry.get("Put", {}).get("Item", {}).get("pk", {}).get("S") == key
        for entry in body.get("TransactItems", [])
    )


def live_buttons(table: Table) -> list[tuple[int, str, str]]:
    """The buttons still pressable in the group and its players' chats, except those meant to
    stay after a game (the end's Play again and Record, /history's)."""
    found = []
    for chat in [table.group, *(player.id for player in table.players)]:
        for message in table.fake.chat(chat):
            if not message.from_bot or message.deleted:
                continue
            for row in message.buttons:
                for button in row:
                    pressed = presses.decode(button.callback_data)
                    if pressed is None or pressed.where == presses.RECORDS:
                        continue
                    if isinstance(pressed.press, presses.PlayAgain):
                        continue
                    found.append((chat, (message.text or "").split("\n")[0], button.text))
    return found


@pytest.mark.over_http
def test_a_delivery_mark_meeting_the_ends_transaction_sends_nothing_twice(
    bot: PoolBot, faults: tuple[Pool, AwsProxy]
) -> None:
    pool, started = faults
    table = Table.of(bot, 4)
    table.open()
    passer = table.start(seed=SEED).first
    ender = passer % 4 + 1
    table.scout(passer, ender)
    key = f"game#{table.chat}"
    end = started.hold_transaction(where=the_end(key))
    mark = started.delay_until(end.arrived, PUT_ITEM, where=delivery_mark(key))
    prompt = table.player_at(passer).prompt()
    done = bot.fake.press(
        table.player_at(passer).user, prompt.chat_id, prompt.message_id, table.t("btn_done")
    )
    bot.fake.next_updates()
    since = len(bot.fake.calls)

    # The turn passes on one instance; the mark of what it sent is slow on its way...
    passing = pool.instances.instances[0].submit(lambda: lambda_entry.webhook(webhook_event(done)))
    assert mark.reached.wait(30)
    # ...while the next player, on the other instances, decapitates: the end's transaction
    # is in progress when the mark arrives.
    others = iter(pool.instances.instances[1:] * 10)
    bot.post = lambda update: (
        next(others)
        .submit(  # type: ignore[method-assign]
            lambda: lambda_entry.webhook(webhook_event(update))
        )
        .result(60)
    )
    table.decapitate(ender, passer)
    answer = passing.result(60)
    del bot.post
    if answer["statusCode"] != 200:
        bot.post(done)  # Telegram delivers it again

    assert started.conflicts  # the mark met the end's transaction
    assert answer["statusCode"] == 200  # and the run that passed the turn still ended well
    assert table.ending() is not None
    assert table.envelope().get("owed", []) == []
    bot.clock.advance(LEASE + 1)  # a timer after the lease finds nothing left to send
    assert pool.instances.timer(timer_event(table.chat, bot.clock())) == {"batchItemFailures": []}
    sent = sent_since(bot, since)
    assert len(sent) == len(set(sent)), sorted(sent)
    assert any(chat == table.chat and text.startswith("▶️") for chat, text in sent)
    assert live_buttons(table) == []


def sent_since(bot: PoolBot, since: int) -> list[tuple[int, str]]:
    """The messages the bot has sent (chat and text) since call number `since`."""
    return [
        (int(call.params["chat_id"]), call.params.get("text", ""))
        for call in bot.fake.calls[since:]
        if call.method == "sendMessage" and call.kind == "ok"
    ]
