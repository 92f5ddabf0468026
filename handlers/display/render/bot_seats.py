"""What the bot seats say: a claim in the speaking moment, and at the reveal what each knew and
why it made its last move."""

from __future__ import annotations

from engine.actions import DECAPITATE, END_TURN, KEEP, SCOUT, SPY_GUESS, SWAP
from handlers.display.render.common import card, shown_name, t_
from handlers.session.table import Table


def claim_line(table: Table, event: dict) -> str:
    """A claim made with the end of a turn (`claim` "5:R1": seat 5 holds Red 1), as the
    speaker's words: about another seat, or about its own ("I am ...")."""
    seat, code = str(event["claim"]).split(":", 1)
    name = shown_name(table.name_of(event["seat"]))
    if int(seat) == event["seat"]:
        return t_(table, "claim_self", name=name, card=card(table, code))
    return t_(table, "claim_seat", name=name, seat=int(seat), card=card(table, code))


def bot_lines(table: Table, bots: dict | None) -> list[str]:
    """The reveal's lines on the bot seats (`bots`: by seat, what each knew and its last move)."""
    if not bots:
        return []
    lines = ["", t_(table, "reveal_bots")]
    for seat in sorted(bots, key=int):
        why = bots[seat]
        knew = [
            t_(table, "bot_knew", seat=int(s), card=card(table, c))
            for s, c in sorted(why.get("knew", {}).items(), key=lambda kv: int(kv[0]))
        ]
        known = "; ".join(knew) if knew else t_(table, "bot_knew_none")
        name = shown_name(table.name_of(int(seat)))
        lines.append(t_(table, "reveal_bot", name=name, known=known, did=_did(table, why)))
    return lines


def _did(table: Table, why: dict) -> str:
    """A bot seat's last move, and why, in a few words."""
    act = why.get("act")
    if act == DECAPITATE and why.get("whim"):
        return t_(table, "bot_did_whim", target=why["target"])
    if act == DECAPITATE:
        pct = round(100 * float(why.get("chance", 0)))
        return t_(table, "bot_did_decapitate", target=why["target"], pct=pct)
    if act == SCOUT:
        return t_(table, "bot_did_scout", target=why["target"])
    if act == SPY_GUESS:
        return t_(table, "bot_did_spy_guess", red=why["red"], blue=why["blue"])
    if act in (SWAP, KEEP):
        return t_(table, f"bot_did_{act}")
    if act == END_TURN:
        return t_(table, "bot_did_end_turn")
    return t_(table, "bot_did_other")
