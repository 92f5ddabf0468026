"""A script run in a fresh Python as a cold Lambda would run it: none of this machine's AWS,
Telegram or webhook settings, and any AWS call failing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from tests.deploy.conftest import ROOT

OWN = ("AWS_", "TELEGRAM_", "WEBHOOK_", "DECAPITATION_", "BOT_")


def run_offline(script: str, argument: Any, **env: str) -> dict[str, Any]:
    """The JSON `script` prints last, given `argument` (as JSON) and the settings `env`."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(OWN)}
    environ.update(
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_REGION="us-east-1",
        AWS_ENDPOINT_URL="http://127.0.0.1:9",  # any AWS call would fail
        DECAPITATION_TABLE="decapitation-ci-games",
        **env,
    )
    result = subprocess.run(
        [sys.executable, "-c", script, json.dumps(argument)],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
