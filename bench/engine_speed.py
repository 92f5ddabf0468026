"""Engine benchmark: simulated games per second and the stored size of a 14-seat game.

Run: `make bench` (or `python bench/engine_speed.py`). Prints figures beside their targets;
asserts nothing.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Variants, legal_actions, new_game, waiting_for
from engine.simulate import simulate
from engine.turns import apply

ALL_ON = dict(
    no_first_round_decapitation=True,
    uncertain_sides=True,
    turncoat=True,
    bodyguards=True,
    observer=True,
    spy=True,
)


def games_per_second(seats: int, variants: Variants, policy: str, seconds: float) -> float:
    """Play batches for about `seconds` and return the rate."""
    played, spent, batch = 0, 0.0, 200 if policy == "random" else 20
    while spent < seconds:
        tally = simulate(seats, batch, played + 1, variants, policy)
        played += tally.games
        spent += tally.seconds
    return played / spent


def largest_state(seats_humans: int = 12, games: int = 200) -> tuple[int, int]:
    """The largest stored engine state (bytes of compact JSON) seen in seeded 14-seat games."""
    variants = Variants(virtual_players=2, turncoat=True, bodyguards=True, observer=True, spy=True)
    names = [f"Player {i:02d} with a long name"[:32] for i in range(seats_humans)]
    rng = random.Random(5)
    worst = decisions = 0
    for g in range(games):
        state, _ = new_game(names, variants, seed=g)
        while not state.over:
            seat = waiting_for(state)
            # Stretch the game: mostly scouts, now and then a timeout, rarely the end.
            options = [a for a in legal_actions(state, seat) if a.act != "decapitate"]
            if not options or rng.random() < 0.002:
                options = legal_actions(state, seat)
            state, _ = apply(state, rng.choice(options))
            decisions += 1
            size = len(json.dumps(state.to_dict(), separators=(",", ":"), ensure_ascii=False))
            worst = max(worst, size)
    return worst, decisions // games


def main() -> None:
    """Print the figures."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print("engine speed (one core), games per second")
    print(f"{'seats':>5} {'variants':>9} {'policy':>9} {'games/s':>10}  target")
    for seats in (8, 12):
        for label, switches in (("off", {}), ("all on", ALL_ON)):
            for policy in ("random", "informed"):
                rate = games_per_second(seats, Variants(**switches), policy, seconds)
                target = ">= 20,000" if (seats, label, policy) == (8, "off", "random") else ""
                print(f"{seats:>5} {label:>9} {policy:>9} {rate:>10,.0f}  {target}")
    start = time.perf_counter()
    worst, mean = largest_state()
    print(
        f"largest 14-seat engine state: {worst} bytes (target <= 3,072 for the whole item); "
        f"mean {mean} decisions a game; measured in {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
