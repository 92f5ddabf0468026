"""What the reveal says once the game is over, beyond its cards: the floor open again."""

from __future__ import annotations

from handlers.display.render.common import t_
from handlers.session.table import Table


def floor_lines(table: Table) -> list[str]:
    """The silence the bot kept (deleting what was said out of turn) lifted, where it kept it."""
    return [t_(table, "floor_open")] if table.silent else []
