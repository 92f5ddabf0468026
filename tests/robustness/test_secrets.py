"""Nothing that reaches the group depends on a card before the reveal.

Hundreds of seeded games, every variant in play, are played twice: on two different deals with
the same seating and first player, with the same public decisions at the same moments (random
legal decisions and timeouts, driven straight through the group session's `Table`, every event
shown through `render.show`; a scout now and then chosen from the group's turn message, its
seats listed there first). Whatever each deal's hidden players do in secret (a Turncoat
keeping or staying silent, a Spy guessing early or never), the group's messages (texts,
buttons, callback data, edits, in the same order at the same moments) and every group-facing
time (deadlines, holds, countdown refreshes) are the same in both games until the final reveal
(or, for a game nobody played, the message that cancels it and shows every card).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import pytest

from engine import Action, GameState, Variants
from engine.actions import DECAPITATE, END_TURN, KEEP, PREDICT, SCOUT, SPY_GUESS, SWAP
from engine.cards import OBSERVER
from engine.deal import deal
from engine.events import deal_events
from engine.state import SPEAK, SPY_PHASE, TURN, TURNCOAT, start_state
from engine.turns import may_decapitate, waiting_for
from engine.views import seat_view
from handlers.display import render
from handlers.display.ids import Ids
from handlers.display.messages import Out, to_stored
from handlers.session import lobby as lobby_module
from handlers.session.bot_seats import bot_names
from handlers.session.settings import CHOICES
from handlers.session.table import PLAYING, Table

GROUP = -1001234567890
GAMES = 300
SHARE = 50  # pairs per test: the seeds are played in shares, each share a test of its own
T0 = 4_000_000_000.0
END = "🏁"
CANCELLED = "🛑"  # a game cancelled because nobody played: it is over, every card is shown


@dataclass
class Seen:
    """How often the pairs exercised what the group must not notice."""

    x_only_in_one: int = 0  # a scouted X in one deal, none in the other
    spy_only_in_one: int = 0  # a human Spy guessing in one deal, none in the other
    early_secret_moves: int = 0  # a Turncoat or Spy deciding before the wait ends
    passed_at_once: int = 0  # an away or removed seat's turn passing with no wait
    removals: int = 0
    leaves: int = 0  # of the removals, players who left with /leave
    removed_in_a_window: int = 0  # removed while a Turncoat's or Spy's wait runs
    steps: int = 0
    ends: dict = field(default_factory=dict)


def show(table: Table, events: list[dict]) -> list[Out]:
    """The messages that show a change's session events."""
    return render.show(table, Ids(), events, "decapitation_bot")


def visible(outs: list[Out]) -> list[str]:
    """The group's part of a change's messages, as comparable text (the reveal left out, and
    the cards a cancelled game shows; the tag, which only pairs a turn message with its id in
    the store, never leaves the bot)."""
    shown = []
    for out in map(to_stored, outs):
        text = out.get("text") or ""
        if out["chat"] != GROUP or text.startswith(END):
            continue
        out = {k: v for k, v in out.items() if k != "tag"}
        if text.startswith(CANCELLED):
            out["text"] = text.split("\n", 1)[0]  # the game is over: its cards may differ
        shown.append(json.dumps(out, sort_keys=True))
    return shown


def public_times(t: Table, now: float) -> tuple:
    """Every time and state the group can read off the table, and the version every player's
    buttons carry."""
    hold = t.hold
    playing = t.status == PLAYING
    return (
        t.status,
        t.deadline(),
        t.next_wake(),
        hold.until if hold else None,
        t.speaker(),
        render.status(t, now) if playing else None,
        t.public_version if playing else None,
    )


def button_versions(t: Table, outs: list[Out]) -> set[int]:
    """The versions the game buttons of `outs` carry (any chat), the group's turn message's
    included (but My card, which names none)."""
    data = [b[1] for out in outs for row in getattr(out, "kb", None) or [] for b in row]
    game = [d for d in data if d.startswith("g|")]
    board = [d for d in data if d.startswith("c|") and not d.endswith("|me")]
    return {int(d.split("|")[3]) for d in game + board}


def twin_deals(rng: random.Random) -> tuple[GameState, GameState, dict]:
    """Two deals for one seating and first player, and the lobby settings that make them."""
    while True:
        variants = Variants(
            virtual_players=rng.choice((0, 0, 1, 2)),
            no_first_round_decapitation=rng.random() < 0.4,
            uncertain_sides=rng.random() < 0.3,
            turncoat=rng.random() < 0.6,
            bodyguards=rng.random() < 0.4,
            observer=rng.random() < 0.5,
            spy=rng.random() < 0.6,
        )
        names = [f"P{i}" for i in range(rng.randint(4, 12))]
        try:
            a = deal(names, variants, seed=rng.randrange(2**32))
            other = deal(names, variants, seed=rng.randrange(2**32))
        except ValueError:
            continue
        break
    pool = list(other.deal + other.set_aside)
    rng.shuffle(pool)
    seats = a.seats
    b = start_state(
        variants=a.variants,
        names=a.names,
        virtual=a.virtual,
        deal=tuple(pool[:seats]),
        set_aside=tuple(sorted(pool[seats:])),
        first=a.first,
        seed=a.seed,
    )
    settings = {name: getattr(variants, name) for name in variants.to_dict()}
    # the deal names every seat: no bot seats (they have a test of their own, below)
    chosen = {key: options for key, options in CHOICES.items() if key != "bot_seats"}
    settings.update({key: rng.choice(options) for key, options in chosen.items()})
    settings.update(virtual_players=variants.virtual_players, bot_seats=0)
    return a, b, {"names": names, "settings": settings, "lang": rng.choice(("en", "zh"))}


def seated(state: GameState, lobby: dict, silence: bool, monkeypatch) -> tuple[Table, list]:
    """A table dealt `state` from the lobby described."""
    names = lobby["names"]
    table, _ = Table.open_lobby(GROUP, 1, 1, names[0], lobby["lang"], lobby["settings"], T0)
    for uid, name in enumerate(names[1:], 2):
        table.join(uid, name)
    monkeypatch.setattr(lobby_module, "new_game", lambda *a, **k: (state, deal_events(state)))
    outs = show(table, table.start(T0, None, silence))
    return table, outs


class Pair:
    """The two games, driven in step; every step compares what the group sees."""

    def __init__(self, a: Table, b: Table, seen: Seen) -> None:
        self.a, self.b, self.seen = a, b, seen
        self.now = T0

    def same(self, outs_a: list[Out], outs_b: list[Out], what: str) -> None:
        assert visible(outs_a) == visible(outs_b), what
        self.seen.passed_at_once += sum("⏭" in getattr(out, "text", "") for out in outs_a)
        assert public_times(self.a, self.now) == public_times(self.b, self.now), what
        for t, outs in ((self.a, outs_a), (self.b, outs_b)):
            assert button_versions(t, outs) <= {t.public_version}, what
        self.seen.steps += 1

    def advance(self, until: float) -> None:
        """Let time pass to `until`, waking both tables whenever they asked to be woken."""
        for _ in range(20):
            when = self.a.next_wake()
            assert when == self.b.next_wake()
            if when is None or when > until:
                break
            self.now = max(self.now, when)
            outs_a = show(self.a, self.a.catch_up(self.now))
            outs_b = show(self.b, self.b.catch_up(self.now))
            self.same(outs_a, outs_b, "a wake")
        self.now = max(self.now, until)

    def list_seats(self, seat: int, listed: bool) -> None:
        """The acting player lists (or stops listing) the seats on the group's turn message."""
        user = self.a.user_at(seat)
        outs_a = show(self.a, self.a.list_seats(user, listed, self.now))
        outs_b = show(self.b, self.b.list_seats(user, listed, self.now))
        assert visible(outs_a), "the seats listed did not show in the group"
        self.same(outs_a, outs_b, "the seats listed")

    def remove(self, seat: int) -> None:
        """The host removes the seat's player from both games, now."""
        self.seen.removed_in_a_window += bool(self.a.hold is not None)
        outs_a = show(self.a, self.a.remove(seat, "Host", self.now))
        outs_b = show(self.b, self.b.remove(seat, "Host", self.now))
        self.same(outs_a, outs_b, f"removing seat {seat}")
        self.seen.removals += 1

    def leave(self, seat: int) -> None:
        """The seat's player sends /leave in the group and confirms it, in both games, now."""
        self.seen.removed_in_a_window += bool(self.a.hold is not None)
        user = self.a.user_at(seat)
        for what, step in (
            ("asks to leave", lambda t: t.ask_leave(user, "group")),
            ("leaves", lambda t: t.leave_game(user, self.now)),
        ):
            outs_a, outs_b = show(self.a, step(self.a)), show(self.b, step(self.b))
            self.same(outs_a, outs_b, f"seat {seat} {what}")
        self.seen.removals += 1
        self.seen.leaves += 1

    def both(self, action: Action, what: str) -> None:
        user = self.a.user_at(action.seat)
        outs_a = show(self.a, self.a.act(user, action, self.now))
        outs_b = show(self.b, self.b.act(user, action, self.now))
        self.same(outs_a, outs_b, what)


def secret_moves(pair: Pair, rng: random.Random) -> bool:
    """During a hold, each deal's hidden player may decide in secret; True if a swap was made
    (the group learns of it when the hold ends, so the pair is compared no further)."""
    until = pair.a.hold.until
    hidden = [
        t.state.phase in (TURNCOAT, SPY_PHASE) and bool(t.user_at(waiting_for(t.state)))
        for t in (pair.a, pair.b)
    ]
    if hidden[0] != hidden[1]:
        if pair.a.state.phase == SPY_PHASE or pair.b.state.phase == SPY_PHASE:
            pair.seen.spy_only_in_one += 1
        else:
            pair.seen.x_only_in_one += 1
    swapped = False
    moment = pair.now + rng.uniform(0, until - pair.now - 0.01)
    pair.advance(moment)
    for t, is_hidden in zip((pair.a, pair.b), hidden, strict=True):
        seat = waiting_for(t.state)
        if not is_hidden or t.is_removed(seat) or rng.random() < 0.3:
            continue  # silent until the wait ends (a removed player's decisions are refused)
        if t.state.phase == TURNCOAT:
            swap = rng.random() < 0.15
            swapped |= swap
            action = Action(SWAP if swap else KEEP, seat)
        else:
            seats = t.state.seats
            action = Action(SPY_GUESS, seat, red=rng.randint(1, seats), blue=rng.randint(1, seats))
        outs = show(t, t.act(t.user_at(seat), action, pair.now))
        assert visible(outs) == [], "a secret decision showed in the group"
        assert button_versions(t, outs) <= {t.public_version}
        pair.seen.early_secret_moves += 1
    assert public_times(pair.a, pair.now) == public_times(pair.b, pair.now)
    if swapped:
        return True  # the swap is announced when the wait ends: a reveal, as the rules say
    pair.advance(until)
    return False


def public_move(pair: Pair, rng: random.Random, absent: int = 0) -> None:
    """The seat whose turn or speaking moment it is acts (or lets the time run out; the
    `absent` seat always does)."""
    a, b = pair.a.state, pair.b.state
    assert (a.phase, a.turn) == (b.phase, b.turn)
    seat = a.turn
    deadline = pair.a.deadline()
    if rng.random() < 0.15 or not pair.a.user_at(seat) or seat == absent:
        pair.advance(deadline)
        return
    pair.advance(pair.now + rng.uniform(0, deadline - pair.now - 0.01))
    others = [s for s in range(1, a.seats + 1) if s != seat]
    if a.phase == TURN:
        may = may_decapitate(a, seat) is None and may_decapitate(b, seat) is None
        if may and rng.random() < 0.12:
            v = a.variants
            action = Action(
                DECAPITATE,
                seat,
                target=rng.choice(others),
                proxy=rng.random() < 0.5 if a.asks_proxy else None,  # a removal asks it too
                bodyguard=rng.random() < 0.5 if v.bodyguards else None,
            )
        else:
            action = Action(SCOUT, seat, target=rng.choice(others))
            if rng.random() < 0.3:  # chosen from the group's turn message
                pair.list_seats(seat, True)
                if rng.random() < 0.3:
                    pair.list_seats(seat, False)
                    pair.list_seats(seat, True)
    else:
        assert a.phase == SPEAK
        predict = all(s.cards[seat - 1] == OBSERVER and s.prediction is None for s in (a, b))
        if predict and rng.random() < 0.5:
            action = Action(PREDICT, seat, color=rng.choice(("red", "blue")))
        else:
            action = Action(END_TURN, seat)
    pair.both(action, f"{action}")


def play_twice(seed: int, seen: Seen, monkeypatch, absent: bool = False) -> None:
    """One pair of games; `absent`: one human never plays (so is marked away) and, at a random
    moment, another is removed (in every other pair, leaves with /leave)."""
    rng = random.Random(seed)
    deal_a, deal_b, lobby = twin_deals(rng)
    silence = rng.random() < 0.5
    a, outs_a = seated(deal_a, lobby, silence, monkeypatch)
    b, outs_b = seated(deal_b, lobby, silence, monkeypatch)
    pair = Pair(a, b, seen)
    pair.same(outs_a, outs_b, "the deal")
    humans = list(a.state.humans())
    idle = rng.choice(humans) if absent else 0
    removed = rng.choice([s for s in humans if s != idle]) if absent else 0
    remove_at = rng.randrange(2, 20)
    for step in range(400):
        if a.status != PLAYING:
            break
        if step == remove_at and removed and seed % 2:
            pair.leave(removed)
        elif step == remove_at and removed:
            pair.remove(removed)
        elif a.hold is not None:
            if secret_moves(pair, rng):
                return
        elif a.state.phase in (TURN, SPEAK):
            public_move(pair, rng, idle)
        else:
            raise AssertionError(f"the group waits on nothing it knows of: {a.state.phase}")
    assert a.status == b.status != PLAYING, "the game did not end"
    seen.ends[a.status] = seen.ends.get(a.status, 0) + 1


@pytest.mark.slow  # three hundred pairs of games: the whole suite's, not the edit loop's
@pytest.mark.parametrize("first", range(0, GAMES, SHARE), ids=lambda first: f"seeds{first}+")
def test_the_group_sees_the_same_on_two_deals_until_the_reveal(
    first: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each share of the seeds is a test of its own (the workers play them side by side)."""
    seen = Seen()
    for seed in range(first, first + SHARE):
        play_twice(seed, seen, monkeypatch)
    # The pairs did meet what the group must not notice, many times over in every share.
    assert seen.x_only_in_one >= 20, seen
    assert seen.spy_only_in_one >= 4, seen
    assert seen.early_secret_moves >= 40, seen
    assert seen.ends.get("over", 0) >= SHARE // 2, seen


@pytest.mark.parametrize(
    ("seeds", "windows"),
    [
        pytest.param(range(1000, 1030), 4, id="seeds1000-1029"),
        pytest.param(range(1030, 1060), 1, id="seeds1030-1059"),
    ],
)
def test_an_away_or_removed_seats_turns_pass_alike_whatever_its_card(
    seeds: range, windows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat whose player never plays is marked away and its turns then pass at once; another
    is removed (or leaves with /leave) at a random moment (in a secret window, too: `windows`
    times at least in these seeds). The group sees the same on both deals: the passing, the
    windows that still run their time, the cancellation."""
    seen = Seen()
    for seed in seeds:
        play_twice(seed, seen, monkeypatch, absent=True)
    assert seen.passed_at_once >= 20, seen
    assert seen.removals >= 20, seen
    assert seen.leaves >= 10, seen
    assert seen.removed_in_a_window >= windows, seen
    assert seen.x_only_in_one >= 5, seen


# -- bot seats: what a bot seat does depends on what it knows, and on nothing else ------------


class Apart(Exception):
    """The two games part where the group may learn what differs: a bot seat was shown a card
    that differs between the deals, or a swap is about to be announced."""


class BotPair(Pair):
    """Two games with the same bot seats, holding the same cards; the bot seats move on the
    tables' own wakes."""

    def advance(self, until: float) -> None:
        for _ in range(20):
            when = self.a.next_wake()
            assert when == self.b.next_wake(), "a bot seat's move is due at different times"
            if when is None or when > until:
                break
            hold = self.a.hold
            if hold is not None and when >= hold.until and self.swapped():
                raise Apart("a swap is announced")
            self.now = max(self.now, when)
            outs_a = show(self.a, self.a.catch_up(self.now))
            outs_b = show(self.b, self.b.catch_up(self.now))
            self.same(outs_a, outs_b, "a wake (a bot seat's move)")
            if self.bots_know_apart():
                raise Apart("a bot seat saw a card that differs")
        self.now = max(self.now, until)

    def swapped(self) -> bool:
        return any(x.act == SWAP for t in (self.a, self.b) for x in t.state.log)

    def bots_know_apart(self) -> bool:
        return any(
            seat_view(self.a.state, s)["known"] != seat_view(self.b.state, s)["known"]
            for s in self.a.record.bots
        )


def twin_deals_with_bots(rng: random.Random) -> tuple[GameState, GameState, dict]:
    """Two deals of a table of people and bot seats that agree on the bot seats' cards (every
    other card shuffled again), and the lobby that makes them."""
    lang = rng.choice(("en", "zh"))
    people = rng.randint(2, 5)
    bots = rng.randint(max(2, 4 - people), 12 - people)
    variants = Variants(
        turncoat=rng.random() < 0.6,
        bodyguards=rng.random() < 0.4,
        observer=rng.random() < 0.5,
        spy=rng.random() < 0.6,
        no_first_round_decapitation=rng.random() < 0.4,
    )
    names = [f"P{i}" for i in range(people)]
    a = deal(names + bot_names(lang, bots), variants, seed=rng.randrange(2**32))
    robots = {s for s, name in enumerate(a.names) if name.startswith("🤖")}
    rest = [c for s, c in enumerate(a.deal) if s not in robots] + list(a.set_aside)
    # the least difference a bot seat cannot see: two cards apart from its own change places
    i = rng.randrange(len(rest))
    j = rng.choice([k for k in range(len(rest)) if rest[k] != rest[i]])
    rest[i], rest[j] = rest[j], rest[i]
    rest.reverse()  # popped from the end, in seat order
    cards = [a.deal[s] if s in robots else rest.pop() for s in range(a.seats)]
    b = start_state(
        variants=a.variants,
        names=a.names,
        virtual=a.virtual,
        deal=tuple(cards),
        set_aside=tuple(sorted(rest)),
        first=a.first,
        seed=a.seed,
    )
    settings = {name: getattr(variants, name) for name in variants.to_dict()}
    settings.update({key: rng.choice(options) for key, options in CHOICES.items()})
    settings.update(virtual_players=0, bot_seats=bots, bot_strong=rng.random() < 0.5)
    return a, b, {"names": names, "settings": settings, "lang": lang}


def play_twice_with_bots(seed: int, seen: Seen, monkeypatch) -> None:
    """One pair of games with bot seats, compared until the deals can be told apart."""
    rng = random.Random(seed)
    deal_a, deal_b, lobby = twin_deals_with_bots(rng)
    a, outs_a = seated(deal_a, lobby, False, monkeypatch)
    b, outs_b = seated(deal_b, lobby, False, monkeypatch)
    assert a.record.bots and a.record.bots == b.record.bots
    pair = BotPair(a, b, seen)
    pair.same(outs_a, outs_b, "the deal")
    try:
        for _ in range(400):
            if a.status != PLAYING:
                break
            moved = len(a.state.log)
            if a.hold is not None:
                secret_moves(pair, rng)
            else:
                public_move(pair, rng)
            seen.early_secret_moves += sum(
                a.bots.is_bot(x.seat) for x in a.state.log[moved:] if x.seat
            )
    except Apart as why:
        seen.ends[str(why)] = seen.ends.get(str(why), 0) + 1
        return
    assert a.status == b.status != PLAYING, "the game did not end"
    seen.ends[a.status] = seen.ends.get(a.status, 0) + 1


def test_bot_seats_act_alike_on_two_deals_that_agree_on_what_they_know(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """People and bot seats on two deals that agree on the bot seats' cards: the group sees the
    same texts, buttons and times, bot seats' moves included, until a bot seat is shown a card
    that differs (or a swap is announced); many games end in a reveal before that."""
    seen = Seen()
    for seed in range(2000, 2060):
        play_twice_with_bots(seed, seen, monkeypatch)
    assert seen.early_secret_moves >= 150, seen  # bot seats' moves compared, counted
    assert seen.ends.get("over", 0) >= 3, seen  # games compared to their reveal
    assert seen.ends.get("a bot seat saw a card that differs", 0) >= 20, seen
