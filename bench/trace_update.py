"""Follow each game-changing press through the bot's code as it runs (`sys.setprofile`).
Run: `python bench/trace_update.py [--bot poller|lambda|both] [--seed 33] [--why]`; for one
press, `--press "Done" --files --moves` lists the files it enters and its layer moves."""

from __future__ import annotations

import argparse
import linecache
import logging
import os
import re
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROJECT = f"{ROOT}/"  # a project file's path begins so
sys.path.insert(0, str(ROOT))

# -- what is counted: update these when the code moves ------------------------------------------

# The layers, by module prefix (the first that matches); a module outside them is not the bot's.
LAYERS = (
    ("engine", "engine"),
    ("infra", "infra"),
    ("handlers.session", "session"),
    ("handlers.storage", "storage"),
    ("handlers.table", "table"),
    ("handlers.display", "display"),
    ("handlers.telegram", "telegram"),
    ("handlers.entry", "entry"),
)
# A load: a call of one of these names in the store's modules, made from outside them (so a
# read cache's hit counts once, and its miss is not counted twice).
STORE_MODULES = ("infra.",)
LOADS = ("load", "load_many")
# A load of the group: one whose keys name a group's item. Any other (the statistics and
# history items a game's end adds to, in its one transaction) is counted apart, as "beside".
GROUP_KEY = "game#"
# A replay: the engine's state rebuilt from its stored form.
REPLAYS = (("engine.codec", "state_from_dict"),)
# A decode: a button's callback data read into a press.
DECODES = (("handlers.display.presses", "decode"),)
# A "still current" check: a function whose own lines compare a version with the table's public
# version (or the engine state's), or one named here.
CHECK_LINE = re.compile(
    r"\b(?:public_version|state\.version)\s*[!=]=|[!=]=\s*[\w.]*\b(?:public_version|state\.version)\b"
)
CHECK_MODULES = ("handlers.",)  # where such a comparison is a press's (not the codec's own)
CHECKS: tuple[tuple[str, str], ...] = ()  # (module, qualified name) counted besides
# Storage calling up: a frame of the first prefix whose caller is of the second.
UP_CALL = ("handlers.telegram", "handlers.storage")

# The table view on, as `make play` serves it (its page's URL and its Mini App's short name).
TABLE_ENV = {"TABLE_URL": "https://table.example.org/table", "TABLE_APP": "table"}

TARGETS = {
    "loads": 1,
    "beside": "-",
    "replays": 1,
    "decodes": 1,
    "checks": 1,
    "up": 0,
    "files": 22,
    "moves": 40,
}

_FRESH = 0x20 | 0x80 | 0x100 | 0x200  # generator, coroutine, iterable coroutine, async generator


def layer_of(module: str) -> str | None:
    """The layer a module belongs to, or None when it is not the bot's."""
    for prefix, layer in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return None


def of_the_group(frame: FrameType) -> bool:
    """True when a store load (its frame at the call) reads a group's item."""
    args = frame.f_locals
    keys = args.get("keys") or [args.get("key")]
    return any(isinstance(key, str) and key.startswith(GROUP_KEY) for key in keys)


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p.rstrip(".") or module.startswith(p.rstrip(".") + ".") for p in prefixes)


_check_codes: dict[CodeType, bool] = {}


def is_check(module: str, code: CodeType) -> bool:
    """True when `code` is a "still current" check (see CHECK_LINE and CHECKS)."""
    known = _check_codes.get(code)
    if known is None:
        lines = {line for _, _, line in code.co_lines() if line is not None}
        lines.discard(code.co_firstlineno)  # the def line
        known = (module, code.co_qualname) in CHECKS or any(
            CHECK_LINE.search(linecache.getline(code.co_filename, line)) for line in lines
        )
        _check_codes[code] = known
    return known


@dataclass
class Trace:
    """What one press made the bot's code do."""

    label: str
    loads: int = 0
    beside: int = 0  # loads of items other than the group's
    replays: int = 0
    decodes: int = 0
    checks: int = 0
    up: int = 0  # calls from storage up into the Telegram side
    moves: int = 0
    calls: int = 0
    files: dict[str, int] = field(default_factory=dict)  # calls by file, in order entered
    why: dict[str, list[str]] = field(default_factory=dict)
    # the moves, by the caller and callee of the call that made each (its caller may be of the
    # callee's layer: the move came back from another layer, and went on)
    steps: Counter[tuple[str, str]] = field(default_factory=Counter)
    _layer: str | None = None

    def note(self, what: str, frame: FrameType) -> None:
        setattr(self, what, getattr(self, what) + 1)
        code = frame.f_code
        where = f"{frame.f_globals.get('__name__')}.{code.co_qualname}"
        caller = frame.f_back
        if caller is not None:
            where += f" <- {caller.f_globals.get('__name__')}.{caller.f_code.co_qualname}"
        self.why.setdefault(what, []).append(where)

    def row(self) -> dict[str, int]:
        return {
            "loads": self.loads,
            "beside": self.beside,
            "replays": self.replays,
            "decodes": self.decodes,
            "checks": self.checks,
            "up": self.up,
            "files": len(self.files),
            "moves": self.moves,
        }


class Tracer:
    """A profile hook that counts, while a press is being traced, what the bot's code does.

    Only the bot's own work is counted: on the poller's thread, or inside a Lambda entry; what
    the simulated players and the fake Telegram do is left out."""

    def __init__(self) -> None:
        self.current: Trace | None = None
        self.traces: list[Trace] = []
        self.threads: set[int] = set()  # threads whose every call is the bot's
        self._inside = threading.local()
        self._entered: set[int] = set()
        self._frames: list[FrameType] = []

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or self.current is None:
            return
        if threading.get_ident() not in self.threads and not getattr(self._inside, "on", False):
            return
        module = frame.f_globals.get("__name__", "")
        layer = layer_of(module)
        if layer is None:
            return
        code = frame.f_code
        if code.co_flags & _FRESH:  # a coroutine or generator resumed is no new call
            if id(frame) in self._entered:
                return
            self._entered.add(id(frame))
            self._frames.append(frame)  # kept alive, so that its id names it alone
        self.count(self.current, frame, module, layer)

    def count(self, trace: Trace, frame: FrameType, module: str, layer: str) -> None:
        code = frame.f_code
        name = code.co_name
        trace.calls += 1
        if code.co_filename.startswith(PROJECT):  # not a dataclass's generated "<string>"
            trace.files[code.co_filename] = trace.files.get(code.co_filename, 0) + 1
        caller = frame.f_back
        by = caller.f_globals.get("__name__", "") if caller is not None else ""
        if trace._layer is not None and trace._layer != layer:
            trace.moves += 1
            asking = f"{by}.{caller.f_code.co_qualname}" if caller is not None else "?"
            trace.steps[(asking, f"{module}.{code.co_qualname}")] += 1
        trace._layer = layer
        if name in LOADS and _under(module, STORE_MODULES) and not _under(by, STORE_MODULES):
            trace.note("loads" if of_the_group(frame) else "beside", frame)
        if (module, name) in REPLAYS:
            trace.note("replays", frame)
        if (module, name) in DECODES:
            trace.note("decodes", frame)
        if _under(module, CHECK_MODULES) and is_check(module, code):
            trace.note("checks", frame)
        if _under(module, (UP_CALL[0],)) and _under(by, (UP_CALL[1],)):
            trace.note("up", frame)

    @contextmanager
    def press(self, label: str) -> Iterator[Trace]:
        """Count what the bot does until the block ends."""
        trace = Trace(label)
        self.current = trace
        try:
            yield trace
        finally:
            self.current = None
            self._entered.clear()
            self._frames.clear()
            self.traces.append(trace)

    def entered(self, entry: Callable[..., Any]) -> Callable[..., Any]:
        """`entry` (a Lambda entry) with every call inside it counted as the bot's."""

        def traced(*args: Any, **kwargs: Any) -> Any:
            self._inside.on = True
            try:
                return entry(*args, **kwargs)
            finally:
                self._inside.on = False

        return traced


def play(
    table: Any, seed: int, press: Callable[[str], Any], at_table: Callable[[str], Any]
) -> None:
    """A seeded five-player game, each game-changing press traced: the lobby, a scout from the
    group's turn message, Done there, a private scout, a turn run out, a scout from the table
    view (traced by `at_table`), a private decapitation."""
    from testing.table_visits import Visit

    players = table.players
    with press("/newgame"):
        table.host.say("/newgame")
    for player in players[1:-1]:
        table.join(player)
    lobby = table.lobby_message()
    with press("Join"):
        players[-1].press(table.t("btn_join"), message=lobby, chat=table.group)
    table.bot.seed = seed
    lobby = table.lobby_message()
    with press("Start"):
        table.host.press(table.t("btn_start"), lobby)
    state = table.state
    first = state.first
    second, third = first % 5 + 1, (first + 1) % 5 + 1
    player = table.player_at(first)
    board = table.board()
    with press("turn message: Scout"):
        player.press(table.t("btn_scout"), message=board, chat=table.group)
    board, label = table.board(), table.seat_label(second)
    with press("turn message: a seat (scout)"):
        player.press(label, message=board, chat=table.group)
    board = table.board()
    with press("turn message: Done"):
        player.press(table.t("btn_done"), message=board, chat=table.group)
    player = table.player_at(second)
    with press("private: Scout (menu)"):
        player.press(table.t_for(player, "btn_scout"))
    label = table.seat_label(third, player.lang)
    with press("private: a seat (scout)"):
        player.press(label)
    with press("private: Done"):
        player.press(table.t_for(player, "btn_done"))
    turn_seconds = table.data()["settings"]["turn_seconds"]
    with press("timer: a turn runs out"):
        table.bot.advance(turn_seconds)
    scout = table.state.turn
    player = table.player_at(scout)
    visit = Visit.open(table.bot, player.user, table.board(), table.t("btn_table"), table.group)
    visit.fresh()
    with at_table("table view: a seat (scout)"):
        scouted = visit.move("scout", target=scout % 5 + 1)
    assert scouted.status == 200, (scouted.status, scouted.body)
    assert visit.move("done").status == 200
    attacker = table.state.turn
    player = table.player_at(attacker)
    player.press(table.t_for(player, "btn_decapitate"))
    player.press(table.seat_label(attacker % 5 + 1, player.lang))
    with press("private: Decapitate, Confirm"):
        player.press(table.t_for(player, "btn_confirm"))
    assert table.ending() is not None, "the game did not end"


@contextmanager
def untraced(label: str) -> Iterator[None]:
    """A press left out (the poller serves the table on threads of its own, not counted)."""
    yield


def trace_poller(tracer: Tracer, seed: int) -> list[Trace]:
    """The game through the local poller (SQLite, the poller's own thread)."""
    from testing.drivers import START, FakeClock, LocalBot
    from testing.fake_telegram import TEST_TOKEN, FakeTelegram
    from testing.players import Table

    first = len(tracer.traces)
    with FakeTelegram(TEST_TOKEN) as fake, tempfile.TemporaryDirectory() as home:
        threading.setprofile(tracer.hook)  # the poller's thread starts with the hook
        try:
            fake.register_mini_app(TABLE_ENV["TABLE_APP"], TABLE_ENV["TABLE_URL"])
            env = TABLE_ENV | {"TABLE_PORT": "0"}
            bot = LocalBot(fake, FakeClock(START), Path(home) / "games.sqlite3", env).start()
        finally:
            threading.setprofile(None)  # type: ignore[arg-type]
        tracer.threads.add(bot._thread.ident)
        try:
            play(Table.of(bot, 5), seed, tracer.press, untraced)
        finally:
            bot.close()
    return tracer.traces[first:]


def trace_lambda(tracer: Tracer, seed: int) -> list[Trace]:
    """The game through the Lambda entries (DynamoDB and SQS on moto, on loopback)."""
    from bench.bot.world import World, new_bot
    from handlers.entry import lambda_table
    from handlers.entry import lambda_webhook as lambda_entry
    from testing.players import Table

    first = len(tracer.traces)
    entries = lambda_entry.webhook, lambda_entry.timer
    with tempfile.TemporaryDirectory(prefix="trace-") as home:
        world = World(Path(home))
        os.environ.update(TABLE_ENV)  # read when the Application is built
        bot, _ = new_bot(world, "trace")
        world.fake.register_mini_app(TABLE_ENV["TABLE_APP"], TABLE_ENV["TABLE_URL"])
        lambda_entry.webhook, lambda_entry.timer = map(tracer.entered, entries)
        table_entry = lambda_table.handler
        lambda_table.handler = tracer.entered(table_entry)
        sys.setprofile(tracer.hook)
        try:
            play(Table.of(bot, 5), seed, tracer.press, tracer.press)
        finally:
            sys.setprofile(None)
            lambda_entry.webhook, lambda_entry.timer = entries
            lambda_table.handler = table_entry
            bot.close()
            world.close()
    return tracer.traces[first:]


COLUMNS = ("loads", "beside", "replays", "decodes", "checks", "up", "files", "moves")
HEADS = ("loads", "beside", "replays", "decodes", "checks", "st→tg", "files", "moves")


def _relative(filename: str) -> str:
    path = Path(filename)
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else filename


def print_detail(trace: Trace, files: bool, moves: bool) -> None:
    """The files `trace` entered (with its calls in each) and its moves, by caller→callee pair,
    the most frequent first."""
    if files:
        count = len(trace.files)
        print(f"\n  files entered by {trace.label!r} ({count}), in order, calls in each:")
        for filename, calls in trace.files.items():
            print(f"    {calls:5}  {_relative(filename)}")
    if moves:
        print(f"\n  moves of {trace.label!r} ({trace.moves}), by pair, most frequent first:")
        for (before, after), count in trace.steps.most_common():
            print(f"    {count:5}  {before} → {after}")


def print_table(title: str, traces: list[Trace], why: bool) -> None:
    print(f"\n{title}")
    print(f"{'press':32}" + "".join(f"{h:>8}" for h in HEADS))
    for trace in traces:
        row = trace.row()
        print(f"{trace.label:32}" + "".join(f"{row[c]:>8}" for c in COLUMNS))
        if why:
            for what in ("loads", "beside", "replays", "decodes", "checks", "up"):
                for where in trace.why.get(what, []):
                    print(f"    {what:8} {where}")
    print(f"{'target (a press that changes)':32}" + "".join(f"{TARGETS[c]:>8}" for c in COLUMNS))


def detail(traces: list[Trace], args: argparse.Namespace) -> None:
    """The files and moves of the first press whose label holds `--press`."""
    if not (args.files or args.moves):
        return
    chosen = [trace for trace in traces if args.press.lower() in trace.label.lower()]
    if not chosen:
        print(f"\n  no press labelled like {args.press!r}")
        return
    print_detail(chosen[0], args.files, args.moves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", choices=("poller", "lambda", "both"), default="both")
    parser.add_argument("--seed", type=int, default=33, help="the deal (default 33)")
    parser.add_argument("--why", action="store_true", help="list each counted call")
    parser.add_argument("--press", help="the press to detail (a part of its label)")
    parser.add_argument("--files", action="store_true", help="list the files --press enters")
    parser.add_argument("--moves", action="store_true", help="list --press's moves by pair")
    args = parser.parse_args(argv)
    if (args.files or args.moves) and not args.press:
        parser.error("--files and --moves detail one press: name it with --press")
    logging.disable(logging.WARNING)
    tracer = Tracer()
    if args.bot in ("poller", "both"):
        traces = trace_poller(tracer, args.seed)
        print_table("Local poller (SQLite)", traces, args.why)
        detail(traces, args)
    if args.bot in ("lambda", "both"):
        traces = trace_lambda(tracer, args.seed)
        print_table("Lambda webhook entry (DynamoDB on moto)", traces, args.why)
        detail(traces, args)
    print(
        "\nloads: calls of the store's load/load_many from above it that read the group's "
        "item (read-cache hits included; the small records read in the same call with it "
        "are no more); beside: such calls for other items only: a game's end adds to its "
        "statistics and its group's history, separate items written in the end's one "
        "transaction, each conditional on the version read, so that the end counts exactly "
        "once; they cannot come with the group's read, as only the session's decision "
        "says that the game ends; replays: engine states rebuilt; decodes: button data read; "
        "checks: "
        "functions comparing a press's version with the table's; st→tg: calls from "
        "handlers.storage into handlers.telegram; files: project files entered (the code a "
        "dataclass generates, '<string>', is none); moves: "
        "consecutive calls crossing layers (engine, infra, session, storage, table, telegram, "
        "entry); the table view's move is traced on the Lambda entry only"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
