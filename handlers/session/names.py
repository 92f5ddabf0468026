"""Players who share a name are told apart by a mark that is not a digit (a number at the table
is always a seat): their username, else a letter in the order they joined."""

from __future__ import annotations

from string import ascii_uppercase

MARK = "·"  # between a shared name and its mark: "Ana·A", "Ana·ana_k"


def told_apart(players: list[list], handles: dict[str, str]) -> list[str]:
    """The names to show for `players` ([user, name] in lobby order): a name only one player has
    stays as it is; each player sharing one gets a mark, their username (without its @, which
    would ring their phone on every line) when they have one, else the next letter."""
    shared: dict[str, list[int]] = {}
    for i, (_, name) in enumerate(players):
        shared.setdefault(name.casefold(), []).append(i)
    names = [name for _, name in players]
    for same in (group for group in shared.values() if len(group) > 1):
        letters = iter(ascii_uppercase)
        for i in same:
            user, name = players[i]
            names[i] = f"{name}{MARK}{handles.get(str(user)) or next(letters)}"
    return _unique(names)


def _unique(names: list[str]) -> list[str]:
    """`names` with any still repeated (a name that already looked like a mark) marked again."""
    seen: set[str] = set()
    out = []
    for name in names:
        shown, letters = name, iter(ascii_uppercase)
        while shown.casefold() in seen:
            shown = f"{name}{MARK}{next(letters)}"
        seen.add(shown.casefold())
        out.append(shown)
    return out
