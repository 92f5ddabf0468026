"""Play many seeded games with automatic players and count how they end; two policies may be
pitted against each other, one colour each."""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from engine.actions import Action
from engine.cards import BLUE, RED, color
from engine.deal import deal
from engine.events import Event, deal_events
from engine.policies import policy
from engine.resolution import observer_result, spy_result
from engine.state import GameState
from engine.turns import apply, waiting_for
from engine.variants import Variants

# A bot seat waits this long (seconds, drawn evenly) before each decision, to look human; the
# simulated minutes of a game count its decisions at the mean and nothing else.
BOT_DELAY = (4.0, 9.0)


def simulated_minutes(decisions: float) -> float:
    """How long `decisions` bot decisions take at the mean human-looking delay."""
    return decisions * sum(BOT_DELAY) / 2 / 60


class PitPolicy:
    """Two policies at one table: the seats dealt `colour` (and the neutrals) play `first`, the
    other colour's seats `second`; each decides on what its own seat knows."""

    listens = True

    def __init__(self, first: str, second: str, colour: str, rng: random.Random) -> None:
        self.colour = colour
        self.first, self.second = policy(first, rng), policy(second, rng)

    def observe(self, events: Iterable[Event]) -> None:
        """Pass the events on to each policy that listens."""
        events = list(events)
        for player in (self.first, self.second):
            if player.listens:
                player.observe(events)

    def choose(self, state: GameState, seat: int) -> Action:
        """The decision of the policy whose colour the seat was dealt."""
        side = color(state.deal[seat - 1])
        player = self.first if side in (self.colour, None) else self.second
        return player.choose(state, seat)


@dataclass
class Tally:
    """What a batch of games came to."""

    games: int = 0
    red: int = 0
    blue: int = 0
    unfinished: int = 0
    decisions: int = 0
    first_decapitations: int = 0
    first_decapitation_wins: int = 0
    first_player_team_wins: int = 0
    observer_games: int = 0
    observer_wins: int = 0
    spy_games: int = 0
    spy_wins: int = 0
    pitted: bool = False
    first_policy_wins: int = 0  # pitted: games the first policy's colour won
    seconds: float = 0.0


def play(
    humans: int,
    variants: Variants,
    seed: int,
    policy_name: str = "random",
    cap: int = 0,
    against: str | None = None,
    colour: str = RED,
) -> tuple:
    """Play one game to the end (or `cap` decisions); returns (state, decisions, first action).
    With `against`, the seats dealt `colour` play `policy_name` and the others `against`."""
    names = [f"P{i}" for i in range(1, humans + 1)]
    rng = random.Random(seed)  # one stream: the deal first, then the players' choices
    state = deal(names, variants, seed=seed, rng=rng)
    if against is None:
        player = policy(policy_name, rng)
    else:
        player = PitPolicy(policy_name, against, colour, rng)
    if player.listens:
        player.observe(deal_events(state))
    cap = cap or 40 * state.seats
    first_action = None
    decisions = 0
    while not state.over and decisions < cap:
        seat = waiting_for(state)
        action = player.choose(state, seat)
        first_action = first_action or action
        state, events = apply(state, action)
        if player.listens:
            player.observe(events)
        decisions += 1
    return state, decisions, first_action


def simulate(
    seats: int,
    games: int,
    seed: int,
    variants: Variants,
    policy_name: str = "random",
    against: str | None = None,
) -> Tally:
    """Play `games` games of `seats` seats (virtual ones included) and tally the results. With
    `against`, `policy_name` plays Red in every other game and Blue in the rest."""
    humans = seats - variants.virtual_players
    seeds = random.Random(seed)
    tally = Tally(pitted=against is not None)
    start = time.perf_counter()
    for game in range(games):
        colour = (RED, BLUE)[game % 2]
        state, decisions, first = play(
            humans, variants, seeds.getrandbits(63), policy_name, against=against, colour=colour
        )
        tally.games += 1
        tally.decisions += decisions
        if not state.over:
            tally.unfinished += 1
            continue
        winner = state.outcome.winner
        tally.red += winner == "red"
        tally.blue += winner == "blue"
        if first.act == "decapitate":
            tally.first_decapitations += 1
            tally.first_decapitation_wins += not state.outcome.reasons
        tally.first_player_team_wins += color(state.deal[state.first - 1]) == winner
        tally.first_policy_wins += tally.pitted and winner == colour
        obs = observer_result(state, winner)
        if obs:
            tally.observer_games += 1
            tally.observer_wins += obs["won"]
        spy = spy_result(state, state.spy_guess, state.outcome.captains)
        if spy:
            tally.spy_games += 1
            tally.spy_wins += spy["won"]
    tally.seconds = time.perf_counter() - start
    return tally


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def table(tally: Tally, title: str) -> str:
    """A small text table of a tally."""
    finished = tally.games - tally.unfinished
    minutes = simulated_minutes(tally.decisions / max(tally.games, 1))
    low, high = BOT_DELAY
    rows = [
        ("games", f"{tally.games}"),
        ("red wins", _pct(tally.red, finished)),
        ("blue wins", _pct(tally.blue, finished)),
        ("first player's team wins", _pct(tally.first_player_team_wins, finished)),
        ("first decision a decapitation", _pct(tally.first_decapitations, tally.games)),
        ("  ... and it succeeded", _pct(tally.first_decapitation_wins, tally.first_decapitations)),
        ("Observer wins", _pct(tally.observer_wins, tally.observer_games)),
        ("Spy wins", _pct(tally.spy_wins, tally.spy_games)),
        ("mean decisions per game", f"{tally.decisions / max(tally.games, 1):.2f}"),
        ("  ... in simulated minutes", f"{minutes:.1f} (at {low:g}-{high:g} s a decision)"),
        ("unfinished (hit the cap)", f"{tally.unfinished}"),
        ("games per second", f"{tally.games / max(tally.seconds, 1e-9):,.0f}"),
    ]
    if tally.pitted:
        rows.insert(1, ("first policy's colour wins", _pct(tally.first_policy_wins, finished)))
    width = max(len(k) for k, _ in rows)
    return "\n".join([title, *(f"  {k:<{width}}  {v}" for k, v in rows)])
