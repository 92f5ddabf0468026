"""Bot seats' benchmark: win rates of pitted policies, decisions and simulated minutes a game,
and the time a bot decision takes at 12 seats. Run: `python -m bench.bots [--games N]`."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Variants, waiting_for
from engine.bots import bot_view, choose
from engine.deal import deal
from engine.simulate import BOT_DELAY, simulate, simulated_minutes
from engine.turns import apply

PAIRS = (("strong", "learning"), ("strong", "informed"), ("strong", "random"))
SEATS = range(4, 13)


def win_rates(games: int, seed: int) -> None:
    """One row a seat count: the first policy's colour's wins against each other one."""
    heads = [f"{a} vs {b}" for a, b in PAIRS]
    print("seats | " + " | ".join(heads) + " | strong alone: decisions | minutes")
    for seats in SEATS:
        cells = []
        for first, second in PAIRS:
            tally = simulate(seats, games, seed, Variants(), first, second)
            cells.append(f"{100 * tally.first_policy_wins / tally.games:5.1f} %")
        alone = simulate(seats, games, seed, Variants(), "strong")
        decisions = alone.decisions / alone.games
        minutes = simulated_minutes(decisions)
        print(f"{seats:5} | " + " | ".join(cells) + f" | {decisions:.1f} | {minutes:.1f}")


def decision_times(games: int, seed: int) -> None:
    """Milliseconds a strong bot decision takes at 12 seats (the view, then the choice)."""
    views, choices = [], []
    for game in range(games):
        rng = random.Random(seed + game)
        state = deal([f"P{i}" for i in range(1, 13)], Variants(), seed=seed + game, rng=rng)
        while not state.over:
            seat = waiting_for(state)
            start = time.perf_counter()
            view = bot_view(state, seat)
            middle = time.perf_counter()
            picked = choose(view, "strong", rng)
            views.append(middle - start)
            choices.append(time.perf_counter() - middle)
            state, _ = apply(state, picked.action)
    for name, spent in (("view", views), ("choice", choices)):
        print(
            f"12 seats, {name}: mean {1000 * statistics.mean(spent):.1f} ms, "
            f"worst {1000 * max(spent):.1f} ms over {len(spent)} decisions"
        )


def main(argv: list[str] | None = None) -> int:
    """Print the win-rate table and the decision times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games a cell")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    low, high = BOT_DELAY
    print(f"No variants, seed {args.seed}, {args.games} games a cell, the first policy's colour")
    print(f"alternating; minutes at {low:g}-{high:g} s a bot decision (the card: 1-5 minutes).")
    win_rates(args.games, args.seed)
    decision_times(max(1, args.games // 4), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
