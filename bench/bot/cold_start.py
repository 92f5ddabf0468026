"""1. Cold start: imports and the first update, each in fresh processes."""

from __future__ import annotations

import json
import math
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from bench.bot.import_count import built_at_import
from bench.bot.world import ROOT, World
from testing.drivers import LambdaBot
from testing.fake_telegram import BOT_USERNAME

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
            "from handlers.display import render",
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


def median_p90(values: list[float]) -> tuple[float, float]:
    """The median and the 90th percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


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
    built = built_at_import()
    print(
        f"  dataclasses built at import of the webhook: {sum(built['dataclasses'].values())} "
        "(target <= 31: each frozen one runs ~0.6 ms of generated code no .pyc caches)"
    )
    return {
        "floor": floor,
        "first": statistics.median(runs["first update, BOT_USERNAME set"]),  # as deployed
        "first_bare": statistics.median(runs["first update, sources only (no .pyc)"]),
    }
