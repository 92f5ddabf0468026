"""The table of texts itself: Chinese written with Chinese punctuation."""

from __future__ import annotations

import re

from handlers.display.texts import CARD_NAMES, COMMANDS, EN, TEXTS, ZH

CHINESE = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"  # CJK punctuation, ideographs, full width
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
# An ASCII , : or ; next to a Chinese character, or followed by a space (as in "红4, 蓝3").
ASCII_BETWEEN_CHINESE = re.compile(rf"[{CHINESE}][,:;]|[,:;][ {CHINESE}]")


def chinese_texts() -> dict[str, str]:
    texts = {key: entry[ZH] for key, entry in TEXTS.items() if ZH in entry}
    texts |= {f"/{command}": about for command, about in COMMANDS[ZH]}
    texts |= {f"card {code}": name for code, name in CARD_NAMES[ZH].items()}
    return texts


def test_no_chinese_text_puts_ascii_punctuation_between_chinese_characters() -> None:
    # A placeholder stands for words that may be Chinese (a name, a card, a list).
    faults = {
        key: text
        for key, text in chinese_texts().items()
        if ASCII_BETWEEN_CHINESE.search(PLACEHOLDER.sub("字", text))
    }
    assert not faults


def test_the_checker_catches_ascii_punctuation_between_chinese_characters() -> None:
    for bad in ("红4, 蓝3", "移除的牌: {cards}", "{name}; {name}", "队长:{name}"):
        assert ASCII_BETWEEN_CHINESE.search(PLACEHOLDER.sub("字", bad)), bad
    for good in ("红4、蓝3", "移除的牌：{cards}", "/newgame — 在本群开局", "English / 中文"):
        assert not ASCII_BETWEEN_CHINESE.search(PLACEHOLDER.sub("字", good)), good


def test_every_text_has_both_languages_with_the_same_placeholders() -> None:
    faults = {
        key: entry
        for key, entry in TEXTS.items()
        if set(entry) != {EN, ZH}
        or sorted(set(PLACEHOLDER.findall(entry[EN])))
        != sorted(set(PLACEHOLDER.findall(entry[ZH])))
    }
    assert not faults


def test_the_commands_and_the_help_name_the_same_commands_in_both_languages() -> None:
    """/help lists every command but itself."""
    assert [name for name, _ in COMMANDS[EN]] == [name for name, _ in COMMANDS[ZH]]
    for lang in (EN, ZH):
        listed = re.findall(r"^/([a-z]+) — ", TEXTS["help"][lang], flags=re.MULTILINE)
        assert sorted(listed) == sorted(name for name, _ in COMMANDS[lang] if name != "help"), lang


def test_no_chinese_text_spaces_a_chinese_character_from_chinese_punctuation() -> None:
    faults = {
        key: text
        for key, text in chinese_texts().items()
        if re.search(rf"[{CHINESE}] +[{CHINESE}]", text)
    }
    assert not faults


def test_the_chinese_speaking_line_says_speak_once() -> None:
    line = TEXTS["speak_line"][ZH]
    assert line.count("发言") == 1, line
    assert "{name}" in line and "群里" in line  # who speaks, and where
