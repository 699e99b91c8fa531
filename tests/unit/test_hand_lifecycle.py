"""Dealing checks, cancelling (rule 17) and storing a hand in progress as plain data."""

from __future__ import annotations

import json
import random

import pytest
from tourney.domain.errors import InvalidDeal, NoHandInProgress
from tourney.domain.hand import Hand

from tests.support.random_play import random_setup

STACKS = {1: 1000, 2: 1000, 3: 1000, 4: 1000}


def deal(**changes: object) -> Hand:
    kwargs: dict[str, object] = {
        "button": 1, "small_blind_seat": 2, "big_blind_seat": 3, "small_blind": 50, "big_blind": 100,
        "deck": list(range(52)),
    }  # fmt: skip
    stacks = changes.pop("stacks", STACKS)
    kwargs.update(changes)
    return Hand.deal(stacks, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"stacks": {1: 1000}, "big_blind_seat": 1, "small_blind_seat": None}, "two players"),
        ({"button": 9}, "button seat 9"),
        ({"big_blind_seat": 9}, "big blind seat"),
        ({"small_blind_seat": 9}, "small blind seat 9"),
        ({"small_blind_seat": 4, "big_blind_seat": 1}, "button does not post the big blind"),
        ({"small_blind_seat": 2, "big_blind_seat": 4}, "next player clockwise after the small blind"),
        ({"small_blind_seat": 1, "big_blind_seat": 2}, "next player clockwise after the small blind"),
        ({"stacks": {1: 1000, 2: 1000}, "small_blind_seat": 1, "big_blind_seat": 1}, "button does not post"),
        ({"stacks": {1: 1000, 2: 0, 3: 1000}}, "has chips"),
        ({"small_blind": 150}, "not valid"),
        ({"deck": list(range(15))}, "16 distinct cards"),
        ({"deck": [0] * 52}, "distinct cards"),
        ({"deck": list(range(1, 53))}, "distinct cards"),
    ],
)
def test_rules_7_and_14_an_inconsistent_deal_is_refused(changes: dict[str, object], reason: str) -> None:
    # Given positions, stacks, blinds or a deck that break a rule
    # When the hand is dealt
    # Then it is refused with the reason
    with pytest.raises(InvalidDeal, match=reason):
        deal(**changes)


def test_rule_14_heads_up_the_small_blind_is_the_button_or_nobody() -> None:
    # Given two players, seat 2 on the button
    stacks = {1: 1000, 2: 1000}
    # Then the other player may not post the small blind
    with pytest.raises(InvalidDeal, match="rule 14"):
        deal(stacks=stacks, button=2, small_blind_seat=1, big_blind_seat=1)
    # But the button may, or nobody
    assert deal(stacks=stacks, button=2, small_blind_seat=2, big_blind_seat=1).pot == 150
    assert deal(stacks=stacks, button=2, small_blind_seat=None, big_blind_seat=1).actor == 2


def test_rule_17_a_cancelled_hand_gives_every_stack_back() -> None:
    # Given a hand where chips went in
    hand = deal()
    hand.bet_or_raise_to(4, 400)
    hand.call(1)
    # When it is cancelled
    restored = hand.cancel()
    # Then every stack is its start-of-hand value, and the hand takes no more actions
    assert restored == {2: 1000, 3: 1000, 4: 1000, 1: 1000}
    assert hand.starting_stacks == restored
    assert hand.is_over and hand.is_cancelled and hand.result is None
    with pytest.raises(NoHandInProgress):
        hand.fold(2)


def test_a_hand_in_progress_round_trips_through_plain_data() -> None:
    # Given a hand stopped mid-way, with a time-out among its decisions
    hand = deal()
    hand.timeout(4)
    hand.bet_or_raise_to(1, 300)
    hand.call(2)
    raw = hand.to_dict()
    # When it is stored as JSON and rebuilt
    again = Hand.from_dict(json.loads(json.dumps(raw)))
    # Then it is the same hand: same data, same state, same log
    assert again.to_dict() == raw
    assert (again.actor, again.seq, again.pot, again.to_call) == (3, 3, 700, 200)
    assert again.log == hand.log
    # And both finish the same way
    for h in (hand, again):
        h.call(3)
        h.check(2)
        h.bet(3, 700)
        h.fold(1)
        h.call(2)
    assert again.result == hand.result


def test_random_hands_round_trip_at_every_decision() -> None:
    # Given random hands (seeded)
    rng = random.Random(20)
    for _ in range(40):
        setup = random_setup(rng)
        hand = setup.deal()
        # When each state is stored and rebuilt
        while not hand.is_over:
            again = Hand.from_dict(hand.to_dict())
            # Then the rebuilt hand awaits the same decision with the same options
            assert again.options() == hand.options()
            assert again.log == hand.log
            decide_randomly(hand, rng)
        assert Hand.from_dict(hand.to_dict()).result == hand.result


def decide_randomly(hand: Hand, rng: random.Random) -> None:
    """One random legal decision, raises of any legal size included."""
    seq = hand.seq
    options = hand.options()
    assert options is not None
    if options.min_raise_to is not None and rng.random() < 0.3:
        hand.bet_or_raise_to(options.seat, rng.randint(options.min_raise_to, options.max_raise_to or 0))
    elif options.can_check:
        hand.check(options.seat)
    elif rng.random() < 0.3:
        hand.fold(options.seat)
    else:
        hand.call(options.seat)
    assert hand.seq == seq + 1


def test_a_cancelled_hand_stays_cancelled_when_rebuilt() -> None:
    # Given a cancelled hand
    hand = deal()
    hand.call(4)
    hand.cancel()
    # When stored and rebuilt
    again = Hand.from_dict(hand.to_dict())
    # Then it is still cancelled with the starting stacks
    assert again.is_cancelled and again.stack(3) == 1000


def test_rule_17_cancelling_twice_answers_the_same_and_a_played_out_hand_cannot_be_cancelled() -> None:
    # Given a cancelled hand and a hand played out
    cancelled = deal()
    cancelled.call(4)
    first = cancelled.cancel()
    played = deal()
    played.fold(4)
    played.fold(1)
    played.fold(2)
    # Then cancelling again gives the same stacks, and the played-out hand keeps its result
    assert cancelled.cancel() == first
    with pytest.raises(NoHandInProgress):
        played.cancel()
    assert played.result is not None


def test_the_decision_awaited_is_the_actor_at_the_sequence_number_until_the_hand_ends() -> None:
    # Given a four-handed hand: seat 4 is first to act before the flop
    hand = deal()
    # Then the decision awaited is (seq, actor), one decision after another, and None once it is over
    assert hand.awaited() == (hand.seq, hand.actor) == (0, 4)
    hand.fold(4)
    assert hand.awaited() == (1, 1)
    hand.fold(1)
    hand.fold(2)
    assert hand.is_over and hand.actor is None and hand.awaited() is None
