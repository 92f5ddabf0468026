"""Bot benchmark: cold start, round trips per update, engine share, stored size, cost, package.

Run: `make bench-bot` (or `python bench/bot_speed.py [--quick] [--no-package]`). Prints each
figure beside its target and asserts nothing. Telegram is the fake Bot API server of
`handlers/playtest` on loopback (with 100 ms injected into every call where rounds are counted);
DynamoDB and SQS are a moto server on loopback, so the network is never the floor.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import math
import os
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import boto3  # noqa: E402 - the bench process itself; the children measure the imports
from moto.server import ThreadedMotoServer  # noqa: E402

from engine import Variants, apply, waiting_for  # noqa: E402
from engine.policies import InformedPolicy  # noqa: E402
from engine.state import SPEAK, TURN  # noqa: E402
from handlers.entry import lambda_webhook as lambda_entry  # noqa: E402
from handlers.playtest.deals import find_seed  # noqa: E402
from handlers.playtest.drivers import WEBHOOK_SECRET, FakeClock, LambdaBot  # noqa: E402
from handlers.playtest.fake_telegram import BOT_USERNAME, TEST_TOKEN, FakeTelegram  # noqa: E402
from handlers.playtest.fake_telegram.bot_api import METHODS  # noqa: E402
from handlers.playtest.players import Player, Table  # noqa: E402
from handlers.session.table import Table as GameTable  # noqa: E402
from handlers.storage.host import Host  # noqa: E402
from infra.dynamo_store import create_table  # noqa: E402
from infra.package import python312  # noqa: E402
from infra.store import (  # noqa: E402
    Conflict,
    Item,
    decode_data,
    encode_data,
    pack_data,
    size_of,
)

REGION = "us-east-1"
LATENCY = 0.1  # seconds injected into every Bot API call where rounds are counted
START = 4_000_000_000  # the bot's clock (epoch seconds), far from the real time
SENDING = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage")

# On-demand list prices in us-east-1, USD (AWS price pages, 2025; free tiers ignored).
PRICE = {
    "lambda request": 0.20 / 1e6,
    "lambda GB-second (arm64)": 0.0000133334,
    "HTTP API request": 1.00 / 1e6,
    "DynamoDB write unit": 0.625 / 1e6,
    "DynamoDB read unit": 0.125 / 1e6,
    "SQS request": 0.40 / 1e6,
    "Secrets Manager call": 0.05 / 1e4,
    "CloudWatch Logs GB": 0.50,
}
LAMBDA_GB = 0.5  # serverless.yml: memorySize 512
CPU_SHARE = 512 / 1769  # Lambda gives a whole vCPU at 1,769 MB, a proportional share below
LOG_BYTES = 400  # START, END and REPORT lines of one invocation
COLD_STARTS_PER_GAME = 2  # one for the webhook function, one for the timer function
SECRETS_PER_COLD_START = 1.5  # token and webhook secret (webhook), token (timer)


def median_p90(values: list[float]) -> tuple[float, float]:
    """The median and the 90th percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def read_units(size: int) -> float:
    """Read units of a strongly consistent GetItem (an absent item costs one)."""
    return max(1, math.ceil(size / 4096))


def write_units(size: int) -> float:
    """Write units of a PutItem or DeleteItem (the larger of the old and new item counts)."""
    return max(1, math.ceil(size / 1024))


# -- the fake network ----------------------------------------------------------------------------


class World:
    """A moto server (DynamoDB, SQS) and the fake Bot API, both on loopback, and the environment
    the Lambda entry reads (set in this process and handed to child processes)."""

    def __init__(self, home: Path) -> None:
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        self.moto = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self.moto.start()
        host, port = self.moto.get_host_and_port()
        self.endpoint = f"http://{host}:{port}"
        for name in [n for n in os.environ if n.startswith("AWS_")] + ["BOT_USERNAME"]:
            os.environ.pop(name, None)
        os.environ.pop("TELEGRAM_TOKEN_SECRET_ARN", None)
        os.environ.pop("WEBHOOK_SECRET_ARN", None)
        self.fake = FakeTelegram(TEST_TOKEN).start()
        os.environ.update(
            AWS_ACCESS_KEY_ID="testing",
            AWS_SECRET_ACCESS_KEY="testing",
            AWS_SESSION_TOKEN="testing",
            AWS_DEFAULT_REGION=REGION,
            AWS_REGION=REGION,
            AWS_CONFIG_FILE=str(home / "no-aws-config"),
            AWS_SHARED_CREDENTIALS_FILE=str(home / "no-aws-credentials"),
            AWS_EC2_METADATA_DISABLED="true",
            AWS_ENDPOINT_URL=self.endpoint,
            NO_PROXY="127.0.0.1,localhost",
            WEBHOOK_SECRET=WEBHOOK_SECRET,
            TELEGRAM_BOT_TOKEN=self.fake.token,
            TELEGRAM_API_BASE_URL=self.fake.url,
        )
        self.dynamo = boto3.client("dynamodb", region_name=REGION)
        self.sqs = boto3.client("sqs", region_name=REGION)

    def fresh(self, name: str) -> tuple[str, str]:
        """A new game table and timer queue for one part of the bench; set in the environment."""
        create_table(self.dynamo, f"bench-{name}")
        queue = self.sqs.create_queue(QueueName=f"bench-{name}")["QueueUrl"]
        os.environ.update(DECAPITATION_TABLE=f"bench-{name}", TIMER_QUEUE_URL=queue)
        return f"bench-{name}", queue

    def close(self) -> None:
        self.fake.stop()
        self.moto.stop()


# -- 1. cold start -------------------------------------------------------------------------------

TIMED = "import time\n_t = time.perf_counter()\n{code}\nprint((time.perf_counter() - _t) * 1000)"
IMPORTS = {
    "floor: import telegram, boto3": "import telegram, boto3",
    "import telegram, botocore.session": "import telegram, botocore.session",
    "import telegram": "import telegram",
    "import telegram.ext": "import telegram.ext",
    "import boto3": "import boto3",
    "import botocore.session": "import botocore.session",
    # lambda_entry and what its first webhook imports (application() and webhook()); the AWS
    # client is the project's own (infra.aws, standard library only), so no botocore
    "ours: lambda_entry + handlers": "\n".join(
        (
            "import handlers.entry.lambda_webhook",
            "from handlers.telegram import render",
            "from handlers.telegram.app import build",
            "from infra import aws",
            "from infra.dynamo_store import DynamoStore",
            "from infra.read_cache import ReadCache",
            "from telegram import Update",
        )
    ),
}
FIRST_UPDATE = """
import time
_t0 = time.perf_counter()
import json, sys
from handlers.entry import lambda_webhook as lambda_entry
_t1 = time.perf_counter()
lambda_entry.application()
_t2 = time.perf_counter()
answer = lambda_entry.webhook(json.loads(sys.stdin.read()))
_t3 = time.perf_counter()
print(json.dumps({"status": answer["statusCode"], "import": _t1 - _t0, "app": _t2 - _t1,
                  "update": _t3 - _t2, "total": _t3 - _t0}))
"""
# What the zip ships besides the project (boto3 and botocore come with the Lambda runtime).
SHIPPED = ("telegram", "httpx", "httpcore", "h11", "anyio", "certifi", "idna", "sniffio")


def sources_only(folder: Path) -> Path:
    """A copy of the shipped packages without compiled files, as the Lambda zip carries them."""
    import importlib.util

    for name in SHIPPED:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        source = Path(next(iter(spec.submodule_search_locations)))
        shutil.copytree(source, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("engine", "handlers", "infra"):
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def child(code: str, env: dict[str, str], cwd: Path, stdin: str = "") -> str:
    """Run `code` in a fresh interpreter and return what it printed."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"child failed:\n{result.stderr[-2000:]}")
    return result.stdout.strip().splitlines()[-1]


def cold_start(world: World, repeats: int, home: Path) -> dict[str, float]:
    """Print the import and first-update figures; returns medians (ms) for the cost estimate."""
    world.fresh("cold")
    # Compiled files in a private folder (the first run of each child writes them there);
    # the sources-only copy is compiled at every start, as the Lambda zip is.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=str(home / "pycache"))
    bare = sources_only(home / "sources-only")
    env_bare = {**env, "PYTHONPATH": str(bare), "PYTHONDONTWRITEBYTECODE": "1"}
    env_named = {**env, "BOT_USERNAME": BOT_USERNAME}
    fake = world.fake
    owner = fake.add_user("Cold", started=True)

    def first_update(environment: dict[str, str], cwd: Path) -> tuple[dict, list[str]]:
        group = fake.add_group("Cold start", [owner], owner=owner)
        update = fake.send_text(owner, group, "/newgame")
        fake.next_updates()
        before = len(fake.calls)
        event = LambdaBot.event(json.dumps(update))
        figures = json.loads(child(FIRST_UPDATE, environment, cwd, json.dumps(event)))
        if figures["status"] != 200:
            raise RuntimeError(f"the first update was answered {figures['status']}")
        return figures, [c.method for c in fake.calls[before:]]

    runs: dict[str, list[float]] = {label: [] for label in IMPORTS}
    parts: dict[str, dict[str, list[float]]] = {}
    methods: dict[str, list[str]] = {}
    firsts = {
        "first update, BOT_USERNAME unset": (env, ROOT),
        "first update, BOT_USERNAME set": (env_named, ROOT),
        "first update, sources only (no .pyc)": (env_bare, bare),
    }
    sources_floor = "floor, sources only (no .pyc)"
    runs[sources_floor] = []
    for label, (environment, cwd) in firsts.items():  # warm the file caches; not counted
        first_update(environment, cwd)
        runs[label] = []
    for code in IMPORTS.values():  # writes their compiled files; not counted
        child(TIMED.format(code=code), env, ROOT)
    for _ in range(repeats):
        for label, code in IMPORTS.items():
            runs[label].append(float(child(TIMED.format(code=code), env, ROOT)))
        runs[sources_floor].append(
            float(child(TIMED.format(code="import telegram, boto3"), env_bare, bare))
        )
        for label, (environment, cwd) in firsts.items():
            figures, calls = first_update(environment, cwd)
            runs[label].append(figures["total"] * 1000)
            methods[label] = calls
            for part in ("import", "app", "update"):
                parts.setdefault(label, {}).setdefault(part, []).append(figures[part] * 1000)

    floor = statistics.median(runs["floor: import telegram, boto3"])
    floor_bare = statistics.median(runs[sources_floor])
    print(f"\n1. Cold start: fresh processes, {repeats} runs each, interleaved (ms)")
    print(f"{'':44} {'median':>7} {'p90':>7} {'x floor':>8}  target")
    for label, values in runs.items():
        med, p90 = median_p90(values)
        base = floor_bare if "sources only" in label else floor
        target = ""
        if label.startswith("ours"):
            target = "<= 1.15x floor"
        elif label.startswith("first update") and "sources only" not in label:
            target = "<= 1.3x floor"
        elif label.startswith("first update"):
            target = "<= 1.3x floor (sources only)"
        print(f"{label:44} {med:7.0f} {p90:7.0f} {med / base:7.2f}x  {target}")
    for label, split in parts.items():
        text = ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in split.items())
        calls = ", ".join(methods[label])
        print(f"  {label}: {text} ms; Telegram calls: {calls}")
    print(
        "  (a first update is /newgame in a new group: import lambda_entry, build and initialize "
        "the Application, handle it; DynamoDB and SQS on a loopback moto server)"
    )
    return {
        "floor": floor,
        "first": statistics.median(runs["first update, BOT_USERNAME set"]),  # as deployed
        "first_bare": statistics.median(runs["first update, sources only (no .pyc)"]),
    }


# -- 2. round trips per update -------------------------------------------------------------------


@dataclass
class Sample:
    """What one update (or one timer firing) cost."""

    label: str
    webhooks: int = 0
    wakes: int = 0
    reads: int = 0
    writes: int = 0
    rru: float = 0.0
    wru: float = 0.0
    calls: int = 0
    messages: int = 0  # sent, edited or deleted
    rounds: int = 0
    peak: int = 0  # messages in the busiest second
    timers: int = 0  # SQS messages sent
    wall: float = 0.0
    cpu: float = 0.0
    changes_game: bool = True
    methods: list[str] = field(default_factory=list)


class Meter:
    """Counts what the Lambda bot does: invocations, store calls and units, Bot API calls."""

    def __init__(self, bot: LambdaBot, latency: float) -> None:
        self.bot = bot
        self.latency = latency
        self.samples: list[Sample] = []
        self.webhooks = self.wakes = 0
        self.rru = self.wru = 0.0
        self.sizes: dict[str, int] = {}
        self.profile: cProfile.Profile | None = None
        self._wrap_entries()

    def _wrap_entries(self) -> None:
        webhook, timer = lambda_entry.webhook, lambda_entry.timer

        def counted_webhook(event: dict, context: Any = None) -> dict:
            self.webhooks += 1
            return webhook(event, context)

        def counted_timer(event: dict, context: Any = None) -> dict:
            self.wakes += len(event.get("Records", []))  # deployed: one message a call
            return timer(event, context)

        lambda_entry.webhook, lambda_entry.timer = counted_webhook, counted_timer
        self._restore = (webhook, timer)

    def close(self) -> None:
        lambda_entry.webhook, lambda_entry.timer = self._restore

    def attach(self) -> None:
        """Meter the store of the (possibly new) Application (below any read cache)."""
        store = getattr(self.bot.store, "backend", self.bot.store)
        if getattr(store, "_metered", False):
            return
        load, save, delete = store.load, store.save, store.delete
        load_many = store.load_many

        def metered_load(key: str) -> Item | None:
            item = load(key)
            size = size_of(item) if item else 0
            self.rru += read_units(size)
            self.sizes[key] = size
            return item

        def metered_save(item: Item) -> Item:
            size = size_of(item)
            try:
                return save(item)
            finally:
                self.wru += write_units(max(size, self.sizes.get(item.key, 0)))
                self.sizes[item.key] = size

        def metered_delete(key: str, version: int) -> None:
            try:
                delete(key, version)
            finally:
                self.wru += write_units(self.sizes.pop(key, 0))

        def metered_load_many(keys: list[str]) -> dict[str, Item | None]:
            found = load_many(keys)
            for key, item in found.items():  # each item's size rounded up on its own
                size = size_of(item) if item else 0
                self.rru += read_units(size)
                self.sizes[key] = size
            return found

        store.load, store.save, store.delete = metered_load, metered_save, metered_delete
        store.load_many = metered_load_many
        store._metered = True

    @property
    def timers(self) -> Any:
        return self.bot.application.bot_data["deps"].host.wake

    @contextmanager
    def sample(self, label: str, changes_game: bool = True) -> Iterator[Sample]:
        """Measure what happens inside the block as one sample."""
        fake = self.bot.fake
        self.bot.application  # noqa: B018 - built before counting, as a warm function is
        self.attach()
        store = self.bot.store
        start = (store.reads, store.writes, self.rru, self.wru, self.timers.sent)
        invocations = (self.webhooks, self.wakes)
        first_call = len(fake.calls)
        if self.latency:
            for method in METHODS:
                fake.delay_next(method, self.latency, times=1_000_000)
        sample = Sample(label, changes_game=changes_game)
        wall, cpu = time.perf_counter(), time.thread_time()
        if self.profile is not None:
            self.profile.enable()
        try:
            yield sample
        finally:
            if self.profile is not None:
                self.profile.disable()
            sample.cpu = time.thread_time() - cpu
            sample.wall = time.perf_counter() - wall
            fake.clear_faults()
        sample.reads = store.reads - start[0]
        sample.writes = store.writes - start[1]
        sample.rru = self.rru - start[2]
        sample.wru = self.wru - start[3]
        sample.timers = self.timers.sent - start[4]
        sample.webhooks = self.webhooks - invocations[0]
        sample.wakes = self.wakes - invocations[1]
        calls = fake.calls[first_call:]
        sample.calls = len(calls)
        sample.methods = [c.method for c in calls]
        sent = sorted(c.time for c in calls if c.method in SENDING)
        sample.messages = len(sent)
        sample.peak = max((sum(1 for t in sent if s <= t < s + 1) for s in sent), default=0)
        sample.rounds = rounds(calls)
        self.samples.append(sample)


def rounds(calls: list[Any]) -> int:
    """Sequential rounds among Bot API calls: a call is one round after the latest round among
    the calls answered before it started (the fake notes when it answered each)."""
    levels: list[tuple[float, int]] = []  # (answered at, round)
    for call in sorted(calls, key=lambda c: c.time):
        level = 1 + max((r for answered, r in levels if answered <= call.time), default=0)
        levels.append((call.answered or math.inf, level))
    return max((r for _, r in levels), default=0)


def new_bot(world: World, name: str) -> tuple[LambdaBot, FakeClock]:
    """The Lambda bot on a fresh table and queue, its SQS delays measured on its own clock."""
    import moto.sqs.models

    _, queue = world.fresh(name)
    clock = FakeClock(START)
    moto.sqs.models.unix_time_millis = lambda: clock() * 1000
    return LambdaBot(world.fake, clock, world.sqs, queue), clock


def say_as(player: Player, text: str) -> None:
    """A group message by a player (the bot sees it when it is an admin)."""
    player.say(text)


def lifecycle(bot: LambdaBot, meter: Meter) -> None:
    """A 12-player game with the Spy variant, sampling one update of each kind."""
    table = Table.of(bot, 12, bot_admin=True)
    # Telegram tells the bot of its admin rights when it is made an admin (my_chat_member);
    # a group where it never heard of them costs Start one getChatMember round more.
    bot.fake.set_bot_admin(table.group, True)
    bot.settle()
    with meter.sample("/newgame (lobby opens)"):
        table.host.say("/newgame")
    for player in table.players[1:-1]:
        table.join(player)
    lobby, join = table.lobby_message(), table.t("btn_join")  # read before, not counted
    with meter.sample("lobby join (deep link), 12th player"):
        table.players[-1].press(join, message=lobby, chat=table.group)
    table.configure(spy=True)
    seed, state = find_seed(12, Variants(spy=True), _spy_sits_apart)
    bot.seed = seed
    lobby, start = table.lobby_message(), table.t("btn_start")
    with meter.sample("Start, 12 players"):
        table.host.press(start, lobby)
    seat = state.first
    player, target = table.player_at(seat), table.seat_label(seat % 12 + 1)
    with meter.sample("scout: open the seat menu", changes_game=False):
        player.press(table.t("btn_scout"))
    with meter.sample("scout: pick a seat"):
        player.press(target)
    with meter.sample("group message by the speaker", changes_game=False):
        say_as(player, "I saw something red")
    with meter.sample("/status in the group", changes_game=False):
        table.host.say("/status")
    with meter.sample("speak: Done"):
        player.press(table.t("btn_done"))
    settings = table.data()["settings"]
    with meter.sample("timer wake: a turn runs out"):
        bot.advance(settings["turn_seconds"])
    seat = table.state.turn
    player = table.player_at(seat)
    player.press(table.t("btn_decapitate"))
    player.press(table.seat_label(seat % 12 + 1))
    with meter.sample("decapitate: Confirm (Spy variant)"):
        player.press(table.t("btn_confirm"))
    with meter.sample("timer wake: the Spy's time runs out"):
        bot.advance(settings["spy_seconds"])
    assert table.ending() is not None, "the game did not end"


def _spy_sits_apart(state: Any) -> bool:
    """The Spy is neither the first player nor the one after (who decapitates)."""
    spy = state.holder("SPY")
    return spy not in (state.first, state.first % 12 + 1, state.first % 12 + 2)


def print_samples(samples: list[Sample]) -> None:
    print(
        f"{'update':38} {'runs':>4} {'DDB r/w':>7} {'target':>6} {'RRU/WRU':>8} {'calls':>5} "
        f"{'msgs':>4} {'rounds':>6} {'SQS':>3} {'CPU':>6} {'wall':>6}"
    )
    for s in samples:
        runs = s.webhooks + s.wakes
        target = f"{runs}/{runs}" if s.changes_game else f"{runs}/0"
        flag = " *" if s.reads > runs or s.writes > (runs if s.changes_game else 0) else ""
        print(
            f"{s.label:38} {runs:>4} {s.reads:>3}/{s.writes:<3} {target:>6} "
            f"{s.rru:>3.0f}/{s.wru:<4.0f} {s.calls:>5} {s.messages:>4} {s.rounds:>6} "
            f"{s.timers:>3} {s.cpu * 1000:4.0f}ms {s.wall * 1000:4.0f}ms{flag}"
        )


def round_trips(world: World) -> list[Sample]:
    """Print the per-update figures with `LATENCY` injected into every Bot API call."""
    bot, _ = new_bot(world, "rounds")
    meter = Meter(bot, LATENCY)
    try:
        lifecycle(bot, meter)
    finally:
        meter.close()
        bot.close()
    print(f"\n2. Round trips per update ({LATENCY * 1000:.0f} ms injected into each Bot API call)")
    print_samples(meter.samples)
    start = next(s for s in meter.samples if s.label.startswith("Start"))
    print(
        f"  Start, 12 players: {start.rounds} sequential rounds (target about 2), "
        f"{start.messages} messages, at most {start.peak} in one second (Telegram: 30/s); "
        f"calls: {', '.join(start.methods)}"
    )
    print(
        "  runs: Lambda invocations (a timer firing may also deliver stale wake-ups, one read "
        "each); target: one read and one write a run (no write when no game changes); "
        "* above it"
    )
    return meter.samples


# -- 3. engine share and item size ---------------------------------------------------------------

GROUPS = (
    ("engine", f"{ROOT}/engine/"),
    ("handlers", f"{ROOT}/handlers/"),
    ("infra", f"{ROOT}/infra/"),
    ("telegram", "/telegram/"),
    ("httpx/httpcore/h11/anyio", ("/httpx/", "/httpcore/", "/h11/", "/anyio/")),
    ("botocore/boto3/urllib3", ("/botocore/", "/boto3/", "/urllib3/")),
    ("asyncio", "/asyncio/"),
    ("json", "/json/"),
)


def group_of(filename: str) -> str:
    for name, marks in GROUPS:
        marks = (marks,) if isinstance(marks, str) else marks
        if any(mark in filename for mark in marks):
            return name
    if filename.startswith("~") or filename.startswith("<"):
        return "built-ins"
    return "other (stdlib, moto client side, bench)"


def engine_share(world: World) -> None:
    """Profile handled updates on the thread's CPU clock and print the engine's share."""
    bot, _ = new_bot(world, "profile")
    meter = Meter(bot, 0.0)
    per_update: list[tuple[str, float, dict[str, float]]] = []
    original = meter.sample

    @contextmanager
    def profiled(label: str, changes_game: bool = True) -> Iterator[Sample]:
        meter.profile = cProfile.Profile(time.thread_time)
        with original(label, changes_game) as sample:
            yield sample
        stats = pstats.Stats(meter.profile)
        meter.profile = None
        totals: dict[str, float] = {}
        for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
            group = group_of(filename)
            totals[group] = totals.get(group, 0.0) + tottime
        per_update.append((label, sample.cpu, totals))

    meter.sample = profiled  # type: ignore[method-assign]
    try:
        lifecycle(bot, meter)
    finally:
        meter.close()
        bot.close()
    print("\n3. Engine share of an update's CPU time (profiled on the thread's CPU clock)")
    print(f"{'update':38} {'CPU':>7} {'engine':>7}  target  largest parts")
    overall: dict[str, float] = {}
    for label, cpu, totals in per_update:
        whole = sum(totals.values()) or 1.0
        for group, spent in totals.items():
            overall[group] = overall.get(group, 0.0) + spent
        top = sorted(totals.items(), key=lambda kv: -kv[1])[:3]
        parts = ", ".join(f"{g} {v / whole:.0%}" for g, v in top)
        share = totals.get("engine", 0.0) / whole
        print(f"{label:38} {cpu * 1000:5.1f}ms {share:7.1%}  < 5 %   {parts}")
    whole = sum(overall.values()) or 1.0
    print(
        "  all sampled updates: "
        + ", ".join(
            f"{g} {v / whole:.1%}" for g, v in sorted(overall.items(), key=lambda kv: -kv[1])
        )
    )


class MemoryStore:
    """A GameStore in memory that keeps JSON text, as the real stores do, and notes the size of
    every game item saved."""

    def __init__(self) -> None:
        self.items: dict[str, tuple[int, str, int | None]] = {}
        self.sizes: list[tuple[int, Item]] = []  # (size, item) of every game item saved
        self.reads = self.writes = 0

    def load(self, key: str) -> Item | None:
        self.reads += 1
        if key not in self.items:
            return None
        version, text, expires = self.items[key]
        return Item(key, version, decode_data(text), expires)

    def load_many(self, keys: list[str]) -> dict[str, Item | None]:
        return {key: self.load(key) for key in dict.fromkeys(keys)}

    def save(self, item: Item) -> Item:
        self.writes += 1
        current = self.items.get(item.key)
        if item.version != (current[0] if current else 0):
            raise Conflict(item.key, item.version)
        self.items[item.key] = (item.version + 1, encode_data(item.data), item.expires_at)
        if item.key.startswith("game#"):
            self.sizes.append(
                (
                    size_of(item),
                    Item(
                        item.key,
                        item.version,
                        decode_data(encode_data(item.data)),
                        item.expires_at,
                    ),
                )
            )
        return Item(item.key, item.version + 1, item.data, item.expires_at)

    def delete(self, key: str, version: int) -> None:
        self.writes += 1
        self.items.pop(key, None)


ALL_VARIANTS = {
    "virtual_players": 2,
    "no_first_round_decapitation": True,
    "uncertain_sides": True,
    "turncoat": True,
    "bodyguards": True,
    "observer": True,
    "spy": True,
}


def play_stored_game(seed: int, names: list[str], cap: int = 600) -> list[tuple[int, Item]]:
    """A seeded 14-seat game (12 humans + 2 virtual, all variants, informed play) through the
    host and table as the handlers drive them; returns every game item saved, with its size."""
    store = MemoryStore()
    now = [float(START)]
    host = Host(store, None, lambda: now[0])
    chat, users = -1_001_234_567_890, [700_000_000 + i for i in range(12)]
    update_ids = iter(range(812_345_678, 10**10))
    message_ids = iter(range(1_000_000, 10**9))

    def change(changer: Callable, update: bool = True) -> None:
        uid = next(update_ids) if update else None
        result = host.change(chat, uid, changer)
        if result.table is None:
            return
        ids, tag = {}, None
        for out in result.outs:
            if out.get("remember"):
                ids[out["remember"]] = next(message_ids)
                tag = out.get("tag", tag)
        keys = getattr(result, "keys", None)  # the batches of owed messages just delivered
        host.remember(chat, result.table.game, ids, tag, uid if keys is None else keys)

    change(lambda _: GameTable.open_lobby(chat, 1, users[0], names[0], "en", {}, now[0], "Club"))
    for user, name in zip(users[1:], names[1:], strict=True):
        change(lambda t, u=user, n=name: (t, t.join(u, n)))
    for key, value in ALL_VARIANTS.items():
        if isinstance(value, bool):
            change(lambda t, k=key: (t, t.change_setting(k)))  # every switch starts off
        else:
            change(lambda t, k=key, v=value: (t, t.set_setting(k, v)))
    change(lambda t: (t, t.start(now[0], seed, True)))
    rng = random.Random(seed)
    policy = InformedPolicy(rng)
    table = host.load(chat)
    seats = table.data["seats"]
    from engine.events import deal_events

    policy.observe(deal_events(table.state))
    for _ in range(cap):
        table = host.load(chat)
        if table.status != "playing":
            break
        state = table.state
        seat = waiting_for(state)
        if seat is None or (table.data.get("hold") and state.phase in (SPEAK, TURN)):
            now[0] = max(now[0], table.deadline() or now[0])  # a timer: the hold is over
            change(lambda t: (t, t.catch_up(now[0])), update=False)
            continue
        action = policy.choose(state, seat)
        policy.observe(apply(state, action)[1])
        now[0] += 1
        change(lambda t, a=action, s=seat: (t, t.act(seats[s - 1], a, now[0])))
    return store.sizes


def item_sizes(games: int) -> None:
    """Print the saved game item's size over seeded 14-seat games, and what would shrink it."""
    print(
        f"\n   Saved game item (infra.store.size_of), {games} seeded 14-seat games: 12 humans + "
        "2 virtual, all variants, informed play; every save"
    )
    print(
        f"   {'names / stored as':40} {'saves':>6} {'largest':>8} {'p95':>6} {'median':>7} "
        f"{'> 3 KB':>7} {'WRU':>5}  target"
    )
    for label, names in (
        ("12-letter names", [f"Player {i:02d} Ab" for i in range(12)]),
        (
            "32-character names (the longest kept)",
            [f"{'Long name ' * 4}"[:30] + f"{i:02d}" for i in range(12)],
        ),
        ("32 CJK characters (3 bytes each)", ["斩首行动" * 7 + f"玩家{i:02d}" for i in range(12)]),
    ):
        saved: list[tuple[int, Item]] = []
        for seed in range(1, games + 1):
            saved += play_stored_game(seed, names)
        short = [(size, item) for size, item in saved if _decisions(item) <= SHORT_GAME]
        for how, shrink, saves in (
            ("", None, saved),
            (f"  saves within the first {SHORT_GAME} decisions", None, short),
            ("  the same saves as plain JSON text", _plain_size, saved),
        ):
            values = [size if shrink is None else shrink(item) for size, item in saves]
            units = sum(write_units(v) for v in values) / len(values)
            over = sum(1 for v in values if v > 3072) / len(values)
            print(
                f"   {how or label:40} {len(values):>6} {max(values):>8,} {_pct(values, 95):>6,} "
                f"{int(statistics.median(values)):>7,} {over:>7.1%} {units:>5.2f}  <= 3,072"
            )
        largest = max(saved, key=lambda pair: pair[0])[1].data
        parts = {k: len(encode_data({k: v}).encode()) for k, v in largest.items()}
        top = sorted(parts.items(), key=lambda kv: -kv[1])[:5]
        print("     largest item's parts (bytes): " + ", ".join(f"{k} {v:,}" for k, v in top))
    print("   WRU: mean write units a save of the item costs (1 per started KB)")


SHORT_GAME = 60  # decisions: a long game among people (informed play runs to about 300)


def _decisions(item: Item) -> int:
    return (item.data.get("engine") or {}).get("version", 0)


def _plain_size(item: Item) -> int:
    """What the item would occupy with its data as uncompressed JSON text (a string attribute)."""
    return size_of(item) - len(pack_data(item.data)) + len(encode_data(item.data).encode())


def _pct(values: list[int], pct: int) -> int:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]


# -- 4. cost per game ----------------------------------------------------------------------------

TURNS = 12  # turns in the average game before the decapitation that ends it
TIMED_OUT = (4, 9)  # the turns nobody plays (the timer skips them)
CHATTER = 2  # group messages by each speaker (the bot is an admin and sees them)


def average_game(world: World) -> list[Sample]:
    """An 8-player game, variants off, the bot an admin: /newgame, 7 joins, Start, 12 turns
    (10 scout and speak, 2 run out), 2 group messages a speaking moment and one out of turn,
    a decapitation; then every timer message still queued is delivered."""
    bot, _ = new_bot(world, "average")
    meter = Meter(bot, LATENCY)
    try:
        table = Table.of(bot, 8, bot_admin=True)
        with meter.sample("/newgame"):
            table.host.say("/newgame")
        join = table.t("btn_join")
        for player in table.players[1:]:
            lobby = table.lobby_message()  # the store is read outside the samples
            with meter.sample("join"):
                player.press(join, message=lobby, chat=table.group)
        bot.seed, lobby = 7, table.lobby_message()
        with meter.sample("Start"):
            table.host.press(table.t("btn_start"), lobby)
        turn_seconds = table.data()["settings"]["turn_seconds"]
        for turn in range(1, TURNS + 1):
            seat = table.state.turn
            player, target = table.player_at(seat), table.seat_label(seat % 8 + 1)
            if turn in TIMED_OUT:
                with meter.sample("timer: the turn runs out"):
                    bot.advance(turn_seconds)
                continue
            with meter.sample("Scout (menu)", changes_game=False):
                player.press(table.t("btn_scout"))
            with meter.sample("scout a seat"):
                player.press(target)
            for line in range(CHATTER):
                with meter.sample("group message", changes_game=False):
                    say_as(player, f"line {line}")
            if turn == 2:
                other = table.player_at(seat % 8 + 1)
                with meter.sample("group message out of turn", changes_game=False):
                    say_as(other, "psst")
            with meter.sample("Done"):
                player.press(table.t("btn_done"))
        seat = table.state.turn
        player, target = table.player_at(seat), table.seat_label(seat % 8 + 1)
        with meter.sample("Decapitate (menu)", changes_game=False):
            player.press(table.t("btn_decapitate"))
        with meter.sample("target (menu)", changes_game=False):
            player.press(target)
        with meter.sample("Confirm"):
            player.press(table.t("btn_confirm"))
        assert table.ending() is not None, "the average game did not end"
        with meter.sample("stale timers delivered later"):
            bot.advance(2 * 3600)
    finally:
        meter.close()
        bot.close()
    return meter.samples


def cost(samples: list[Sample], cold: dict[str, float]) -> None:
    """Print the cost of the average game and of a thousand games."""
    total = {f.name: 0.0 for f in fields(Sample) if f.type in ("int", "float")}
    gb_seconds = 0.0
    for s in samples:
        for name in total:
            total[name] += getattr(s, name)
        invocations = s.webhooks + s.wakes
        if invocations:
            # Billed time: CPU at the function's share of a core, plus the waits as measured.
            duration = s.cpu / CPU_SHARE + max(0.0, s.wall - s.cpu)
            gb_seconds += duration * LAMBDA_GB
    warm_first = statistics.median([s.cpu for s in samples if s.label == "/newgame"])
    cold_extra = max(0.0, cold["first"] / 1000 - warm_first) / CPU_SHARE
    gb_seconds += COLD_STARTS_PER_GAME * cold_extra * LAMBDA_GB
    invocations = total["webhooks"] + total["wakes"]
    sqs = total["timers"] * 3  # send; the event source's receive and delete
    lines = [
        ("Lambda requests", invocations, PRICE["lambda request"]),
        ("Lambda GB-seconds (512 MB, arm64)", gb_seconds, PRICE["lambda GB-second (arm64)"]),
        ("HTTP API requests", total["webhooks"], PRICE["HTTP API request"]),
        ("DynamoDB read units", total["rru"], PRICE["DynamoDB read unit"]),
        ("DynamoDB write units", total["wru"], PRICE["DynamoDB write unit"]),
        ("SQS requests", sqs, PRICE["SQS request"]),
        (
            "Secrets Manager calls",
            COLD_STARTS_PER_GAME * SECRETS_PER_COLD_START,
            PRICE["Secrets Manager call"],
        ),
        ("CloudWatch Logs GB", invocations * LOG_BYTES / 1e9, PRICE["CloudWatch Logs GB"]),
    ]
    print("\n4. Cost of an average 8-player game (on-demand, us-east-1)")
    print(
        f"  the game: {int(total['webhooks'])} webhook invocations, {int(total['wakes'])} timer "
        f"invocations, {int(total['reads'])} DynamoDB reads ({total['rru']:.0f} RRU), "
        f"{int(total['writes'])} writes ({total['wru']:.0f} WRU), {int(total['timers'])} SQS "
        f"messages, {int(total['calls'])} Bot API calls"
    )
    print(f"  {'':36} {'per game':>10} {'unit price':>13} {'$ per 1,000 games':>18}")
    whole = 0.0
    for label, amount, price in lines:
        dollars = amount * price * 1000
        whole += dollars
        print(f"  {label:36} {amount:>10.2f} {price:>13.3g} {dollars:>18.4f}")
    print(f"  {'total':36} {'':>10} {'':>13} {whole:>18.4f}")
    print(
        "  prices: Lambda $0.20/M requests + $0.0000133334/GB-s (arm64); HTTP API $1.00/M; "
        "DynamoDB on demand $0.125/M RRU, $0.625/M WRU; SQS $0.40/M requests; Secrets Manager "
        "$0.05/10k calls; Logs $0.50/GB. Fixed monthly: 2 secrets $0.80, SQS event source "
        "polling about $0.25."
    )
    print(
        f"  duration = CPU / {CPU_SHARE:.2f} (512 MB's share of a vCPU) + waits with "
        f"{LATENCY * 1000:.0f} ms per Telegram call; {COLD_STARTS_PER_GAME} cold starts a game"
    )


# -- 5. package ----------------------------------------------------------------------------------


def package(build: bool) -> None:
    """Print the Lambda zip's size and its largest parts (building it into a temporary folder)."""
    print("\n5. Package (build/lambda.zip)")
    path = ROOT / "build" / "lambda.zip"
    if not path.exists() and build:
        out = Path(tempfile.mkdtemp(prefix="bench-zip-")) / "lambda.zip"
        result = subprocess.run(
            [sys.executable, str(ROOT / "infra" / "package.py"), "--out", str(out), "--quiet"],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            print(f"  could not build: {result.stderr.strip()[-300:]}")
            return
        path = out
    if not path.exists():
        print("  no build/lambda.zip (run infra/package.py)")
        return
    packed: dict[str, int] = {}
    unpacked: dict[str, int] = {}
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            top = info.filename.split("/", 1)[0]
            if top.endswith(".dist-info"):
                top = "*.dist-info"
            packed[top] = packed.get(top, 0) + info.compress_size
            unpacked[top] = unpacked.get(top, 0) + info.file_size
    print(
        f"  {path.stat().st_size / 1e6:.2f} MB zipped, {sum(unpacked.values()) / 1e6:.2f} MB "
        f"unzipped (target: zip < 5 MB; Lambda's limits 50 MB / 250 MB)"
    )
    for top, size in sorted(packed.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {size / 1e6:7.2f} MB zipped {unpacked[top] / 1e6:7.2f} MB unzipped  {top}")
    compiled_imports(path)


# What the first webhook imports from the zip (no botocore: infra.aws is standard library).
ZIP_IMPORTS = (
    "import telegram, telegram.ext, httpx, handlers.telegram.app, handlers.entry.lambda_webhook"
)


def compiled_imports(path: Path, runs: int = 5) -> None:
    """Print the zip's import time on 3.12 as shipped (compiled when the build had a 3.12) and
    from its sources alone (what a build without one ships)."""
    python = python312()
    if python is None:
        print("  (no CPython 3.12 here: the zip's import time not measured)")
        return
    with tempfile.TemporaryDirectory(prefix="bench-pyc-") as folder:
        shipped, sources = Path(folder) / "shipped", Path(folder) / "sources"
        with zipfile.ZipFile(path) as zf:
            zf.extractall(shipped)
            has_pyc = any(name.endswith(".pyc") for name in zf.namelist())
        shutil.copytree(shipped, sources, ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("PYTHONPYCACHEPREFIX", None)
        times: dict[str, list[float]] = {"shipped": [], "sources": []}
        for _ in range(runs):
            for name, where in (("shipped", shipped), ("sources", sources)):
                code = TIMED.format(code=ZIP_IMPORTS)
                result = subprocess.run(
                    [python, "-c", code],
                    capture_output=True,
                    text=True,
                    env={**env, "PYTHONPATH": str(where)},
                    cwd=folder,
                    check=True,
                )
                times[name].append(float(result.stdout.strip()))
        shipped_ms, source_ms = (statistics.median(times[k]) for k in ("shipped", "sources"))
        print(
            f"  Python 3.12, what the first webhook imports from the zip: {shipped_ms:.0f} ms as "
            f"shipped ({'compiled' if has_pyc else 'sources only'}), {source_ms:.0f} ms "
            "from sources alone"
        )


# -- main ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and games")
    parser.add_argument("--no-package", action="store_true", help="do not build the zip")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    repeats, games = (5, 3) if args.quick else (15, 10)
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as folder:
        world = World(Path(folder))
        try:
            cold = cold_start(world, repeats, Path(folder))
            round_trips(world)
            engine_share(world)
            item_sizes(games)
            cost(average_game(world), cold)
        finally:
            world.close()
    package(build=not args.no_package)
    return 0


if __name__ == "__main__":
    sys.exit(main())
