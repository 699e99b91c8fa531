"""Registration through the services (docs/rules.md, rules 2, 3, 4; Money), on the memory adapters."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import (
    AlreadyRegistered,
    InsufficientFunds,
    NotRegistered,
    NotStartedYet,
    RegistrationClosed,
    WaitingListFull,
)
from tourney.domain.ledger import house_account, player_account, pool_account

from tests.unit.services.conftest import fund


def balance(services: Services, player: str) -> int:
    return services.accounts.account(player).balance


def test_register_debits_buy_in_and_fee_once_and_a_retry_with_the_same_key_moves_nothing(
    services: Services, create: Callable[..., str]
) -> None:
    # Given a funded player and an open tournament
    tid = create()
    fund(services, "ann")
    # When she registers, then the client retries with the same key
    first = services.registration.register(tid, "ann", key="k1")
    again = services.registration.register(tid, "ann", key="k1")
    # Then she paid once and both answers agree
    assert first.status == again.status == "registered"
    assert balance(services, "ann") == 10_000 - 1_100
    assert services.adapters.store.ledger.balance(pool_account(tid)) == 1_000


def test_register_twice_with_another_key_is_a_clear_error_and_moves_nothing(
    services: Services, create: Callable[..., str]
) -> None:
    tid = create()
    fund(services, "ann")
    services.registration.register(tid, "ann", key="k1")
    with pytest.raises(AlreadyRegistered):
        services.registration.register(tid, "ann", key="k2")
    assert balance(services, "ann") == 8_900


def test_register_with_a_short_balance_fails_and_moves_nothing(services: Services, create: Callable[..., str]) -> None:
    tid = create()
    fund(services, "ann", amount=500)
    with pytest.raises(InsufficientFunds):
        services.registration.register(tid, "ann")
    assert balance(services, "ann") == 500
    assert services.lobby.my_registration(tid, "ann").status == "not_registered"


def test_rule_3_beyond_the_cap_ten_wait_in_order_and_the_eleventh_is_refused(
    services: Services, create: Callable[..., str]
) -> None:
    # Given a tournament of 4 seats
    tid = create(max_players=4)
    players = [f"p{i}" for i in range(15)]
    fund(services, *players)
    # When 15 register
    results = []
    for p in players[:14]:
        results.append(services.registration.register(tid, p))
    # Then 4 are registered, 10 wait in order, and the 15th is refused without paying
    assert [r.status for r in results] == ["registered"] * 4 + ["waitlisted"] * 10
    assert [r.position for r in results[4:]] == list(range(1, 11))
    with pytest.raises(WaitingListFull):
        services.registration.register(tid, players[14])
    assert balance(services, players[14]) == 10_000
    details = services.lobby.tournament(tid)
    assert (details.registered, details.waitlisted) == (4, 10)


def test_rule_4_unregistering_refunds_in_full_and_promotes_the_first_waiting(
    services: Services, create: Callable[..., str]
) -> None:
    tid = create(max_players=2)
    fund(services, "a", "b", "c", "d")
    for p in "abcd":
        services.registration.register(tid, p)
    # When a registered player leaves
    out = services.registration.unregister(tid, "a")
    # Then she is refunded in full and the first wait-listed player takes the place
    assert out.refunded == 1_100 and out.promoted == "c"
    assert balance(services, "a") == 10_000
    assert services.lobby.my_registration(tid, "c").status == "registered"
    assert services.lobby.my_registration(tid, "d").position == 1
    with pytest.raises(NotRegistered):
        services.registration.unregister(tid, "a")


def test_registration_closes_at_the_start_time(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = create()
    fund(services, "ann")
    clock.advance(3_600)
    with pytest.raises(RegistrationClosed):
        services.registration.register(tid, "ann")
    assert balance(services, "ann") == 10_000


def test_registrations_racing_at_the_cap_never_overfill_nor_charge_twice(
    services: Services, create: Callable[..., str]
) -> None:
    # Given 3 seats and 20 players registering at once from threads
    tid = create(max_players=3)
    players = [f"r{i}" for i in range(20)]
    fund(services, *players)
    errors: list[Exception] = []

    def register(p: str) -> None:
        try:
            services.registration.register(tid, p, key=p)
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=register, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Then 3 are registered, 10 wait, 7 are refused, and each paid at most once
    details = services.lobby.tournament(tid)
    assert (details.registered, details.waitlisted) == (3, 10)
    assert all(isinstance(e, WaitingListFull) for e in errors) and len(errors) == 7
    paid = [10_000 - balance(services, p) for p in players]
    assert sorted(paid) == [0] * 7 + [1_100] * 13
    services.adapters.store.money.verify_invariants()


def test_a_sit_and_go_starts_when_full_and_has_no_waiting_list(services: Services, create: Callable[..., str]) -> None:
    tid = create(fmt="sng", seats_per_table=3)
    fund(services, "a", "b", "c", "d")
    for p in "abc":
        services.registration.register(tid, p)
    assert services.adapters.workflows.started == [tid]
    with pytest.raises((WaitingListFull, RegistrationClosed)):
        services.registration.register(tid, "d")
    assert balance(services, "d") == 10_000


def test_below_min_players_at_the_start_everyone_is_refunded(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = create(min_players=3)
    fund(services, "a", "b")
    for p in "ab":
        services.registration.register(tid, p)
    clock.advance(3_600)
    plan = services.start.close_registration(tid)
    assert plan.status == "cancelled"
    assert balance(services, "a") == balance(services, "b") == 10_000
    assert services.lobby.tournament(tid).status == "cancelled"


def test_the_start_refunds_the_waiting_list_and_a_repeated_close_changes_nothing(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = create(max_players=2)
    fund(services, "a", "b", "c")
    for p in "abc":
        services.registration.register(tid, p)
    clock.advance(3_600)
    first = services.start.close_registration(tid)
    again = services.start.close_registration(tid)
    assert first.status == again.status == "running" and first.refunded == 1
    assert balance(services, "c") == 10_000
    assert services.adapters.store.ledger.balance(player_account("a")) == 8_900


def test_deposit_is_idempotent_by_key(services: Services) -> None:
    services.accounts.deposit("ann", 700, key="op-1")
    services.accounts.deposit("ann", 700, key="op-1")
    assert balance(services, "ann") == 700
    assert [line.amount for line in services.accounts.ledger("ann").entries] == [700]


def test_the_sweeper_refunds_a_tournament_that_should_have_started(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = create()
    fund(services, "a", "b")
    for p in "ab":
        services.registration.register(tid, p)
    clock.advance(3_600 + 20 * 60)
    report = services.recovery.sweep()
    assert report.refunded == (tid,) and report.players_refunded == 2
    assert balance(services, "a") == 10_000
    assert services.recovery.sweep().refunded == ()
    _ = timedelta


# -- the start and cancellation close registration (services/start.py) ----------------------------------------------


def test_rule_3_at_the_start_wait_listed_players_are_refunded_in_full(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a cap of 2 with 2 registered and 2 waiting
    tid = create(max_players=2)
    fund(services, "ann", "bob", "cy", "dee")
    for p in ("ann", "bob", "cy", "dee"):
        services.registration.register(tid, p)
    # When the tournament starts
    clock.advance(3_600)
    plan = services.start.close_registration(tid)
    # Then it runs with ann and bob; cy and dee get 1,100 back each
    assert (plan.status, plan.players, plan.refunded) == ("running", 2, 2)
    assert (balance(services, "cy"), balance(services, "dee")) == (10_000, 10_000)
    ledger = services.adapters.store.ledger
    assert (ledger.balance(pool_account(tid)), ledger.balance(house_account(tid))) == (2_000, 200)
    assert services.lobby.tournament(tid).waitlisted == 0
    assert services.lobby.my_registration(tid, "cy").status == "not_registered"
    # And registration is now closed
    with pytest.raises(RegistrationClosed):
        services.registration.register(tid, "cy")
    services.adapters.store.money.verify_invariants()


def test_rule_2_a_start_before_the_start_time_is_refused(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament starting in an hour, ann and bob registered
    tid = create()
    fund(services, "ann", "bob", "cy")
    for p in ("ann", "bob"):
        services.registration.register(tid, p)
    # When the start is asked for a second early
    clock.advance(3_599)
    with pytest.raises(NotStartedYet):
        services.start.close_registration(tid)
    # Then it is still registering, and open: cy still gets in
    assert services.lobby.tournament(tid).status == "registering"
    assert services.registration.register(tid, "cy").status == "registered"


def test_default_min_players_is_two_so_a_lone_registrant_is_refunded(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = create()
    fund(services, "ann")
    services.registration.register(tid, "ann")
    clock.advance(3_600)
    assert services.start.close_registration(tid).status == "cancelled"
    assert balance(services, "ann") == 10_000


def test_rule_17_6_a_tournament_that_did_not_start_is_cancelled_with_everyone_refunded(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given 2 registered and 1 waiting, and the start never happened
    tid = create(max_players=2)
    fund(services, "ann", "bob", "cy")
    for p in ("ann", "bob", "cy"):
        services.registration.register(tid, p)
    # When the sweeper finds it still registering after its start time
    clock.advance(3_600 + 20 * 60)
    report = services.recovery.sweep()
    # Then it is cancelled and registered and wait-listed are refunded buy-in and fee in full
    assert report.refunded == (tid,) and report.players_refunded == 3
    assert all(balance(services, p) == 10_000 for p in ("ann", "bob", "cy"))
    assert services.lobby.tournament(tid).status == "cancelled"
    # And cancelling again moves nothing
    assert services.recovery.sweep().refunded == ()
    assert services.admin.cancel(tid, "op", "again").refunded == 0
    assert services.adapters.store.money.summary(tid).refunds == 3_300
    services.adapters.store.money.verify_invariants()


def test_sit_and_go_cannot_be_started_by_the_clock(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = create(fmt="sng", seats_per_table=3)
    fund(services, "ann")
    services.registration.register(tid, "ann")
    clock.advance(86_400)
    with pytest.raises(NotStartedYet):
        services.start.close_registration(tid)
    assert services.lobby.tournament(tid).status == "registering"
    assert services.adapters.workflows.started == []
