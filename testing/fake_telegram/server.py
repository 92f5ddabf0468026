"""FakeTelegram: a Bot API server on 127.0.0.1 that simulates Telegram users, chats and rules.

Point the bot at base_url; play users with send_text()/press(); read chats with chat()/texts()."""

# Usage: Bot(fake.token, base_url=fake.base_url). With an Application polling in the same event
# loop, wait for the bot's answer with `await asyncio.to_thread(fake.wait_for, predicate)`. For a
# webhook, take fake.next_updates() (or set fake.on_update(hook)) and post them yourself, with
# fake.webhook_headers(). Calls that break the Bot API or Telegram's rules are answered with
# Telegram's error and recorded in fake.refused; fake.assert_no_refused() checks there are none.
# Groups have privacy mode: the bot only gets commands, replies to it and service messages,
# unless it is an administrator.

from testing.fake_telegram.callbacks import QUERY_TOO_OLD, Callbacks
from testing.fake_telegram.chats import Chats
from testing.fake_telegram.core import BOT_FIRST_NAME, BOT_USERNAME, TEST_TOKEN
from testing.fake_telegram.faults import Faults
from testing.fake_telegram.messages import NOT_MODIFIED, Messages
from testing.fake_telegram.mini_apps import MiniApps
from testing.fake_telegram.observed import Records
from testing.fake_telegram.profile import Profile
from testing.fake_telegram.serving import Serving
from testing.fake_telegram.updates import Updates

__all__ = [
    "BOT_FIRST_NAME",
    "BOT_USERNAME",
    "NOT_MODIFIED",
    "QUERY_TOO_OLD",
    "TEST_TOKEN",
    "FakeTelegram",
]


class FakeTelegram(
    Serving, Chats, Messages, MiniApps, Callbacks, Updates, Faults, Records, Profile
):
    """A fake Bot API server with simulated users and chats; see the module docstring.

    Its parts, one module each: the HTTP plumbing (`serving`), users and chats (`chats`),
    messages (`messages`), button presses (`callbacks`), Mini Apps opened (`mini_apps`), the
    updates for the bot and their delivery (`updates`), injected faults (`faults`), what a
    test reads (`records`) and the bot's own account (`profile`), all on the shared state of
    `core`.
    """
