"""Bot benchmark: cold start, round trips per update, engine share, stored size, cost, package.
Run: `make bench-bot`; prints each figure beside its target (docs/performance.md)."""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bot.cold_start import cold_start  # noqa: E402 - needs ROOT on the path
from bench.bot.cost import average_game, cost  # noqa: E402
from bench.bot.engine_share import engine_share  # noqa: E402
from bench.bot.lambda_zip import package  # noqa: E402
from bench.bot.round_trips import round_trips  # noqa: E402
from bench.bot.sizes import item_sizes  # noqa: E402
from bench.bot.stats import stats_figures  # noqa: E402
from bench.bot.world import World  # noqa: E402


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
            stats_figures(world)
            engine_share(world)
            item_sizes(games)
            cost(average_game(world), cold)
        finally:
            world.close()
    package(build=not args.no_package)
    return 0


if __name__ == "__main__":
    sys.exit(main())
