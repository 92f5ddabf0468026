"""The rules of play: what each seat may do now, and applying one decision."""

from __future__ import annotations

from collections.abc import Iterable

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
    Action,
    IllegalAction,
    claimed,
)
from engine.cards import COLORS, OBSERVER, SPY, color, is_x
from engine.events import (
    DECAPITATION_ANNOUNCED,
    KEPT,
    NEW_CARD,
    PREDICTED,
    SCOUT_RESULT,
    SCOUTED,
    SEAT_REMOVED,
    SPEAK_NOW,
    SPEAKS,
    SPY_TURN,
    SWAPPED,
    TIMED_OUT,
    TURN_BEGINS,
    TURN_ENDED,
    TURNCOAT_OFFER,
    Event,
    private,
    public,
)
from engine.resolution import resolve
from engine.state import OVER, SPEAK, SPY_PHASE, TURN, TURNCOAT, GameState, advance


def waiting_for(state: GameState) -> int | None:
    """The seat whose decision the game waits for (None once it is over)."""
    if state.phase in (TURN, SPEAK):
        return state.turn
    if state.phase == TURNCOAT:
        return state.target
    if state.phase == SPY_PHASE:
        return state.holder(SPY)
    return None


def may_decapitate(state: GameState, seat: int) -> str | None:
    """Why `seat` may not decapitate on its turn now, or None if it may."""
    card = state.cards[seat - 1]
    if color(card) is None:
        name = "the Observer" if card == OBSERVER else "the Spy"
        return f"seat {seat} holds {name}, who may never decapitate"
    if state.variants.no_first_round_decapitation and not state.acted[seat - 1]:
        return f"seat {seat} may not decapitate in the first round"
    return None


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every decision `seat` may make now, in a stable order (timeouts are not listed)."""
    if seat != waiting_for(state):
        return []
    others = [t for t in range(1, state.seats + 1) if t != seat]
    if state.phase == TURN:
        actions = [Action(SCOUT, seat, target=t) for t in others]
        if may_decapitate(state, seat) is None:
            proxies = (False, True) if state.asks_proxy else (None,)
            guards = (False, True) if state.variants.bodyguards else (None,)
            actions += [
                Action(DECAPITATE, seat, target=t, proxy=p, bodyguard=b)
                for t in others
                for p in proxies
                for b in guards
            ]
        return actions
    if state.phase == TURNCOAT:
        return [Action(SWAP, seat), Action(KEEP, seat)]
    if state.phase == SPEAK:
        actions = [Action(END_TURN, seat)]
        if _may_predict(state, seat):
            actions += [Action(PREDICT, seat, color=c) for c in COLORS]
        return actions
    # The Spy's guess: any seat for each colour.
    everyone = range(1, state.seats + 1)
    return [Action(SPY_GUESS, seat, red=r, blue=b) for r in everyone for b in everyone]


def _may_predict(state: GameState, seat: int) -> bool:
    return state.cards[seat - 1] == OBSERVER and state.prediction is None


def why_illegal(state: GameState, action: Action) -> str | None:
    """Why `action` is not allowed now, or None if it is."""
    if state.phase == OVER:
        return "the game is over"
    stray = action.stray_fields()
    if stray:
        return f"{action.act} does not take {', '.join(stray)}"
    if action.act == TIMEOUT:
        return None
    seat = action.seat
    if seat is None or not 1 <= seat <= state.seats:
        return f"there is no seat {seat}"
    if action.act == REMOVE:
        return _why_not_removed(state, seat)
    waiting = waiting_for(state)
    if seat != waiting:
        return f"it is not seat {seat}'s decision (waiting for seat {waiting}, {state.phase})"
    act, phase = action.act, state.phase
    expected = {
        TURN: (SCOUT, DECAPITATE),
        TURNCOAT: (SWAP, KEEP),
        SPEAK: (END_TURN, PREDICT),
        SPY_PHASE: (SPY_GUESS,),
    }[phase]
    if act not in expected:
        return f"seat {seat} must {' or '.join(expected)} now, not {act}"
    if act in (SCOUT, DECAPITATE):
        target = action.target
        if target is None or not 1 <= target <= state.seats:
            return f"there is no seat {target}"
        if target == seat:
            return f"seat {seat} may not {act} itself"
    if act == DECAPITATE:
        why = may_decapitate(state, seat)
        if why:
            return why
        for name, on, when in (
            ("proxy", state.asks_proxy, "there are virtual players or removed seats"),
            ("bodyguard", state.variants.bodyguards, "bodyguards are on"),
        ):
            value = getattr(action, name)
            if on and value is None:
                return f"a decapitation must declare {name} when {when}"
            if not on and value is not None:
                return f"{name} may only be declared when {when}"
    if action.claim is not None:
        about, _ = claimed(action.claim) or (None, None)
        if about is None or not 1 <= about <= state.seats:
            return f"there is no seat {about} to make a claim about"
    if act == PREDICT and not _may_predict(state, seat):
        return f"seat {seat} is not an Observer who may predict"
    if act == SPY_GUESS:
        for seat_guess in (action.red, action.blue):
            if seat_guess is None or not 1 <= seat_guess <= state.seats:
                return f"there is no seat {seat_guess}"
    return None


def _why_not_removed(state: GameState, seat: int) -> str | None:
    """Why `seat`'s player may not be removed now, or None if they may."""
    if state.virtual[seat - 1]:
        return f"seat {seat} is a virtual player"
    if seat in state.removed:
        return f"seat {seat} was removed already"
    if state.phase == SPY_PHASE:
        return "a decapitation is announced: the seats are judged as they stood then"
    return None


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one decision: the new state and its events. An illegal action raises IllegalAction."""
    why = why_illegal(state, action)
    if why:
        raise IllegalAction(why)
    log = (*state.log, action)
    act = action.act
    if act == TIMEOUT:
        return _timeout(state, log)
    if act == REMOVE:
        removed = state.removed | {action.seat}
        return advance(state, removed=removed, log=log), [public(SEAT_REMOVED, seat=action.seat)]
    if act == SCOUT:
        return _scout(state, action, log)
    if act in (SWAP, KEEP):
        return _turncoat(state, act == SWAP, log)
    if act == END_TURN:
        claim = {"claim": action.claim} if action.claim is not None else {}
        events = [public(TURN_ENDED, seat=action.seat, say=action.say, **claim)]
        return _next_turn(state, events, log=log)
    if act == PREDICT:
        events = [public(PREDICTED, seat=action.seat, color=action.color)]
        return _next_turn(
            state,
            events,
            log=log,
            prediction=(action.seat, action.color),
            face_up=state.face_up | {OBSERVER},
        )
    if act == DECAPITATE:
        return _decapitate(state, action, log)
    return _finish(state, log, spy_guess=(action.seat, action.red, action.blue))


def replay(state: GameState, actions: Iterable[Action]) -> GameState:
    """Apply decisions in order (each must be legal)."""
    for action in actions:
        state, _ = apply(state, action)
    return state


def _scout(state: GameState, action: Action, log: tuple) -> tuple[GameState, list[Event]]:
    seat, target = action.seat, action.target
    acted = _mark(state.acted, seat)
    card = state.cards[target - 1]
    events = [
        public(SCOUTED, seat=seat, target=target),
        private(seat, SCOUT_RESULT, target=target, card=card),
    ]
    swappable = (
        state.variants.turncoat
        and is_x(card)
        and card not in state.face_up
        and not state.stands_in(target)
    )
    if swappable:
        events.append(private(target, TURNCOAT_OFFER, scout=seat))
    # The group hears that the scout may speak whatever the card, so it never learns that an X
    # was scouted; the scout is told privately once a Turncoat has chosen.
    events.append(public(SPEAKS, seat=seat))
    phase = TURNCOAT if swappable else SPEAK
    return advance(state, phase=phase, target=target, acted=acted, log=log), events


def _turncoat(state: GameState, swap: bool, log: tuple) -> tuple[GameState, list[Event]]:
    scout, holder = state.turn, state.target
    if not swap:
        events = [private(holder, KEPT, scout=scout), private(scout, SPEAK_NOW)]
        return advance(state, phase=SPEAK, log=log), events
    cards = list(state.cards)
    x, given = cards[holder - 1], cards[scout - 1]
    cards[holder - 1], cards[scout - 1] = given, x
    events = [
        public(SWAPPED, seat=holder, scout=scout, card=x),
        private(scout, NEW_CARD, card=x, source=holder),
        private(holder, NEW_CARD, card=given, source=scout),
        private(scout, SPEAK_NOW),
    ]
    new = advance(state, phase=SPEAK, cards=tuple(cards), face_up=state.face_up | {x}, log=log)
    return new, events


def _decapitate(state: GameState, action: Action, log: tuple) -> tuple[GameState, list[Event]]:
    acted = _mark(state.acted, action.seat)
    announced = public(DECAPITATION_ANNOUNCED, seat=action.seat)
    spy = state.holder(SPY)
    if state.variants.spy and spy is not None and not state.stands_in(spy):
        new = advance(
            state,
            phase=SPY_PHASE,
            target=action.target,
            acted=acted,
            decapitation=action,
            log=log,
        )
        return new, [announced, private(spy, SPY_TURN)]
    new, events = _finish(
        state, log, spy_guess=None, target=action.target, acted=acted, decapitation=action
    )
    return new, [announced, *events]


def _finish(
    state: GameState, log: tuple, *, spy_guess: tuple | None, **changes
) -> tuple[GameState, list[Event]]:
    state = state._replace(**changes)
    outcome, events = resolve(state, spy_guess)
    return advance(state, phase=OVER, outcome=outcome, spy_guess=spy_guess, log=log), events


def _timeout(state: GameState, log: tuple) -> tuple[GameState, list[Event]]:
    phase, seat = state.phase, waiting_for(state)
    if phase == TURN:
        return _next_turn(state, [public(TIMED_OUT, seat=seat, phase=TURN)], log=log)
    if phase == TURNCOAT:
        return _turncoat(state, False, log)
    if phase == SPEAK:
        return _next_turn(state, [public(TIMED_OUT, seat=seat, phase=SPEAK)], log=log)
    return _finish(state, log, spy_guess=None)


def _next_turn(state: GameState, events: list[Event], **changes) -> tuple[GameState, list[Event]]:
    prediction = changes.get("prediction", state.prediction)
    skip = {prediction[0]} if prediction else set()
    seat = state.turn
    for _ in range(state.seats):
        seat = seat % state.seats + 1
        if not state.virtual[seat - 1] and seat not in skip:
            break
    events.append(public(TURN_BEGINS, seat=seat))
    return advance(state, phase=TURN, turn=seat, target=0, **changes), events


def _mark(acted: tuple[bool, ...], seat: int) -> tuple[bool, ...]:
    return acted if acted[seat - 1] else (*acted[: seat - 1], True, *acted[seat:])
