"""docs/rules.md, 'Blinds and the button each hand', 'Play, timeouts and away players', 'Defaults': table scenarios.

``test_blinds.py`` proves the blind rule on positions alone and ``test_table.py``
most of it at a real table; these tests add, at a real table with exact chips:
going from three players to two when the big blind busts, the big-blind ante
of the default structure, an away player who is never treated as all in, and
the pace of a simulated hand.
"""

import tomllib
from collections import Counter

from tourney.domain.cards import parse_cards
from tourney.domain.hand import ActionKind, Checked, Folded, Posted, PostKind
from tourney.domain.structure import BlindLevel, default_level
from tourney.domain.table import Table
from tourney.simulation.memory import Simulation, SimulationOptions

from tests.support.decks import stacked_deck

LEVEL = BlindLevel(number=1, small_blind=50, big_blind=100)
DECK = list(range(52))
BOARD = "Ks Qh 9d 4s 3h"  # no pair, no flush, no straight with the hole cards below


def table_with(players: dict[int, tuple[str, int]], button: int) -> Table:
    """A 9-seat table; the button draw gives the ace of spades to ``button`` and low cards to the others."""
    table = Table(number=1, seat_count=9)
    for seat, (player, stack) in players.items():
        table.seat_player(player, seat, stack)
    low = iter(parse_cards("2c 2d 2h 3c 3d 3h 4c 4d"))
    table.draw_button(deck=[parse_cards("As")[0] if s == button else next(low) for s in sorted(players)])
    return table


def test_rule_14_three_to_two_when_the_big_blind_busts_nobody_gets_the_big_blind_twice() -> None:
    # Given A1 button, B2 small blind and C3 big blind with only 100 chips (all in on the big blind)
    table = table_with({1: ("A", 1_000), 2: ("B", 1_000), 3: ("C", 100)}, button=1)
    # (dealing order from the seat after the button: B, C, A)
    first = table.start_hand(LEVEL, stacked_deck(["8c 8d", "7c 2d", "Ah As"], BOARD))
    assert first.positions.seats() == (1, 2, 3)
    # When A calls, B folds and A's aces beat C's seven high
    table.act("A", ActionKind.CALL)
    table.act("B", ActionKind.FOLD)
    # Then C is out: A has 1,150, B 950
    assert table.players == {1: "A", 2: "B"}
    assert (table.stack(1), table.stack(2)) == (1_150, 950)
    # When the next hand is dealt heads-up
    second = table.start_hand(LEVEL, DECK)
    # Then the big blind moves forward to A (seat 1, the first after seat 3), and B holds the button and posts
    # the small blind (docs/rules.md: heads-up the button posts the SB), acting first before the flop
    assert second.positions.seats() == (2, 2, 1)
    assert table.hand is not None and table.hand.actor == 2
    table.act("B", ActionKind.FOLD)
    # And in the hand after, B posts the big blind: nobody posted it twice in a row
    assert table.start_hand(LEVEL, DECK).positions.seats() == (1, 1, 2)
    assert (table.stack(1), table.stack(2)) == (1_200 - 50, 900 - 100)


def test_rule_7_antes_default_level_4_has_a_big_blind_ante_posted_by_the_big_blind_alone() -> None:
    # Given four players of 1,000 and the default structure's level 4: 100/200 and a 200 big-blind ante
    level = default_level(4)
    assert (level.small_blind, level.big_blind, level.ante, level.big_blind_ante) == (100, 200, 200, True)
    table = table_with({1: ("A", 1_000), 2: ("B", 1_000), 3: ("C", 1_000), 4: ("D", 1_000)}, button=1)
    # When the hand is dealt
    table.start_hand(level, DECK)
    # Then C, the big blind, posts the ante then the big blind, B the small blind, and nobody else posts
    assert table.hand is not None
    assert [r for r in table.hand.log if isinstance(r, Posted)] == [
        Posted(3, PostKind.ANTE, 200),
        Posted(2, PostKind.SMALL_BLIND, 100),
        Posted(3, PostKind.BIG_BLIND, 200),
    ]
    assert [table.stack(s) for s in (1, 2, 3, 4)] == [1_000, 900, 600, 1_000]
    assert table.hand.pot == 500


def test_rule_16_an_away_player_is_never_treated_as_all_in() -> None:
    # Given A1 button, B2 small blind, C3 big blind, 1,000 each; B holds aces, A kings, C queens
    table = table_with({1: ("A", 1_000), 2: ("B", 1_000), 3: ("C", 1_000)}, button=1)
    table.start_hand(LEVEL, stacked_deck(["Ah Ad", "Qc Qd", "Kh Kd"], BOARD))
    # And everyone puts 300 in before the flop
    table.act("A", ActionKind.RAISE, 300)
    table.act("B", ActionKind.CALL)
    table.act("C", ActionKind.CALL)
    # When B disconnects on the flop: B's time runs out with nothing to call (check), C bets 200, A calls,
    # and B's time runs out again facing the bet
    table.set_away("B")
    awaiting = table.awaiting()
    assert awaiting is not None and (awaiting.player, awaiting.away, awaiting.seconds) == ("B", True, 5)
    assert table.timeout(2) == Checked(seq=3, seat=2, timed_out=True)
    table.act("C", ActionKind.BET, 200)
    table.act("A", ActionKind.CALL)
    assert table.timeout(2) == Folded(seq=6, seat=2, timed_out=True)
    # Then B folded: no all-in protection keeps B's aces in a pot of the 300 each put in
    assert table.hand is not None and table.hand.pots[0].eligible == (3, 1)
    # When C and A check the turn and the river, A's kings beat C's queens
    while table.hand_in_progress:
        awaiting = table.awaiting()
        assert awaiting is not None and awaiting.player != "B"
        table.act(awaiting.player, ActionKind.CHECK)
    # Then A wins the whole 1,300 pot; B, away, lost the 300 put in and keeps 700
    assert table.last_hand_ended is not None
    assert table.last_hand_ended.finishing_stacks == {1: 1_800, 2: 700, 3: 500}
    assert table.seats[2].away


def test_defaults_a_10_minute_level_holds_about_10_to_15_hands_per_table() -> None:
    # Given a simulated 18-player freezeout on two 9-seat tables, 10-minute levels, stopped after 25 minutes
    result = Simulation(SimulationOptions(players=18, seed=2, terminate_at=25, restart=False, phh_dir="-")).run()
    # When the hands dealt in level 1 are counted per table (from the hand histories)
    level_one = Counter()
    for table_id, text in result.phh_files.items():
        level_one[table_id] = sum(1 for fields in tomllib.loads(text).values() if fields["_level"] == 1)
    # Then each table dealt 10 to 15 hands in the first 10 minutes: 40-60 seconds a hand, 8-9 handed
    assert len(level_one) == 2
    assert all(10 <= hands <= 15 for hands in level_one.values()), level_one
