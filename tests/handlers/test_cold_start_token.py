"""A cold start reads the bot token from Secrets Manager while the handlers import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The handlers' import waits (2 s at most) for the token's read to have begun; the read, faked,
# waits for nothing. Prints whether the read had begun while the handlers were importing.
_CHILD = """
import importlib.abc, sys, threading
from handlers.entry import lambda_webhook as lambda_entry

reading = threading.Event()
seen = []

def read_secret(arn):
    reading.set()
    return " 123:abc\\n" if arn == "arn:token" else "other"

class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "handlers.telegram.app" and not seen:
            seen.append(reading.wait(2))
        return None

lambda_entry.read_secret = read_secret
sys.meta_path.insert(0, Watch())
app = lambda_entry.application()
assert app.bot.token == "123:abc", app.bot.token
print("read while importing" if seen == [True] else f"read after importing {seen}")
"""


@pytest.mark.slow
def test_a_cold_start_reads_the_bot_token_while_the_handlers_import() -> None:
    """The Secrets Manager call overlaps the imports instead of following them."""
    env = {
        **os.environ,
        "TELEGRAM_TOKEN_SECRET_ARN": "arn:token",
        "BOT_USERNAME": "cold_bot",
        "TELEGRAM_API_BASE_URL": "http://127.0.0.1:9/bot",
        "DECAPITATION_TABLE": "cold-table",
        "AWS_DEFAULT_REGION": "us-east-1",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("TIMER_QUEUE_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", _CHILD], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "read while importing"
