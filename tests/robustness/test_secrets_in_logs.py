"""The bot token and the webhook secret never appear in the logs, at any level, nor in any
answer the webhook gives, whatever happens (a whole game, Telegram's faults, bad calls, a token
Telegram refuses), nor do the players' cards and names."""

from __future__ import annotations

import io
import json
import logging
from urllib.parse import parse_qs, quote

import pytest
from telegram.error import InvalidToken

from handlers.display.texts import card_name
from handlers.entry import lambda_webhook as lambda_entry
from handlers.table.auth import sign_init_data
from infra import redact
from testing.deals import WORKED_EXAMPLE_SEED
from testing.drivers import WEBHOOK_SECRET, Bot, LambdaBot
from testing.fake_telegram import FakeTelegram
from testing.players import Table


def test_token_and_secret_never_reach_the_logs_or_the_answers(
    lambda_bot: LambdaBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    token = lambda_bot.fake.token
    answers = []
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=95)
    seat = state.first
    lambda_bot.fake.fail_next("sendMessage", status=502, chat_id=table.group)
    table.scout(seat, seat % 4 + 1)
    lambda_bot.fake.fail_next("sendMessage", status=429, retry_after=1, chat_id=table.group)
    table.done(seat)
    lambda_bot.fake.fail_next("editMessageText", status=400, chat_id=table.group)
    lambda_bot.advance(90)
    for headers in ({}, {"x-telegram-bot-api-secret-token": "nope"}):
        answers.append(lambda_entry.webhook(lambda_bot.event("{}", headers)))
    answers.append(lambda_entry.webhook(lambda_bot.event("not json")))
    answers.append(lambda_entry.webhook(lambda_bot.event('{"update_id": 1, "message": 5}')))
    table.decapitate(table.state.turn, seat)
    assert table.ending() is not None

    logged = "\n".join(
        f"{r.name} {r.getMessage()} {r.exc_text or ''} {r.args!r}" for r in caplog.records
    )
    assert "sendMessage" in logged  # the calls were logged, at some level
    for secret in (token, token.split(":", 1)[1], WEBHOOK_SECRET):
        assert secret not in logged
        assert secret not in json.dumps(answers)


# Who plays in the log tests: names no log line could hold by chance, in both scripts.
NAMES = ("Quimbleton", "Zephyrine", "Ottoline", "Barnabus", "欧阳靖宇", "Wolcottia")


def worked_example(bot: Bot) -> Table:
    """The card's worked example, to its end, at a table whose players `NAMES` are."""
    table = Table.of(bot, 6, names=NAMES)
    table.open()
    table.start(seed=WORKED_EXAMPLE_SEED)
    table.scout_and_done(1, 5)
    table.scout(2, 3)
    table.done(2)
    table.decapitate(3, 5)
    assert table.ending() is not None
    return table


def logged_text(records: list[logging.LogRecord]) -> str:
    """Everything the records would put in a log: messages, arguments, tracebacks, fields."""
    return "\n".join(
        f"{r.name} {r.getMessage()} {r.exc_text or ''} {r.args!r} {vars(r)!r}" for r in records
    )


@pytest.mark.over_http
def test_cards_and_names_never_reach_the_logs_even_at_debug(
    bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    table = worked_example(bot)

    logged = logged_text(caplog.records)
    assert "sendMessage" in logged  # the calls were logged (httpx, at INFO)
    cards = {card_name(lang, card) for card in table.state.cards for lang in ("en", "zh")}
    assert "Red 4" in cards and "蓝7" in cards
    assert not [card for card in cards if card in logged]
    assert not [name for name in NAMES if name in logged]
    for name in ("telegram", "telegram.ext", "httpx", "httpcore"):
        assert logging.getLogger(name).getEffectiveLevel() >= logging.INFO, name


def lambda_json_handler(sink: io.StringIO) -> logging.Handler:
    """A root handler printing as Lambda's runtime does under the JSON log format."""
    utils = pytest.importorskip(
        "awslambdaric.lambda_runtime_log_utils",
        reason="awslambdaric (Lambda's runtime client) is not installed (pip install -e '.[dev]')",
    )
    handler = logging.StreamHandler(sink)
    handler.terminator = ""  # the formatter ends each line
    handler.setFormatter(utils.JsonFormatter())
    return handler


def test_a_token_telegram_refuses_stays_out_of_what_lambda_prints(
    aws: object, fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    bootstrap = pytest.importorskip("awslambdaric.bootstrap", reason="awslambdaric is absent")
    refused = "123456:ANOTHER-token-that-Telegram-does-not-know-0123456789"
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", refused)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", fake_telegram.url)
    sink = io.StringIO()
    handler = lambda_json_handler(sink)
    root = logging.getLogger()
    root.addHandler(handler)  # the runtime's handler is there before the bot is imported
    lambda_entry.reset()
    update = {"update_id": 7, "message": {"message_id": 1, "date": 0, "text": "/help"}}
    update["message"]["chat"] = {"id": 42, "type": "private"}
    try:
        with pytest.raises(Exception) as raised:  # what reaches the runtime
            lambda_entry.webhook(LambdaBot.event(json.dumps(update)))
        fault = bootstrap.build_fault_result((raised.type, raised.value, raised.tb), None)
    finally:
        root.removeHandler(handler)
        lambda_entry.reset()

    printed = [json.loads(line) for line in sink.getvalue().splitlines()]
    told = [line for line in printed if line.get("errorType") == "InvalidToken"]
    assert told and told[0]["level"] == "ERROR", printed  # the failure went through logging
    assert fault["errorType"] == "InvalidToken" and "rejected" in fault["errorMessage"]
    for secret in (refused, refused.split(":", 1)[1]):
        assert secret not in json.dumps(printed)
        assert secret not in json.dumps(fault)


class _Quoting(Exception):
    """An exception whose message is made of something else than its args."""

    def __init__(self, source: object) -> None:
        super().__init__()
        self.source = [source]

    def __str__(self) -> str:
        return f"made of {self.source}"


def test_an_exception_quoting_a_secret_is_printed_without_it() -> None:
    secret = "0123:a-secret-only-this-test-hides-in-exceptions"
    redact.hide(secret)
    sink = io.StringIO()
    handler = lambda_json_handler(sink)
    root = logging.getLogger()
    root.addHandler(handler)
    redact.hide()  # the handler added since gets the filter, as the bot's entries do
    log = logging.getLogger("handlers.telegram.test")
    errors: list[BaseException] = [
        InvalidToken(f"The token `{secret}` was rejected by the server."),
        OSError(2, "No such file", f"/tmp/{secret}"),
        _Quoting(secret),
    ]
    try:
        for error in errors:
            try:
                try:
                    raise ValueError(f"first {secret}")
                except ValueError as first:
                    raise error from first
            except Exception:
                log.exception("a call failed")
    finally:
        root.removeHandler(handler)

    printed = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [line["errorType"] for line in printed] == [
        "InvalidToken",
        "FileNotFoundError",
        "_Quoting",
    ]
    assert all(redact.REDACTED in line["errorMessage"] for line in printed), printed
    assert secret not in json.dumps(printed)
    assert secret not in str(errors[0]) and secret not in str(errors[0].__cause__)


def test_the_tables_initdata_never_reaches_what_lambda_prints() -> None:
    """A request's `Authorization: tma <initData>` (a credential for an hour) is printed nowhere,
    even should a header, a dict of headers or an exception quote it."""
    user = {"id": 424242, "first_name": "Quimbleton"}
    init = sign_init_data("123456:TEST-log-token", user, "gm1001_2", 1_800_000_000)
    signature = parse_qs(init)["hash"][0]
    sink = io.StringIO()
    handler = lambda_json_handler(sink)
    root = logging.getLogger()
    root.addHandler(handler)
    redact.hide()  # the handler added since gets the filter, as the bot's entries do
    log = logging.getLogger("handlers.entry.test")
    try:
        log.warning("a request: %s", {"authorization": f"tma {init}", "accept": "*/*"})
        log.warning("Authorization: tma %s", init)
        log.warning("%s", json.dumps({"headers": {"Authorization": f"tma {init}"}}))
        try:
            raise ValueError(f"bad header tma {init}")
        except ValueError:
            log.exception("a table request failed")
    finally:
        root.removeHandler(handler)

    printed = sink.getvalue()
    assert printed.count(redact.REDACTED) >= 4
    for part in (init, signature, "Quimbleton", quote(json.dumps(user))[:20]):
        assert part not in printed
