"""Rule 7: a table whose drawn button seat is empty before its first hand plays out deals by rule 7.

The player who drew the button can leave before the table's first hand is
played out (disqualified during that hand, which a termination then cancels;
or the same at the final table, after its redraw). The seat keeps the draw's
place in the order: the blinds fall where the draw put them (the first active
seats clockwise after the drawn seat), and the button moves as rule 7 moves it
when its player is gone: to the nearest active player counter-clockwise from
the small blind. Heads-up, the button posts the small blind (rule 14).
"""

from __future__ import annotations

from tourney.domain.blinds import Occupant
from tourney.domain.cards import FULL_DECK, parse_cards
from tourney.domain.hand import ActionKind
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Table

LEVEL = BlindLevel(number=1, small_blind=50, big_blind=100)
DECK = list(FULL_DECK)


def table_drawn(players: dict[int, str], button: int) -> Table:
    """Players seated with 1,000 chips each; ``button`` draws the ace of spades."""
    table = Table(number=1, seat_count=9)
    for seat, player in players.items():
        table.seat_player(player, seat, 1_000)
    low = iter(parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c"))
    table.draw_button(deck=[parse_cards("As")[0] if s == button else next(low) for s in sorted(players)])
    return table


def button_player_leaves_during_the_first_hand(table: Table) -> str:
    """The drawn button's player is folded at once, the hand cancelled (rule 17.1), and the player leaves."""
    assert table.button_draw is not None
    gone = table.player_at(table.button_draw.button)
    assert gone is not None
    table.start_hand(LEVEL, DECK)
    table.fold_at_once(gone)
    table.cancel_hand()
    table.remove_player(gone)
    return gone


def test_rule_7_the_first_hand_deals_when_the_drawn_button_left_the_button_moving_back() -> None:
    # Given four players, B drawing the button at seat 2, who leaves before the first hand is played out
    table = table_drawn({1: "A", 2: "B", 3: "C", 4: "D"}, button=2)
    assert table.upcoming_big_blind() == Occupant(4, "D")
    button_player_leaves_during_the_first_hand(table)
    # When the table deals again
    dealt = table.start_hand(LEVEL, DECK)
    # Then the blinds are where the draw put them (C small, D big) and the button moved back to A
    assert dealt.hand == 2
    assert dealt.positions.seats() == (1, 3, 4)
    assert dealt.positions.button == Occupant(1, "A")
    assert dealt.seats == (1, 3, 4)


def test_rule_7_heads_up_after_the_drawn_button_left_the_button_posts_the_small_blind() -> None:
    # Given three players, B drawing the button at seat 5, who leaves before the first hand is played out
    table = table_drawn({2: "A", 5: "B", 7: "C"}, button=5)
    button_player_leaves_during_the_first_hand(table)
    # When the two left deal
    assert table.upcoming_big_blind() == Occupant(2, "A")
    dealt = table.start_hand(LEVEL, DECK)
    # Then C (the first seat after the drawn one) holds the button and posts the small blind, A the big blind
    assert dealt.positions.seats() == (7, 7, 2)


def test_rule_7_the_final_tables_redrawn_button_left_before_its_first_hand() -> None:
    # Given a table that played a hand, then drew the button again as the final table (rule 12)
    table = table_drawn({1: "A", 3: "B", 6: "C", 8: "D", 9: "E"}, button=1)
    table.start_hand(LEVEL, DECK)
    while (awaiting := table.awaiting()) is not None:
        table.act(awaiting.player, ActionKind.FOLD)
    table.draw_button(deck=parse_cards("2c 3c As 4c 5c"))
    assert table.button_draw is not None and table.button_draw.button == 6
    # And C, who drew it, left before the final table's first hand was played out
    assert button_player_leaves_during_the_first_hand(table) == "C"
    # When the final table deals
    dealt = table.start_hand(LEVEL, DECK)
    # Then D and E post the blinds and the button is B's, the nearest player counter-clockwise
    assert dealt.positions.seats() == (3, 8, 9)
