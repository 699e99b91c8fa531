"""Provably fair deals (docs/interfaces.md, 'Provably fair deals'): the commitment, the reveal, the dealing recipe."""

from __future__ import annotations

import hashlib
import hmac
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tourney.domain import fairness
from tourney.domain.cards import FULL_DECK, card_str, shuffled_deck
from tourney.domain.errors import InvalidDeal
from tourney.domain.hand import ActionKind, Hand


def _by_the_recipe(deck: list[int], salts: tuple[str, ...]) -> str:
    """docs/interfaces.md's recipe written out again, independently of the module under test."""
    leaves = "".join(
        hashlib.sha256(f"{i}:{card_str(card)}:{salt}".encode()).hexdigest()
        for i, (card, salt) in enumerate(zip(deck, salts, strict=True))
    )
    return hashlib.sha256(leaves.encode()).hexdigest()


def _salts_by_the_recipe(secret: bytes) -> tuple[str, ...]:
    """docs/interfaces.md's derivation of the salts from a hand's secret, written out again."""
    return tuple(hmac.new(secret, str(i).encode(), hashlib.sha256).hexdigest()[:32] for i in range(52))


def _checked_down(players: int, deck: list[int], secret: bytes) -> Hand:
    """A hand of ``players`` played to the river by checks and calls."""
    hand = Hand.deal(
        {seat: 10_000 for seat in range(1, players + 1)},
        button=1 if players == 2 else players,  # heads-up the button posts the small blind
        small_blind_seat=1,
        big_blind_seat=2,
        small_blind=50,
        big_blind=100,
        deck=deck,
        secret=secret,
    )
    _check_or_call_down(hand)
    return hand


def _check_or_call_down(hand: Hand) -> None:
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        options = hand.options()
        assert options is not None
        hand.act(ActionKind.CHECK if options.can_check else ActionKind.CALL, seat)


def _salts(rng: random.Random) -> tuple[str, ...]:
    return fairness.salts_of(fairness.draw_hand_secret(rng))


def test_a_hands_secret_is_32_bytes_from_secrets_and_replays_with_a_seed() -> None:
    drawn = fairness.draw_hand_secret()
    assert type(drawn) is bytes and len(drawn) == 32 and fairness.draw_hand_secret() != drawn
    assert fairness.draw_hand_secret(random.Random(4)) == fairness.draw_hand_secret(random.Random(4))
    assert fairness.draw_hand_secret(random.SystemRandom()) != fairness.draw_hand_secret(random.SystemRandom())


@given(st.binary(min_size=32, max_size=32))
@settings(max_examples=50, deadline=None)
def test_the_salts_are_the_published_derivation_from_the_hands_secret(secret: bytes) -> None:
    salts = fairness.salts_of(secret)
    assert salts == _salts_by_the_recipe(secret)
    assert len(set(salts)) == 52 and all(re.fullmatch(r"[0-9a-f]{32}", s) for s in salts)


def test_the_salts_of_a_known_secret_are_the_recipes() -> None:
    # HMAC-SHA256 keyed with 32 zero bytes over "0" and over "51" (by openssl dgst -sha256 -mac HMAC), cut to 32
    salts = fairness.salts_of(bytes(32))
    assert salts[0] == "9979e4c3ee19965f9ecc6dca6b3954b1"
    assert salts[51] == "bee0c8771b9b015cc618e35f38c6678e"


def test_a_secret_of_another_size_is_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        fairness.salts_of(bytes(16))


@given(st.randoms(use_true_random=False))
@settings(max_examples=50, deadline=None)
def test_the_commitment_is_the_published_recipe(rng: random.Random) -> None:
    deck = shuffled_deck(rng)
    salts = _salts(rng)
    assert fairness.commitment(deck, salts) == _by_the_recipe(deck, salts)


@given(st.randoms(use_true_random=False), st.sets(st.integers(0, 51)))
@settings(max_examples=60, deadline=None)
def test_any_reveal_verifies_and_any_changed_card_does_not(rng: random.Random, shown: set[int]) -> None:
    deck = shuffled_deck(rng)
    salts = _salts(rng)
    r = fairness.reveal(deck, salts, shown)
    assert r.commitment == fairness.commitment(deck, salts)
    assert set(r.cards) == shown and set(r.leaves) == set(range(52)) - shown
    assert fairness.verify_reveal(r) == []
    assert fairness.verify_reveal(fairness.Reveal.from_dict(r.to_dict())) == []
    for i in sorted(shown)[:3]:
        code, salt = r.cards[i]
        other = next(card_str(c) for c in FULL_DECK if card_str(c) != code)
        swapped = fairness.Reveal(r.commitment, {**r.cards, i: (other, salt)}, r.leaves)
        assert fairness.verify_reveal(swapped)


def test_a_tampered_salt_leaf_or_commitment_fails() -> None:
    rng = random.Random(8)
    deck, salts = shuffled_deck(rng), _salts(rng)
    r = fairness.reveal(deck, salts, [0, 1, 9])
    salted = fairness.Reveal(r.commitment, {**r.cards, 0: (r.cards[0][0], "0" * 32)}, r.leaves)
    assert "do not hash to the commitment" in fairness.verify_reveal(salted)[0]
    leafed = fairness.Reveal(r.commitment, r.cards, {**r.leaves, 5: "f" * 64})
    assert fairness.verify_reveal(leafed)
    assert fairness.verify_reveal(fairness.Reveal("0" * 64, r.cards, r.leaves))
    missing = fairness.Reveal(r.commitment, r.cards, {i: v for i, v in r.leaves.items() if i != 30})
    assert "not 0 to 51" in fairness.verify_reveal(missing)[0]
    twice = fairness.Reveal(r.commitment, {**r.cards, 2: r.cards[0]}, {i: v for i, v in r.leaves.items() if i != 2})
    assert any("two positions" in p for p in fairness.verify_reveal(twice))


@given(st.integers(2, 10), st.randoms(use_true_random=False))
@settings(max_examples=40, deadline=None)
def test_the_engine_deals_by_the_published_recipe(players: int, rng: random.Random) -> None:
    """Hole cards one round at a time from position 0 in PHH order, then a burnt card before each street."""
    deck = shuffled_deck(rng)
    secret = fairness.draw_hand_secret(rng)
    hand = _checked_down(players, deck, secret)
    for index, seat in enumerate(hand.seats):
        first, second = fairness.hole_positions(players, index)
        assert hand.hole_cards(seat) == (deck[first], deck[second])
    assert hand.board == tuple(deck[i] for i in fairness.board_positions(players, 5))
    assert hand.salts == _salts_by_the_recipe(secret)
    assert hand.commitment == _by_the_recipe(deck, _salts_by_the_recipe(secret))


def test_a_viewer_sees_the_board_the_hands_shown_and_their_own_only() -> None:
    rng = random.Random(2)
    hand = Hand.deal(
        {1: 10_000, 2: 10_000, 3: 10_000},
        button=3,
        small_blind_seat=1,
        big_blind_seat=2,
        small_blind=50,
        big_blind=100,
        deck=shuffled_deck(rng),
        secret=fairness.draw_hand_secret(rng),
    )
    hand.act(ActionKind.FOLD, 3)  # the button folds: their cards are never shown
    _check_or_call_down(hand)
    board = set(fairness.board_positions(3, 5))
    button_cards = set(fairness.hole_positions(3, hand.seats.index(3)))
    shown = {i for seat in (1, 2) for i in fairness.hole_positions(3, hand.seats.index(seat))}
    assert set(hand.positions_seen_by(None)) == board | shown
    assert set(hand.positions_seen_by(3)) == board | shown | button_cards
    r = fairness.reveal(hand.deck, hand.salts or (), hand.positions_seen_by(None))
    assert not button_cards & set(r.cards) and fairness.verify_reveal(r) == []


def test_a_history_keeps_its_secret_salts_and_commitment() -> None:
    rng = random.Random(5)
    hand = _checked_down(4, shuffled_deck(rng), fairness.draw_hand_secret(rng))
    again = Hand.from_dict(hand.to_dict())
    assert again.secret == hand.secret and again.salts == hand.salts and again.commitment == hand.commitment


def test_a_secret_must_be_32_bytes() -> None:
    with pytest.raises(InvalidDeal, match="32 bytes"):
        Hand.deal(
            {1: 100, 2: 100},
            button=1,
            small_blind_seat=1,
            big_blind_seat=2,
            small_blind=1,
            big_blind=2,
            deck=shuffled_deck(random.Random(1)),
            secret=bytes(31),
        )
