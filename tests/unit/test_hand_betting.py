"""The hand's positions, forced bets and betting rules, exact chip counts (docs/rules.md, rules 7, 14, 16; 'Play')."""

from __future__ import annotations

import pytest
from tourney.domain.errors import IllegalAction, NoHandInProgress, NotYourTurn, StaleAction
from tourney.domain.hand import (
    ActionKind,
    Bet,
    Called,
    Checked,
    Folded,
    Hand,
    Posted,
    PostKind,
    Raised,
    SeatStatus,
    Street,
)
from tourney.domain.histories import phh

from tests.support.pokerkit_oracle import replay_strictly

DECK = list(range(52))


def deal(
    stacks: dict[int, int],
    button: int,
    sb: int | None,
    bb: int,
    *,
    blinds: tuple[int, int] = (50, 100),
    ante: int = 0,
    bb_ante: bool = False,
) -> Hand:
    return Hand.deal(
        stacks,
        button=button,
        small_blind_seat=sb,
        big_blind_seat=bb,
        small_blind=blinds[0],
        big_blind=blinds[1],
        ante=ante,
        big_blind_ante=bb_ante,
        deck=DECK,
    )


def test_antes_then_blinds_are_posted_and_action_starts_left_of_the_big_blind() -> None:
    # Given four players of 1,000, button 1, blinds 50/100 and an ante of 10
    hand = deal({1: 1000, 2: 1000, 3: 1000, 4: 1000}, 1, 2, 3, ante=10)
    # Then every player posted the ante, then the blinds were posted
    posts = [(r.seat, r.post, r.amount) for r in hand.log if isinstance(r, Posted)]
    assert posts == [
        (2, PostKind.ANTE, 10), (3, PostKind.ANTE, 10), (4, PostKind.ANTE, 10), (1, PostKind.ANTE, 10),
        (2, PostKind.SMALL_BLIND, 50), (3, PostKind.BIG_BLIND, 100),
    ]  # fmt: skip
    assert hand.pot == 190
    assert (hand.stack(2), hand.stack(3), hand.stack(4)) == (940, 890, 990)
    assert (hand.current_bet(2), hand.current_bet(3)) == (50, 100)
    # And the first player after the big blind acts, facing the big blind as a bet
    assert hand.street is Street.PREFLOP
    assert hand.actor == 4
    assert (hand.to_call, hand.min_raise_to, hand.max_raise_to) == (100, 200, 990)
    assert hand.seats == (2, 3, 4, 1)


def test_after_the_flop_the_first_player_left_of_the_button_acts_and_the_minimum_bet_is_the_big_blind() -> None:
    # Given four players who all call the big blind, and the big blind checks
    hand = deal({1: 1000, 2: 1000, 3: 1000, 4: 1000}, 1, 2, 3)
    hand.call(4)
    hand.call(1)
    hand.call(2)
    hand.check(3)
    # Then the flop is dealt (a card burnt first) and the small blind acts first
    assert hand.street is Street.FLOP
    assert hand.board == (DECK[9], DECK[10], DECK[11])
    assert hand.actor == 2
    assert (hand.to_call, hand.min_raise_to, hand.max_raise_to) == (0, 100, 900)
    assert hand.pot == 400


def test_rule_14_heads_up_the_button_posts_the_small_blind_acts_first_preflop_and_last_after() -> None:
    # Given two players, seat 7 on the button
    hand = deal({3: 1000, 7: 1000}, 7, 7, 3)
    # Then the button posted the small blind and acts first before the flop
    assert hand.seats == (3, 7)
    assert (hand.current_bet(7), hand.current_bet(3)) == (50, 100)
    assert hand.actor == 7
    # When the button calls and the big blind checks
    hand.call(7)
    hand.check(3)
    # Then the big blind acts first after the flop and the button last
    assert hand.street is Street.FLOP
    assert hand.actor == 3
    hand.check(3)
    assert hand.actor == 7


def test_rule_7_without_a_small_blind_only_the_big_blind_posts_and_a_walk_returns_it() -> None:
    # Given no small blind this hand (the previous big blind was eliminated)
    hand = deal({1: 1000, 3: 1000, 4: 1000}, 1, None, 3)
    assert hand.pot == 100
    assert hand.actor == 4
    # When everybody folds to the big blind
    hand.fold(4)
    hand.fold(1)
    # Then nobody called the big blind: it goes back and every stack is unchanged
    result = hand.result
    assert result is not None
    assert result.finishing_stacks == {3: 1000, 4: 1000, 1: 1000}
    assert result.pots == ()


def test_rule_8_a_newcomer_between_the_button_and_the_small_blind_acts_first_after_the_flop() -> None:
    # Given seat 2 arrived between the button (1) and the small blind (3)
    hand = deal({1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000}, 1, 3, 4)
    # Then before the flop the order is 5, 1, 2, 3, 4
    order = []
    for _ in range(5):
        seat = hand.actor
        assert seat is not None
        order.append(seat)
        if hand.to_call:
            hand.call(seat)
        else:
            hand.check(seat)
    assert order == [5, 1, 2, 3, 4]
    # And after it the newcomer acts first
    assert hand.street is Street.FLOP
    assert hand.actor == 2


def test_big_blind_ante_is_posted_by_the_big_blind_alone_as_dead_money() -> None:
    # Given a big-blind ante of 100 with blinds 50/100
    hand = deal({1: 1000, 2: 1000, 3: 1000, 4: 1000}, 1, 2, 3, ante=100, bb_ante=True)
    # Then only the big blind paid the ante, before its blind
    assert hand.stack(3) == 800
    assert (hand.stack(1), hand.stack(2), hand.stack(4)) == (1000, 950, 1000)
    assert hand.pot == 250
    assert hand.committed(3) == 100  # the ante is dead money, not a bet
    # When everybody folds to the big blind
    hand.fold(4)
    hand.fold(1)
    hand.fold(2)
    # Then its uncalled 50 comes back and it wins the ante, both blinds' matched 50s
    result = hand.result
    assert result is not None
    assert result.finishing_stacks == {2: 950, 3: 1050, 4: 1000, 1: 1000}
    assert [(p.amount, p.winners) for p in result.pots] == [(200, (3,))]


def test_short_big_blind_posts_what_it_has_and_its_bet_is_the_one_to_call() -> None:
    # Given a big blind with 60 chips
    hand = deal({1: 1000, 2: 1000, 3: 60, 4: 1000}, 1, 2, 3)
    # Then it posted 60 and is all in
    assert hand.current_bet(3) == 60
    assert hand.status(3) is SeatStatus.ALL_IN
    # And the next player calls 60 or raises by at least the big blind
    assert hand.actor == 4
    assert (hand.to_call, hand.min_raise_to) == (60, 160)


def pokerkits_options(hand: Hand) -> tuple[int, int, int | None]:
    """Pokerkit's (actor, amount to call, least raise-to) for the hand so far, replayed strictly from our PHH."""
    state = replay_strictly(phh.dumps(hand), finished=False)
    assert state.actor_index is not None
    return (
        hand.seats[state.actor_index],
        state.checking_or_calling_amount or 0,
        state.min_completion_betting_or_raising_to_amount,
    )


def test_rule_14_short_all_in_blind_call_is_largest_posted_bet() -> None:
    # Given blinds 25/50 and a big blind all in for 30 (docs/rules.md: a blind all in for less than its amount)
    hand = deal({1: 1000, 2: 1000, 3: 30, 4: 1000}, 1, 2, 3, blinds=(25, 50))
    assert (hand.current_bet(2), hand.current_bet(3)) == (25, 30)
    # Then the first to act calls 30, the largest bet posted, or raises to 30 + one big blind = 80
    assert (hand.actor, hand.to_call, hand.min_raise_to) == (4, 30, 80)
    assert pokerkits_options(hand) == (4, 30, 80)
    # When seat 4 calls and the button raises to the least
    hand.call(4)
    hand.bet_or_raise_to(1, 80)
    # Then the small blind owes 55 more, and a re-raise adds the 50 of that raise: to 130
    assert (hand.actor, hand.to_call, hand.min_raise_to) == (2, 55, 130)
    assert pokerkits_options(hand) == (2, 55, 130)


def test_rule_14_a_big_blind_all_in_for_less_than_the_small_blind_leaves_the_small_blind_to_call() -> None:
    # Given blinds 25/50 and a big blind all in for 10: the small blind's 25 is the largest bet posted
    hand = deal({1: 1000, 2: 1000, 3: 10, 4: 1000}, 1, 2, 3, blinds=(25, 50))
    # Then the first to act calls 25 or raises to 25 + 50 = 75, and the small blind may check when called
    assert (hand.actor, hand.to_call, hand.min_raise_to) == (4, 25, 75)
    assert pokerkits_options(hand) == (4, 25, 75)
    hand.call(4)
    hand.call(1)
    assert (hand.actor, hand.to_call, hand.min_raise_to) == (2, 0, 75)
    assert pokerkits_options(hand) == (2, 0, 75)


def test_rule_14_blinds_all_in_on_the_antes_open_the_betting_after_the_button() -> None:
    # Given no small blind, seat 2 (a newcomer) between the button (1) and the big blind (3),
    # and a big blind whose 10 chips all go to its big-blind ante of 100
    hand = deal({1: 1000, 2: 1000, 3: 10, 4: 1000}, 1, None, 3, ante=100, bb_ante=True)
    # Then no blind chip was posted: nothing is to call, the least bet is one big blind,
    # and the round opens like a later one, after the button (pokerkit's reading)
    assert hand.current_bet(3) == 0
    assert (hand.actor, hand.to_call, hand.min_raise_to) == (2, 0, 100)
    assert pokerkits_options(hand) == (2, 0, 100)
    # When everybody checks, the flop comes and the newcomer acts first again
    hand.check(2)
    hand.check(4)
    hand.check(1)
    assert hand.street is Street.FLOP
    assert hand.actor == 2
    assert pokerkits_options(hand)[0] == 2


def test_a_raise_adds_at_least_the_largest_bet_or_raise_of_the_round() -> None:
    # Given blinds 50/100; seat 4 raises to 300 (by 200)
    hand = deal({1: 5000, 2: 5000, 3: 5000, 4: 5000}, 1, 2, 3)
    raised = hand.bet_or_raise_to(4, 300)
    assert raised == Raised(seq=0, seat=4, to=300, all_in=False)
    # Then the next raise goes to 500 at least
    assert hand.min_raise_to == 500
    with pytest.raises(IllegalAction):
        hand.bet_or_raise_to(1, 450)
    # When seat 1 re-raises to 900 (by 600)
    hand.bet_or_raise_to(1, 900)
    # Then the minimum becomes 1,500, and the maximum is all in
    assert (hand.min_raise_to, hand.max_raise_to) == (1500, 5000)


def test_all_in_short_of_a_full_raise_does_not_reopen_the_betting_for_players_who_acted() -> None:
    # Given three players see a flop for 100 each; seat 3 has 150 left
    hand = deal({1: 1000, 2: 1000, 3: 250}, 1, 2, 3)
    hand.call(1)
    hand.call(2)
    hand.check(3)
    # When seat 2 bets 100 and seat 3 goes all in for 150 (a raise of 50, short of 100)
    assert hand.bet(2, 100) == Bet(seq=3, seat=2, to=100, all_in=False)
    assert hand.raise_to(3, 150) == Raised(seq=4, seat=3, to=150, all_in=True)
    # Then seat 1, who has not acted yet, may raise (to 250 at least)
    assert (hand.actor, hand.min_raise_to) == (1, 250)
    hand.call(1)
    # But seat 2, who bet, may only call or fold
    assert (hand.actor, hand.to_call, hand.min_raise_to) == (2, 50, None)
    assert not hand.can_bet_or_raise_to(2, 250)
    with pytest.raises(IllegalAction, match="does not reopen"):
        hand.raise_to(2, 250)
    assert hand.call(2) == Called(seq=6, seat=2, amount=50, all_in=False)
    assert hand.street is Street.TURN


def test_all_in_of_a_full_raise_reopens_the_betting() -> None:
    # Given seat 3 has 300 left on the flop
    hand = deal({1: 1000, 2: 1000, 3: 400}, 1, 2, 3)
    hand.call(1)
    hand.call(2)
    hand.check(3)
    # When seat 2 bets 100 and seat 3 goes all in for 300 (a raise of 200)
    hand.bet(2, 100)
    hand.raise_to(3, 300)
    hand.call(1)
    # Then seat 2 may raise again, by 200 at least
    assert (hand.actor, hand.min_raise_to, hand.max_raise_to) == (2, 500, 900)


def test_short_all_ins_in_a_row_that_add_up_to_a_full_raise_reopen_the_betting() -> None:
    # Given four players see a flop for 100 each; seats 3 and 4 have 160 and 220 left
    hand = deal({1: 1000, 2: 1000, 3: 260, 4: 320}, 1, 2, 3)
    hand.call(4)
    hand.call(1)
    hand.call(2)
    hand.check(3)
    # When seat 2 bets 100, seat 3 goes all in to 160 (+60), seat 4 all in to 220 (+60)
    hand.bet(2, 100)
    hand.raise_to(3, 160)
    hand.raise_to(4, 220)
    hand.call(1)
    # Then the two short raises make a full one: seat 2 may raise, to 320 at least
    assert (hand.actor, hand.to_call, hand.min_raise_to) == (2, 120, 320)


def test_nobody_may_raise_when_no_other_player_could_call_more() -> None:
    # Given seat 4 goes all in for 500 and seat 1 covers it
    hand = deal({1: 5000, 2: 5000, 3: 5000, 4: 500}, 1, 2, 3)
    hand.bet_or_raise_to(4, 500)
    hand.fold(1)
    hand.fold(2)
    # Then the big blind, the last player with chips, may only call or fold
    assert (hand.actor, hand.to_call, hand.min_raise_to) == (3, 400, None)
    options = hand.options()
    assert options is not None
    assert (options.can_call, options.can_check, options.min_raise_to) == (True, False, None)


def test_a_player_whose_blind_covers_every_other_stack_has_no_decision() -> None:
    # Given heads-up, the button (small blind) has only 86 chips and calls all in
    hand = deal({2: 6915, 6: 86}, 6, 6, 2)
    hand.call(6)
    # Then the big blind is not asked: the board is dealt out and the hand is over
    assert hand.is_over
    assert len(hand.board) == 5


def test_rule_16_time_out_folds_facing_the_big_blind_and_checks_when_nothing_is_to_call() -> None:
    # Given four players; the first to act times out facing the big blind
    hand = deal({1: 1000, 2: 1000, 3: 1000, 4: 1000}, 1, 2, 3)
    assert hand.timeout(4) == Folded(seq=0, seat=4, timed_out=True)
    hand.call(1)
    hand.call(2)
    # When the big blind, with nothing to call, times out
    # Then it checks
    assert hand.timeout(3) == Checked(seq=3, seat=3, timed_out=True)
    # And after the flop a time-out with nothing to call checks too
    assert hand.timeout(2) == Checked(seq=4, seat=2, timed_out=True)
    hand.bet(3, 200)
    assert hand.timeout(1) == Folded(seq=6, seat=1, timed_out=True)


def test_an_action_naming_a_stale_decision_is_rejected() -> None:
    # Given the first decision (seq 0) was made
    hand = deal({1: 1000, 2: 1000, 3: 1000}, 1, 2, 3)
    assert hand.seq == 0
    hand.call(1, seq=0)
    # When the same request arrives again, or one from the future
    # Then both are stale, and nothing changed
    with pytest.raises(StaleAction):
        hand.call(1, seq=0)
    with pytest.raises(StaleAction):
        hand.fold(2, seq=5)
    assert (hand.seq, hand.actor, hand.pot) == (1, 2, 250)
    assert not hand.can_fold(2, seq=0)
    assert hand.can_fold(2, seq=1)


def test_illegal_actions_raise_with_the_reason() -> None:
    # Given the first player faces the big blind
    hand = deal({1: 1000, 2: 1000, 3: 1000}, 1, 2, 3)
    # Then acting out of turn, checking a bet, betting into a bet, raising too little or too much all fail
    with pytest.raises(NotYourTurn):
        hand.call(2)
    with pytest.raises(NotYourTurn):
        hand.call(9)
    with pytest.raises(IllegalAction, match="cannot check"):
        hand.check(1)
    with pytest.raises(IllegalAction, match="raise instead"):
        hand.bet(1, 300)
    with pytest.raises(IllegalAction, match=r"200\.\.1000"):
        hand.raise_to(1, 150)
    with pytest.raises(IllegalAction, match=r"200\.\.1000"):
        hand.raise_to(1, 1001)
    with pytest.raises(IllegalAction, match="needs an amount"):
        hand.act(ActionKind.RAISE, 1)
    # When the big blind has the option
    hand.call(1)
    hand.call(2)
    # Then folding (instead of checking), calling nothing, and betting instead of raising fail
    with pytest.raises(IllegalAction, match="check instead"):
        hand.fold(3)
    with pytest.raises(IllegalAction, match="check instead"):
        hand.call(3)
    assert hand.act(ActionKind.CHECK, 3) == Checked(seq=2, seat=3)
    # And on the flop a raise with no bet to raise fails
    with pytest.raises(IllegalAction, match="bet instead"):
        hand.raise_to(2, 200)
    assert hand.act(ActionKind.BET, 2, 200) == Bet(seq=3, seat=2, to=200, all_in=False)


def test_nothing_can_be_done_once_the_hand_is_over() -> None:
    # Given a hand won by folds
    hand = deal({1: 1000, 2: 1000, 3: 1000}, 1, 2, 3)
    hand.fold(1)
    hand.fold(2)
    # Then every action fails and nobody is to act
    assert hand.is_over and hand.actor is None and hand.options() is None
    with pytest.raises(NoHandInProgress):
        hand.check(3)
    assert not hand.can_check(3)
    assert hand.min_raise_to is None and hand.to_call == 0
