"""The rules of Decapitation (斩首行动): pure, seeded and replayable. Standard library only."""

from engine.actions import Action, IllegalAction
from engine.captains import captain, captains
from engine.codec import state_from_dict, state_to_dict
from engine.deal import new_game
from engine.records import BadRecord, replay_record, summary, to_record
from engine.state import GameState
from engine.turns import apply, legal_actions, replay, waiting_for
from engine.variants import Variants
from engine.views import public_view, seat_view

__all__ = [
    "Action",
    "BadRecord",
    "GameState",
    "IllegalAction",
    "Variants",
    "apply",
    "captain",
    "captains",
    "legal_actions",
    "new_game",
    "public_view",
    "replay",
    "replay_record",
    "seat_view",
    "state_from_dict",
    "state_to_dict",
    "summary",
    "to_record",
    "waiting_for",
]
