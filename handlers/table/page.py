"""The table page: one HTML file with its CSS and script inline, served with its ETag and a
Content-Security-Policy that allows exactly its own script and Telegram's one file."""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
_INLINE_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)
COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True, slots=True)
class Page:
    """The page's bytes and the headers that go with them."""

    body: bytes
    etag: str
    csp: str

    def headers(self) -> dict[str, str]:
        """The headers of a 200 (and, less the type, of a 304)."""
        return {
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": self.csp,
            "Cache-Control": "no-cache",  # revalidated each time, so a deploy shows at once
            "ETag": self.etag,
            **COMMON_HEADERS,
        }


def script_hashes(html: str) -> list[str]:
    """The CSP hashes ('sha256-…') of the page's inline scripts (data blocks are not run)."""
    hashes = []
    for match in _INLINE_SCRIPT.finditer(html):
        attrs = match["attrs"]
        if "src=" in attrs or "application/json" in attrs:
            continue
        digest = hashlib.sha256(match["body"].encode()).digest()
        hashes.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    return hashes


def policy(html: str) -> str:
    """The Content-Security-Policy for `html`: its own inline script and Telegram's, calls to
    its own origin only, framed only by Telegram Web. Styles may be inline: Telegram's script
    adds a <style> of its own."""
    return "; ".join(
        [
            "default-src 'none'",
            f"script-src {TELEGRAM_SCRIPT} {' '.join(script_hashes(html))}",
            "style-src 'unsafe-inline'",
            "img-src data:",
            "connect-src 'self'",
            "frame-ancestors https://web.telegram.org",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )


@cache
def table_page() -> Page:
    """The page, read once per process."""
    body = (files("handlers.table") / "static" / "table.html").read_bytes()
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    return Page(body, etag, policy(body.decode()))
