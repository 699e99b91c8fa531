import pytest
from tourney.domain.blinds import (
    Occupant,
    Positions,
    first_hand_positions,
    next_positions,
    upcoming_big_blind,
)
from tourney.domain.errors import NotEnoughPlayers


def positions(button: tuple[int, str], sb: tuple[int, str] | None, bb: tuple[int, str]) -> Positions:
    return Positions(Occupant(*button), Occupant(*sb) if sb else None, Occupant(*bb))


# A1 button, B2 small blind, C3 big blind: the previous hand of most tests below.
ABC = positions((1, "A"), (2, "B"), (3, "C"))


def test_rule_7_first_hand_blinds_follow_the_drawn_button() -> None:
    # Given five players and the button drawn at seat 7
    active = {1: "A", 3: "B", 4: "C", 7: "D", 9: "E"}
    # When the first hand's positions are set
    first = first_hand_positions(7, active)
    # Then the SB is the next active seat clockwise and the BB the next after it
    assert first == positions((7, "D"), (9, "E"), (1, "A"))


def test_rule_14_first_hand_heads_up_button_posts_the_small_blind() -> None:
    # Given two players, the button drawn at seat 5
    # When the first hand's positions are set
    first = first_hand_positions(5, {2: "A", 5: "B"})
    # Then the button posts the SB and the other player the BB
    assert first == positions((5, "B"), (5, "B"), (2, "A"))


def test_rule_7_first_hand_needs_the_drawn_button_to_be_active() -> None:
    with pytest.raises(ValueError):
        first_hand_positions(4, {1: "A", 2: "B", 3: "C"})


def test_rule_7_blinds_and_button_move_one_seat_on_a_full_table() -> None:
    # Given a previous hand A1 button, B2 SB, C3 BB and nobody gone
    active = {1: "A", 2: "B", 3: "C", 4: "D"}
    # When the next hand's positions are set
    # Then everything moves one player clockwise
    assert next_positions(ABC, active) == positions((2, "B"), (3, "C"), (4, "D"))


def test_rule_7_big_blind_moves_forward_past_empty_seat() -> None:
    # Given seats 4 and 5 empty after the previous hand's BB at seat 3
    active = {1: "A", 2: "B", 3: "C", 6: "F", 8: "H"}
    # When the next hand's positions are set
    nxt = next_positions(ABC, active)
    # Then the BB goes to the first active seat after seat 3, seat 6
    assert nxt == positions((2, "B"), (3, "C"), (6, "F"))


def test_rule_7_big_blind_wraps_round_the_table() -> None:
    # Given the previous BB at seat 9, the last seat taken
    previous = positions((7, "G"), (8, "H"), (9, "I"))
    # When the next hand's positions are set
    nxt = next_positions(previous, {2: "B", 7: "G", 8: "H", 9: "I"})
    # Then the BB wraps to seat 2 (seat 1 is empty)
    assert nxt == positions((8, "H"), (9, "I"), (2, "B"))


def test_rule_7_no_small_blind_when_the_previous_big_blind_busted() -> None:
    # Given C, the previous hand's BB, busted; D and E remain behind
    active = {1: "A", 2: "B", 4: "D", 5: "E"}
    # When the next hand's positions are set
    nxt = next_positions(ABC, active)
    # Then D posts the BB, nobody posts the SB, and B (the previous SB) has the button
    assert nxt == positions((2, "B"), None, (4, "D"))


def test_rule_7_same_player_holds_the_button_twice_after_a_hand_without_small_blind() -> None:
    # Given the hand without SB above: B2 button, no SB, D4 BB
    active = {1: "A", 2: "B", 4: "D", 5: "E"}
    without_sb = next_positions(ABC, active)
    # When the following hand's positions are set
    nxt = next_positions(without_sb, active)
    # Then the BB moves to E, D posts the SB, and the button stays with B,
    # the nearest active player counter-clockwise of the new SB (seat 3 is empty)
    assert nxt == positions((2, "B"), (4, "D"), (5, "E"))


def test_rule_7_button_falls_back_counter_clockwise_when_the_previous_small_blind_busted() -> None:
    # Given B, the previous SB, busted
    active = {1: "A", 3: "C", 4: "D", 5: "E"}
    # When the next hand's positions are set
    nxt = next_positions(ABC, active)
    # Then the button is the nearest active player counter-clockwise of the new SB at seat 3: A again
    assert nxt == positions((1, "A"), (3, "C"), (4, "D"))


def test_rule_7_button_goes_to_the_previous_small_blind_when_the_previous_button_busted() -> None:
    # Given A, the previous button, busted
    active = {2: "B", 3: "C", 4: "D"}
    # When the next hand's positions are set
    # Then the blinds move on as usual and B has the button
    assert next_positions(ABC, active) == positions((2, "B"), (3, "C"), (4, "D"))


def test_rule_7_small_blind_is_the_previous_big_blind_player_not_whoever_sits_in_that_seat() -> None:
    # Given C (the previous BB) busted and N, moved in by balancing, took seat 3
    active = {1: "A", 2: "B", 3: "N", 4: "D"}
    # When the next hand's positions are set
    nxt = next_positions(ABC, active)
    # Then there is no SB (N is not the previous BB player), and the BB still moves on to D
    assert nxt == positions((2, "B"), None, (4, "D"))


def test_rule_7_button_is_the_previous_small_blind_player_not_whoever_sits_in_that_seat() -> None:
    # Given B (the previous SB) busted and N took seat 2
    active = {1: "A", 2: "N", 3: "C", 4: "D"}
    # When the next hand's positions are set
    nxt = next_positions(ABC, active)
    # Then the button falls back to the nearest active player counter-clockwise of the new SB: N at seat 2
    assert nxt == positions((2, "N"), (3, "C"), (4, "D"))


def test_rule_8_newcomer_seated_after_the_previous_big_blind_posts_the_big_blind_at_once() -> None:
    # Given N moved in at seat 4, just after the previous BB
    active = {1: "A", 2: "B", 3: "C", 4: "N", 6: "F"}
    # When the next hand's positions are set
    # Then N posts the BB in their first hand
    assert next_positions(ABC, active) == positions((2, "B"), (3, "C"), (4, "N"))


def test_rule_8_newcomer_can_come_in_as_the_button() -> None:
    # Given B busted and N took seat 2 (as in the identity test above)
    nxt = next_positions(ABC, {1: "A", 2: "N", 3: "C", 5: "E"})
    # Then N is the button in their first hand
    assert nxt.button == Occupant(2, "N")


def test_rule_8_newcomer_can_come_in_as_button_and_small_blind_heads_up() -> None:
    # Given B and C busted and N moved in at seat 2, making the table heads-up
    nxt = next_positions(ABC, {1: "A", 2: "N"})
    # Then the BB moves forward to A and N has the button and posts the SB
    assert nxt == positions((2, "N"), (2, "N"), (1, "A"))


def test_rule_7_button_is_never_the_big_blind_when_a_newcomer_sits_between_the_old_blinds() -> None:
    # Given P1 SB, Q3 BB, X5 button; X busts and N moves in at seat 2 (between the blinds)
    previous = positions((5, "X"), (1, "P"), (3, "Q"))
    active = {1: "P", 2: "N", 3: "Q"}
    # When the next hand's positions are set
    nxt = next_positions(previous, active)
    # Then P (previous SB) posts the BB, so the button falls back counter-clockwise of the SB: N
    assert nxt == positions((2, "N"), (3, "Q"), (1, "P"))


def test_rule_14_heads_up_button_posts_the_small_blind_and_blinds_alternate() -> None:
    # Given a heads-up table: A1 button and SB, B2 BB
    previous = positions((1, "A"), (1, "A"), (2, "B"))
    active = {1: "A", 2: "B"}
    # When three more hands are set
    second = next_positions(previous, active)
    third = next_positions(second, active)
    # Then the button (always the SB) and the BB alternate
    assert second == positions((2, "B"), (2, "B"), (1, "A"))
    assert third == previous


def test_three_to_two_when_the_big_blind_busts_the_other_player_takes_button_and_small_blind() -> None:
    # Given A1 button, B2 SB, C3 BB, and C busts
    active = {1: "A", 2: "B"}
    # When play goes heads-up
    heads_up = next_positions(ABC, active)
    after = next_positions(heads_up, active)
    # Then the BB moves forward to A; B, the SB again, holds the button (heads-up has both blinds);
    # and in the hand after, B posts the BB: nobody got it twice in a row
    assert heads_up == positions((2, "B"), (2, "B"), (1, "A"))
    assert after == positions((1, "A"), (1, "A"), (2, "B"))


def test_three_to_two_when_the_small_blind_busts() -> None:
    # Given A1 button, B2 SB, C3 BB, and B busts
    # When play goes heads-up
    # Then A posts the BB and C, the previous BB, has the button and posts the SB
    assert next_positions(ABC, {1: "A", 3: "C"}) == positions((3, "C"), (3, "C"), (1, "A"))


def test_three_to_two_when_the_button_busts() -> None:
    # Given A1 button, B2 SB, C3 BB, and A busts
    # When play goes heads-up
    # Then B posts the BB and C, the previous BB, has the button and posts the SB
    assert next_positions(ABC, {2: "B", 3: "C"}) == positions((3, "C"), (3, "C"), (2, "B"))


def test_two_to_three_newcomer_joins_a_heads_up_table() -> None:
    # Given a heads-up hand A1 button and SB, B2 BB, and N moved in at seat 6
    previous = positions((1, "A"), (1, "A"), (2, "B"))
    # When the next hand's positions are set
    nxt = next_positions(previous, {1: "A", 2: "B", 6: "N"})
    # Then N posts the BB, B the SB, and A keeps the button
    assert nxt == positions((1, "A"), (2, "B"), (6, "N"))


def test_rule_13_upcoming_big_blind_is_the_first_active_player_after_the_last_big_blind() -> None:
    # Given the previous BB at seat 3, seat 4 empty and E at seat 5
    # When balancing asks who would post the next BB
    # Then it is E, the player it must move
    assert upcoming_big_blind(ABC, {1: "A", 2: "B", 3: "C", 5: "E"}) == Occupant(5, "E")


def test_a_lone_active_player_gets_no_positions() -> None:
    with pytest.raises(NotEnoughPlayers):
        next_positions(ABC, {1: "A"})
    with pytest.raises(NotEnoughPlayers):
        first_hand_positions(1, {1: "A"})


def test_positions_round_trip_as_plain_data() -> None:
    # Given positions with and without an SB
    without_sb = positions((2, "B"), None, (4, "D"))
    # When written and read back
    # Then they are equal, and the plain form names seats and players
    assert Positions.from_dict(ABC.to_dict()) == ABC
    assert Positions.from_dict(without_sb.to_dict()) == without_sb
    assert without_sb.to_dict() == {
        "button": {"seat": 2, "player": "B"},
        "small_blind": None,
        "big_blind": {"seat": 4, "player": "D"},
    }
    assert without_sb.seats() == (2, None, 4)
