"""docs/rules.md, 'Start, seats and the button' (rules 5, 6, 12, 13): scenario tests with exact seats.

``test_seating.py`` and ``test_button_draw.py`` prove the draws on their own;
these tests follow them onto real tables: the start draw with the production
generator, each table's recorded button draw, seats that players cannot
change, and where an arrival sits before a table's first hand.
"""

import secrets

import pytest
from tourney.domain.cards import card_str, parse_cards
from tourney.domain.errors import NotYourSeat, SeatTaken
from tourney.domain.hand import ActionKind
from tourney.domain.seating import draw_start, seat_for_arrival, spread_seats
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Table

LEVEL = BlindLevel(number=1, small_blind=50, big_blind=100)


def test_rule_5_6_start_draw_spreads_20_players_7_7_6_and_each_table_records_its_button_draw() -> None:
    # Given 20 entrants and 9-seat tables
    entrants = [f"p{i:02d}" for i in range(1, 21)]
    # When the start draw runs with the production generator and each table draws for the button
    seatings = draw_start(entrants, 9, secrets.SystemRandom())
    tables = []
    for seating in seatings:
        table = Table(number=seating.table, seat_count=9)
        for seat, player in seating.seats:
            table.seat_player(player, seat, 10_000)
        table.draw_button(rng=secrets.SystemRandom())
        tables.append(table)
    # Then there are three tables of 7, 7 and 6 with their empty seats spread out
    assert [len(t.players) for t in tables] == [7, 7, 6]
    assert [tuple(t.players) for t in tables] == [spread_seats(7, 9), spread_seats(7, 9), spread_seats(6, 9)]
    assert [tuple(t.players) for t in tables] == [(1, 2, 3, 4, 6, 7, 8), (1, 2, 3, 4, 6, 7, 8), (1, 2, 4, 5, 7, 8)]
    assert sorted(p for t in tables for p in t.players.values()) == entrants
    for table in tables:
        draw = table.button_draw
        assert draw is not None
        # And every seated player drew one distinct card; the highest card holds the button
        cards = {d.seat: d.card for d in draw.cards}
        assert sorted(cards) == sorted(table.players)
        assert len(set(cards.values())) == len(cards)
        assert draw.button == max(cards, key=cards.__getitem__)
        # And the draw is in the table's stored record, card by card
        assert table.to_dict()["button_draw"] == {
            "cards": {str(s): card_str(c) for s, c in sorted(cards.items())},
            "button": draw.button,
        }


def test_rule_5_seats_cannot_be_changed_by_players() -> None:
    # Given ann in seat 3 and bob in seat 6 of a table in its first hand
    table = Table(number=1, seat_count=9)
    table.seat_player("ann", 3, 10_000)
    table.seat_player("bob", 6, 10_000)
    table.draw_button(deck=parse_cards("Ah Kh"))
    table.start_hand(LEVEL, list(range(52)))
    # When ann tries to sit in empty seat 5, or in bob's seat, or to act from seat 6
    # Then each is refused and she is still in seat 3
    with pytest.raises(SeatTaken):
        table.seat_player("ann", 5, 10_000)
    with pytest.raises(SeatTaken):
        table.seat_player("ann", 6, 10_000)
    with pytest.raises(NotYourSeat):
        table.act("ann", ActionKind.CALL, seat=6)
    assert table.players == {3: "ann", 6: "bob"}
    assert table.seat_of("ann") == 3


def test_reading_an_arrival_before_a_tables_first_hand_sits_after_the_drawn_button() -> None:
    # Given a table that drew the button at seat 5 (players in seats 1, 3, 5, 7) but has not dealt yet
    table = Table(number=1, seat_count=9)
    for seat, player in {1: "a", 3: "b", 5: "c", 7: "d"}.items():
        table.seat_player(player, seat, 10_000)
    table.draw_button(deck=parse_cards("2c 3c As 4c"))
    # When balancing asks where a newcomer sits and who would post the next big blind
    seats = table.table_seats()
    # Then the drawn button counts as the last hand's button: the newcomer takes seat 6
    assert seats.button_seat == 5
    assert seat_for_arrival(set(seats.seats), seats.button_seat, 9) == 6
    # And the player due for the first big blind is a (button 5, small blind 7, big blind 1)
    assert seats.next_big_blind_seat == 1
