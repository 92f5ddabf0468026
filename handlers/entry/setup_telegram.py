"""The Bot API calls a deploy makes (getMe, setWebhook, setMyCommands, deleteWebhook): a
minimal JSON client with a deadline, its errors as reasons fit for CloudFormation's console."""

from __future__ import annotations

import hashlib
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from handlers.display.texts import ALLOWED_UPDATES, COMMANDS

DEFAULT_API_BASE_URL = "https://api.telegram.org"  # TELEGRAM_API_BASE_URL overrides it
CALL_TIMEOUT = 10.0  # seconds for one Bot API call
DEFAULT_LANGUAGE = "en"


class SetupError(Exception):
    """A failure with a reason fit for CloudFormation's console."""


class BotApi:
    """A minimal Bot API client: JSON POSTs with a deadline, errors as SetupError."""

    def __init__(
        self,
        token: str,
        deadline: float,
        *,
        base_url: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.token = token
        self.deadline = deadline
        base_url = base_url or os.environ.get("TELEGRAM_API_BASE_URL") or DEFAULT_API_BASE_URL
        self.base_url = base_url.rstrip("/")
        self.clock = clock

    def call(self, method: str, params: dict[str, Any]) -> Any:
        """The `result` of a Bot API call; one retry after a 429 if time allows."""
        for attempt in range(2):
            status, answer = self._post(method, params)
            if status == 200 and answer.get("ok"):
                return answer.get("result")
            if status == 401:
                raise SetupError("Telegram refused the bot token (401)")
            retry_after = (answer.get("parameters") or {}).get("retry_after")
            time_left = self.deadline - self.clock()
            if (
                status == 429
                and attempt == 0
                and isinstance(retry_after, int)
                and (retry_after + 1 < time_left)
            ):
                time.sleep(retry_after)
                continue
            description = answer.get("description") or "no description"
            raise SetupError(f"Telegram {method} failed ({status}): {description}")
        raise AssertionError("unreachable")

    def _post(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        timeout = min(CALL_TIMEOUT, self.deadline - self.clock())
        if timeout <= 0:
            raise SetupError(f"no time left to call Telegram {method}")
        request = urllib.request.Request(
            f"{self.base_url}/bot{self.token}/{method}",
            data=json.dumps(params).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, body = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
        except TimeoutError:
            raise SetupError(f"Telegram did not answer {method} within {timeout:.0f} s") from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, TimeoutError):
                raise SetupError(
                    f"Telegram did not answer {method} within {timeout:.0f} s"
                ) from None
            raise SetupError(f"could not reach Telegram for {method}: {reason}") from None
        try:
            answer = json.loads(body)
        except ValueError:
            answer = {}
        return status, answer if isinstance(answer, dict) else {}


def command_calls() -> list[dict[str, Any]]:
    """The setMyCommands parameters: each language, default scope then all group chats."""
    calls = []
    for language, commands in COMMANDS.items():
        listed = [{"command": name, "description": text} for name, text in commands]
        code = {} if language == DEFAULT_LANGUAGE else {"language_code": language}
        calls.append({"commands": listed, **code})
        calls.append({"commands": listed, "scope": {"type": "all_group_chats"}, **code})
    return calls


def identify(api: BotApi) -> dict[str, str]:
    """The bot's account as Telegram reports it (getMe); the Data CloudFormation gets back."""
    me = api.call("getMe", {}) or {}
    username = str(me.get("username") or "")
    if not username:
        raise SetupError("Telegram's getMe gave no username for the bot")
    return {"BotUsername": username, "BotId": str(me.get("id", ""))}


def register(api: BotApi, url: str, secret_token: str, max_connections: int) -> dict[str, str]:
    """Set the webhook and the command lists; the Data CloudFormation gets back."""
    if not url.startswith("https://"):
        raise SetupError(f"the webhook URL must start with https://, not {url!r}")
    me = api.call("getMe", {})
    api.call(
        "setWebhook",
        {
            "url": url,
            "secret_token": secret_token,
            "allowed_updates": ALLOWED_UPDATES,
            "max_connections": max_connections,
            "drop_pending_updates": False,
        },
    )
    for params in command_calls():
        api.call("setMyCommands", params)
    return {"BotUsername": str((me or {}).get("username", "")), "WebhookUrl": url}


def offer_fingerprint() -> str:
    """A digest of what the bot offers Telegram (its commands, the update kinds it asks for):
    serverless.yml passes it as the webhook's `Offer`, so that changing either registers again."""
    offer = {"commands": COMMANDS, "allowed_updates": ALLOWED_UPDATES}
    text = json.dumps(offer, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
