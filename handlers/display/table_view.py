"""The table view of a group's game as the bot keeps it: each seat shown what it was told, in
the bot's own words and the player's own language, never read off the hidden state.

No Telegram library here: the table's GET routes build these views (docs/table-view.md).
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection

from engine import Action, GameState
from engine.actions import (
    DECAPITATE,
    END_TURN,
    KEEP,
    PREDICT,
    REMOVE,
    SCOUT,
    SPY_GUESS,
    SWAP,
    TIMEOUT,
)
from engine.events import EVERYONE, RESOLVED, SEAT_REMOVED, Event
from engine.knowledge import known_from
from engine.state import SPEAK, TURN, TURNCOAT
from engine.turns import legal_actions, waiting_for
from engine.views import PUBLIC_PHASE, all_events
from handlers.display.render import public_line, seat_name, spy_choices, t_
from handlers.display.render.view import View
from handlers.display.texts import card_name, colour_name, t
from handlers.session.table import CANCELLED, OVER_STATUS, PLAYING, Table
from handlers.table.moves import moves_for
from handlers.table.replay import replay_view
from handlers.table.selector import replay_selector, table_selector
from handlers.table.view import SeatShown, game_result, scouts_and_swaps, table_view

TIMELINE_KEPT = 40  # public lines a view carries, the latest (a long game has hundreds)
# The public events the timeline tells: each decision, how each turn began, a seat whose player
# was removed. ("speak" and the reveal are not: the first is news a secret window may hold,
# the second is `result`.)
TIMELINE_KINDS = (
    "turn",
    "scouted",
    "swapped",
    "turn_ended",
    "predicted",
    "timed_out",
    "decapitation_announced",
    SEAT_REMOVED,
)
_TAG = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """A line of the bot's (HTML) as plain text: the table shows text, never markup."""
    return html.unescape(_TAG.sub("", text))


def seat_view(table: Table, seat: int) -> dict:
    """What `seat` is shown at the table now (unstamped: see `handlers.table.view.stamped`):
    its cards and facts from what it was told (`Table.known_state`), the public timeline as
    the group was told it, the moves it may make only while the game waits on it. The table
    is read once, as a message drawn of it reads it (`View`), in the seat's language."""
    drawn = View.of(table)
    shown = drawn.speaking_to(drawn.user_at(seat))
    status, absences, state = table.status, table.absences, drawn.state
    public, known_state = table.public_state(), table.known_state(seat)
    told = all_events(known_state)  # the game replayed once, for all that follows
    heard = told if public is known_state else all_events(public)
    ended = status in (OVER_STATUS, CANCELLED)
    if ended or known_state.over:  # the end (or the cancellation) showed every card
        known = dict(enumerate(state.cards, 1))
    else:
        known = dict(sorted(known_from(told, seat).items()))
    seats = [
        SeatShown(
            s,
            name,
            virtual=state.virtual[s - 1],
            away=s in absences.away,
            removed=s in absences.removed,
            left=s in absences.left,
            card=known.get(s),
            face_up=ended or (s in known and known[s] in known_state.face_up),
        )
        for s, name in enumerate(drawn.names, 1)
    ]
    phase = {OVER_STATUS: "over", CANCELLED: "cancelled"}.get(status) or PUBLIC_PHASE[public.phase]
    lines = timeline(shown, heard, absences.left)
    kept = lines[-TIMELINE_KEPT:]
    return table_view(
        lang=shown.lang,
        selector=table_selector(drawn.chat, drawn.game),
        title=drawn.title,
        phase=phase,
        turn=None if ended else public.turn,
        first=state.first,
        deadline=table.deadline() if status == PLAYING else None,
        seats=seats,
        you=seat,
        facts=facts(known_state, told, seat, phase),
        moves=moves(drawn, seat),
        next_up=not ended and next_seat(public) == seat,
        timeline=kept,
        first_line=len(lines) - len(kept),
        latest=len(lines) - 1 if lines else None,
        variants=state.variants.names_on(),
        prediction=(
            {"seat": public.prediction[0], "color": public.prediction[1]}
            if public.prediction
            else None
        ),
        result=result(table, seat) if status == OVER_STATUS else None,
        pause=paused(drawn, public),
        moment=drawn.public_version,
    )


def paused(table: Table | View, public: GameState) -> bool:
    """Whether the Turncoat's pause after a scout runs (the scout speaks once it is over), as
    the group's turn message says it (`public`: the game as the group knows it)."""
    return table.status == PLAYING and table.hold is not None and public.phase in (TURNCOAT, SPEAK)


def timeline(table: Table | View, events: list[Event], left: Collection[int]) -> list[str]:
    """The public lines of `events` (the game as the group knows it), worded as the group's
    turn messages word them, in `table`'s language (`left`: the seats whose player left). A
    view carries the latest `TIMELINE_KEPT`, each numbered by its place among all of them."""
    lines = []
    for event in events:
        if event["to"] != EVERYONE or event["type"] not in TIMELINE_KINDS:
            continue
        if event["type"] == "turn":
            line = t_(table, "turn_line", name=seat_name(table, event["seat"]))
        elif event["type"] == SEAT_REMOVED:
            key = "replay_left" if event["seat"] in left else "replay_removed"
            line = t_(table, key, name=seat_name(table, event["seat"]))
        else:
            line = public_line(table, event)
        if line:
            lines.append(plain(line))
    return lines


def facts(known_state: GameState, told: list[Event], seat: int, phase: str) -> list[dict]:
    """What `seat` learned privately (`told`: the events of the game as it knows it), in
    order: its scouts (stale once a swap moved the card), a swap, and its own sealed
    decapitation or guess."""
    out = scouts_and_swaps(told, seat)
    strike = known_state.decapitation
    if phase == "decapitation" and strike is not None and strike.seat == seat:
        sealed = {"kind": "decapitation", "target": strike.target}
        for declared in ("proxy", "bodyguard"):
            if getattr(strike, declared) is not None:
                sealed[declared] = getattr(strike, declared)
        out.append(sealed)
    guess = known_state.spy_guess
    if guess is not None and guess[0] == seat:
        out.append({"kind": "spy_guess", "red": guess[1], "blue": guess[2]})
    return out


def waits_on(table: Table | View, seat: int) -> bool:
    """Whether the game waits on `seat`'s decision now, as the session offers it: not during
    a secret window (but to the Turncoat or the Spy deciding in it), nor from a removed seat."""
    if table.status != PLAYING or table.is_removed(seat):
        return False
    state = table.state
    if waiting_for(state) != seat:
        return False
    return not (table.hold is not None and state.phase in (TURN, SPEAK))


def moves(table: Table | View, seat: int) -> dict:
    """What `seat` may do now (empty unless the game waits on it)."""
    if not waits_on(table, seat):
        return {}
    state = table.state
    scout = state.turn if state.phase == TURNCOAT else None
    offered = moves_for(legal_actions(state, seat), scout)
    if SPY_GUESS in offered:  # the captains the chat's buttons offer
        offered[SPY_GUESS] = {"seats": spy_choices(table, seat)}
    return offered


def next_seat(public: GameState) -> int | None:
    """The seat whose turn comes after the current one, as the engine passes turns: the next
    human seat, past an Observer who predicted."""
    if public.over:
        return None
    skip = {public.prediction[0]} if public.prediction else set()
    seat = public.turn
    for _ in range(public.seats):
        seat = seat % public.seats + 1
        if not public.virtual[seat - 1] and seat not in skip:
            return seat
    return None


def result(table: Table, seat: int) -> dict:
    """A finished game's result as the end message told it, for `seat`, and its replay."""
    resolved = next(e for e in all_events(table.state) if e["type"] == RESOLVED)
    return game_result(resolved, seat, replay_selector(table.chat, table.game))


def replay_of(entry: dict, lang: str, title: str, chat: int) -> dict:
    """The replay of a kept game (`history` entry), its steps worded in `lang` (a player who
    left called left, as the Record calls them); raises ValueError for a game that did not
    finish."""
    left = frozenset(entry.get("left", ()))
    return replay_view(
        entry["record"],
        lang=lang,
        selector=replay_selector(chat, entry["game"]),
        title=title,
        describe=lambda state, action: step_line(lang, state, action, left),
    )


def step_line(
    lang: str, state: GameState, action: Action, left: frozenset[int] = frozenset()
) -> str:
    """One decision of a finished game in words, every card shown (`state`: before it; `left`:
    the seats whose player left the game themselves)."""

    def name(seat: int) -> str:
        return t(lang, "seat_label", seat=seat, name=state.names[seat - 1])

    act = action.act
    if act == SCOUT:
        line = t(lang, "scouted_line", name=name(action.seat), target=name(action.target))
        return plain(f"{line} ({card_name(lang, state.cards[action.target - 1])})")
    if act == END_TURN:
        return plain(t(lang, "done_line", name=name(action.seat)))
    if act == DECAPITATE:
        decl = ""
        yes_no = {True: t(lang, "btn_yes"), False: t(lang, "btn_no")}
        if action.proxy is not None:
            decl += t(lang, "decl_proxy", v=yes_no[action.proxy])
        if action.bodyguard is not None:
            decl += t(lang, "decl_bodyguard", v=yes_no[action.bodyguard])
        who, target = name(action.seat), name(action.target)
        return plain(t(lang, "replay_decapitate", name=who, target=target, decl=decl))
    if act == SWAP:
        holder, scout = name(state.target), name(state.turn)
        card = card_name(lang, state.cards[state.target - 1])
        return plain(t(lang, "swapped_line", holder=holder, scout=scout, card=card))
    if act == KEEP:
        return plain(t(lang, "replay_kept", name=name(action.seat)))
    if act == PREDICT:
        colour = colour_name(lang, action.color)
        return plain(t(lang, "predicted_line", name=name(action.seat), colour=colour))
    if act == SPY_GUESS:
        red, blue = name(action.red), name(action.blue)
        return plain(t(lang, "replay_spy_guess", name=name(action.seat), red=red, blue=blue))
    if act == REMOVE:  # the seat plays on as a virtual one
        key = "replay_left" if action.seat in left else "replay_removed"
        return plain(t(lang, key, name=name(action.seat)))
    assert act == TIMEOUT
    seat = waiting_for(state)
    if seat in state.removed:  # a removed seat's turn passes
        key = "passed_left_line" if seat in left else "passed_removed_line"
        return plain(t(lang, key, name=name(seat)))
    key = {TURN: "skipped_line", SPEAK: "speak_over_line", TURNCOAT: "replay_kept"}
    return plain(t(lang, key.get(state.phase, "replay_spy_silent"), name=name(seat)))
