"""The table as `make play` serves it on loopback, behind the tunnel TABLE_URL names."""

from __future__ import annotations

import urllib.request
from urllib.parse import urlsplit

import pytest

from handlers.display.render import table_links
from handlers.entry.table_server import TableServer


class NoSource:
    """A source that must not be asked: serving the page reads no game."""

    def __getattr__(self, name):
        raise AssertionError(f"the source was asked for {name}")


@pytest.fixture
def server():
    served = TableServer(0, NoSource(), "123456:AAE-local", lambda: 1_800_000_000.0)
    served.thread.start()
    yield served
    served.stop()


@pytest.mark.parametrize("table_url", ["https://tunnel.example", "https://tunnel.example/"])
def test_a_table_button_made_from_a_bare_tunnel_address_opens_the_page(server, table_url):
    kept = dict(table_links.TABLE_LINKS)
    table_links.configure(table_url, None, "decap_bot")
    try:
        button_url = table_links.page_url("g1001_17")
    finally:
        table_links.TABLE_LINKS.update(kept)
    parts = urlsplit(button_url)
    local = f"http://127.0.0.1:{server.port}{parts.path or '/'}?{parts.query}"
    with urllib.request.urlopen(local, timeout=10) as answer:
        assert answer.status == 200
        assert answer.read().startswith(b"<!doctype html>")
