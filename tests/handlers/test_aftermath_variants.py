"""Each variant's part in the aftermath (a swap or a keep, a prediction, a guess, a bodyguard
seen) is told only where that variant was on."""

from __future__ import annotations

import pytest

from engine import Action, Variants, apply, state_to_dict
from engine.state import GameState, start_state
from handlers.display.render.aftermath import aftermath_lines
from handlers.display.texts import card_name, colour_name, t
from handlers.session.record import TableRecord
from handlers.session.table import OVER_STATUS, Table

EIGHT = ("R2", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
ASIDE = ("R1", "R3", "R4", "R5", "B2", "B4", "B6", "B7")


def game(variants: Variants, cards: tuple[str, ...], *actions: Action) -> GameState:
    state = start_state(
        variants=variants,
        names=tuple(f"P{s}" for s in range(1, len(cards) + 1)),
        virtual=(False,) * len(cards),
        deal=cards,
        set_aside=tuple(sorted(set(ASIDE) - set(cards))),
        first=1,
    )
    for action in actions:
        state, _ = apply(state, action)
    return state


def told(state: GameState, lang: str) -> str:
    record = TableRecord(0, 1, OVER_STATUS, lang, {}, engine=state_to_dict(state))
    return "\n".join(aftermath_lines(Table(record)))


def scout_the_x(variants: Variants, choice: str) -> GameState:
    """Seat 1 scouts seat 3's Red X; with the Turncoat on, its holder `choice`s."""
    moves = [Action("scout", 1, target=3)]
    if variants.turncoat:
        moves.append(Action(choice, 3))
    return game(variants, EIGHT, *moves, Action("end_turn", 1), Action("decapitate", 2, target=4))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_turncoat_swap_is_told_only_with_the_turncoat_on(lang: str) -> None:
    on = told(scout_the_x(Variants(turncoat=True), "swap"), lang)
    assert t(lang, "am_swapped", turn=1, seat=1, card=card_name(lang, "R2")) in on
    assert t(lang, "am_took_x", turn=1, seat=3) in on
    off = told(scout_the_x(Variants(), "swap"), lang)
    assert t(lang, "am_took_x", turn=1, seat=3) not in off


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_turncoat_who_kept_is_told_only_with_the_turncoat_on(lang: str) -> None:
    assert t(lang, "am_kept", turn=1, seat=1) in told(
        scout_the_x(Variants(turncoat=True), "keep"), lang
    )
    assert t(lang, "am_kept", turn=1, seat=1) not in told(scout_the_x(Variants(), "keep"), lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_scouted_three_is_a_bodyguard_only_with_bodyguards_on(lang: str) -> None:
    moves = (
        Action("scout", 1, target=2),
        Action("end_turn", 1),
        Action("decapitate", 2, target=4),
    )
    guard = t(lang, "am_bodyguard")
    bodyguards = Variants(bodyguards=True)
    with_guard = told(
        game(bodyguards, EIGHT, *moves[:2], Action("decapitate", 2, target=4, bodyguard=False)),
        lang,
    )
    assert guard in with_guard
    assert guard not in told(game(Variants(), EIGHT, *moves), lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_observer_prediction_and_the_spy_guess_are_told_only_where_they_were_on(
    lang: str,
) -> None:
    six = ("R1", "OBS", "B7", "B4", "R4", "SPY")
    both = Variants(observer=True, spy=True)
    state = game(
        both,
        six,
        Action("scout", 1, target=2),
        Action("end_turn", 1),
        Action("scout", 2, target=1),
        Action("predict", 2, color="blue"),
        Action("decapitate", 3, target=5),
        Action("spy_guess", 6, red=5, blue=3),
    )
    text = told(state, lang)
    colour = t(lang, "am_predicted", turn=2, colour=colour_name(lang, "blue"))
    assert colour in text
    assert t(lang, "am_guessed", turn=3, red=5, blue=3) in text
    plain = told(
        game(
            Variants(),
            ("R1", "B5", "B7", "B4", "R4", "R3"),
            *state.log[:2],
            Action("decapitate", 2, target=5),
        ),
        lang,
    )
    assert colour not in plain
    assert t(lang, "am_guessed", turn=2, red=5, blue=3) not in plain
