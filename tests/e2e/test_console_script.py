"""`make play` as the README gives it: the console script, run with a tunnel's bare address as
TABLE_URL, polls Telegram, deals a game, and the 🗺 Table button under a card opens the table."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from handlers.display.texts import EN, t
from testing.fake_telegram import FakeTelegram
from tests.support.telegram import fake_telegram  # noqa: F401 (a fixture)

SCRIPT = Path(sys.executable).parent / "decapitation-bot"
WAIT = 20.0  # seconds for the bot, a process of its own, to answer
TUNNEL = "https://tunnel.example"  # forwards to the table's loopback port, as a tunnel would


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def bot_button(fake: FakeTelegram, chat: object, label: str):
    """The latest message of the bot in `chat` that shows a button `label`."""
    for message in reversed(fake.chat(chat)):
        if message.from_bot and not message.deleted and label in message.button_labels:
            return message
    return None


@pytest.mark.slow
@pytest.mark.skipif(not SCRIPT.exists(), reason="the console script is not installed")
def test_the_console_script_serves_the_table_its_card_button_opens(
    fake_telegram: FakeTelegram,  # noqa: F811
    tmp_path: Path,
) -> None:
    fake = fake_telegram
    port = free_port()
    players = [fake.add_user(n, started=True) for n in ("Ann", "Bo", "Cai", "Dee")]
    group = fake.add_group("Friday", players)
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE_URL": fake.url,
        "DECAPITATION_DB": str(tmp_path / "games.sqlite3"),
        "TABLE_URL": TUNNEL,  # the tunnel's bare address, as the README says
        "TABLE_PORT": str(port),
    }
    bot = subprocess.Popen([str(SCRIPT)], env=env, cwd=tmp_path, stderr=subprocess.PIPE)
    try:
        ann = players[0]
        fake.send_text(ann, group, "/newgame")
        join = t(EN, "btn_join")
        lobby = fake.wait_for(lambda: bot_button(fake, group, join), WAIT, "the lobby")
        for player in players[1:]:
            fake.press(player, group, lobby.message_id, join)
        start = t(EN, "btn_start")
        fake.wait_for(
            lambda: all(n in (bot_button(fake, group, start) or lobby).text for n in ("Dee",)),
            WAIT,
            "everyone in the lobby",
        )
        fake.press(ann, group, bot_button(fake, group, start).message_id, start)
        label = t(EN, "btn_table")
        card = fake.wait_for(lambda: bot_button(fake, ann, label), WAIT, "Ann's card")

        opening = fake.open_mini_app(ann, ann, card.message_id, label)
        assert opening.url.startswith(f"{TUNNEL}?tgWebAppStartParam=g")
        local = opening.url.replace(TUNNEL, f"http://127.0.0.1:{port}/", 1)
        with urllib.request.urlopen(local, timeout=10) as page:
            assert page.status == 200 and page.read().startswith(b"<!doctype html>")
        query = parse_qs(urlsplit(opening.url).query)
        asked = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/table?g={query['tgWebAppStartParam'][0]}",
            headers={
                "Authorization": f"tma {opening.init_data}",
                "X-Table-Pass": query["pass"][0],
            },
        )
        with urllib.request.urlopen(asked, timeout=10) as answer:
            view = json.loads(answer.read())
        assert view["you"]["seat"] in range(1, 5) and view["game"]["title"] == "Friday"
    finally:
        bot.send_signal(signal.SIGINT)
        try:
            bot.wait(timeout=20)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait()
    fake.assert_no_refused()
