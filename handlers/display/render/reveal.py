"""What can be read about a game: the final reveal, its timeline, a kept game told from its
record, and a player's own card."""

from __future__ import annotations

from typing import Any

from engine import captains, state_to_dict
from engine import events as kinds
from engine.cards import color
from engine.records import replay_record
from engine.state import TURN, GameState
from engine.views import events_for, known_cards
from handlers.display.ids import Ids
from handlers.display.messages import DropButtons
from handlers.display.presses import LOBBY, PlayAgain
from handlers.display.render.aftermath import aftermath_lines, floor_lines
from handlers.display.render.board import public_line
from handlers.display.render.bot_seats import bot_lines
from handlers.display.render.common import (
    Keyboard,
    Out,
    button,
    card,
    group_title,
    joined,
    labelled,
    seat_name,
    shown_name,
    t_,
)
from handlers.display.render.past_games import end_buttons, when
from handlers.display.render.prompts import card_hint
from handlers.display.texts import colour_name, duration
from handlers.session.absentees import Absences
from handlers.session.record import TableRecord
from handlers.session.table import OVER_STATUS, Table

# The public events a timeline names: the decisions, not the turns that frame them.
TIMELINE_KINDS = (
    kinds.SCOUTED,
    kinds.SWAPPED,
    kinds.PREDICTED,
    kinds.TIMED_OUT,
    kinds.DECAPITATION_ANNOUNCED,
)


def ending(table: Table, finished: dict) -> tuple[str, Keyboard]:
    """The final reveal (a `finished` session event): who won and how long it took, every card,
    captains, set-aside cards, why, neutrals, a timeline."""
    r = finished["resolved"]
    lines = verdict(table, r)
    length = duration(table.lang, finished["seconds"])
    lines.append(t_(table, "end_length", length=length, turns=finished["turns"]))
    lines += ["", *every_card(table, r["cards"], r["captains"], r["set_aside"])]
    lines += neutral_lines(table, r)
    lines += bot_lines(table, finished.get("bots"))
    lines += ["", t_(table, "timeline")]
    lines += timeline(table)
    lines += aftermath_lines(table)
    lines += floor_lines(table)
    return "\n".join(lines), play_again(table)


def verdict(table: Table, r: dict) -> list[str]:
    """The reveal's first lines (`r`: the engine's resolution): who won, the decapitation with
    both cards and its declarations, why it worked or failed, and the winners."""
    winner = colour_name(table.lang, r["winner"])
    lines = [t_(table, "end_title", colour=winner)]
    yes_no = {True: t_(table, "btn_yes"), False: t_(table, "btn_no")}
    decl = ""
    if r["proxy"] is not None:
        decl += t_(table, "decl_proxy", v=yes_no[r["proxy"]])
    if r["bodyguard"] is not None:
        decl += t_(table, "decl_bodyguard", v=yes_no[r["bodyguard"]])
    cards = r["cards"]
    lines.append(
        t_(
            table,
            "end_attack",
            attacker=seat_name(table, r["attacker"]),
            acard=card(table, cards[r["attacker"] - 1]),
            target=seat_name(table, r["target"]),
            tcard=card(table, cards[r["target"] - 1]),
            decl=decl,
        )
    )
    if r["reasons"]:
        why = joined(table, [t_(table, f"why_{reason}") for reason in r["reasons"]], "clause")
        lines.append(t_(table, "end_fail", why=why))
    else:
        lines.append(t_(table, "end_success"))
    lines.append(t_(table, "end_winners", names=winners(table, r)))
    return lines


def neutral_lines(table: Table, r: dict) -> list[str]:
    """How the Observer and the Spy fared (one on a removed seat had no effect)."""
    lines = []
    obs = r.get("observer")
    if obs and obs.get("removed"):
        name = seat_name(table, obs["seat"])
        key = "neutral_left" if table.has_left(obs["seat"]) else "neutral_removed"
        lines.append(t_(table, key, name=name, card=t_(table, "role_observer")))
    elif obs:
        name = seat_name(table, obs["seat"])
        key = (
            "observer_silent"
            if obs["predicted"] is None
            else "observer_won"
            if obs["won"]
            else "observer_lost"
        )
        lines.append(t_(table, key, name=name))
    spy = r.get("spy")
    if spy and spy.get("removed"):
        name = seat_name(table, spy["seat"])
        key = "neutral_left" if table.has_left(spy["seat"]) else "neutral_removed"
        lines.append(t_(table, key, name=name, card=t_(table, "role_spy")))
    elif spy:
        name = seat_name(table, spy["seat"])
        if spy["guess"] is None:
            lines.append(t_(table, "spy_silent", name=name))
        elif spy["won"]:
            lines.append(t_(table, "spy_won", name=name))
        else:
            lines.append(
                t_(
                    table,
                    "spy_lost",
                    name=name,
                    red=seat_name(table, spy["guess"]["red"]),
                    blue=seat_name(table, spy["guess"]["blue"]),
                )
            )
    return lines


def every_card(table: Table, cards: list[str], caps: dict, set_aside: list[str]) -> list[str]:
    """Every seat's card with the captains marked, a colour without one, the set-aside cards."""
    state = table.state
    lines = [t_(table, "end_cards")]
    for seat in range(1, state.seats + 1):
        tag = t_(table, "virtual_tag") if state.virtual[seat - 1] else ""
        cap = f" {t_(table, 'captain_tag')}" if seat in caps.values() else ""
        shown = f"<b>{card(table, cards[seat - 1])}</b>{cap}"
        lines.append(labelled(table, f"{seat_name(table, seat)}{tag}", shown))
    for colour, seat in caps.items():
        if seat is None:
            lines.append(t_(table, "no_captain", colour=colour_name(table.lang, colour)))
    if set_aside:
        aside = joined(table, [card(table, c) for c in set_aside])
        lines.append(t_(table, "set_aside_line", cards=aside))
    return lines


def play_again(table: Table) -> Keyboard:
    """The Play again button of a game that is over, and below it the game's Record and the
    call to the next game."""
    again = button(t_(table, "btn_play_again"), LOBBY, table, 0, PlayAgain())
    return [[again], row] if (row := end_buttons(table)) else [[again]]


def drop_play_again(table: Table, ids: Ids) -> list[Out]:
    """The game's end (or cancellation) message without its Play again button, once pressed:
    its text stays, and its Record and Next game buttons."""
    msg = ids.end
    if not msg:
        return []
    row = end_buttons(table)
    return [DropButtons(table.chat, msg, [row] if row else None)]


def cancelled(table: Table, e: dict) -> tuple[str, Keyboard]:
    """A `cancelled` session event: a lobby's says where a new game starts; a game's shows every
    card and the captains as they stood, and offers Play again."""
    by = e["by"]
    text = t_(table, "cancelled", name=shown_name(by)) if by else t_(table, "cancelled_idle")
    if not by and e.get("why") == "empty":
        text = t_(table, "cancelled_empty")
    if e["was_lobby"]:
        return t_(table, "cancelled_lobby", text=text), None
    shown = every_card(table, e["cards"], e["captains"], e["set_aside"])
    return "\n".join([text, "", *shown]), play_again(table)


def winner_name(table: Table, seat: int) -> str:
    """A winning seat's name, marked when its player was removed (the seat played on)."""
    name = seat_name(table, seat)
    if not table.is_removed(seat):
        return name
    return f"{name}{t_(table, 'left_tag' if table.has_left(seat) else 'removed_tag')}"


def winners(table: Table, r: dict) -> str:
    """The players who won: the human seats holding the winning colour at the end (after any
    swap), then the Observer or the Spy who won on their own."""
    state = table.state
    names = [
        winner_name(table, seat)
        for seat in state.humans()
        if color(r["cards"][seat - 1]) == r["winner"]
    ]
    for role, key in (("observer", "winner_observer"), ("spy", "winner_spy")):
        fate = r.get(role)
        if fate and fate["won"]:
            names.append(t_(table, key, name=seat_name(table, fate["seat"])))
    return t_(table, "name_sep").join(names) or t_(table, "winners_none")


def timeline(table: Table, state: GameState | None = None, last: int | None = 15) -> list[str]:
    """The public timeline of the game's decisions (in `state`, as the group knows it, if
    given): its `last` lines (None: all)."""
    lines, removed = [], set()
    for event in events_for(table.state if state is None else state, None):
        kind = event["type"]
        if kind == kinds.SEAT_REMOVED:  # told as a removal; its turns pass from then on
            removed.add(event["seat"])
            key = "replay_left" if table.has_left(event["seat"]) else "replay_removed"
            lines.append(t_(table, key, name=seat_name(table, event["seat"])))
        elif kind == kinds.TIMED_OUT and event["seat"] in removed and event["phase"] == TURN:
            left = table.has_left(event["seat"])
            key = "passed_left_line" if left else "passed_removed_line"
            lines.append(t_(table, key, name=seat_name(table, event["seat"])))
        elif kind in TIMELINE_KINDS:
            line = public_line(table, event)
            if line:
                lines.append(line)
    if last is None or len(lines) <= last:
        return lines
    return [t_(table, "timeline_cut", n=len(lines) - last + 1), *lines[-last + 1 :]]


def my_card(table: Table, seat: int, popup: bool, lang: str | None = None) -> str:
    """A player's card and what they know, in `lang` (by default their own language); short
    enough for a popup when `popup`."""
    table = table.speaking(lang or table.lang_of(table.user_at(seat)))
    state = table.state
    code = state.cards[seat - 1]
    known = known_cards(table.known_state(seat), seat)
    if popup:
        facts = joined(
            table,
            [
                t_(table, "popup_fact", seat=s, card=card(table, c))
                for s, c in known.items()
                if s != seat
            ],
            "clause",
        )
        text = t_(table, "your_card", card=card(table, code)) + t_(table, "popup_seat", seat=seat)
        text = text.replace("<b>", "").replace("</b>", "")
        return (text + (f" | {facts}" if facts else ""))[:200]
    lines = [
        t_(table, "your_seat", seat=seat, group=group_title(table)),
        t_(table, "your_card", card=card(table, code)),
        card_hint(table, code),
    ]
    others = {s: c for s, c in known.items() if s != seat}
    if others:
        lines += ["", t_(table, "mycard_learned")]
        lines += [labelled(table, seat_name(table, s), card(table, c)) for s, c in others.items()]
    return "\n".join(lines)


def kept_game(lang: str, title: str, entry: dict[str, Any]) -> list[str]:
    """A kept game told in `lang` from its record: which game, the reveal (for a game cancelled,
    every card as it stood) and its whole timeline, line by line; a seat whose player left or
    was removed is told as such."""
    state = replay_record(entry["record"])
    engine = state_to_dict(state)
    gone = Absences(removed=tuple(sorted(state.removed)), left=tuple(entry.get("left", ())))
    record = TableRecord(
        0, entry["game"], OVER_STATUS, lang, {}, title=title, engine=engine, absences=gone
    )
    table = Table(record)
    group = shown_name(title) if title else "—"
    lines = [t_(table, "record_title", group=group, date=when(entry["at"])), ""]
    resolved = [e for e in events_for(state, None) if e["type"] == kinds.RESOLVED]
    if resolved:
        r = resolved[-1]
        lines += verdict(table, r)
        lines += ["", *every_card(table, r["cards"], r["captains"], r["set_aside"])]
        lines += neutral_lines(table, r)
    else:
        cards = list(state.cards)
        lines += [t_(table, "record_cancelled"), ""]
        lines += every_card(table, cards, captains(state.cards), list(state.set_aside))
    decisions = timeline(table, state, last=None) or [t_(table, "status_nothing")]
    return [*lines, "", t_(table, "timeline"), *decisions]
