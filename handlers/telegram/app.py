"""The Application: every handler registered, built once per process."""

from __future__ import annotations

import logging

from telegram import BotCommand, BotCommandScopeAllGroupChats, Update, User
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ExtBot,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import HTTPXRequest

from handlers.display.texts import COMMANDS, EN
from handlers.table import passes
from handlers.telegram.absence import remove
from handlers.telegram.buttons import on_press
from handlers.telegram.commands import cancel, help_, language, rules, stats, status, unknown
from handlers.telegram.context import CONTEXT_TYPES, Runtime
from handlers.telegram.group import Wake, chatter, failed, membership, migrated, wake
from handlers.telegram.guard import guard
from handlers.telegram.leaving import leave
from handlers.telegram.lobby_commands import extend, newgame
from handlers.telegram.past_games import history_command, nextgame_command
from handlers.telegram.private_commands import forget, mycard, practice, start
from infra import redact
from infra.aws import tls_context

log = logging.getLogger(__name__)


def build(
    token: str, runtime: Runtime, *, base_url: str | None = None, polling: bool = True
) -> Application:
    """The Application with every handler registered (built once per process), its callbacks
    handed `runtime` in their context.

    With the bot's username known (`runtime.username`), the Application starts without asking
    Telegram (getMe). The token is kept out of every log record from here on (it is part of
    every API URL).
    """
    username = runtime.username
    redact.hide(token)
    passes.configure(token)  # the table's links are keyed with it
    api = f"{base_url.rstrip('/')}/bot" if base_url else None
    clients = {} if polling else shared_tls_clients()
    if username:
        builder = ApplicationBuilder().bot(KnownBot(token, username, base_url=api, **clients))
    else:
        builder = ApplicationBuilder().token(token)
        if api:
            builder = builder.base_url(api)
        if clients:
            builder = builder.request(clients["request"])
            builder = builder.get_updates_request(clients["get_updates_request"])
    if not polling:
        builder = builder.updater(None)
    application = builder.context_types(CONTEXT_TYPES).build()
    application.bot_data["runtime"] = runtime
    application.add_handler(TypeHandler(Update, guard), group=-1)
    only_new = filters.UpdateType.MESSAGE
    for name, callback in (
        ("newgame", newgame),
        ("start", start),
        ("mycard", mycard),
        ("status", status),
        ("cancel", cancel),
        ("rules", rules),
        ("help", help_),
        ("language", language),
        ("forget", forget),
        ("history", history_command),
        ("nextgame", nextgame_command),
        ("remove", remove),
        ("stats", stats),
        ("extend", extend),
        ("leave", leave),
        ("practice", practice),
    ):
        application.add_handler(CommandHandler(name, callback, filters=only_new))
    application.add_handler(CallbackQueryHandler(on_press))
    application.add_handler(ChatMemberHandler(membership, ChatMemberHandler.MY_CHAT_MEMBER))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrated))
    application.add_handler(MessageHandler(only_new & filters.COMMAND, unknown))
    application.add_handler(MessageHandler(only_new & filters.ChatType.GROUPS, chatter))
    application.add_handler(TypeHandler(Wake, wake))
    application.add_error_handler(failed)
    return application


def shared_tls_clients() -> dict[str, HTTPXRequest]:
    """The bot's two HTTP clients (API calls, getUpdates) with one TLS context between them:
    each would otherwise load the CA bundle itself, tens of milliseconds of a cold start."""
    tls = tls_context()
    return {
        name: HTTPXRequest(httpx_kwargs={"verify": tls})
        for name in ("request", "get_updates_request")
    }


class KnownBot(ExtBot):
    """A bot told its own account up front (its id is the token's first part), so that
    `initialize()` makes no getMe call, a round trip to Telegram on every cold start."""

    __slots__ = ("_known",)

    def __init__(self, token: str, username: str, **kwargs) -> None:
        super().__init__(token, **kwargs)
        self._known = User(int(token.split(":", 1)[0]), username, True, username=username)
        self._known.set_bot(self)

    async def get_me(self, *args, **kwargs) -> User:
        """The account given, without a call (any arguments: ask Telegram)."""
        if args or kwargs:
            return await super().get_me(*args, **kwargs)
        self._bot_user = self._known
        return self._known


async def register_commands(application: Application) -> None:
    """Tell Telegram the bot's command list in both languages."""
    bot = application.bot
    for lang, commands in COMMANDS.items():
        listed = [BotCommand(name, text) for name, text in commands]
        code = None if lang == EN else "zh"
        await bot.set_my_commands(listed, language_code=code)
        await bot.set_my_commands(listed, scope=BotCommandScopeAllGroupChats(), language_code=code)
