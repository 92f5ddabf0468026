"""A fake Telegram Bot API server on loopback, for tests that run the real bot against it."""

from testing.fake_telegram.server import (
    BOT_USERNAME,
    NOT_MODIFIED,
    TEST_TOKEN,
    FakeTelegram,
)
from testing.fake_telegram.validation import ApiError
from testing.fake_telegram.world import (
    Button,
    Call,
    CallbackAnswer,
    FakeChat,
    FakeDocument,
    FakeMessage,
    FakeUser,
    MessageVersion,
)

__all__ = [
    "BOT_USERNAME",
    "NOT_MODIFIED",
    "TEST_TOKEN",
    "ApiError",
    "Button",
    "Call",
    "CallbackAnswer",
    "FakeChat",
    "FakeDocument",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "MessageVersion",
]
