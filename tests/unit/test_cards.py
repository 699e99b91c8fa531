import random

from tourney.domain.cards import FULL_DECK, Suit, card_str, draw_order, parse_card, shuffled_deck, suit_of


def test_every_card_round_trips_through_its_name() -> None:
    assert [parse_card(card_str(c)) for c in FULL_DECK] == list(FULL_DECK)


def test_rule_6_suits_rank_spades_hearts_diamonds_clubs() -> None:
    # Given four aces, one of each suit
    aces = [parse_card(s) for s in ("Ac", "Ad", "Ah", "As")]
    # Then the draw order puts spades first and clubs last
    assert [suit_of(aces[i]) for i in draw_order(aces)] == [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
    # And rank beats suit: the two of spades loses to the three of clubs
    assert parse_card("3c") > parse_card("2s")


def test_shuffled_deck_is_a_permutation_and_replays_with_a_seeded_rng() -> None:
    assert sorted(shuffled_deck()) == list(FULL_DECK)
    assert shuffled_deck(random.Random(7)) == shuffled_deck(random.Random(7))


def test_shuffled_deck_draws_exactly_as_random_shuffle() -> None:
    """The inlined Fisher-Yates is the standard library's: the same deck for every seed, so as uniform."""
    for seed in range(300):
        expected = list(FULL_DECK)
        random.Random(seed).shuffle(expected)
        assert shuffled_deck(random.Random(seed)) == expected
