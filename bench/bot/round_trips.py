"""2. Round trips per update: a 12-player game with the Spy variant, one update of each kind
metered with latency injected into every Bot API call."""

from __future__ import annotations

from typing import Any

from bench.bot.meter import LATENCY, Meter, Sample
from bench.bot.world import World, new_bot, say_as
from engine import Variants
from testing.deals import find_seed
from testing.drivers import LambdaBot
from testing.players import Table


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
