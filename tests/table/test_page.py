"""The page stays small and self-contained, allows exactly its own script, and says what the
bot says in both languages."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re

import pytest

from handlers.display.texts import CARD_NAMES, COLOR_NAMES, TEXTS
from handlers.table.page import TELEGRAM_SCRIPT, policy, table_page

BUDGET = 40 * 1024  # raw; gzipped, half of it (the end in full, both languages, is 5 KB)
HTML = table_page().body.decode()


def words() -> dict[str, dict[str, str]]:
    found = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', HTML, re.S)
    return json.loads(found.group(1))


def test_the_page_is_under_its_budget():
    assert len(table_page().body) < BUDGET
    assert len(gzip.compress(table_page().body)) < 15 * 1024


def test_the_policy_allows_the_inline_script_by_its_hash_and_nothing_inline_else():
    scripts = re.findall(r"<script>(.*?)</script>", HTML, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    csp = table_page().csp
    assert f"script-src {TELEGRAM_SCRIPT} 'sha256-{digest}'" in csp
    assert "'unsafe-eval'" not in csp and "script-src 'unsafe-inline'" not in csp
    for directive in ("default-src 'none'", "connect-src 'self'", "base-uri 'none'"):
        assert directive in csp


def test_the_policy_allows_only_the_one_file_it_loads_from_telegram():
    script_src = next(d for d in table_page().csp.split("; ") if d.startswith("script-src "))
    sources = script_src.split()[1:]
    assert [s for s in sources if not s.startswith("'sha256-")] == [TELEGRAM_SCRIPT]
    assert TELEGRAM_SCRIPT == "https://telegram.org/js/telegram-web-app.js"


def test_a_changed_script_gets_another_hash():
    other = HTML.replace("use strict", "use  strict")
    assert policy(other) != policy(HTML)


def test_the_page_loads_nothing_but_telegrams_script():
    assert re.findall(r'(?:src|href)="([^"]+)"', HTML) == [
        "https://telegram.org/js/telegram-web-app.js"
    ]
    assert "@font-face" not in HTML and "<img" not in HTML and "@import" not in HTML
    assert "innerHTML" not in HTML  # text goes in as text


def test_both_languages_have_every_text_with_the_same_placeholders():
    en, zh = words()["en"], words()["zh"]
    assert en.keys() == zh.keys()
    for key in en:
        assert set(re.findall(r"\{\w+\}", en[key])) == set(re.findall(r"\{\w+\}", zh[key])), key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_what_the_bot_says(lang):
    page = words()[lang]
    shared = [key for key in page if key in TEXTS]
    assert len(shared) >= 25
    for key in shared:
        assert page[key] == TEXTS[key][lang], key
    for code in ("R", "B", "OBS", "SPY"):
        assert page[code] == CARD_NAMES[lang][code]
    for colour in ("red", "blue"):
        assert page[colour] == COLOR_NAMES[lang][colour]


def test_every_text_the_script_asks_for_exists():
    script = re.search(r"<script>(.*?)</script>", HTML, re.S).group(1)
    asked = set(re.findall(r'tr\("([a-z_]+)"', script))
    prefixes = {key for key in asked if key.endswith("_")}
    known = set(words()["en"])
    assert asked - prefixes <= known
    for prefix in prefixes:
        assert any(key.startswith(prefix) for key in known), prefix
