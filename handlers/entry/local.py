"""Local play: the bot in long-polling mode on a SQLite file, timers in-process."""

from __future__ import annotations

import logging
import os
import sys

from handlers.display.texts import ALLOWED_UPDATES

HELP = """No bot token.

1. In Telegram, talk to @BotFather: /newbot, pick a name; it gives you a token.
2. Run:  TELEGRAM_BOT_TOKEN=<your token> make play
   (optional: DECAPITATION_DB=path/to/file.sqlite3, TELEGRAM_API_BASE_URL=<a Bot API server>,
   TABLE_URL=<an HTTPS tunnel to 127.0.0.1:TABLE_PORT (8087)> for the table view)
"""


def main() -> int:
    """Run the bot until interrupted; exit status 2 without a token."""
    token = os.environ.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token:
        print(HELP, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # its lines would carry the token
    application = make_application(token, os.environ)
    application.run_polling(allowed_updates=ALLOWED_UPDATES)
    return 0


def make_application(token: str, env, clock=None, seed=None):
    """The polling Application on a SQLite store, with local timers resumed from the store."""
    import time

    from handlers.display.render import table_links
    from handlers.entry.table_server import serve_table, table_port
    from handlers.storage.keeper import Keeper
    from handlers.telegram.app import build, register_commands
    from handlers.telegram.context import Runtime
    from handlers.telegram.group import Wake
    from infra import redact
    from infra.sqlite_store import DEFAULT_DB_PATH, SQLiteStore
    from infra.timers import LocalTimers

    redact.quiet_libraries()
    clock = clock or time.time
    store = SQLiteStore(env.get("DECAPITATION_DB") or DEFAULT_DB_PATH)
    timers = LocalTimers(clock)
    runtime = Runtime(Keeper(store, timers, clock), clock, seed or (lambda: None))
    port = table_port(env)
    application = build(
        token, runtime, base_url=env.get("TELEGRAM_API_BASE_URL") or None, polling=True
    )

    async def post_init(app) -> None:
        runtime.username = app.bot.username
        table_links.configure(env.get("TABLE_URL"), env.get("TABLE_APP"), runtime.username)
        timers.attach(app.update_queue, Wake)
        await register_commands(app)
        for key in store.keys("game#"):  # resume the deadlines of games that were running
            timers(int(key.split("#", 1)[1]), clock())
        if port is not None:  # the table view's page and API, on loopback
            app.bot_data["table"] = serve_table(app, token, port, clock)

    async def post_stop(app) -> None:
        timers.cancel_all()
        if "table" in app.bot_data:
            app.bot_data.pop("table").stop()

    application.post_init = post_init
    application.post_stop = post_stop
    application.bot_data["timers"] = timers
    return application


if __name__ == "__main__":
    sys.exit(main())
