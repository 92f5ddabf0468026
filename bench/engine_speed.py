"""Engine benchmark: simulated games per second and the stored size of a 14-seat game.
Run: `make bench`; prints figures beside their targets (docs/performance.md)."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Variants, new_game, waiting_for
from engine.codec import state_to_dict
from engine.policies import InformedPolicy
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


def largest_state(games: int = 30) -> tuple[int, int, int]:
    """Stored engine-state sizes (compact JSON bytes) over seeded 14-seat informed games.

    Returns the largest size seen, the mean decisions a game and the size at 100 decisions.
    Informed play is slow to strike (it waits for proof), so these games run long.
    """
    variants = Variants(virtual_players=2, turncoat=True, bodyguards=True, observer=True, spy=True)
    names = [f"Player {i:02d} with a long name"[:32] for i in range(12)]
    worst = decisions = at_100 = 0
    for g in range(games):
        rng = random.Random(g)
        state, events = new_game(names, variants, seed=g, rng=rng)
        player = InformedPolicy(rng)
        player.observe(events)
        while not state.over and state.version < 600:
            action = player.choose(state, waiting_for(state))
            state, events = apply(state, action)
            player.observe(events)
            size = len(json.dumps(state_to_dict(state), separators=(",", ":"), ensure_ascii=False))
            worst = max(worst, size)
            if state.version == 100:
                at_100 = max(at_100, size)
        decisions += state.version
    return worst, decisions // games, at_100


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
    worst, mean, at_100 = largest_state()
    print(
        f"14-seat engine state, informed play: largest {worst} bytes, {at_100} bytes after 100 "
        f"decisions (target: whole item <= 3,072); mean {mean} decisions a game "
        f"({time.perf_counter() - start:.1f} s)"
    )


if __name__ == "__main__":
    main()
