"""The handler tests that talk Telegram use the e2e harness: the same bot, fakes and checks."""

from tests.e2e.conftest import (  # noqa: F401 - fixtures
    aws,
    bot,
    clock,
    lambda_bot,
    local_bot,
)
