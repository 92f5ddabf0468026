"""The buttons that open the table: a web_app button under a player's card (private chats
only), a direct link on the group's seating and turn messages, the same for every deal, and a
finished game's replay under its end and in /history; none of them unless configured."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from engine import Action
from engine.actions import DECAPITATE
from handlers.display import render
from handlers.display.ids import Ids
from handlers.display.messages import Out
from handlers.display.render import table_links
from handlers.display.render.past_games import history_list
from handlers.session.ending import kept_game
from handlers.table.selector import parse_selector, replay_selector
from handlers.telegram.outbox import markup
from tests.support.tables import CHAT, NOW, lobby, started

PAGE = "https://table.example.org/table"
BOT = "decapitation_bot"


@pytest.fixture
def links() -> Iterator[None]:
    table_links.configure(PAGE, "table", BOT)
    yield
    table_links.configure(None, None, "")


def buttons(outs: list[Out]) -> dict[int, list]:
    """Every button of `outs`, by chat."""
    found: dict[int, list] = {}
    for out in outs:
        for row in out.kb or []:
            found.setdefault(out.chat, []).extend(row)
    return found


def dealt(players: int = 5, **settings):
    table = lobby(players, **settings)
    return table, render.show(table, Ids(), table.start(NOW, 4), BOT)


def test_each_card_comes_with_a_web_app_button_opening_its_game(links) -> None:
    table, outs = dealt()
    for user in table.users():
        (row,) = [o.kb[-1] for o in outs if o.chat == user and o.private]  # the last row
        ((label, data),) = row
        assert label == "🗺 Table"
        assert data.startswith(table_links.WEB_APP + PAGE + "?")
        query = parse_qs(urlsplit(data.removeprefix(table_links.WEB_APP)).query)
        selector = parse_selector(query["tgWebAppStartParam"][0])
        assert (selector.kind, selector.chat, selector.game) == ("g", CHAT, 1)
    button = markup([[["🗺 Table", data]]]).inline_keyboard[0][0]
    assert (button.web_app.url, button.url, button.callback_data) == (
        data.removeprefix(table_links.WEB_APP),
        None,
        None,
    )


def test_the_first_players_card_keeps_its_table_button_when_their_turn_closes(links) -> None:
    table, outs = dealt()
    user = table.user_at(table.state.first)
    (card,) = [o for o in outs if o.chat == user and o.private]  # the card and the turn
    assert labels(card.kb) == ["🔍 Scout", "🗡 Decapitate", "🗺 Table"]
    ids = Ids()
    ids.pressed(user, table.open_prompt_of(user).tag, 88)
    closed = [o for o in render.show(table, ids, table.cancel("Ann"), BOT) if o.chat == user]
    assert [(o.msg, o.kb) for o in closed] == [(88, card.kb[-1:])]


def labels(kb) -> list[str]:
    return [label for row in kb or [] for label, _ in row]


def test_the_group_gets_the_same_direct_link_on_the_seating_and_every_turn(links) -> None:
    table, outs = dealt()
    link = f"https://t.me/decapitation_bot/table?startapp=gm{abs(CHAT)}_1&mode=compact"
    group = [out for out in outs if out.chat == CHAT]
    assert [out.kb and out.kb[-1] for out in group] == [[["🗺 Table", link]]] * 2
    seat = table.state.turn
    scout = Action("scout", seat, target=seat % 5 + 1)
    moved = render.show(table, Ids(), table.act(table.user_at(seat), scout, NOW), BOT)
    assert [out.kb[-1] for out in moved if out.chat == CHAT] == [[["🗺 Table", link]]]
    assert not any(
        data.startswith(table_links.WEB_APP)
        for out in [*outs, *moved]
        if out.chat == CHAT
        for row in out.kb or []
        for _, data in row
    )


def test_a_finished_game_offers_its_replay_under_its_end_and_in_history(links) -> None:
    table = started(4, seed=2)
    seat = table.state.turn
    strike = Action(DECAPITATE, seat, target=seat % 4 + 1)
    outs = render.show(table, Ids(), table.act(table.user_at(seat), strike, NOW), BOT)
    end = next(out for out in outs if getattr(out, "remember", None) == "end_msg")
    link = "https://t.me/decapitation_bot/table?startapp="
    replay = f"{link}{replay_selector(CHAT, 1)}&mode=compact"
    assert ["▶ Replay", replay] in end.kb[-1]
    ids = Ids(end=77)  # Play again pressed: the end keeps its other buttons
    assert ["▶ Replay", replay] in render.drop_play_again(table, ids)[0].kb[-1]
    finished = kept_game(table, "red")
    _, kb = history_list("en", CHAT, [finished, {**kept_game(table, None), "game": 2}])
    replays = [b for row in kb for b in row if b[0].startswith("▶")]
    assert replays == [["▶ 2", replay]]  # the newest first: the cancelled one has none


def test_a_cancelled_game_has_no_replay(links) -> None:
    table = started(4, seed=2)
    outs = render.show(table, Ids(), table.cancel("Host"), BOT)
    kb = next(out for out in outs if getattr(out, "remember", None) == "end_msg").kb
    assert not [b for row in kb for b in row if b[0].startswith("▶")]


def test_without_a_page_or_a_mini_app_no_message_changes() -> None:
    table_links.configure(None, None, "")
    _, outs = dealt()
    assert all("🗺" not in label for row in buttons(outs).values() for label, _ in row)
    seating = next(out for out in outs if getattr(out, "ref", None) == "lobby_msg")
    assert seating.kb is None
