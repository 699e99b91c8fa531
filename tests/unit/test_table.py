import json
from collections.abc import Sequence

import pytest
from tourney.domain.blinds import Occupant, Positions
from tourney.domain.cards import FULL_DECK, Card, parse_card, parse_cards
from tourney.domain.errors import (
    ButtonNotDrawn,
    HandInProgress,
    IllegalAction,
    NoHandInProgress,
    NotEnoughPlayers,
    NotSeated,
    NotYourSeat,
    NotYourTurn,
    SeatTaken,
    StaleAction,
)
from tourney.domain.hand import ActionKind, Checked, Folded, Posted, PostKind
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Awaiting, HandOver, SeatedPlayer, Table, TimeBank, decision_seconds

LEVEL = BlindLevel(number=1, small_blind=50, big_blind=100)
DECK = list(FULL_DECK)
SAFE_BOARD = "Ks Qh Jd 9s 4h Kh Qs Jc 9d"  # pairs nothing below, completes no straight with 7-2


def draw_deck(seats: Sequence[int], button: int) -> list[Card]:
    """A draw deck giving the ace of spades to ``button`` and deuces and treys to the other seats."""
    low = iter(parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c"))
    return [parse_card("As") if seat == button else next(low) for seat in sorted(seats)]


def stacked_deck(holes: Sequence[str], board: str = SAFE_BOARD) -> list[Card]:
    """A hand deck: ``holes[i]`` for the i-th player clockwise from the first seat after the button."""
    pairs = [parse_cards(h) for h in holes]
    n = len(pairs)
    top = [p[0] for p in pairs] + [p[1] for p in pairs] + parse_cards(board)
    return top + [c for c in FULL_DECK if c not in top][: 2 * n + 8]


def new_table(players: dict[int, tuple[str, int]], button: int, seat_count: int = 9) -> Table:
    table = Table(number=7, seat_count=seat_count)
    for seat, (player, stack) in players.items():
        table.seat_player(player, seat, stack)
    table.draw_button(deck=draw_deck(list(players), button))
    return table


def four_handed() -> Table:
    # A1 B2 C3 D4, 1,000 chips each, the button drawn at seat 1.
    return new_table({1: ("A", 1000), 2: ("B", 1000), 3: ("C", 1000), 4: ("D", 1000)}, button=1)


def fold_to_big_blind(table: Table) -> None:
    everyone_until_the_end(table, ActionKind.FOLD)


def everyone_until_the_end(table: Table, kind: ActionKind) -> None:
    """Each player to act makes ``kind`` until the hand ends (folds: to the big blind; checks: down to the river)."""
    while table.hand_in_progress:
        awaiting = table.awaiting()
        assert awaiting is not None
        table.act(awaiting.player, kind)


def chips(table: Table) -> int:
    return sum(sp.stack for sp in table.seats.values())


# ------------------------------------------------------------ the button draw and positions


def test_rule_6_first_hand_positions_come_from_the_button_draw() -> None:
    # Given four players; seat 3 draws the ace of hearts, the highest card
    table = Table(number=1, seat_count=9)
    for seat, player in {1: "A", 3: "B", 5: "C", 7: "D"}.items():
        table.seat_player(player, seat, 1000)
    draw = table.draw_button(deck=parse_cards("2c Ah 3d 4s"))
    # When the first hand is dealt
    dealt = table.start_hand(LEVEL, DECK)
    # Then the drawn seat has the button, the next two post the blinds, and seat 1 acts first
    assert draw.button == 3
    assert dealt.hand == 1
    assert dealt.positions.seats() == (3, 5, 7)
    assert dealt.seats == (1, 3, 5, 7)
    assert table.hand is not None
    assert [r for r in table.hand.log if isinstance(r, Posted)] == [
        Posted(5, PostKind.SMALL_BLIND, 50),
        Posted(7, PostKind.BIG_BLIND, 100),
    ]
    awaiting = table.awaiting()
    assert awaiting == Awaiting(hand=1, seq=0, seat=1, player="A", away=False, seconds=15, time_bank=30)


def test_rule_6_a_table_draws_for_the_button_before_its_first_hand() -> None:
    # Given a table whose players are seated but have not drawn
    table = Table(number=1, seat_count=6)
    table.seat_player("A", 1, 1000)
    table.seat_player("B", 4, 1000)
    # When it is asked to deal
    # Then it refuses
    with pytest.raises(ButtonNotDrawn):
        table.start_hand(LEVEL, DECK)


def test_rule_7_big_blind_moves_forward_between_hands() -> None:
    # Given a first hand with A1 button, B2 SB, C3 BB, folded round to the BB
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    fold_to_big_blind(table)
    # When the next hand is dealt
    dealt = table.start_hand(LEVEL, DECK)
    # Then everything moved one player on, and the first hand's chips were settled
    assert dealt.hand == 2
    assert dealt.positions.seats() == (2, 3, 4)
    ended = table.last_hand_ended
    assert ended is None  # cleared by the new deal
    assert table.seats[2].stack == 950
    assert table.seats[3].stack == 1050


def test_rule_14_heads_up_table_button_posts_the_small_blind() -> None:
    # Given two players, the button drawn at seat 5
    table = new_table({2: ("A", 1000), 5: ("B", 1000)}, button=5)
    # When two hands are dealt
    first = table.start_hand(LEVEL, DECK)
    assert table.hand is not None
    first_actor = table.hand.actor
    fold_to_big_blind(table)
    second = table.start_hand(LEVEL, DECK)
    # Then the button posts the SB and acts first before the flop; the blinds alternate
    assert first.positions.seats() == (5, 5, 2)
    assert first_actor == 5
    assert second.positions.seats() == (2, 2, 5)


def test_rule_9_a_busted_player_leaves_and_the_next_hand_has_no_small_blind() -> None:
    # Given A1 button, B2 SB, C3 BB with only the big blind (100) in chips, D4 with aces
    table = new_table({1: ("A", 1000), 2: ("B", 1000), 3: ("C", 100), 4: ("D", 1000)}, button=1)
    # hand order from the seat after the button: B2, C3, D4, A1
    table.start_hand(LEVEL, stacked_deck(["8c 8d", "7c 2d", "Ah As", "5c 6d"]))
    # When D calls, A and B fold and the board runs out
    table.act("D", ActionKind.CALL)
    table.act("A", ActionKind.FOLD)
    table.act("B", ActionKind.FOLD)
    # Then C busted: seat 3 is vacated and the hand's outcome is recorded
    ended = table.last_hand_ended
    assert ended == HandOver(
        hand=1,
        players={1: "A", 2: "B", 3: "C", 4: "D"},
        starting_stacks={1: 1000, 2: 1000, 3: 100, 4: 1000},
        finishing_stacks={1: 1000, 2: 950, 3: 0, 4: 1150},
        busted=(Occupant(3, "C"),),
        vacated=(3,),
    )
    assert table.players == {1: "A", 2: "B", 4: "D"}
    assert chips(table) == 3100
    # And the next hand: BB to D, no SB (C, the previous BB, is gone), B holds the button
    dealt = table.start_hand(LEVEL, DECK)
    assert dealt.positions.seats() == (2, None, 4)
    assert table.hand is not None
    assert table.hand.small_blind_seat is None


def test_rule_8_a_player_seated_during_a_hand_is_dealt_in_from_the_next_as_big_blind() -> None:
    # Given a hand in progress at A1 button, B2 SB, C3 BB
    table = new_table({1: ("A", 1000), 2: ("B", 1000), 3: ("C", 1000)}, button=1)
    table.start_hand(LEVEL, DECK)
    # When N is moved in at seat 4 during it
    table.seat_player("N", 4, 2500)
    # Then N sits out that hand
    assert table.hand is not None
    assert 4 not in table.hand.seats
    assert not table.in_hand("N")
    assert table.in_hand("A")
    # And is dealt in at once in the next, in the big blind its seat gives
    fold_to_big_blind(table)
    dealt = table.start_hand(LEVEL, DECK)
    assert dealt.positions.seats() == (2, 3, 4)
    assert Posted(4, PostKind.BIG_BLIND, 100) in table.hand.log
    assert table.in_hand("N")


def test_rule_8_a_newcomer_in_the_seat_of_the_busted_small_blind_comes_in_as_the_button() -> None:
    # Given B (the SB at seat 2) busted in hand 1 and N took seat 2 before hand 2
    table = new_table({1: ("A", 1000), 2: ("B", 50), 3: ("C", 1000), 4: ("D", 1000)}, button=1)
    table.start_hand(LEVEL, stacked_deck(["7c 2d", "Ah As", "8c 8d", "5c 6d"]))
    table.act("D", ActionKind.FOLD)
    table.act("A", ActionKind.FOLD)
    table.act("C", ActionKind.CHECK)  # B is all in on the small blind
    assert table.hand is not None and table.hand.is_over
    assert table.last_hand_ended is not None
    assert table.last_hand_ended.busted == (Occupant(2, "B"),)
    table.seat_player("N", 2, 3000)
    # When hand 2 is dealt
    dealt = table.start_hand(LEVEL, DECK)
    # Then the BB moves to D, C posts the SB, and N, nearest counter-clockwise of the SB, has the button
    assert dealt.positions == Positions(Occupant(2, "N"), Occupant(3, "C"), Occupant(4, "D"))


def test_rule_13_upcoming_big_blind_is_who_balancing_moves() -> None:
    # Given A1 button, B2 SB, C3 BB played out, seat 4 empty and E at seat 5
    table = new_table({1: ("A", 1000), 2: ("B", 1000), 3: ("C", 1000), 5: ("E", 1000)}, button=1)
    assert table.upcoming_big_blind() == Occupant(3, "C")  # before the first hand: from the draw
    table.start_hand(LEVEL, DECK)
    fold_to_big_blind(table)
    # When balancing asks which player to move and where arrivals sit
    seats = table.table_seats()
    # Then the player due for the next BB is E, and the last hand's button is seat 1
    assert table.upcoming_big_blind() == Occupant(5, "E")
    assert seats.seats == {1: "A", 2: "B", 3: "C", 5: "E"}
    assert seats.button_seat == 1
    assert seats.next_big_blind_seat == 5
    # And once E is moved off, the BB goes to A: nobody at the table is skipped
    assert table.remove_player("E") == SeatedPlayer("E", 1000, bank=TimeBank(30, 1))
    assert table.start_hand(LEVEL, DECK).positions.seats() == (2, 3, 1)


def test_rule_12_a_new_button_draw_restarts_positions_from_the_draw() -> None:
    # Given a table that has played a hand
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    fold_to_big_blind(table)
    # When the final table draws the button again and seat 3 wins
    table.draw_button(deck=draw_deck([1, 2, 3, 4], button=3))
    # Then the next hand is set from the draw
    assert table.start_hand(LEVEL, DECK).positions.seats() == (3, 4, 1)


# ------------------------------------------------------------ seats between hands


def test_nobody_is_taken_out_of_a_hand_in_progress() -> None:
    # Given a hand in progress and N seated during it
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    table.seat_player("N", 6, 1000)
    # When the table is asked to remove or top up a player dealt in
    # Then it refuses; N, not in the hand, can leave
    with pytest.raises(HandInProgress):
        table.remove_player("B")
    with pytest.raises(HandInProgress):
        table.add_chips("B", 1000)
    with pytest.raises(HandInProgress):
        table.start_hand(LEVEL, DECK)
    with pytest.raises(HandInProgress):
        table.draw_button(deck=DECK)
    assert table.remove_player("N") == SeatedPlayer("N", 1000)
    assert 6 not in table.seats


def test_seats_hold_one_player_each() -> None:
    table = Table(number=3, seat_count=6)
    table.seat_player("A", 1, 500)
    with pytest.raises(SeatTaken):
        table.seat_player("B", 1, 500)
    with pytest.raises(SeatTaken):
        table.seat_player("A", 2, 500)
    with pytest.raises(ValueError):
        table.seat_player("B", 7, 500)
    with pytest.raises(ValueError):
        table.seat_player("B", 2, 0)
    with pytest.raises(NotSeated):
        table.remove_player("Z")
    with pytest.raises(ValueError):
        Table(number=1, seat_count=11)


def test_a_table_with_one_active_player_does_not_deal() -> None:
    # Given a table left with one player
    table = Table(number=2, seat_count=9)
    table.seat_player("A", 4, 1000)
    # When asked to deal or draw
    # Then it refuses: the lone player is moved instead
    with pytest.raises(NotEnoughPlayers):
        table.start_hand(LEVEL, DECK)
    with pytest.raises(NotEnoughPlayers):
        table.draw_button(deck=DECK)
    assert table.upcoming_big_blind() is None


def test_rebuy_period_holds_a_busted_players_seat_until_they_buy_chips() -> None:
    # Given a hand dealt while rebuys are open: B2 button with 50 chips, C3 SB with aces, A1 BB
    table = new_table({1: ("A", 1000), 2: ("B", 50), 3: ("C", 1000)}, button=2)
    # hand order from the seat after the button: C3, A1, B2
    dealt = table.start_hand(LEVEL, stacked_deck(["Ah As", "8c 8d", "7c 2d"]), hold_busted_seats=True)
    assert dealt.positions.seats() == (2, 3, 1)
    table.act("B", ActionKind.CALL)  # all in for 50
    table.act("C", ActionKind.CALL)
    table.act("A", ActionKind.CHECK)
    # When C and A check it down
    everyone_until_the_end(table, ActionKind.CHECK)
    # Then B busted but keeps the seat with no chips, and is not dealt in next
    ended = table.last_hand_ended
    assert ended is not None
    assert ended.busted == (Occupant(2, "B"),)
    assert ended.vacated == ()
    assert ended.finishing_stacks == {1: 900, 2: 0, 3: 1150}
    assert table.seats[2] == SeatedPlayer("B", 0, bank=TimeBank(30, 1))
    assert table.active == {1: "A", 3: "C"}
    # When B rebuys between hands
    table.add_chips("B", 10_000)
    # Then B is active again and dealt in the next hand
    assert table.start_hand(LEVEL, DECK).seats == (1, 2, 3)


# ------------------------------------------------------------ actions at one's own seat


def test_a_player_acts_only_at_their_own_seat_on_their_turn() -> None:
    # Given the first hand, A1 button, B2 SB, C3 BB: D4 is to act
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    # Then acting from someone else's seat, from no seat, or out of turn is refused
    with pytest.raises(NotYourSeat):
        table.act("D", ActionKind.CALL, seat=1)
    with pytest.raises(NotYourSeat):
        table.act("Z", ActionKind.CALL)
    with pytest.raises(NotYourTurn):
        table.act("A", ActionKind.CALL)
    with pytest.raises(IllegalAction):
        table.act("D", ActionKind.CHECK)
    # And a stale hand or decision number changes nothing
    with pytest.raises(StaleAction):
        table.act("D", ActionKind.CALL, hand=0)
    with pytest.raises(StaleAction):
        table.act("D", ActionKind.CALL, seq=3)
    # When D calls naming the right hand, decision and seat
    assert table.act("D", ActionKind.CALL, hand=1, seq=0, seat=4).seq == 0
    # Then it is A's turn
    awaiting = table.awaiting()
    assert awaiting is not None
    assert (awaiting.seat, awaiting.seq) == (1, 1)


def test_no_action_between_hands() -> None:
    table = four_handed()
    with pytest.raises(NoHandInProgress):
        table.act("D", ActionKind.FOLD)
    with pytest.raises(NoHandInProgress):
        table.timeout(4)
    with pytest.raises(NoHandInProgress):
        table.cancel_hand()
    assert table.awaiting() is None


# ------------------------------------------------------------ time-outs and away players


def test_rule_16_timeout_facing_the_big_blind_folds_and_marks_the_player_away() -> None:
    # Given the first hand: D4 is first to act, facing the posted big blind
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    # When D's time runs out
    record = table.timeout(4, hand=1, seq=0)
    # Then D folds (the big blind is the opening bet) and is marked away
    assert record == Folded(seq=0, seat=4, timed_out=True)
    assert table.seats[4].away


def test_rule_16_timeout_with_nothing_to_call_checks() -> None:
    # Given the first hand limped round to the big blind C3
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    table.act("D", ActionKind.CALL)
    table.act("A", ActionKind.CALL)
    table.act("B", ActionKind.CALL)
    # When C's time runs out
    record = table.timeout(3)
    # Then C checks, keeps the cards, and is marked away
    assert record == Checked(seq=3, seat=3, timed_out=True)
    assert table.seats[3].away
    assert table.hand is not None
    assert table.hand.street == "flop"


def test_rule_16_a_stale_timeout_changes_nothing() -> None:
    # Given D already acted on decision 0
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    table.act("D", ActionKind.CALL)
    # When the time-out armed for decision 0 arrives late
    # Then it is refused and nobody is marked away
    with pytest.raises(StaleAction):
        table.timeout(4, seq=0)
    with pytest.raises(StaleAction):
        table.timeout(1, hand=0, seq=1)
    assert not any(sp.away for sp in table.seats.values())


def test_rule_16_away_player_keeps_posting_is_dealt_in_and_gets_the_short_decision_time() -> None:
    # Given D timed out in hand 1 and is away
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    table.timeout(4)
    fold_to_big_blind(table)
    assert table.seats[4].away
    # When hand 2 is dealt: B2 button, C3 SB, D4 BB
    dealt = table.start_hand(LEVEL, DECK)
    # Then D posts the big blind and is dealt cards
    assert dealt.positions.seats() == (2, 3, 4)
    assert table.hand is not None
    assert Posted(4, PostKind.BIG_BLIND, 100) in table.hand.log
    assert 4 in table.hand.seats
    # And when D's turn comes, the decision time is the away player's
    table.act("A", ActionKind.CALL)
    table.act("B", ActionKind.CALL)
    table.act("C", ActionKind.CALL)
    assert table.awaiting() == Awaiting(hand=2, seq=3, seat=4, player="D", away=True, seconds=5)
    assert decision_seconds(True, when_away=3) == 3


def test_rule_16_away_player_comes_back_mid_hand_and_acts_themselves() -> None:
    # Given D is away and it is D's turn, with a 5-second time-out armed
    table = four_handed()
    table.set_away("D")
    table.start_hand(LEVEL, DECK)
    awaiting = table.awaiting()
    assert awaiting is not None and awaiting.away and awaiting.seconds == 5
    # When D comes back
    table.come_back("D")
    # Then the away time-out is stale and the full decision time applies
    with pytest.raises(StaleAction):
        table.timeout(4, seq=0, armed_for_away=True)
    assert table.awaiting() == Awaiting(hand=1, seq=0, seat=4, player="D", away=False, seconds=15, time_bank=30)
    table.act("D", ActionKind.RAISE, 300)
    # And an away player who acts is back as well
    table.set_away("A")
    table.act("A", ActionKind.CALL)
    assert not table.seats[1].away


# ------------------------------------------------------------ cancellation (rule 17)


def test_rule_17_cancel_hand_restores_every_stack_and_voids_the_cards() -> None:
    # Given hand 2 in progress with a raise and a call in the pot
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    fold_to_big_blind(table)
    before = table.seats
    table.start_hand(LEVEL, DECK)  # B2 button, C3 SB, D4 BB; A1 to act
    table.act("A", ActionKind.RAISE, 400)
    table.act("B", ActionKind.CALL)
    assert table.stack(1) == 600
    # When the hand is cancelled
    restored = table.cancel_hand()
    # Then every stack is back to its start-of-hand value, the cards are void and no hand is on
    assert restored == {1: 1000, 2: 950, 3: 1050, 4: 1000}
    assert {s: (sp.player, sp.stack, sp.away) for s, sp in table.seats.items()} == {
        s: (sp.player, sp.stack, sp.away) for s, sp in before.items()
    }
    assert table.stack(1) == 1000
    assert table.hand is not None and table.hand.is_cancelled and table.hand.result is None
    assert not table.hand_in_progress
    assert table.last_hand_ended is None
    # And the cancelled hand does not move the blinds: the next hand has the same positions
    dealt = table.start_hand(LEVEL, DECK)
    assert dealt.hand == 3
    assert dealt.positions.seats() == (2, 3, 4)


def test_a_hand_over_at_the_deal_is_settled_at_once() -> None:
    # Given heads-up, the button B5 with 50 chips, less than the big blind
    table = new_table({2: ("A", 1000), 5: ("B", 50)}, button=5)
    # hand order: A2, B5
    table.start_hand(LEVEL, stacked_deck(["Ah As", "7c 2d"]))
    # Then nobody can act: the board runs out and the hand is settled when dealt
    ended = table.last_hand_ended
    assert not table.hand_in_progress
    assert ended is not None
    assert ended.finishing_stacks == {2: 1050, 5: 0}
    assert ended.vacated == (5,)
    assert table.players == {2: "A"}


# ------------------------------------------------------------ plain data


def test_table_round_trips_as_plain_data_with_the_hand_in_progress() -> None:
    # Given a table mid-hand, with an away player and a newcomer waiting for the next hand
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    fold_to_big_blind(table)
    table.start_hand(LEVEL, DECK)
    table.act("A", ActionKind.RAISE, 300)
    table.timeout(2)
    table.seat_player("N", 8, 777)
    # When it is written as JSON and read back
    raw = json.loads(json.dumps(table.to_dict()))
    copy = Table.from_dict(raw)
    # Then it is the same table, and both play on identically
    assert copy.to_dict() == table.to_dict()
    assert copy.seats == table.seats
    assert copy.positions == table.positions
    assert copy.last_positions == table.last_positions
    assert copy.awaiting() == table.awaiting()
    for t in (table, copy):
        t.act("C", ActionKind.CALL)
        t.act("D", ActionKind.FOLD)
        everyone_until_the_end(t, ActionKind.CHECK)
    assert copy.to_dict() == table.to_dict()
    assert copy.last_hand_ended == table.last_hand_ended
    assert chips(copy) == 4000 + 777


def test_a_fresh_table_round_trips_as_plain_data() -> None:
    table = Table(number=12, seat_count=6)
    assert Table.from_dict(table.to_dict()).to_dict() == table.to_dict()


def test_chips_are_removed_only_between_the_players_hands_and_never_the_last() -> None:
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    with pytest.raises(HandInProgress):
        table.remove_chips("B", 100)
    fold_to_big_blind(table)
    stack = table.stack(2)
    table.remove_chips("B", 100)
    assert table.stack(2) == stack - 100
    with pytest.raises(ValueError):
        table.remove_chips("B", stack - 100)
