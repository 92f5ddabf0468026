"""A fake Telegram Bot API server on loopback, for tests that run the real bot against it."""

from tests.fake_telegram.server import BOT_USERNAME, TEST_TOKEN, FakeTelegram
from tests.fake_telegram.validation import ApiError
from tests.fake_telegram.world import (
    Button,
    Call,
    CallbackAnswer,
    FakeChat,
    FakeMessage,
    FakeUser,
    MessageVersion,
)

__all__ = [
    "BOT_USERNAME",
    "TEST_TOKEN",
    "ApiError",
    "Button",
    "Call",
    "CallbackAnswer",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "MessageVersion",
]
