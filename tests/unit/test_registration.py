"""Registration, the waiting list, the start and cancellation (docs/rules.md, rules 2, 3, 4, 17.6)."""

from datetime import UTC, datetime, timedelta

import pytest
from tourney.domain.errors import (
    AlreadyRegistered,
    AlreadyStarted,
    Conflict,
    InsufficientFunds,
    NotRegistered,
    NotStartedYet,
    RegistrationClosed,
    WaitingListFull,
)
from tourney.domain.ledger import Ledger, deposit, house_account, house_account_for, player_account, pool_account
from tourney.domain.registration import (
    PlayerRegistration,
    RegistrationBook,
    RegistrationStatus,
    TournamentStatus,
)
from tourney.domain.structure import TournamentConfig, TournamentFormat

ANNOUNCE = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
OPEN = ANNOUNCE + timedelta(minutes=5)
START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def book_of(
    *, buy_in: int = 1_000, entry_fee: int = 100, max_players: int = 100, min_players: int = 2, shards: int = 1
) -> RegistrationBook:
    config = TournamentConfig.for_format(
        TournamentFormat.FREEZEOUT, buy_in=buy_in, entry_fee=entry_fee, max_players=max_players, min_players=min_players
    )
    return RegistrationBook("t1", config, announce_at=ANNOUNCE, start_at=START, house_shards=shards)


def sng_book(*, buy_in: int = 1_000, entry_fee: int = 100) -> RegistrationBook:
    config = TournamentConfig.for_format(TournamentFormat.SNG, buy_in=buy_in, entry_fee=entry_fee)
    return RegistrationBook("s1", config, announce_at=ANNOUNCE)


def wallets(*players: str, amount: int = 10_000) -> Ledger:
    ledger = Ledger()
    for player in players:
        ledger.post(deposit(f"dep:{player}", player, amount, ANNOUNCE))
    return ledger


def balance(ledger: Ledger, player: str) -> int:
    return ledger.balance(player_account(player))


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def test_rule_2_registering_debits_buy_in_plus_fee_buy_in_to_pool_fee_to_house() -> None:
    # Given ann holds 10,000 and the tournament costs 1,000 + 100
    book, ledger = book_of(), wallets("ann")
    # When she registers
    record = book.register("ann", OPEN, ledger)
    # Then 1,100 leaves her wallet: 1,000 to the pool, 100 to the house
    assert record.status is RegistrationStatus.REGISTERED
    assert record.paid == 1_100
    assert balance(ledger, "ann") == 8_900
    assert ledger.balance(pool_account("t1")) == 1_000
    assert ledger.balance(house_account("t1")) == 100
    assert [e.key for e in record.entries] == ["register:t1:ann:1:buy_in", "register:t1:ann:1:entry_fee"]
    ledger.verify_invariants()


def test_rule_2_registering_with_no_fee_pays_9_percent_commission_from_the_buy_in() -> None:
    # Given a 1,050 buy-in with no entry fee
    book, ledger = book_of(buy_in=1_050, entry_fee=0), wallets("ann")
    # When ann registers
    book.register("ann", OPEN, ledger)
    # Then she pays 1,050: 955 to the pool, 95 commission to the house
    assert balance(ledger, "ann") == 8_950
    assert ledger.balance(pool_account("t1")) == 955
    assert ledger.balance(house_account("t1")) == 95


def test_rule_2_registration_opens_at_the_announcement() -> None:
    # Given a tournament announced at 10:00
    book, ledger = book_of(), wallets("ann")
    # When ann tries one second before
    with pytest.raises(RegistrationClosed):
        book.register("ann", ANNOUNCE - timedelta(seconds=1), ledger)
    # Then nothing moved; and at 10:00 exactly she can register
    assert balance(ledger, "ann") == 10_000
    assert book.status_at(ANNOUNCE - timedelta(seconds=1)) is TournamentStatus.SCHEDULED
    assert book.register("ann", ANNOUNCE, ledger).status is RegistrationStatus.REGISTERED
    assert book.status_at(ANNOUNCE) is TournamentStatus.REGISTERING


def test_rule_2_registration_closes_at_the_start_time() -> None:
    # Given a tournament starting at 12:00
    book, ledger = book_of(), wallets("ann")
    # When ann tries at 12:00 exactly, before the start was even processed
    with pytest.raises(RegistrationClosed) as error:
        book.register("ann", START, ledger)
    # Then it is refused with a clear code and nothing moved
    assert error.value.code == "registration_closed"
    assert balance(ledger, "ann") == 10_000
    assert book.registered_count == 0
    assert book.can_register("ann", START - timedelta(microseconds=1))


def test_registering_twice_is_refused_and_moves_nothing() -> None:
    # Given ann registered
    book, ledger = book_of(), wallets("ann")
    book.register("ann", OPEN, ledger)
    version = book.version
    # When she registers again
    with pytest.raises(AlreadyRegistered) as error:
        book.register("ann", OPEN, ledger)
    # Then she paid once, and the book did not change
    assert error.value.code == "already_registered"
    assert balance(ledger, "ann") == 8_900
    assert book.version == version
    assert book.players == ("ann",)


def test_registering_while_wait_listed_is_refused_and_moves_nothing() -> None:
    # Given a field of 2 filled by ann and al, and bob on the waiting list
    book, ledger = book_of(max_players=2), wallets("ann", "al", "bob")
    for p in ("ann", "al", "bob"):
        book.register(p, OPEN, ledger)
    # When bob registers again
    with pytest.raises(AlreadyRegistered):
        book.register("bob", OPEN, ledger)
    # Then he paid once and is still first on the list
    assert balance(ledger, "bob") == 8_900
    assert book.registration_of("bob") == PlayerRegistration(RegistrationStatus.WAITLISTED, 1)


def test_a_short_balance_refuses_registration_and_moves_nothing() -> None:
    # Given ann holds 1,099 and the tournament costs 1,100
    book, ledger = book_of(), wallets("ann", amount=1_099)
    # When she registers
    with pytest.raises(InsufficientFunds) as error:
        book.register("ann", OPEN, ledger)
    # Then she keeps 1,099, the pool is empty and she is not registered
    assert error.value.code == "insufficient_funds"
    assert balance(ledger, "ann") == 1_099
    assert ledger.balance(pool_account("t1")) == 0
    assert ledger.balance(house_account("t1")) == 0
    assert book.registration_of("ann").status is RegistrationStatus.NOT_REGISTERED
    assert book.version == 0
    assert book.registrations_made("ann") == 0


def test_rule_3_beyond_the_cap_ten_wait_in_order_and_pay_and_the_eleventh_is_refused() -> None:
    # Given a cap of 3 and 14 funded players
    players = names(14)
    book, ledger = book_of(max_players=3), wallets(*players)
    # When 13 register
    records = [book.register(p, OPEN, ledger) for p in players[:13]]
    # Then 3 are registered and 10 wait, in order, each having paid
    assert book.players == tuple(players[:3])
    assert book.waiting_list == tuple(players[3:13])
    assert [r.position for r in records[3:]] == list(range(1, 11))
    assert all(balance(ledger, p) == 8_900 for p in players[:13])
    assert ledger.balance(pool_account("t1")) == 13_000
    # And the 11th extra is refused with a clear error and pays nothing
    with pytest.raises(WaitingListFull) as error:
        book.register(players[13], OPEN, ledger)
    assert error.value.code == "waiting_list_full"
    assert balance(ledger, players[13]) == 10_000


def test_rule_4_unregistering_refunds_in_full_and_the_first_wait_listed_moves_up() -> None:
    # Given a cap of 2: ann and bob registered, cy and dee waiting
    book, ledger = book_of(max_players=2), wallets("ann", "bob", "cy", "dee")
    for p in ("ann", "bob", "cy", "dee"):
        book.register(p, OPEN, ledger)
    # When ann unregisters before the start
    record = book.unregister("ann", OPEN + timedelta(minutes=1), ledger)
    # Then she gets 1,100 back, cy moves into the field and dee becomes first
    assert record.refunded == 1_100
    assert record.promoted == "cy"
    assert balance(ledger, "ann") == 10_000
    assert book.players == ("bob", "cy")
    assert book.registration_of("dee") == PlayerRegistration(RegistrationStatus.WAITLISTED, 1)
    assert ledger.balance(pool_account("t1")) == 3_000
    assert ledger.balance(house_account("t1")) == 300
    assert [e.key for e in record.entries] == ["refund:t1:ann:1"]
    assert ledger.summary("t1").refunds == 1_100
    ledger.verify_invariants()


def test_rule_3_a_wait_listed_player_may_leave_with_a_full_refund() -> None:
    # Given ann and al registered and bob waiting (cap 2)
    book, ledger = book_of(max_players=2), wallets("ann", "al", "bob")
    for p in ("ann", "al", "bob"):
        book.register(p, OPEN, ledger)
    # When bob leaves the waiting list
    record = book.unregister("bob", OPEN, ledger)
    # Then he is refunded and nobody moves
    assert (record.refunded, record.promoted) == (1_100, None)
    assert balance(ledger, "bob") == 10_000
    assert book.waiting_list == ()
    assert book.players == ("ann", "al")


def test_rule_4_no_unregistering_at_or_after_the_start() -> None:
    book, ledger = book_of(), wallets("ann", "bob")
    book.register("ann", OPEN, ledger)
    with pytest.raises(RegistrationClosed):
        book.unregister("ann", START, ledger)
    assert balance(ledger, "ann") == 8_900
    with pytest.raises(NotRegistered) as error:
        book.unregister("bob", OPEN, ledger)
    assert error.value.code == "not_registered"


def test_re_registering_after_unregistering_pays_again_under_new_keys() -> None:
    # Given ann registered and unregistered
    book, ledger = book_of(), wallets("ann")
    book.register("ann", OPEN, ledger)
    book.unregister("ann", OPEN, ledger)
    # When she registers again
    record = book.register("ann", OPEN, ledger)
    # Then money moves again, under the keys of her second registration
    assert balance(ledger, "ann") == 8_900
    assert record.entries[0].key == "register:t1:ann:2:buy_in"
    assert book.unregister("ann", OPEN, ledger).entries[0].key == "refund:t1:ann:2"
    assert balance(ledger, "ann") == 10_000


def test_rule_3_at_the_start_wait_listed_players_are_refunded_in_full() -> None:
    # Given a cap of 2 with 2 registered and 2 waiting
    book, ledger = book_of(max_players=2), wallets("ann", "bob", "cy", "dee")
    for p in ("ann", "bob", "cy", "dee"):
        book.register(p, OPEN, ledger)
    # When the tournament starts
    closing = book.start(START, ledger)
    # Then it runs with ann and bob; cy and dee get 1,100 back each
    assert closing.status is TournamentStatus.RUNNING
    assert closing.players == ("ann", "bob")
    assert closing.refunded == ("cy", "dee")
    assert (balance(ledger, "cy"), balance(ledger, "dee")) == (10_000, 10_000)
    assert ledger.balance(pool_account("t1")) == 2_000
    assert ledger.balance(house_account("t1")) == 200
    assert book.waiting_list == ()
    assert book.status_at(START) is TournamentStatus.RUNNING
    # And registration is now closed
    with pytest.raises(RegistrationClosed):
        book.register("cy", START, ledger)


def test_starting_twice_moves_nothing_the_second_time() -> None:
    # Given a started tournament whose waiting list was refunded
    book, ledger = book_of(max_players=2), wallets("ann", "bob", "cy")
    for p in ("ann", "bob", "cy"):
        book.register(p, OPEN, ledger)
    book.start(START, ledger)
    entries, version = len(ledger), book.version
    # When the start is delivered again
    again = book.start(START + timedelta(minutes=1), ledger)
    # Then nothing moves and cy is not refunded twice
    assert again.entries == ()
    assert again.status is TournamentStatus.RUNNING
    assert (len(ledger), book.version) == (entries, version)
    assert balance(ledger, "cy") == 10_000


def test_rule_2_a_start_before_the_start_time_is_refused() -> None:
    book, ledger = book_of(), wallets()
    with pytest.raises(NotStartedYet):
        book.start(START - timedelta(seconds=1), ledger)
    assert book.status_at(START) is TournamentStatus.REGISTERING


def test_fewer_than_min_players_at_the_start_cancels_and_refunds_everyone() -> None:
    # Given min_players 3 and only ann and bob registered
    book, ledger = book_of(min_players=3), wallets("ann", "bob")
    book.register("ann", OPEN, ledger)
    book.register("bob", OPEN, ledger)
    # When the start time comes
    closing = book.start(START, ledger)
    # Then the tournament is cancelled and both are refunded in full
    assert closing.status is TournamentStatus.CANCELLED
    assert closing.refunded == ("ann", "bob")
    assert closing.players == ()
    assert (balance(ledger, "ann"), balance(ledger, "bob")) == (10_000, 10_000)
    assert ledger.balance(pool_account("t1")) == ledger.balance(house_account("t1")) == 0
    assert ledger.summary("t1").refunds == 2_200


def test_default_min_players_is_two_so_a_lone_registrant_is_refunded() -> None:
    book, ledger = book_of(), wallets("ann")
    book.register("ann", OPEN, ledger)
    assert book.start(START, ledger).status is TournamentStatus.CANCELLED
    assert balance(ledger, "ann") == 10_000


def test_rule_17_6_a_tournament_that_did_not_start_is_cancelled_with_everyone_refunded() -> None:
    # Given 2 registered and 1 waiting, and the start never happened
    book, ledger = book_of(max_players=2), wallets("ann", "bob", "cy")
    for p in ("ann", "bob", "cy"):
        book.register(p, OPEN, ledger)
    # When the sweeper cancels it an hour after the start time
    closing = book.cancel(START + timedelta(hours=1), ledger)
    # Then registered and wait-listed are refunded buy-in and fee in full
    assert closing.refunded == ("ann", "bob", "cy")
    assert all(balance(ledger, p) == 10_000 for p in ("ann", "bob", "cy"))
    # And cancelling again moves nothing
    assert book.cancel(START + timedelta(hours=2), ledger).entries == ()
    assert ledger.summary("t1").refunds == 3_300
    ledger.verify_invariants()


def test_a_running_tournament_cannot_be_cancelled_only_terminated() -> None:
    book, ledger = book_of(), wallets("ann", "bob")
    for p in ("ann", "bob"):
        book.register(p, OPEN, ledger)
    book.start(START, ledger)
    with pytest.raises(AlreadyStarted):
        book.cancel(START, ledger)
    book.end(TournamentStatus.TERMINATED)
    assert book.status_at(START) is TournamentStatus.TERMINATED


def test_only_a_running_tournament_ends() -> None:
    # Given a tournament still registering, and one that finished
    registering, ledger = book_of(), wallets("ann", "bob")
    finished = book_of()
    for p in ("ann", "bob"):
        finished.register(p, OPEN, ledger)
    finished.start(START, ledger)
    finished.end(TournamentStatus.FINISHED)
    # Then the first cannot end yet, the second cannot end again as terminated
    with pytest.raises(NotStartedYet):
        registering.end(TournamentStatus.FINISHED)
    with pytest.raises(Conflict):
        finished.end(TournamentStatus.TERMINATED)
    # And ending the same way twice is a no-op
    finished.end(TournamentStatus.FINISHED)
    assert finished.status_at(START) is TournamentStatus.FINISHED


def test_sit_and_go_starts_when_max_players_have_registered_and_has_no_waiting_list() -> None:
    # Given a 9-player Sit&Go and 10 funded players
    players = names(10)
    book, ledger = sng_book(), wallets(*players)
    # When 9 register
    records = [book.register(p, OPEN, ledger) for p in players[:9]]
    # Then the 9th registration starts it
    assert [r.started for r in records] == [False] * 8 + [True]
    assert book.status_at(OPEN) is TournamentStatus.RUNNING
    assert book.closed_at == OPEN
    # And the 10th is refused (no waiting list), paying nothing
    with pytest.raises(RegistrationClosed):
        book.register(players[9], OPEN, ledger)
    assert balance(ledger, players[9]) == 10_000
    assert book.waiting_list == ()


def test_sit_and_go_cannot_be_started_by_the_clock() -> None:
    book, ledger = sng_book(), wallets("ann")
    book.register("ann", OPEN, ledger)
    with pytest.raises(NotStartedYet):
        book.start(OPEN + timedelta(days=1), ledger)


def test_sit_and_go_has_no_start_time_and_a_scheduled_tournament_needs_one() -> None:
    config = TournamentConfig.for_format(TournamentFormat.SNG, buy_in=100, entry_fee=10)
    with pytest.raises(ValueError):
        RegistrationBook("s", config, announce_at=ANNOUNCE, start_at=START)
    freezeout = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=100, entry_fee=10)
    with pytest.raises(ValueError):
        RegistrationBook("t", freezeout, announce_at=ANNOUNCE)


def test_replaying_an_operations_entries_moves_nothing() -> None:
    # Given ann registered
    book, ledger = book_of(), wallets("ann")
    record = book.register("ann", OPEN, ledger)
    # When a retry posts the same entries again
    ledger.post_all(record.entries)
    # Then she paid once
    assert balance(ledger, "ann") == 8_900
    assert len(ledger) == 3


def test_fees_go_to_the_players_house_shard_and_refunds_come_back_from_it() -> None:
    # Given house revenue split into 4 shards
    players = names(20)
    book, ledger = book_of(shards=4), wallets(*players)
    for p in players:
        book.register(p, OPEN, ledger)
    # Then each fee landed in its player's shard, and no shard holds them all
    shard_totals = [ledger.balance(house_account("t1", s)) for s in range(4)]
    assert sum(shard_totals) == 2_000
    assert max(shard_totals) < 2_000
    assert ledger.balance(house_account("t1")) == 0
    # And an unregistration takes the fee back from that same shard
    before = ledger.balance(house_account_for("t1", "p07", 4))
    book.unregister("p07", OPEN, ledger)
    assert ledger.balance(house_account_for("t1", "p07", 4)) == before - 100
    ledger.verify_invariants()


def test_a_freeroll_registers_without_moving_money() -> None:
    book, ledger = book_of(buy_in=0, entry_fee=0), wallets("ann", amount=1)
    record = book.register("ann", OPEN, ledger)
    assert record.entries == ()
    assert record.status is RegistrationStatus.REGISTERED
    assert book.unregister("ann", OPEN, ledger).entries == ()
