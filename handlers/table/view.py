"""The table view's JSON: what one seat is shown, its version (the ETag), and the contract's
check (docs/table-view.md has the schema)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from engine.cards import ALL_CARDS, COLORS, color
from engine.variants import VARIANT_NAMES

SCHEMA = 1
LANGS = ("en", "zh")
PHASES = ("turn", "speak", "decapitation", "over", "cancelled")
FACTS = {  # what a seat learned privately, kind -> its fields
    "scouted": ("seat", "card", "stale"),  # you saw `seat` hold `card` (stale: swapped since)
    "swapped": ("seat", "card"),  # a Turncoat swap with `seat` left you holding `card`
    "decapitation": ("target", "proxy", "bodyguard"),  # your sealed decapitation
    "spy_guess": ("red", "blue"),  # your sealed guess of the two captains
}
_MOMENT = re.compile(r"-?[0-9]{1,18}")  # a game's moment, as a view's version begins with it
MOVE_KINDS = ("scout", "decapitate", "done", "predict", "swap", "keep", "spy_guess")


@dataclass(frozen=True, slots=True)
class SeatShown:
    """One seat as the viewer sees it: `card` is what the viewer knows it holds now (None:
    unknown to the viewer); `face_up` when everyone sees it."""

    seat: int
    name: str
    virtual: bool = False
    away: bool = False
    removed: bool = False
    left: bool = False  # removed, its player having left with /leave
    card: str | None = None
    face_up: bool = False


def table_view(
    *,
    lang: str,
    selector: str,
    title: str,
    phase: str,
    turn: int | None,
    first: int,
    deadline: float | None,
    seats: Sequence[SeatShown],
    you: int,
    facts: Sequence[dict],
    moves: dict,
    next_up: bool,
    timeline: Sequence[str],
    latest: int | None,
    variants: Sequence[str],
    first_line: int = 0,
    prediction: dict | None = None,
    result: dict | None = None,
    pause: bool = False,
    moment: int | None = None,
) -> dict:
    """A seat's view (without its version and the server's time: see `stamped`). `timeline`
    holds the public lines, oldest first, the first of them the game's line number
    `first_line` (a long game's view carries only its latest lines); `latest` the number of the
    last change; `pause` while the Turncoat's pause after a scout runs (the scout speaks after
    it: every scout is followed by one, so it tells nothing); `moment` the game's moment, as the
    chat's buttons carry it (its version carries it too, for a move made on it)."""
    view = {
        "schema": SCHEMA,
        "moment": moment,
        "lang": lang,
        "game": {"g": selector, "title": title},
        "phase": phase,
        "turn": turn,
        "first": first,
        "deadline": deadline,
        "pause": pause,
        "variants": list(variants),
        "seats": [{**asdict(s), "you": s.seat == you} for s in seats],
        "you": {
            "seat": you,
            "card": next(s.card for s in seats if s.seat == you),
            "facts": [dict(f) for f in facts],
            "moves": moves,
            "must_act": bool(moves),
            "next": next_up,
        },
        "timeline": [
            {"n": n, "text": text, "latest": n == latest}
            for n, text in enumerate(timeline, first_line)
        ],
        "prediction": prediction,
        "result": result,
    }
    return view


def scouts_and_swaps(told: Sequence[dict], seat: int) -> list[dict]:
    """`seat`'s scouts and swaps as facts, from the events it was told (public ones included),
    in order; a scout of a seat that a Turncoat's swap involved since is marked stale."""
    out: list[dict] = []
    for event in told:
        kind, to = event["type"], event["to"]
        if kind == "scout_result" and to == seat:
            out.append({"kind": "scouted", "seat": event["target"], "card": event["card"]})
        elif kind == "new_card" and to == seat:
            out.append({"kind": "swapped", "seat": event["source"], "card": event["card"]})
        elif kind == "swapped":
            moved = {event["seat"], event["scout"]}
            for fact in out:
                if fact["kind"] == "scouted" and fact["seat"] in moved:
                    fact["stale"] = True
    return out


def game_result(resolved: dict, you: int, replay: str) -> dict:
    """A finished game's `result` as `you` are shown it, from the engine's reveal (`resolved`):
    the strike, why it failed, how the Observer and the Spy fared, and whether you won."""
    winner, fates = resolved["winner"], {}
    for role, said in (("observer", "predicted"), ("spy", "guess")):
        fate = resolved.get(role)
        fates[role] = fate and {"seat": fate["seat"], "won": fate["won"], said: fate.get(said)}
    own = next((f for f in fates.values() if f and f["seat"] == you), None)
    won = own["won"] is True if own else color(resolved["cards"][you - 1]) == winner
    return {
        "winner": winner,
        "captains": dict(resolved["captains"]),
        "replay": replay,
        "attacker": resolved["attacker"],
        "target": resolved["target"],
        "proxy": resolved["proxy"],
        "bodyguard": resolved["bodyguard"],
        "reasons": list(resolved["reasons"]),
        **fates,
        "you_won": won,
    }


def view_version(view: dict) -> str:
    """What the view shows, as a short digest: it changes exactly when the view does (the
    server's time aside). The ETag and the `version` a move is made on: a seat's view's begins
    with the game's moment, as a chat button carries it (`moment_of`)."""
    shown = {k: v for k, v in view.items() if k not in ("version", "now")}
    canonical = json.dumps(shown, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    digest = base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()[:12]).decode()
    moment = view.get("moment")
    return digest if moment is None else f"{moment}_{digest}"


def moment_of(version: str) -> int | None:
    """The game's moment a seat's view's version carries (None: no seat's view's version)."""
    head, sep, _ = version.partition("_")
    return int(head) if sep and _MOMENT.fullmatch(head) else None


def stamped(view: dict, now: float) -> dict:
    """The view as sent: with its version and the server's time (for the countdown)."""
    return {**view, "version": view_version(view), "now": round(now, 3)}


def view_problems(view: dict) -> list[str]:
    """How `view` breaks the contract (empty when it keeps to it)."""
    problems: list[str] = []

    def need(ok: bool, what: str) -> None:
        if not ok:
            problems.append(what)

    need(view.get("schema") == SCHEMA, "schema")
    need(view.get("lang") in LANGS, "lang")
    need(view.get("phase") in PHASES, "phase")
    need(set(view.get("variants", [None])) <= set(VARIANT_NAMES), "variants")
    seats = view.get("seats") or []
    numbers = [s.get("seat") for s in seats]
    need(numbers == list(range(1, len(seats) + 1)) and 4 <= len(seats) <= 14, "seats numbered")
    for s in seats:
        need(isinstance(s.get("name"), str), f"seat {s.get('seat')} name")
        need(s.get("card") is None or s["card"] in ALL_CARDS, f"seat {s.get('seat')} card")
        flags = ("virtual", "away", "removed", "left", "face_up", "you")
        need(all(type(s.get(f)) is bool for f in flags), f"seat {s.get('seat')} flags")
    you = view.get("you") or {}
    mine = [s["seat"] for s in seats if s.get("you")]
    need(mine == [you.get("seat")], "you: exactly one seat")
    need(you.get("card") in ALL_CARDS or view.get("phase") == "cancelled", "your card")
    for seat_key in ("turn", "first"):
        value = view.get(seat_key)
        need(value is None or value in numbers, seat_key)
    for fact in you.get("facts", []):
        fields = FACTS.get(fact.get("kind"))
        need(fields is not None and set(fact) <= {"kind", *fields}, f"fact {fact}")
    moves = you.get("moves", {})
    need(set(moves) <= set(MOVE_KINDS), "moves")
    need(you.get("must_act") == bool(moves), "must_act")
    need(type(you.get("next")) is bool, "next")
    lines = view.get("timeline", [])
    need(all(isinstance(line.get("text"), str) for line in lines), "timeline text")
    need(sum(1 for line in lines if line.get("latest")) <= 1, "one latest line")
    need(view.get("deadline") is None or isinstance(view["deadline"], int | float), "deadline")
    prediction = view.get("prediction")
    need(prediction is None or prediction.get("color") in COLORS, "prediction")
    result = view.get("result")
    need(result is None or result.get("winner") in COLORS, "result")
    need(result is None or type(result.get("you_won")) is bool, "result: you_won")
    need(result is None or result.get("target") in numbers, "result: target")
    need(type(view.get("pause")) is bool, "pause")
    need(view.get("moment") is None or type(view["moment"]) is int, "moment")
    for fact in you.get("facts", []):
        need(fact.get("stale", True) is True, f"fact {fact}: stale")
    need((result is not None) == (view.get("phase") == "over"), "result exactly when over")
    return problems
