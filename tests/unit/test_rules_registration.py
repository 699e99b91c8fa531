"""docs/rules.md, 'Registration and the waiting list' and 'Money' (rules 2, 3, 4): refunds with no entry fee.

``test_registration.py`` proves every registration rule with a 10.00 + 1.00
tournament. With no entry fee the house's part is the 9 % commission taken
from the buy-in; these tests prove that "refunded in full" gives it back too.
"""

from datetime import UTC, datetime, timedelta

from tourney.domain.ledger import Ledger, deposit, house_account, player_account, pool_account
from tourney.domain.registration import RegistrationBook, TournamentStatus
from tourney.domain.structure import TournamentConfig, TournamentFormat

ANNOUNCE = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
START = datetime(2025, 6, 1, 20, 0, tzinfo=UTC)


def no_fee_book(*, max_players: int = 100, min_players: int = 2) -> RegistrationBook:
    """A freezeout at 10.50 with no fee: 9.55 to the pool and 0.95 commission (9 % of 10.50, half up)."""
    config = TournamentConfig.for_format(
        TournamentFormat.FREEZEOUT, buy_in=1_050, entry_fee=0, max_players=max_players, min_players=min_players
    )
    return RegistrationBook("t1", config, announce_at=ANNOUNCE, start_at=START)


def funded(*players: str) -> Ledger:
    ledger = Ledger()
    for player in players:
        ledger.post(deposit(f"dep:{player}", player, 2_000, ANNOUNCE))
    return ledger


def wallet(ledger: Ledger, player: str) -> int:
    return ledger.balance(player_account(player))


def test_rule_3_4_with_no_fee_unregistering_and_the_waiting_list_are_refunded_commission_included() -> None:
    # Given a cap of 2: ann and bob registered, cy and dee wait; each paid 10.50
    book, ledger = no_fee_book(max_players=2), funded("ann", "bob", "cy", "dee")
    for player in ("ann", "bob", "cy", "dee"):
        book.register(player, ANNOUNCE, ledger)
    assert (ledger.balance(pool_account("t1")), ledger.balance(house_account("t1"))) == (4 * 955, 4 * 95)
    # When ann unregisters before the start
    record = book.unregister("ann", START - timedelta(minutes=1), ledger)
    # Then she gets 10.50 back: 9.55 from the pool and the 0.95 commission from the house; cy moves up
    assert (record.refunded, record.promoted) == (1_050, "cy")
    assert wallet(ledger, "ann") == 2_000
    assert (ledger.balance(pool_account("t1")), ledger.balance(house_account("t1"))) == (3 * 955, 3 * 95)
    # When the tournament starts with dee still waiting
    closing = book.start(START, ledger)
    # Then dee is refunded 10.50 in full, and the pool and house keep bob's and cy's payments only
    assert (closing.status, closing.players, closing.refunded) == (TournamentStatus.RUNNING, ("bob", "cy"), ("dee",))
    assert wallet(ledger, "dee") == 2_000
    assert (wallet(ledger, "bob"), wallet(ledger, "cy")) == (950, 950)
    assert (ledger.balance(pool_account("t1")), ledger.balance(house_account("t1"))) == (1_910, 190)
    assert ledger.summary("t1").refunds == 2 * 1_050
    ledger.verify_invariants()


def test_rule_2_with_no_fee_a_tournament_below_min_players_is_cancelled_and_refunded_in_full() -> None:
    # Given min_players 3 and only ann and bob registered at 10.50, no fee
    book, ledger = no_fee_book(min_players=3), funded("ann", "bob")
    book.register("ann", ANNOUNCE, ledger)
    book.register("bob", ANNOUNCE, ledger)
    # When the start time comes
    closing = book.start(START, ledger)
    # Then it is cancelled and both get 10.50 back; the house keeps no commission
    assert closing.status is TournamentStatus.CANCELLED
    assert (wallet(ledger, "ann"), wallet(ledger, "bob")) == (2_000, 2_000)
    assert (ledger.balance(pool_account("t1")), ledger.balance(house_account("t1"))) == (0, 0)
    ledger.verify_invariants()
