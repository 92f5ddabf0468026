"""Telegram's initData, checked with the bot token as Telegram signs it (HMAC-SHA256).

initData is a bearer credential for an hour (a table session's length: a game lasts 1–5 minutes,
an evening's page is opened anew for each game): checked on every request, never logged and
never put in a URL.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, urlencode

MAX_AGE = 3600  # an opening serves one game's table; a stolen one is worth an hour, not a day
MAX_AHEAD = 60  # seconds a client's clock may run ahead of ours
MAX_LENGTH = 4096  # real initData is under 1 KB
MAX_FIELDS = 32


class BadInitData(ValueError):
    """initData that is not Telegram's for this bot, or not fresh: the request is refused."""


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """The person who opened the page, as Telegram signed it."""

    id: int
    first_name: str
    last_name: str = ""
    username: str = ""
    language_code: str = ""


@dataclass(frozen=True, slots=True)
class Opening:
    """A checked initData: who opened the page, from which link (`start_param`), and when."""

    user: WebAppUser
    start_param: str
    auth_date: int


def _secret(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _digest(token: str, fields: dict[str, str]) -> str:
    """The hash Telegram puts on `fields`: every field but `hash` (`signature` included),
    sorted, as key=value lines."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")
    return hmac.new(_secret(token), check.encode(), hashlib.sha256).hexdigest()


def check_init_data(init_data: str, token: str, now: float) -> Opening:
    """The opening `init_data` stands for; raises BadInitData unless Telegram signed it for
    this bot within the last hour."""
    if not init_data or len(init_data) > MAX_LENGTH:
        raise BadInitData("no initData, or too long")
    try:
        pairs = parse_qsl(
            init_data,
            keep_blank_values=True,
            strict_parsing=True,
            errors="strict",
            max_num_fields=MAX_FIELDS,
        )
    except ValueError:  # UnicodeDecodeError included
        raise BadInitData("not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise BadInitData("a field is repeated")
    received = fields.get("hash")
    if (
        received is None
        or not received.isascii()
        or not hmac.compare_digest(_digest(token, fields), received)
    ):
        raise BadInitData("not signed for this bot")
    auth_date = _int(fields.get("auth_date"))
    if auth_date is None or not now - MAX_AGE <= auth_date <= now + MAX_AHEAD:
        raise BadInitData("auth_date missing or not within the hour")
    return Opening(_user(fields.get("user")), fields.get("start_param", ""), auth_date)


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isascii() and text.isdigit() else None


def _user(text: str | None) -> WebAppUser:
    try:
        data = json.loads(text) if text is not None else None
    except ValueError:
        data = None
    if not isinstance(data, dict) or type(data.get("id")) is not int or data["id"] <= 0:
        raise BadInitData("no user")
    strings = ("first_name", "last_name", "username", "language_code")
    values = {k: data.get(k, "") for k in strings}
    if not all(isinstance(v, str) for v in values.values()):
        raise BadInitData("a user field is not text")
    return WebAppUser(data["id"], **values)


def sign_init_data(
    token: str,
    user: dict,
    start_param: str | None,
    auth_date: int,
    **extra: str,
) -> str:
    """initData as Telegram would send it to a page opened by `user` from a link carrying
    `start_param`; for the fake Telegram side and the tests (`extra`: chat_type, signature…)."""
    fields = {"user": json.dumps(user, ensure_ascii=False, separators=(",", ":"))}
    if start_param is not None:
        fields["start_param"] = start_param
    fields |= {"auth_date": str(auth_date), **extra}
    fields["hash"] = _digest(token, fields)
    return urlencode(fields, quote_via=quote)
