"""The previous release (named with its commit in `previous_release.txt`) runs side by side with
this one during a deploy, and again after a rollback: its code, checked out beside this tree and
run in a subprocess on a SQLite file this code wrote, reads a lobby, a game mid-turn and a
finished game, keeps the game's deadline (its timer finds it due and plays on) and sets
nothing aside as unreadable."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from testing.drivers import Bot
from testing.players import Table
from tests.compat import release_run

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
RUNNER = HERE / "release_run.py"

pytestmark = pytest.mark.slow


def offline(*args: Any) -> None:
    raise OSError("no network in the tests")


def previous_release() -> tuple[str, str]:
    """The previous release's tag and commit, as `previous_release.txt` names them."""
    tag, commit = (HERE / "previous_release.txt").read_text().split()
    return tag, commit


def git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The previous release's tree, checked out (detached) beside this one."""
    tag, commit = previous_release()
    if shutil.which("git") is None or git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("no git history here (a source tarball): the previous release is not at hand")
    if git("cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        pytest.skip(f"the previous release {tag} ({commit[:7]}) is not in this clone (shallow?)")
    tree = tmp_path_factory.mktemp("release") / tag
    added = git("worktree", "add", "--detach", str(tree), commit)
    assert added.returncode == 0, added.stderr
    try:
        yield tree
    finally:
        git("worktree", "remove", "--force", str(tree))


def in_release(tree: Path, ask: dict[str, Any]) -> dict[str, Any]:
    """What `release_run.py` answers `ask`, run by the release checked out in `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(RUNNER), json.dumps(ask)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_release(tree: Path, bot: Bot, table: Table, wake_at: float | None) -> dict[str, Any]:
    """What the release in `tree` makes of the group's item in the bot's SQLite file (a copy),
    with its timer woken at `wake_at`."""
    copy = Path(str(bot.store.path) + ".release")
    with sqlite3.connect(bot.store.path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    ask = {
        "db": str(copy),
        "chat": table.group.id,
        "title": table.title,
        "users": [[player.user.id, player.user.first_name] for player in table.players],
        "now": bot.clock(),
        "wake_at": wake_at,
    }
    return in_release(tree, ask)


def test_the_previous_release_reads_a_lobby_this_release_wrote(
    release: Path, memory_bot: Bot
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    found = run_release(release, memory_bot, table, None)
    assert found["errors"] == [] and found["aside"] == []
    assert found["before"]["status"] == "lobby"
    assert found["before"]["wake"] == table.stored().wake  # the lobby's countdown kept


def test_the_previous_release_plays_on_a_game_mid_turn_at_its_deadline(
    release: Path, memory_bot: Bot
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=11)
    deadline = table.stored().wake
    assert deadline is not None
    found = run_release(release, memory_bot, table, memory_bot.clock() + 91)
    assert found["errors"] == [] and found["aside"] == []
    before, after = found["before"], found["after"]
    assert (before["status"], before["wake"]) == ("playing", deadline)
    assert after["turn"] != before["turn"]  # its timer found the turn due and skipped it
    assert after["item_version"] > before["item_version"]


def test_the_previous_release_reads_a_finished_game(release: Path, memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    state = table.start(seed=11)
    table.decapitate(state.first, state.first % 4 + 1)
    assert table.ending() is not None
    found = run_release(release, memory_bot, table, memory_bot.clock() + 1)
    assert found["errors"] == [] and found["aside"] == []
    assert found["before"]["status"] == found["after"]["status"] == "over"


def test_this_release_plays_on_a_game_the_previous_release_left_mid_turn(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "previous.sqlite3"
    left = in_release(release, {"db": str(db), "seed": 11})
    assert left["errors"] == []
    for connect in ("connect", "connect_ex"):  # this release, in this process, offline
        monkeypatch.setattr(socket.socket, connect, offline)
    found = release_run.run({**left, "db": str(db), "wake_at": left["now"] + 91})
    assert found["errors"] == [] and found["aside"] == []
    before, after = found["before"], found["after"]
    assert before["status"] == "playing" and before["wake"] is not None
    assert after["turn"] != before["turn"]  # its deadline was kept: the turn ran out, skipped
