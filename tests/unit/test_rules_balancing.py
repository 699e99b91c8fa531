"""docs/rules.md, 'Balancing and breaking' (rules 8, 11, 12, 13) played at real tables, with exact seats.

``test_balancing.py`` proves the decisions on table sizes and seat maps alone;
these tests run them end to end: real ``Table``s play hands, ``Balancing``
decides after each, ``seat_moves`` names the player (the one due for the big
blind) and the seat (first empty clockwise after the button), and the
receiving table deals the newcomer in at once.
"""

import random

from tourney.domain.balancing import Balancing, Move, MoveReason, SeatChange, seat_moves
from tourney.domain.cards import parse_cards
from tourney.domain.hand import ActionKind
from tourney.domain.seating import draw_final_table, spread_seats
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Table

from tests.support.decks import stacked_deck

LEVEL = BlindLevel(number=1, small_blind=50, big_blind=100)
DECK = list(range(52))


def table_with(number: int, players: dict[int, tuple[str, int]], button: int) -> Table:
    """A 9-seat table whose button draw gives the ace of spades to ``button``."""
    table = Table(number=number, seat_count=9)
    for seat, (player, stack) in players.items():
        table.seat_player(player, seat, stack)
    low = iter(parse_cards("2c 2d 2h 3c 3d 3h 4c 4d"))
    table.draw_button(deck=[parse_cards("As")[0] if s == button else next(low) for s in sorted(players)])
    return table


def fold_round(table: Table) -> None:
    while table.hand_in_progress:
        awaiting = table.awaiting()
        assert awaiting is not None
        table.act(awaiting.player, ActionKind.FOLD)


def move(changes: tuple[SeatChange, ...], tables: dict[str, Table]) -> None:
    for change in changes:
        seated = tables[change.from_table].remove_player(change.player)
        tables[change.to_table].seat_player(change.player, change.to_seat, seated.stack, away=seated.away)


def test_rule_11_13_8_balancing_moves_the_big_blind_due_next_to_the_button_and_deals_them_in_at_once() -> None:
    # Given table 1 with a1-a6 in seats 1-6, whose first hand (button 1, blinds 2 and 3) just ended
    one = table_with(1, {s: (f"a{s}", 10_000) for s in range(1, 7)}, button=1)
    one.start_hand(LEVEL, DECK)
    fold_round(one)
    # And table 2 with b1, b3, b5, b7 playing its second hand: button 7, blinds 1 and 3
    two = table_with(2, {s: (f"b{s}", 10_000) for s in (1, 3, 5, 7)}, button=5)
    two.start_hand(LEVEL, DECK)
    fold_round(two)
    assert two.start_hand(LEVEL, DECK).positions.seats() == (7, 1, 3)
    tables = {"1": one, "2": two}
    balancing = Balancing(9, {"1": 6, "2": 4})
    # When table 1's hand has ended: 6 against 4 is two or more apart
    decision = balancing.after_hand("1")
    assert decision.moves == (Move("1", "2", MoveReason.BALANCING),)
    changes = seat_moves(decision.moves, {t: tables[t].table_seats() for t in tables}, 9)
    # Then a4, due for table 1's next big blind, moves to seat 8 of table 2: the first empty seat
    # clockwise after the button of table 2's hand (seat 7)
    assert changes == (SeatChange("a4", "1", 4, "2", 8, MoveReason.BALANCING),)
    move(changes, tables)
    assert balancing.sizes() == {"1": 5, "2": 5}
    # And a4 is not taken into table 2's hand in progress
    assert not two.in_hand("a4")
    # When both tables deal again
    fold_round(two)
    at_one, at_two = one.start_hand(LEVEL, DECK), two.start_hand(LEVEL, DECK)
    # Then at table 1 the big blind goes to a5, the next player: nobody skipped, nobody twice
    assert at_one.positions.seats() == (2, 3, 5)
    # And at table 2 a4 is dealt in at once in seat 8, between the big blind and the button, posting nothing
    assert at_two.positions.seats() == (1, 3, 5)
    assert at_two.seats == (1, 3, 5, 7, 8)
    assert two.hand is not None and two.hand.seats == (3, 5, 7, 8, 1)  # in order from the small blind
    assert two.stack(8) == 10_000


def test_rule_12_13_the_table_of_the_last_elimination_is_broken_and_the_final_table_redrawn() -> None:
    # Given two 9-seat tables of 5 (seats 1, 2, 4, 6, 8 each): 10 players
    assert spread_seats(5, 9) == (1, 2, 4, 6, 8)
    one = table_with(1, {1: ("a1", 10_000), 2: ("a2", 10_000), 4: ("a4", 100), 6: ("a6", 10_000), 8: ("a8", 9_800)}, 1)
    two = table_with(2, {s: (f"b{s}", 10_000) for s in (1, 2, 4, 6, 8)}, button=6)
    tables = {"1": one, "2": two}
    balancing = Balancing(9, {"1": 5, "2": 5})
    # And table 2 in its first hand (button 6, blinds 8 and 1)
    assert two.start_hand(LEVEL, DECK).positions.seats() == (6, 8, 1)
    # When at table 1 (button 1, blinds 2 and 4) a6 calls a4's all-in big blind of 100 and wins with aces
    # (dealing order from the seat after the button: a2, a4, a6, a8, a1)
    one.start_hand(LEVEL, stacked_deck(["8c 8d", "7c 2d", "Ah As", "5c 6d", "9c Td"], "Ks Qh 9d 4s 3h"))
    one.act("a6", ActionKind.CALL)
    for player in ("a8", "a1", "a2"):
        one.act(player, ActionKind.FOLD)
    assert one.last_hand_ended is not None and [o.player for o in one.last_hand_ended.busted] == ["a4"]
    decision = balancing.after_hand("1", eliminated=1)
    # Then the 9 players left fit on one table: table 1, where the elimination took place, is broken
    assert decision.broken == ("1",)
    assert decision.moves == (Move("1", "2", MoveReason.BREAKING),) * 4
    # And its players go one at a time from a6, due for its next big blind, clockwise: a6, a8, a1, a2,
    # each to the first empty seat clockwise after table 2's button (seat 6): 7, 9, 3, 5
    changes = seat_moves(decision.moves, {t: tables[t].table_seats() for t in tables}, 9)
    assert [(c.player, c.from_seat, c.to_seat) for c in changes] == [
        ("a6", 6, 7),
        ("a8", 8, 9),
        ("a1", 1, 3),
        ("a2", 2, 5),
    ]
    move(changes, tables)
    # And table 2 becomes the final table when its hand in progress ends, not before
    assert (decision.final_table, balancing.final_table_pending) == (None, "2")
    fold_round(two)
    at_two = balancing.after_hand("2")
    assert at_two.final_table == "2"
    # When the final table is formed: every seat is drawn again, then the button by cards
    seated = {player: two.remove_player(player) for player in two.players.values()}
    for seat, player in draw_final_table(sorted(seated), 9, random.Random(12)):
        two.seat_player(player, seat, seated[player].stack)
    assert sorted(two.players) == list(range(1, 10))
    assert sorted(two.players.values()) == sorted(seated)
    deck = parse_cards("2c 3c 4c 5c As 6c 7c 8c 9c")  # seat 5 draws the ace of spades
    assert two.draw_button(deck=deck).button == 5
    # Then the next hand is the final table's first: button 5, blinds 6 and 7
    assert two.start_hand(LEVEL, DECK).positions.seats() == (5, 6, 7)
    assert sum(sp.stack for sp in two.seats.values()) == 8 * 10_000 + 100 + 9_800  # every chip in play
