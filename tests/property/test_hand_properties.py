"""Properties of every hand, whatever the stacks and decisions (docs/rules.md, 'Play').

Hypothesis draws the table (2-10 players, tiny stacks that force side pots,
antes or a big-blind ante, positions with and without a small blind) and
every decision, legal ones only: fold, check, call, or a bet or raise of any
legal size, and time-outs. Then, in every hand:

* chips are conserved: the finishing stacks add up to the starting stacks;
* no stack goes below zero, and the pots paid add up to what was put in
  minus what went back uncalled;
* the hand ends, and its sequence numbers count its decisions from 0;
* the hand rebuilt from its plain data is the same hand.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tourney.domain.hand import (
    Bet,
    BetReturned,
    BoardDealt,
    Called,
    Checked,
    Folded,
    Hand,
    Posted,
    PostKind,
    Raised,
)


@st.composite
def deals(draw: st.DrawFn) -> Hand:
    n = draw(st.integers(2, 10))
    seats = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    big_blind = draw(st.sampled_from((2, 20, 100)))
    stacks = {seat: draw(st.one_of(st.integers(1, 3 * big_blind), st.integers(1, 300 * big_blind))) for seat in seats}
    b = draw(st.integers(0, n - 1))
    after = [seats[(b + k) % n] for k in range(1, n)]
    if n == 2:
        sb_seat = draw(st.sampled_from((seats[b], None)))
        bb_seat = after[0]
    else:
        skip = draw(st.integers(0, n - 3))
        sb_seat = draw(st.sampled_from((after[skip], None)))
        bb_seat = after[skip + 1] if sb_seat is not None else after[skip]
    ante = draw(st.sampled_from((0, 0, 1, big_blind // 4, big_blind)))
    deck = draw(st.permutations(range(52)))
    return Hand.deal(
        stacks,
        button=seats[b],
        small_blind_seat=sb_seat,
        big_blind_seat=bb_seat,
        small_blind=big_blind // 2,
        big_blind=big_blind,
        ante=ante,
        big_blind_ante=ante > 0 and draw(st.booleans()),
        deck=deck,
    )


def play(hand: Hand, draw: st.DrawFn) -> None:
    while not hand.is_over:
        options = hand.options()
        assert options is not None
        assert options.stack > 0
        choices = ["timeout", "check" if options.can_check else "call"]
        if options.can_fold:
            choices.append("fold")
        if options.min_raise_to is not None:
            choices.append("raise")
        choice = draw(st.sampled_from(choices))
        if choice == "timeout":
            hand.timeout(options.seat)
        elif choice == "check":
            hand.check(options.seat)
        elif choice == "call":
            hand.call(options.seat)
        elif choice == "fold":
            hand.fold(options.seat)
        else:
            assert options.max_raise_to is not None
            amount = draw(st.integers(options.min_raise_to, options.max_raise_to))
            hand.bet_or_raise_to(options.seat, amount)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_chips_are_conserved_and_every_pot_is_paid(data: st.DataObject) -> None:
    # Given a random deal
    hand = data.draw(deals())
    start = hand.starting_stacks
    # When it is played to its end with random legal decisions
    play(hand, data.draw)
    # Then the chips are all still there, in non-negative stacks
    result = hand.result
    assert result is not None
    assert sum(result.finishing_stacks.values()) == sum(start.values())
    assert all(chips >= 0 for chips in result.finishing_stacks.values())
    # And the pots paid are what went in, less what went back uncalled
    put_in = sum(r.amount for r in hand.log if isinstance(r, Posted))
    put_in += sum(r.amount for r in hand.log if isinstance(r, Called))
    returned = sum(r.amount for r in hand.log if isinstance(r, BetReturned))
    paid = sum(p.amount for p in result.pots)
    assert paid == sum(sum(p.shares) for p in result.pots)
    assert paid + returned == put_in + _raised_chips(hand)
    # And the decisions are numbered 0, 1, 2 ...
    decisions = [r for r in hand.log if isinstance(r, Folded | Checked | Called | Bet | Raised)]
    assert [d.seq for d in decisions] == list(range(len(decisions)))
    assert hand.seq == len(decisions)


def _raised_chips(hand: Hand) -> int:
    """Chips added by bets and raises: each adds its ``to`` less what the seat had in front on that street."""
    total = 0
    in_front: dict[int, int] = {}
    for record in hand.log:
        if (isinstance(record, Posted) and record.post is not PostKind.ANTE) or isinstance(record, Called):
            in_front[record.seat] = in_front.get(record.seat, 0) + record.amount
        elif isinstance(record, Bet | Raised):
            total += record.to - in_front.get(record.seat, 0)
            in_front[record.seat] = record.to
        elif isinstance(record, BoardDealt):
            in_front = {}
    return total


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_hand_rebuilt_from_plain_data_is_the_same_hand(data: st.DataObject) -> None:
    # Given a random deal, played part of the way
    hand = data.draw(deals())
    steps = data.draw(st.integers(0, 12))
    for _ in range(steps):
        options = hand.options()
        if options is None:
            break
        hand.timeout(options.seat) if data.draw(st.booleans()) else (
            hand.check(options.seat) if options.can_check else hand.call(options.seat)
        )
    # When it is rebuilt from its plain data
    again = Hand.from_dict(hand.to_dict())
    # Then nothing differs
    assert again.log == hand.log
    assert again.options() == hand.options()
    assert again.result == hand.result
    assert again.to_dict() == hand.to_dict()


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_copy_of_a_hand_is_not_changed_by_the_decisions_made_on_it_after(data: st.DataObject) -> None:
    # Given a random deal played part of the way, and a copy of it then
    hand = data.draw(deals())
    for _ in range(data.draw(st.integers(0, 6))):
        options = hand.options()
        if options is None:
            break
        hand.check(options.seat) if options.can_check else hand.call(options.seat)
    copy = hand.copy()
    before = (copy.to_dict(), copy.log, copy.options(), copy.board, [copy.stack(seat) for seat in copy.seats])
    # When the hand is played to its end
    play(hand, data.draw)
    # Then the copy is the hand as it was, and plays on by itself to an end that conserves the chips
    assert (copy.to_dict(), copy.log, copy.options(), copy.board, [copy.stack(seat) for seat in copy.seats]) == before
    play(copy, data.draw)
    assert copy.result is not None
    assert sum(copy.result.finishing_stacks.values()) == sum(copy.starting_stacks.values())
