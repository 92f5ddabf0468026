"""Golden transcripts: whole seeded games in both languages, as their people read them, compared
as text with what the bot says now (OpenSpiel's playthrough tests do the same for its games).

A change of text on purpose shows here as a diff; write them again with
`python -m testing.transcript --write-golden` and read the diff before committing.
"""

from __future__ import annotations

import difflib

import pytest

from testing import transcript
from testing.transcript import GAMES, GOLDEN, LANGS, golden_path

REWRITE = "python -m testing.transcript --write-golden"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_seeded_game_reads_as_its_golden_transcript(game: str, lang: str) -> None:
    path = golden_path(game, lang)
    assert path.exists(), f"no golden transcript {path}: write it with `{REWRITE}`"
    golden = path.read_text(encoding="utf-8")
    now = transcript.transcript(game, lang)
    if now != golden:
        diff = difflib.unified_diff(
            golden.splitlines(keepends=True),
            now.splitlines(keepends=True),
            fromfile=str(path),
            tofile=f"{game} in {lang} now",
        )
        pytest.fail(
            f"the {game} game in {lang} reads otherwise than {path}; if the change is meant, "
            f"run `{REWRITE}` and commit the diff:\n{''.join(diff)}",
            pytrace=False,
        )


def test_every_golden_transcript_belongs_to_a_game() -> None:
    expected = {golden_path(game, lang).name for game in GAMES for lang in LANGS}
    found = {path.name for path in GOLDEN.glob("*.txt")}
    assert found == expected, f"stray or missing: {sorted(found ^ expected)}"
