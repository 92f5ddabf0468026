"""The webhook entry: who may call it, what it accepts, and updates Telegram delivers twice."""

from __future__ import annotations

import base64
import json

import pytest

from handlers.entry import lambda_webhook as lambda_entry
from testing.drivers import WEBHOOK_SECRET, LambdaBot
from testing.players import Table

UPDATE = {
    "update_id": 900_000_001,
    "message": {
        "message_id": 1,
        "date": 0,
        "chat": {"id": 42, "type": "private", "first_name": "Zed"},
        "from": {"id": 42, "is_bot": False, "first_name": "Zed"},
        "text": "/help",
        "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
    },
}


def secret_headers(secret: str | None) -> dict[str, str]:
    headers = {"content-type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    return headers


@pytest.mark.parametrize("secret", [None, "", "wrong", WEBHOOK_SECRET + "x", WEBHOOK_SECRET[:-1]])
def test_missing_or_wrong_secret_is_forbidden_before_anything_is_built(
    lambda_bot: LambdaBot, secret: str | None
) -> None:
    event = lambda_bot.event(json.dumps(UPDATE), secret_headers(secret))
    assert lambda_entry.webhook(event)["statusCode"] == 403
    assert "app" not in lambda_entry._state  # no store, no token, no Telegram call
    assert lambda_bot.fake.calls == []


def test_no_secret_configured_forbids_everything(
    lambda_bot: LambdaBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBHOOK_SECRET", "")
    event = lambda_bot.event(json.dumps(UPDATE), secret_headers(""))
    assert lambda_entry.webhook(event)["statusCode"] == 403
    assert "app" not in lambda_entry._state


@pytest.mark.parametrize(
    "body, base64_encoded",
    [
        ("", False),
        ("not json", False),
        ("[1, 2]", False),
        ('{"message": {}}', False),
        ('{"update_id": "7"}', False),
        ("%%%not base64", True),
        (base64.b64encode(b"\xff\xfe").decode(), True),
    ],
    ids=["empty", "not-json", "array", "no-update-id", "string-id", "bad-base64", "not-utf8"],
)
def test_a_body_that_is_no_update_is_answered_ok_and_touches_no_store(
    lambda_bot: LambdaBot, body: str, base64_encoded: bool
) -> None:
    store = lambda_bot.store  # a warm function: the store exists and counts its calls
    reads, writes = store.reads, store.writes
    event = lambda_bot.event(body)
    event["isBase64Encoded"] = base64_encoded
    # Not an update Telegram could send again to better effect: a 2xx, so it holds nothing back.
    assert lambda_entry.webhook(event) == {
        "statusCode": 200,
        "headers": {"content-type": "text/plain"},
        "body": "not an update",
    }
    assert (store.reads, store.writes) == (reads, writes)


def test_base64_body_from_api_gateway_is_accepted(lambda_bot: LambdaBot) -> None:
    event = lambda_bot.event(base64.b64encode(json.dumps(UPDATE).encode()).decode())
    event["isBase64Encoded"] = True
    lambda_bot.fake.add_user("Zed", user_id=42, started=True)
    assert lambda_entry.webhook(event)["statusCode"] == 200
    assert lambda_bot.fake.texts(42)[-1].startswith("🎯 Decapitation")


def test_redelivered_press_changes_the_game_once_and_sends_once(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=51)
    seat = state.first
    table.scout(seat, seat % 4 + 1)
    player = table.player_at(seat)
    update = lambda_bot.act(
        lambda: lambda_bot.fake.press(
            player.user, player.user, player.prompt().message_id, table.t("btn_done")
        )
    )
    item = lambda_bot.item(table.chat)
    calls = len(lambda_bot.fake.calls)
    lambda_bot.post(update)
    assert lambda_bot.item(table.chat) == item
    assert lambda_bot.fake.calls[calls:] == []
    assert table.state.turn == seat % 4 + 1


@pytest.mark.parametrize("command", ["/newgame", "/cancel", "/language"])
def test_redelivered_group_command_changes_once_and_answers_once(
    lambda_bot: LambdaBot, command: str
) -> None:
    table = Table.of(lambda_bot, 4)
    if command != "/newgame":
        table.open()
    update = table.host.say(command)
    item = lambda_bot.item(table.chat)
    calls = len(lambda_bot.fake.calls)
    lambda_bot.post(update)
    assert lambda_bot.item(table.chat) == item
    assert lambda_bot.fake.calls[calls:] == []


def test_redelivered_join_joins_once_and_answers_once(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open(table.players[1:2])
    url = table.lobby_message().button(table.t("btn_join")).url
    update = table.players[2].open_link(url)
    item = lambda_bot.item(table.chat)
    calls = len(lambda_bot.fake.calls)
    lambda_bot.post(update)
    assert lambda_bot.item(table.chat) == item
    assert lambda_bot.fake.calls[calls:] == []
    assert len(table.data()["players"]) == 3
