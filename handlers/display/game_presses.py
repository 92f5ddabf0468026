"""The presses of a game: its decisions, a private prompt's menus, the group's turn message, and
what an absent player's buttons say (I'm back, /remove, /leave)."""

from __future__ import annotations

from typing import Literal

from engine import Action
from engine.actions import DECAPITATE, END_TURN, KEEP, PREDICT, SCOUT, SPY_GUESS, SWAP
from handlers.display.frozen import Frozen

# -- the decisions of a game (the seat is the presser's) ------------------------------------------


class Scout(Frozen):
    """Look at `target`'s card."""

    target: int

    def action(self) -> Action:
        return Action(SCOUT, target=self.target)


class Done(Frozen):
    """End the speaking moment (and the turn)."""

    def action(self) -> Action:
        return Action(END_TURN)


class Decapitate(Frozen):
    """Strike `target`, with the declarations the variants ask for (None: not asked)."""

    target: int
    proxy: bool | None = None
    bodyguard: bool | None = None

    def action(self) -> Action:
        return Action(DECAPITATE, target=self.target, proxy=self.proxy, bodyguard=self.bodyguard)


class Swap(Frozen):
    """The Turncoat swaps cards with the scout."""

    def action(self) -> Action:
        return Action(SWAP)


class Keep(Frozen):
    """The Turncoat keeps their card."""

    def action(self) -> Action:
        return Action(KEEP)


class Predict(Frozen):
    """The Observer reveals and predicts the winning colour."""

    colour: Literal["red", "blue"]

    def action(self) -> Action:
        return Action(PREDICT, color=self.colour)


class SpyGuess(Frozen):
    """The Spy names both captains."""

    red: int
    blue: int

    def action(self) -> Action:
        return Action(SPY_GUESS, red=self.red, blue=self.blue)


Decision = Scout | Done | Decapitate | Swap | Keep | Predict | SpyGuess


# -- a private prompt's menus (they change nothing in the game) -----------------------------------


class ScoutMenu(Frozen):
    """The seats one may scout."""


class StrikeMenu(Frozen):
    """The seats one may decapitate."""


class TurnMenu(Frozen):
    """Back to the turn prompt."""


class Declaring(Frozen):
    """The decapitation menu, `target` chosen and the declarations answered so far."""

    target: int
    proxy: bool | None = None
    bodyguard: bool | None = None


class SpyRed(Frozen):
    """The Spy named the Red captain; the Blue one is asked next."""

    red: int


Menu = ScoutMenu | StrikeMenu | TurnMenu | Declaring | SpyRed


# -- the group's turn message ---------------------------------------------------------------------


class MyCard(Frozen):
    """A popup with the presser's own card and what they know."""


class ListSeats(Frozen):
    """The acting player opens (`listed`) or closes the seats to scout on the turn message."""

    listed: bool


# -- absent players ------------------------------------------------------------------------------


class ImBack(Frozen):
    """An away player plays again from their next turn."""


class RemoveSeat(Frozen):
    """/remove: take the player of `seat` out of the game."""

    seat: int


class RemovePlayer(Frozen):
    """/remove in a lobby: take `user` out of it."""

    user: int


class RemoveNobody(Frozen):
    """/remove: close the keyboard."""


class LeaveGame(Frozen):
    """/leave confirmed: `user`, who asked, leaves the game; the seat plays on."""

    user: int


class StayInGame(Frozen):
    """/leave answered Stay by `user`, who asked."""

    user: int
