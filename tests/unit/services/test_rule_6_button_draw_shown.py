"""Rule 6 can be seen: each table's draw for the button (each player's card) is shown to its players.

The table view's ``button_draw: [{seat, player,
card}]`` (docs/openapi.json) is in the view of a table's first hand and in that hand's history.
The final table's redraw (rule 12) shows the same way in that table's first
hand after the redraw. No other hand carries a draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tourney.adapters.dynamo.mapping import _hand_item, _hand_record
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.cards import parse_card, shuffled_deck
from tourney.domain.hand import ActionKind
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Table
from tourney.services.views import shown_draw

from tests.support.driver import Driver
from tests.unit.services.conftest import started

LEVEL = BlindLevel(number=1, small_blind=50, big_blind=100)


def winner(draw: list[dict[str, Any]]) -> int:
    """The seat of the highest card (rank, then suit: spades > hearts > diamonds > clubs)."""
    return int(max(draw, key=lambda d: parse_card(d["card"]))["seat"])


def test_rule_6_the_view_of_a_tables_first_hand_shows_each_players_draw(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament whose tables have drawn for the button and dealt their first hand
    tid = started(services, create, clock, players=6)
    record = services.adapters.store.tables.get(tid, "1")
    assert record.table.hand_number == 1 and record.table.hand_in_progress
    # When a player and an observer look at the table
    for viewer in ("p0", None):
        view = services.lobby.table_view(tid, "1", viewer).to_dict()
        draw = view["button_draw"]
        # Then every seated player's card is shown with their seat and name
        assert draw is not None, view
        assert {(d["seat"], d["player"]) for d in draw} == {(s, sp.player) for s, sp in record.table.seats.items()}
        assert all(len(d["card"]) == 2 for d in draw)
        assert len({d["card"] for d in draw}) == len(draw)
        # And the button of the first hand is the seat that drew the highest card
        assert view["button"] == winner(draw)


def test_rule_6_the_first_hands_history_shows_the_draw_and_later_hands_do_not(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a table that has played its first hand and deals its second
    tid = started(services, create, clock, players=6)
    during_first = services.lobby.table_view(tid, "1", "p0").to_dict()["button_draw"]
    driver = Driver(services)
    while services.adapters.store.tables.get(tid, "1").table.hand_number < 2:
        driver.step(tid)
    # When a player reads the first hand's history
    history = services.lobby.hand_history(tid, "1", 1, "p1").to_dict()
    # Then it holds the draw, as the view of that hand showed it
    assert history["button_draw"] == during_first
    assert history["button_draw"] is not None
    record = services.adapters.store.hands.get(tid, "1", 1)
    assert {d["seat"]: d["player"] for d in history["button_draw"]} == record.players
    # And the second hand, its view and its history, carry no draw
    assert services.lobby.table_view(tid, "1", "p0").to_dict()["button_draw"] is None
    while services.adapters.store.tables.get(tid, "1").table.hand_number < 3:
        driver.step(tid)
    assert services.lobby.hand_history(tid, "1", 2, "p1").to_dict()["button_draw"] is None


def test_rule_6_the_final_tables_redraw_shows_in_its_first_hand_after_the_redraw(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament of two tables played to its winner, through the final table's redraw (rule 12)
    tid = started(services, create, clock, players=12)
    Driver(services).play_to_the_end(tid)
    assert services.adapters.store.coordinators.get(tid).state.final_table_formed
    # When every hand's history is read
    drawn: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for record in services.adapters.store.tables.list(tid):
        for number in range(1, record.table.hand_number + 1):
            history = services.lobby.hand_history(tid, record.table_id, number, None).to_dict()
            if history["button_draw"] is not None:
                drawn[(record.table_id, number)] = history["button_draw"]
    # Then each table's first hand shows its draw, and exactly one later hand shows the final table's redraw
    first_hands = {key for key in drawn if key[1] == 1}
    assert first_hands == {(r.table_id, 1) for r in services.adapters.store.tables.list(tid)}
    redraws = [key for key in drawn if key[1] > 1]
    assert len(redraws) == 1, sorted(drawn)
    table_id, number = redraws[0]
    redraw = drawn[redraws[0]]
    hand = services.adapters.store.hands.get(tid, table_id, number)
    # And the redraw names every player dealt into that hand, the button going to the highest card
    assert {d["seat"]: d["player"] for d in redraw} == hand.players
    assert hand.hand["button"] == winner(redraw)


def test_rule_6_the_draw_is_kept_with_the_hand_by_both_stores(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given the first hand of a table, played out and stored
    tid = started(services, create, clock, players=6)
    driver = Driver(services)
    while services.adapters.store.tables.get(tid, "1").table.hand_number < 2:
        driver.step(tid)
    record = services.adapters.store.hands.get(tid, "1", 1)
    assert record.button_draw
    # When DynamoDB's item is made of it and read back
    again = _hand_record(_hand_item(record, 1))
    # Then the draw is the same, and a hand without one stays without
    assert again.button_draw == record.button_draw
    assert _hand_record(_hand_item(replace(record, button_draw=()), 1)).button_draw == ()


def test_rule_6_a_first_hand_dealt_again_after_its_cancellation_still_shows_the_draw() -> None:
    # Given a table that drew for the button and dealt its first hand
    table = Table(number=1, seat_count=6)
    for seat, player in ((1, "a"), (3, "b"), (5, "c")):
        table.seat_player(player, seat, 1_000)
    table.draw_button(rng=random.Random(4))
    table.start_hand(LEVEL, shuffled_deck(random.Random(5)))
    assert shown_draw(table) is not None
    # When the hand is cancelled (rule 17) and the table deals again
    table.cancel_hand()
    table.start_hand(LEVEL, shuffled_deck(random.Random(6)))
    # Then the hand dealt again is the one dealt from the draw, and shows it; the hand after it does not
    draw = table.button_draw
    assert draw is not None and draw.hand == table.hand_number == 2
    assert shown_draw(table) is not None
    while table.hand_in_progress:
        awaiting = table.awaiting()
        assert awaiting is not None
        table.act(awaiting.player, ActionKind.FOLD)
    table.start_hand(LEVEL, shuffled_deck(random.Random(7)))
    assert shown_draw(table) is None
