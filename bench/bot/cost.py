"""4. The cost of an average 8-player game, on demand in us-east-1."""

from __future__ import annotations

import statistics
from dataclasses import fields

from bench.bot.meter import LATENCY, Meter, Sample
from bench.bot.world import World, new_bot, say_as
from testing.players import Table

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
