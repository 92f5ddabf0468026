"""The transcript of a whole game, as its people saw it, in each language, with the bot polling
the fake Bot API over HTTP as `make play` runs (`tests/test_golden_transcripts.py`: in memory)."""

from __future__ import annotations

import pytest

from testing import transcript
from testing.players import Table


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_transcript_shows_a_whole_game_in_its_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript.main(["--lang", lang, "--seed", "33", "--bot", "poller"])  # over HTTP, polling
    lines = capsys.readouterr().out.splitlines()
    moves = [line for line in lines if line.startswith("» ")]
    assert len(moves) == 7
    assert any(line.startswith("    [group] 🏁 ") for line in lines)
    won = Table.t_in(lang, "btn_play_again")
    assert any(won in line for line in lines), "the end message offers Play again"
    skipped = Table.t_in(lang, "closed_timeout_turn")
    assert any(line.endswith(f"✎ {skipped}") for line in lines), "the run-out prompt is closed"
