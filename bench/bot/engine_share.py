"""3. The engine's share of an update's CPU time, profiled on the thread's CPU clock."""

from __future__ import annotations

import cProfile
import pstats
import time
from collections.abc import Iterator
from contextlib import contextmanager

from bench.bot.meter import Meter, Sample
from bench.bot.round_trips import lifecycle
from bench.bot.world import ROOT, World, new_bot

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
