"""The table page in a real browser: Debian's headless Chromium driven by Playwright, the page
served by the table's routes on loopback, and Telegram played by a bridge of our own (or, where
the npm package is installed, by Telegram's own script)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = ("chromium-headless-shell", "chromium")
TELEGRAM_JS = ROOT / "node_modules/@twa-dev/sdk/src/telegram-web-apps.js"
FAKE_BRIDGE = Path(__file__).with_name("fake_bridge.js")
# Quiet, offline Chromium: no updates, sync, QUIC or background fetches; root needs no sandbox.
ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives the table page in headless Chromium (tests/browser)"
    )


def chromium_binary() -> str | None:
    """Debian's headless Chromium (apt-get install chromium-headless-shell), if installed."""
    found = os.environ.get("TABLE_CHROMIUM")
    return found or next((p for p in map(shutil.which, CHROMIUM) if p), None)


@pytest.fixture
def browser():
    """A Chromium for one test; skipped, saying why, without it or Playwright. Not shared
    between tests: while Playwright's sync API is open it holds an event loop running in this
    thread, which would refuse the asyncio of every other test run in the same process."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright)")
    binary = chromium_binary()
    if binary is None:
        pytest.skip("no Chromium: apt-get install chromium-headless-shell fonts-noto-cjk")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=binary, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """Where the screenshots go (TABLE_SCREENSHOTS, else a temporary folder), for review."""
    wanted = os.environ.get("TABLE_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("table-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    request.config.stash[_SHOTS] = folder
    return folder


_SHOTS = pytest.StashKey[Path]()


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    folder = config.stash.get(_SHOTS, None)
    if folder is not None:
        terminalreporter.write_line(f"table page screenshots: {folder}")


@pytest.fixture
def telegram_js() -> str:
    """Telegram's own telegram-web-app.js, from the npm package @twa-dev/sdk."""
    if not TELEGRAM_JS.exists():
        pytest.skip("npm package @twa-dev/sdk is not installed (npm install @twa-dev/sdk)")
    return TELEGRAM_JS.read_text()


@pytest.fixture
def fake_bridge() -> str:
    return FAKE_BRIDGE.read_text()


@pytest.fixture
def pages(browser) -> Iterator[list]:
    """The browser contexts a test opens, closed at its end."""
    opened: list = []
    yield opened
    for context in opened:
        context.close()
