"""Every relative link in the README and docs/ leads to a file, and every test they name exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
TEST = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")
HEADING = re.compile(r"^#+\s+(.*)$", re.MULTILINE)


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def relative_links(page: Path) -> list[str]:
    """The links of `page` that point inside the repository."""
    links = LINK.findall(page.read_text(encoding="utf-8"))
    return [link for link in links if not re.match(r"[a-z]+:", link)]


def broken(page: Path) -> list[str]:
    """The relative links of `page` that lead to no file, or to no heading of that file."""
    wrong = []
    for link in relative_links(page):
        path, _, fragment = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists():
            wrong.append(link)
        elif fragment and target.suffix == ".md":
            headings = HEADING.findall(target.read_text(encoding="utf-8"))
            if fragment not in {anchor(h) for h in headings}:
                wrong.append(link)
    return wrong


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file_and_its_heading(page: Path) -> None:
    assert broken(page) == []


def test_a_link_to_a_missing_file_or_heading_is_caught(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# A heading\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md) [ok](there.md#a-heading) [web](https://example.org/x)\n"
        "[gone](missing.md) [no heading](there.md#elsewhere)\n"
    )

    assert broken(page) == ["missing.md", "there.md#elsewhere"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_test_a_page_names_exists(page: Path) -> None:
    missing = []
    for path, name in TEST.findall(page.read_text(encoding="utf-8")):
        source = ROOT / path
        if not source.exists() or not re.search(
            rf"^(async )?def {name}\(", source.read_text(encoding="utf-8"), re.MULTILINE
        ):
            missing.append(f"{path}::{name}")
    assert missing == []


def test_the_guarantees_name_their_tests() -> None:
    assert len(TEST.findall((ROOT / "docs" / "guarantees.md").read_text(encoding="utf-8"))) > 0


CONFLICT = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.MULTILINE)
TEXTS = [*PAGES, ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md"]


@pytest.mark.parametrize("page", TEXTS, ids=lambda p: p.name)
def test_no_page_keeps_a_merges_conflict_markers(page: Path) -> None:
    assert not CONFLICT.findall(page.read_text(encoding="utf-8")), f"{page.name} has markers"


def test_a_conflict_marker_is_caught() -> None:
    marked = "text\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n"
    assert len(CONFLICT.findall(marked)) == 3
    assert not CONFLICT.findall("a heading\n=======\n".replace("=======\n", "= not seven\n"))
