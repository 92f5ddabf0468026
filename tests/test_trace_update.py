"""The update tracer (`bench/trace_update.py`) names code that exists, and counts what it names."""

from __future__ import annotations

import importlib
import sys
import threading

import pytest

from bench import trace_update
from bench.trace_update import Tracer
from engine import Action
from engine.actions import SCOUT
from handlers.session.table import Table
from tests.support.tables import NOW, started


@pytest.mark.parametrize(
    ("module", "name"), [*trace_update.REPLAYS, *trace_update.DECODES, *trace_update.CHECKS]
)
def test_every_function_the_tracer_counts_exists(module: str, name: str) -> None:
    """When the code moves, the tracer's lists must move with it, or it counts nothing."""
    target = importlib.import_module(module)
    for part in name.split("."):
        target = getattr(target, part, None)
    assert callable(target), f"{module}.{name} is gone: update the lists in trace_update.py"


def test_every_layer_prefix_names_a_package() -> None:
    for prefix, _ in trace_update.LAYERS:
        assert importlib.util.find_spec(prefix) is not None, prefix


def test_a_replay_a_decode_and_a_check_are_each_counted_once() -> None:
    """A decision through the session (the engine rebuilt, the press's version checked) and a
    button decoded, as a handler would."""
    table = started(4)
    stored, seat = table.to_stored(), table.state.first
    user = stored["seats"][seat - 1]
    module, name = trace_update.DECODES[0]
    decode = getattr(importlib.import_module(module), name)
    tracer = Tracer()
    tracer.threads.add(threading.get_ident())
    with tracer.press("a press") as trace:
        sys.setprofile(tracer.hook)
        try:
            decode(f"g|{table.chat}|{table.game}|1|e")
            Table.from_stored(stored).act(user, Action(SCOUT, seat, target=seat % 4 + 1), NOW)
        finally:
            sys.setprofile(None)
    counted = (trace.replays, trace.decodes, trace.checks, trace.up)
    assert counted == (1, 1, 1, 0), trace.why
    assert trace.moves >= 2, "telegram -> session -> engine"


def test_every_move_is_listed_by_its_pair_and_every_file_entered_once() -> None:
    """`--moves` and `--files` detail the same press the table counts: its moves by
    caller→callee pair add up to the moves, and each project file is listed once with its
    calls."""
    table = started(4)
    stored, seat = table.to_stored(), table.state.first
    user = stored["seats"][seat - 1]
    tracer = Tracer()
    tracer.threads.add(threading.get_ident())
    with tracer.press("a press") as trace:
        sys.setprofile(tracer.hook)
        try:
            Table.from_stored(stored).act(user, Action(SCOUT, seat, target=seat % 4 + 1), NOW)
        finally:
            sys.setprofile(None)
    assert sum(trace.steps.values()) == trace.moves > 0
    assert 0 < sum(trace.files.values()) <= trace.calls  # a dataclass's __init__ is no file
    assert all(name.startswith(trace_update.PROJECT) for name in trace.files), trace.files
    assert any(after.startswith("engine.") for _, after in trace.steps), trace.steps


def test_a_load_of_the_group_is_told_from_a_read_beside_it(tmp_path) -> None:
    """A read whose keys hold the group's item is its load (the small records read with it add
    nothing); one of other items only (a game's end's statistics) is counted beside."""
    from handlers.storage.keys import game_key, group_stats_key, prefs_key
    from infra.sqlite_store import SQLiteStore

    store = SQLiteStore(tmp_path / "games.sqlite3")
    tracer = Tracer()
    tracer.threads.add(threading.get_ident())

    def read_as_the_host() -> None:  # from outside the store's modules, as the host reads
        store.load_many([game_key(-1), prefs_key(-1)])
        store.load(game_key(-1))
        store.load_many([group_stats_key(-1)])

    with tracer.press("reads") as trace:
        sys.setprofile(tracer.hook)
        try:
            read_as_the_host()
        finally:
            sys.setprofile(None)
    assert (trace.loads, trace.beside) == (2, 1), trace.why
