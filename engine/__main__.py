"""Command line: `python -m engine replay FILE` and `python -m engine simulate ...`."""

from __future__ import annotations

import argparse
import json
import sys

from engine.bots import LEVELS
from engine.records import BadRecord, replay_record, summary
from engine.simulate import simulate, table
from engine.variants import VARIANT_NAMES, Variants


def replay_command(path: str) -> int:
    """Replay a record and print its result; exit 2 with one line on a bad record."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                data = file.read()
    except OSError as err:
        print(f"cannot read {path}: {err.strerror}", file=sys.stderr)
        return 2
    try:
        # Decoded here, not by the stream, so bad bytes are one error line whatever the locale.
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        print(f"cannot read {path}: not UTF-8 text", file=sys.stderr)
        return 2
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as err:  # too deep a nesting raises RecursionError
        print(f"bad JSON: {err}", file=sys.stderr)
        return 2
    try:
        state = replay_record(record)
    except BadRecord as err:
        print(str(err), file=sys.stderr)
        return 2
    print(json.dumps(summary(state), ensure_ascii=False))
    return 0


def simulate_command(args: argparse.Namespace) -> int:
    """Play seeded games and print the tally."""
    switches = {name: True for name in args.variant if name != "virtual_players"}
    variants = Variants(virtual_players=args.virtual, **switches)
    humans = args.seats - args.virtual
    if not 4 <= humans <= 12:
        print(
            f"{args.seats} seats with {args.virtual} virtual leaves {humans} humans; "
            "the game needs 4 to 12",
            file=sys.stderr,
        )
        return 2
    played = args.bots or args.policy
    tally = simulate(args.seats, args.games, args.seed, variants, played, args.against)
    on = ", ".join(variants.names_on()) or "no variants"
    who = f"{played} bot" if args.bots else played
    if args.against:
        who += f" against {args.against} (one colour each, alternating)"
    print(table(tally, f"{args.seats} seats, {on}, {who} play, seed {args.seed}"))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("replay", help="replay a game record and print how it stands")
    rep.add_argument("file", help="the record (JSON), or - for standard input")
    sim = sub.add_parser("simulate", help="play seeded games with automatic players")
    sim.add_argument("--seats", type=int, required=True, help="seats, virtual ones included")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument(
        "--variant",
        action="append",
        default=[],
        choices=VARIANT_NAMES[1:],
        help="a variant to switch on (repeatable)",
    )
    sim.add_argument(
        "--virtual", type=int, default=0, choices=(0, 1, 2), help="virtual players (variant 1)"
    )
    sim.add_argument("--policy", choices=("random", "informed"), default="random")
    sim.add_argument(
        "--bots", choices=LEVELS, default=None, help="every seat a bot seat of this level"
    )
    sim.add_argument(
        "--against",
        choices=("random", "informed", *LEVELS),
        default=None,
        help="the other colour's seats play this (the neutrals play the first policy)",
    )
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.file)
    return simulate_command(args)


if __name__ == "__main__":
    sys.exit(main())
