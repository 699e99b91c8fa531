"""docs/rules.md, 'Registration and the waiting list' and 'Money' (rules 2, 3, 4): refunds with no entry fee.

``test_registration.py`` proves every registration rule with a 10.00 + 1.00
tournament. With no entry fee the house's part is the 9 % commission taken
from the buy-in; these tests prove, through the services on the memory
adapters (registration, then the start workflow), that "refunded in full"
gives it back too.
"""

import random
from datetime import UTC, datetime, timedelta

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory
from tourney.domain.ledger import Ledger, house_account, pool_account
from tourney.services.commands import CreateTournament

ANNOUNCE = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
START = datetime(2025, 6, 1, 20, 0, tzinfo=UTC)


def no_fee_tournament(*, max_players: int = 100, min_players: int = 2) -> tuple[Services, FrozenClock]:
    """A freezeout at 10.50 with no fee: 9.55 to the pool and 0.95 commission (9 % of 10.50, half up)."""
    clock = FrozenClock(ANNOUNCE)
    services = bootstrap_memory(clock=clock, rng=random.Random(5))
    command = CreateTournament(
        name="No fee", format="freezeout", buy_in=1_050, entry_fee=0, max_players=max_players,
        min_players=min_players, start_at=START, tournament_id="t1",
    )  # fmt: skip
    services.admin.create_tournament(command)
    return services, clock


def funded(services: Services, *players: str) -> None:
    for player in players:
        services.accounts.deposit(player, 2_000, key=f"dep:{player}")


def wallet(services: Services, player: str) -> int:
    return services.accounts.account(player).balance


def pool_and_house(services: Services) -> tuple[int, int]:
    ledger: Ledger = services.adapters.store.money
    return ledger.balance(pool_account("t1")), ledger.balance(house_account("t1"))


def test_rule_3_4_with_no_fee_unregistering_and_the_waiting_list_are_refunded_commission_included() -> None:
    # Given a cap of 2: ann and bob registered, cy and dee wait; each paid 10.50
    services, clock = no_fee_tournament(max_players=2)
    funded(services, "ann", "bob", "cy", "dee")
    for player in ("ann", "bob", "cy", "dee"):
        services.registration.register("t1", player)
    assert pool_and_house(services) == (4 * 955, 4 * 95)
    # When ann unregisters before the start
    clock.set(START - timedelta(minutes=1))
    record = services.registration.unregister("t1", "ann")
    # Then she gets 10.50 back: 9.55 from the pool and the 0.95 commission from the house; cy moves up
    assert (record.refunded, record.promoted) == (1_050, "cy")
    assert wallet(services, "ann") == 2_000
    assert pool_and_house(services) == (3 * 955, 3 * 95)
    # When the tournament starts with dee still waiting
    clock.set(START)
    plan = services.start.close_registration("t1")
    # Then dee is refunded 10.50 in full, and the pool and house keep bob's and cy's payments only
    assert (plan.status, plan.players, plan.refunded) == ("running", 2, 1)
    assert wallet(services, "dee") == 2_000
    assert (wallet(services, "bob"), wallet(services, "cy")) == (950, 950)
    assert pool_and_house(services) == (1_910, 190)
    assert services.adapters.store.money.summary("t1").refunds == 2 * 1_050
    services.adapters.store.money.verify_invariants()


def test_rule_2_with_no_fee_a_tournament_below_min_players_is_cancelled_and_refunded_in_full() -> None:
    # Given min_players 3 and only ann and bob registered at 10.50, no fee
    services, clock = no_fee_tournament(min_players=3)
    funded(services, "ann", "bob")
    services.registration.register("t1", "ann")
    services.registration.register("t1", "bob")
    # When the start time comes
    clock.set(START)
    plan = services.start.close_registration("t1")
    # Then it is cancelled and both get 10.50 back; the house keeps no commission
    assert plan.status == "cancelled"
    assert (wallet(services, "ann"), wallet(services, "bob")) == (2_000, 2_000)
    assert pool_and_house(services) == (0, 0)
    services.adapters.store.money.verify_invariants()
