"""Registration and the waiting list (docs/rules.md, rules 2, 3, 4): the domain's rules, with exact cents.

Each test asks ``domain/registration.py`` what ``services/register.py`` asks it
(the window, a player's place, the payment and its refund, who moves up) and
posts the money it answers on a domain ``Ledger``. The start and cancellation
are the start workflow's (``services/start.py``): ``services/test_service_registration.py``.
"""

from datetime import UTC, datetime, timedelta

import pytest
from tourney.domain.errors import (
    AlreadyRegistered,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidConfiguration,
    NotRegistered,
    RegistrationClosed,
    WaitingListFull,
)
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import Ledger, deposit, house_account, house_account_for, player_account, pool_account
from tourney.domain.registration import (
    RegistrationState,
    RegistrationWindow,
    TournamentStatus,
    buy_in_payment,
    buy_in_refund,
    check_schedule,
    entry_price,
    field_is_full,
    is_repeated_request,
    leave,
    place_in_field_or_waiting_list,
    starts_when_full,
    too_few_to_start,
    waiting_position,
)
from tourney.domain.structure import TournamentConfig

ANNOUNCE = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
OPEN = ANNOUNCE + timedelta(minutes=5)
START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
WINDOW = RegistrationWindow("t1", TournamentStatus.REGISTERING, ANNOUNCE, START)
REGISTERED, WAITLISTED = RegistrationState.REGISTERED, RegistrationState.WAITLISTED


def freezeout(
    *, buy_in: int = 1_000, entry_fee: int = 100, max_players: int = 100, min_players: int = 2
) -> TournamentConfig:
    return TournamentConfig.for_format(
        TournamentFormat.FREEZEOUT, buy_in=buy_in, entry_fee=entry_fee, max_players=max_players, min_players=min_players
    )


def wallets(*players: str, amount: int = 10_000) -> Ledger:
    ledger = Ledger()
    for player in players:
        ledger.post(deposit(f"dep:{player}", player, amount, ANNOUNCE))
    return ledger


def pay(ledger: Ledger, config: TournamentConfig, *players: str, number: int = 1, shards: int = 1) -> None:
    """Each player's ``number``-th registration paid, as the service posts it."""
    for player in players:
        ledger.post_all(buy_in_payment("t1", player, number, config, OPEN, shards))


def balance(ledger: Ledger, player: str) -> int:
    return ledger.balance(player_account(player))


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def test_rule_2_registering_debits_buy_in_plus_fee_buy_in_to_pool_fee_to_house() -> None:
    # Given ann holds 10,000 and the tournament costs 1,000 + 100
    config, ledger = freezeout(), wallets("ann")
    # When she registers
    entries = ledger.post_all(buy_in_payment("t1", "ann", 1, config, OPEN))
    # Then 1,100 leaves her wallet in one batch: 1,000 to the pool, 100 to the house
    assert entry_price(config) == 1_100
    assert balance(ledger, "ann") == 8_900
    assert ledger.balance(pool_account("t1")) == 1_000
    assert ledger.balance(house_account("t1")) == 100
    assert [e.key for e in entries] == ["register:t1:ann:1:buy_in", "register:t1:ann:1:entry_fee"]
    ledger.verify_invariants()


def test_rule_2_registering_with_no_fee_pays_9_percent_commission_from_the_buy_in() -> None:
    # Given a 1,050 buy-in with no entry fee
    config, ledger = freezeout(buy_in=1_050, entry_fee=0), wallets("ann")
    # When ann registers
    pay(ledger, config, "ann")
    # Then she pays 1,050: 955 to the pool, 95 commission to the house
    assert entry_price(config) == 1_050
    assert balance(ledger, "ann") == 8_950
    assert ledger.balance(pool_account("t1")) == 955
    assert ledger.balance(house_account("t1")) == 95


def test_rule_2_registration_opens_at_the_announcement() -> None:
    # Given a tournament announced at 10:00
    # When ann tries one second before
    with pytest.raises(RegistrationClosed):
        WINDOW.check_can_register(ANNOUNCE - timedelta(seconds=1))
    # Then it is not visible yet; and at 10:00 exactly she can register
    assert WINDOW.status_at(ANNOUNCE - timedelta(seconds=1)) is TournamentStatus.SCHEDULED
    WINDOW.check_can_register(ANNOUNCE)
    assert WINDOW.status_at(ANNOUNCE) is TournamentStatus.REGISTERING


def test_rule_2_registration_closes_at_the_start_time() -> None:
    # Given a tournament starting at 12:00
    # When ann tries at 12:00 exactly, before the start was even processed
    with pytest.raises(RegistrationClosed) as error:
        WINDOW.check_can_register(START)
    # Then it is refused with a clear code; a microsecond earlier it was open
    assert error.value.code == "registration_closed"
    assert WINDOW.is_open(START - timedelta(microseconds=1))
    # And once the start sealed registration (before the status says running) it is closed too
    with pytest.raises(RegistrationClosed):
        WINDOW.check_can_register(OPEN, sealed=True)
    for status in (TournamentStatus.RUNNING, TournamentStatus.CANCELLED):
        assert not RegistrationWindow("t1", status, ANNOUNCE, START).is_open(OPEN)


def test_registering_twice_is_refused_and_moves_nothing() -> None:
    # Given ann registered under the key k1
    # When she registers again with another key, or none
    for key in ("k2", ""):
        with pytest.raises(AlreadyRegistered) as error:
            is_repeated_request("t1", "ann", key, REGISTERED, "k1")
        # Then it is refused before anything is paid
        assert error.value.code == "already_registered"


def test_registering_while_wait_listed_is_refused_and_moves_nothing() -> None:
    # Given bob on the waiting list
    # When he registers again
    with pytest.raises(AlreadyRegistered):
        is_repeated_request("t1", "bob", "k2", WAITLISTED, "k1")
    # Then he keeps his place: first on the list
    assert waiting_position(("bob",), "bob") == 1


def test_a_request_repeated_with_its_key_is_answered_and_a_spent_key_is_refused() -> None:
    # Given ann registered under k1: the same request again is answered as the first
    assert is_repeated_request("t1", "ann", "k1", REGISTERED, "k1")
    assert is_repeated_request("t1", "ann", "k1", WAITLISTED, "k1")
    # When that registration was withdrawn, its key names it: refused
    for withdrawn in (RegistrationState.UNREGISTERED, RegistrationState.REFUNDED):
        with pytest.raises(IdempotencyConflict):
            is_repeated_request("t1", "ann", "k1", withdrawn, "k1")
        # And a new key (or none) is a new registration
        assert not is_repeated_request("t1", "ann", "k2", withdrawn, "k1")
        assert not is_repeated_request("t1", "ann", "", withdrawn, "")
    assert not is_repeated_request("t1", "ann", "k1", None, "")


def test_a_short_balance_refuses_registration_and_moves_nothing() -> None:
    # Given ann holds 1,099 and the tournament costs 1,100
    config, ledger = freezeout(), wallets("ann", amount=1_099)
    # When she registers
    with pytest.raises(InsufficientFunds) as error:
        pay(ledger, config, "ann")
    # Then she keeps 1,099 and the pool and the house are empty: the batch moved nothing
    assert error.value.code == "insufficient_funds"
    assert balance(ledger, "ann") == 1_099
    assert ledger.balance(pool_account("t1")) == 0
    assert ledger.balance(house_account("t1")) == 0
    assert len(ledger) == 1


def test_rule_3_beyond_the_cap_ten_wait_in_order_and_pay_and_the_eleventh_is_refused() -> None:
    # Given a cap of 3 and 14 funded players
    players = names(14)
    config, ledger = freezeout(max_players=3), wallets(*players)
    field: list[str] = []
    waiting: tuple[str, ...] = ()
    # When 13 register, each placed on the field and the list as they stand
    for p in players[:13]:
        state = place_in_field_or_waiting_list(
            "t1", config, field_has_room=not field_is_full(config, len(field)), waiting=len(waiting)
        )
        pay(ledger, config, p)
        if state is REGISTERED:
            field.append(p)
        else:
            waiting = (*waiting, p)
    # Then 3 are registered and 10 wait, in order, each having paid
    assert field == players[:3]
    assert waiting == tuple(players[3:13])
    assert [waiting_position(waiting, p) for p in players[3:13]] == list(range(1, 11))
    assert all(balance(ledger, p) == 8_900 for p in players[:13])
    assert ledger.balance(pool_account("t1")) == 13_000
    # And the 11th extra is refused with a clear error, before paying
    with pytest.raises(WaitingListFull) as error:
        place_in_field_or_waiting_list("t1", config, field_has_room=False, waiting=len(waiting))
    assert error.value.code == "waiting_list_full"
    assert balance(ledger, players[13]) == 10_000


def test_rule_4_unregistering_refunds_in_full_and_the_first_wait_listed_moves_up() -> None:
    # Given a cap of 2: ann and bob registered, cy and dee waiting
    config, ledger = freezeout(max_players=2), wallets("ann", "bob", "cy", "dee")
    pay(ledger, config, "ann", "bob", "cy", "dee")
    # When ann unregisters before the start
    WINDOW.check_can_unregister("ann", REGISTERED, OPEN + timedelta(minutes=1))
    departure = leave("ann", REGISTERED, ("cy", "dee"))
    refund = buy_in_refund("t1", "ann", 1, config, OPEN + timedelta(minutes=1))
    assert refund is not None
    ledger.post(refund)
    # Then she gets 1,100 back, cy moves into the field and dee becomes first
    assert refund.amount_for(player_account("ann")) == 1_100
    assert (departure.moves_up, departure.seat_left_empty) == ("cy", False)
    assert waiting_position(departure.waiting_list, "dee") == 1
    assert balance(ledger, "ann") == 10_000
    assert ledger.balance(pool_account("t1")) == 3_000
    assert ledger.balance(house_account("t1")) == 300
    assert refund.key == "refund:t1:ann:1"
    assert ledger.summary("t1").refunds == 1_100
    ledger.verify_invariants()


def test_rule_4_a_registered_player_leaving_with_nobody_waiting_leaves_a_seat_empty() -> None:
    departure = leave("ann", REGISTERED, ())
    assert (departure.waiting_list, departure.moves_up, departure.seat_left_empty) == ((), None, True)


def test_rule_3_a_wait_listed_player_may_leave_with_a_full_refund() -> None:
    # Given ann and al registered and bob waiting (cap 2)
    config, ledger = freezeout(max_players=2), wallets("ann", "al", "bob")
    pay(ledger, config, "ann", "al", "bob")
    # When bob leaves the waiting list
    WINDOW.check_can_unregister("bob", WAITLISTED, OPEN)
    departure = leave("bob", WAITLISTED, ("bob",))
    refund = buy_in_refund("t1", "bob", 1, config, OPEN)
    assert refund is not None
    ledger.post(refund)
    # Then he is refunded and nobody moves
    assert (refund.amount_for(player_account("bob")), departure.moves_up) == (1_100, None)
    assert balance(ledger, "bob") == 10_000
    assert departure.waiting_list == ()
    assert not departure.seat_left_empty


def test_rule_4_no_unregistering_at_or_after_the_start() -> None:
    with pytest.raises(RegistrationClosed):
        WINDOW.check_can_unregister("ann", REGISTERED, START)
    with pytest.raises(RegistrationClosed):
        WINDOW.check_can_unregister("ann", REGISTERED, OPEN, sealed=True)
    for never in (None, RegistrationState.UNREGISTERED, RegistrationState.REFUNDED):
        with pytest.raises(NotRegistered) as error:
            WINDOW.check_can_unregister("bob", never, OPEN)
        assert error.value.code == "not_registered"


def test_re_registering_after_unregistering_pays_again_under_new_keys() -> None:
    # Given ann registered and unregistered
    config, ledger = freezeout(), wallets("ann")
    pay(ledger, config, "ann")
    first_refund = buy_in_refund("t1", "ann", 1, config, OPEN)
    assert first_refund is not None
    ledger.post(first_refund)
    # When she registers again (her second registration)
    entries = ledger.post_all(buy_in_payment("t1", "ann", 2, config, OPEN))
    # Then money moves again, under the keys of her second registration
    assert balance(ledger, "ann") == 8_900
    assert entries[0].key == "register:t1:ann:2:buy_in"
    refund = buy_in_refund("t1", "ann", 2, config, OPEN)
    assert refund is not None
    assert ledger.post(refund).key == "refund:t1:ann:2"
    assert balance(ledger, "ann") == 10_000


def test_sit_and_go_starts_when_max_players_have_registered_and_has_no_waiting_list() -> None:
    # Given a 9-player Sit&Go
    config = TournamentConfig.for_format(TournamentFormat.SNG, buy_in=1_000, entry_fee=100)
    # Then the 9th registration fills it and starts it
    assert starts_when_full(config)
    assert [field_is_full(config, n) for n in (8, 9)] == [False, True]
    # And a 10th finds no waiting list
    assert config.waiting_list_size == 0
    with pytest.raises(WaitingListFull):
        place_in_field_or_waiting_list("s1", config, field_has_room=False, waiting=0)
    # And a Sit&Go's registration stays open until it fills: no clock closes it
    window = RegistrationWindow("s1", TournamentStatus.REGISTERING, ANNOUNCE)
    assert window.is_open(ANNOUNCE + timedelta(days=30))
    assert not starts_when_full(freezeout())


def test_rule_6_fewer_than_min_players_at_the_start_cancel_it() -> None:
    # Given a tournament that needs 3 players (the default is 2)
    config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, min_players=3)
    # Then 2 registered at the start cancel it, 3 start it
    assert [too_few_to_start(config, n) for n in (0, 2, 3)] == [True, True, False]
    assert too_few_to_start(freezeout(), 1) and not too_few_to_start(freezeout(), 2)


def test_sit_and_go_has_no_start_time_and_a_scheduled_tournament_needs_one() -> None:
    sng = TournamentConfig.for_format(TournamentFormat.SNG, buy_in=100, entry_fee=10)
    with pytest.raises(InvalidConfiguration):
        check_schedule(sng, ANNOUNCE, START)
    check_schedule(sng, ANNOUNCE, None)
    scheduled = freezeout()
    for start in (None, ANNOUNCE):
        with pytest.raises(InvalidConfiguration):
            check_schedule(scheduled, ANNOUNCE, start)
    check_schedule(scheduled, ANNOUNCE, START)


def test_replaying_an_operations_entries_moves_nothing() -> None:
    # Given ann registered
    config, ledger = freezeout(), wallets("ann")
    entries = buy_in_payment("t1", "ann", 1, config, OPEN)
    ledger.post_all(entries)
    # When a retry posts the same entries again
    ledger.post_all(entries)
    # Then she paid once
    assert balance(ledger, "ann") == 8_900
    assert len(ledger) == 3


def test_fees_go_to_the_players_house_shard_and_refunds_come_back_from_it() -> None:
    # Given house revenue split into 4 shards
    players = names(20)
    config, ledger = freezeout(), wallets(*players)
    pay(ledger, config, *players, shards=4)
    # Then each fee landed in its player's shard, and no shard holds them all
    shard_totals = [ledger.balance(house_account("t1", s)) for s in range(4)]
    assert sum(shard_totals) == 2_000
    assert max(shard_totals) < 2_000
    assert ledger.balance(house_account("t1")) == 0
    # And an unregistration takes the fee back from that same shard
    before = ledger.balance(house_account_for("t1", "p07", 4))
    refund = buy_in_refund("t1", "p07", 1, config, OPEN, 4)
    assert refund is not None
    ledger.post(refund)
    assert ledger.balance(house_account_for("t1", "p07", 4)) == before - 100
    ledger.verify_invariants()


def test_a_freeroll_registers_without_moving_money() -> None:
    config = freezeout(buy_in=0, entry_fee=0)
    assert buy_in_payment("t1", "ann", 1, config, OPEN) == ()
    assert place_in_field_or_waiting_list("t1", config, field_has_room=True, waiting=0) is REGISTERED
    assert buy_in_refund("t1", "ann", 1, config, OPEN) is None
