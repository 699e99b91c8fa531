"""The simulated cloud runs each function with what ``infra/wiring.py`` gives it, and refuses the rest as AWS does.

Each invocation runs as its function: the tables, queues, workflows, pushes and start schedules it reaches
are checked against its ``FunctionSpec``, and a call the wiring does not grant fails as it would on AWS
(``AccessDenied``, ``QueueDoesNotExist``), is kept in ``Cloud.refusals``, and is reported by ``tourney chaos``
as a ``permission`` violation.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from datetime import timedelta

import pytest
from tourney.services.commands import CreateTournament
from tourney.services.messages import HandEnded
from tourney.services.records import HandRecord, TournamentRecord
from tourney.simulation import chaos
from tourney.simulation.cloud import Cloud
from tourney.simulation.permissions import AccessDenied, Grants
from tourney.simulation.players import Crowd

from infra import wiring

EPOCH = chaos.EPOCH
OPENS = EPOCH - timedelta(hours=2)


def _play(cloud: Cloud, tid: str, players: int, **options: object) -> TournamentRecord:
    """A freezeout of ``players`` created, funded and filled as an operator and the players would, played by bots
    through the simulated cloud until it ends (or two days pass); the tournament as it ended."""
    services = cloud.services
    command = CreateTournament(
        name="permissions", format="freezeout", buy_in=1_000, entry_fee=0, start_at=EPOCH,
        tournament_id=tid, operator="op", **options,  # type: ignore[arg-type]
    )  # fmt: skip
    cloud.run_as("admin", lambda: services.admin.create_tournament(command))
    names = [f"p{i}" for i in range(players)]
    for name in names:
        cloud.run_as("admin", functools.partial(services.accounts.deposit, name, 5_000, f"fund-{name}"))
        cloud.invoke_api(functools.partial(services.registration.register, tid, name, f"reg-{name}"))
    Crowd(cloud, tid, cloud.faults.rng_for("bots"))
    cloud.every("watchdog", cloud.now(), services.recovery.watch)
    cloud.every("sweeper", cloud.now(), services.recovery.sweep)

    def over() -> bool:
        t = cloud.store.tournaments.get(tid)
        return t.status == "finished" or t.ended_at is not None

    cloud.run(over, EPOCH + timedelta(days=2))
    return cloud.store.tournaments.get(tid)


def test_rule_14_a_hand_the_coordinator_deals_that_ends_at_once_goes_to_the_coordinator() -> None:
    # Given a freezeout of six players with one chip each at heads-up tables: every hand ends as it is dealt,
    # both players all in on the blinds, so the coordinator, which deals every hand after the first, sends
    # each such hand's end to its own queue
    cloud = Cloud(OPENS)
    hands: list[HandRecord] = []
    cloud.watch(lambda record: hands.append(record) if isinstance(record, HandRecord) else None)
    # When the tournament plays through the simulated cloud, each function with its own wiring
    t = _play(cloud, "t-at-once", 6, starting_stack=1, seats_per_table=2)
    # Then the coordinator was allowed to send them (no call refused), and the tournament finished
    assert cloud.refused() == []
    assert t.status == "finished"
    assert len({(h.table_id, h.hand_number) for h in hands}) > 3  # hands dealt by the coordinator, not only the first


def test_a_write_to_a_table_a_function_only_reads_is_refused_as_aws_refuses_it() -> None:
    # Given the simulated cloud and a tournament the operator created
    cloud = Cloud(OPENS)
    command = CreateTournament(
        name="x", format="freezeout", buy_in=1_000, entry_fee=0, start_at=EPOCH, tournament_id="t1"
    )
    cloud.run_as("admin", lambda: cloud.services.admin.create_tournament(command))
    store = cloud.services.deps.store

    def rename() -> None:
        t = store.tournaments.get("t1")
        uow = store.unit_of_work()
        uow.save(dataclasses.replace(t, name="renamed"))
        uow.commit()

    # When the start function (it reads the tournaments table only) writes a tournament
    ok, _ = cloud.invoke("start", rename)
    # Then the invocation failed, the refusal names the function and the call, and nothing was written
    assert not ok
    assert cloud.refused() == [
        "start may not write table tournaments (read only: no dynamodb:PutItem/UpdateItem): AccessDeniedException"
    ]
    assert cloud.store.tournaments.get("t1").name == "x"
    # And the same write by the admin function is allowed
    assert cloud.invoke("admin", rename) == (True, None)
    assert cloud.store.tournaments.get("t1").name == "renamed"


def test_a_read_of_a_table_a_function_was_not_given_and_a_send_without_the_queue_url_are_refused() -> None:
    cloud = Cloud(OPENS)
    services = cloud.services
    # Given the sweeper (tournaments and ledger only, no queue) and the start function (no coordinator queue)
    # When the sweeper reads a table item and the start function arms a time-out
    with pytest.raises(AccessDenied, match="sweeper may not read table tables"):
        cloud.run_as("sweeper", lambda: services.deps.store.tables.get("t1", "1"))
    with pytest.raises(AccessDenied, match="QueueDoesNotExist"):
        cloud.run_as("start", lambda: services.deps.coordination.hand_ended(_hand_end()))
    # Then both are refused as AWS would, and kept
    assert [r.code for r in cloud.refusals] == ["AccessDeniedException", "QueueDoesNotExist"]
    # And outside any invocation (the harness) everything is reachable
    with pytest.raises(Exception, match="no table"):
        services.deps.store.tables.get("t1", "1")


def test_each_function_is_granted_what_its_spec_declares() -> None:
    coordinator = Grants.of(wiring.FUNCTIONS_BY_NAME["coordinator"])
    assert coordinator.writes >= {"hands", "tables", "tournaments", "ledger"}
    chat = Grants.of(wiring.FUNCTIONS_BY_NAME["ws"])
    assert "chat" in chat.appends and "chat" not in chat.writes
    assert Grants.of(wiring.FUNCTIONS_BY_NAME["sweeper"]).cancels
    assert not Grants.of(wiring.FUNCTIONS_BY_NAME["start"]).schedules


def _hand_end() -> HandEnded:
    return HandEnded(tournament_id="t1", table="1", hand=1)


def _without(monkeypatch: pytest.MonkeyPatch, function: str, **change: object) -> None:
    """``infra/wiring.py`` with one function's spec changed (one permission taken away)."""
    spec = dataclasses.replace(wiring.FUNCTIONS_BY_NAME[function], **change)  # type: ignore[arg-type]
    functions = tuple(spec if f.name == function else f for f in wiring.FUNCTIONS)
    monkeypatch.setattr(wiring, "FUNCTIONS", functions)
    monkeypatch.setattr(wiring, "FUNCTIONS_BY_NAME", {f.name: f for f in functions})


COORDINATOR = wiring.FUNCTIONS_BY_NAME["coordinator"]
START_TASKS = wiring.FUNCTIONS_BY_NAME["start_tasks"]


@pytest.mark.parametrize(
    ("function", "change", "refused"),
    [
        ("coordinator", {"tables": {**COORDINATOR.tables, "hands": wiring.Access.READ}}, "write table hands"),
        ("start_tasks", {"sends_to": ("coordinator",)}, "send to queue timeouts"),
        ("start", {"starts": ()}, "start workflow start"),
    ],
    ids=["coordinator-hands-read-only", "start-tasks-without-timeouts-queue", "start-without-start-workflow"],
)
def test_chaos_fails_on_a_permission_taken_from_a_functions_spec(
    monkeypatch: pytest.MonkeyPatch, function: str, change: dict[str, object], refused: str
) -> None:
    # Given today's wiring, under which seeded chaos runs find no call refused
    seeds = (8, 16)  # "finish" runs: the tournament plays to its end
    plans = [chaos.plan_run(seed, players_max=12) for seed in seeds]
    assert [v for plan in plans for v in chaos.run_one(plan)[1] if v["invariant"] == "permission"] == []
    # When one permission is taken from one function's spec
    _without(monkeypatch, function, **change)
    found = [v for plan in plans for v in chaos.run_one(plan)[1]]
    # Then tourney chaos reports the refused call as a permission violation of each run, naming it
    permission = [v for v in found if v["invariant"] == "permission"]
    assert {v["run_seed"] for v in permission} == {str(seed) for seed in seeds}
    assert all(v["detail"].startswith(f"permission: {function} may not {refused}") for v in permission)


def test_a_push_needs_the_connections_table_and_the_connections_endpoint() -> None:
    # Given the timeouts function as declared, one without the connections table, one without pushes
    declared = wiring.FUNCTIONS_BY_NAME["timeouts"]
    tables = {t: a for t, a in declared.tables.items() if t != "connections"}
    without_table = Grants.of(dataclasses.replace(declared, tables=tables))
    without_pushes = Grants.of(dataclasses.replace(declared, pushes=False))
    # When each pushes to a table's connections
    Grants.of(declared).push()
    # Then only the one declared as it is may
    with pytest.raises(AccessDenied, match="read table connections"):
        without_table.push()
    with pytest.raises(AccessDenied, match="push to connections"):
        without_pushes.push()


def test_a_refusal_is_kept_even_when_the_function_catches_it() -> None:
    # Given the watchdog, which checks each tournament on its own and logs the one whose check raised
    cloud = Cloud(OPENS)
    store = cloud.services.deps.store

    def watch_catching_everything() -> None:
        with contextlib.suppress(Exception):  # as the watchdog's loop does for one tournament
            store.hands.get("t1", "1", 1)  # the watchdog is not given the hands table

    # When one of its calls is refused and it goes on
    ok, _ = cloud.invoke("watchdog", watch_catching_everything)
    # Then the invocation succeeded, and the refusal is kept all the same
    assert ok
    assert cloud.refused() == [
        "watchdog may not read table hands (no HANDS_TABLE, no dynamodb:GetItem/Query on it): AccessDeniedException"
    ]


def test_the_chat_table_is_put_by_the_ws_function_and_read_by_the_admin_function_only() -> None:
    cloud = Cloud(OPENS)
    chat = cloud.services.chat
    # Given the ws function (chat: append) and the admin function (chat: read)
    # When the ws function marks an operator's connection and the admin function reads a table's chat
    cloud.run_as("ws", lambda: chat.operator_connected("c1"))
    assert cloud.run_as("admin", lambda: chat.is_operator("c1"))
    # Then both may; the admin function may not put into it, and the api function may not even read it
    with pytest.raises(AccessDenied, match="admin may not write table chat"):
        cloud.run_as("admin", lambda: chat.operator_connected("c2"))
    with pytest.raises(AccessDenied, match="api may not read table chat"):
        cloud.run_as("api", lambda: chat.is_operator("c1"))


def _running(cloud: Cloud, tid: str, players: int = 4) -> None:
    """A freezeout of ``players`` at one table, played by bots through the simulated cloud until its first hand
    is dealt."""
    services = cloud.services
    command = CreateTournament(
        name="permissions", format="freezeout", buy_in=1_000, entry_fee=0, start_at=EPOCH,
        tournament_id=tid, operator="op", seats_per_table=players,
    )  # fmt: skip
    cloud.run_as("admin", lambda: services.admin.create_tournament(command))
    for name in (f"p{i}" for i in range(players)):
        cloud.run_as("admin", functools.partial(services.accounts.deposit, name, 5_000, f"fund-{name}"))
        cloud.invoke_api(functools.partial(services.registration.register, tid, name, f"reg-{name}"))
    Crowd(cloud, tid, cloud.faults.rng_for("bots"))
    cloud.every("watchdog", cloud.now(), services.recovery.watch)
    assert cloud.run(lambda: cloud.store.tournaments.get(tid).started_at is not None, EPOCH + timedelta(hours=1))


def test_rule_17_the_watchdog_resumes_a_table_a_restart_left_halted() -> None:
    # Given a running tournament whose restart died after it committed "running" and before it resumed its table:
    # the table is still halted a minute after the restart
    cloud = Cloud(OPENS)
    _running(cloud, "t-halted")
    store = cloud.store
    t = store.tournaments.get("t-halted")
    table = store.tables.get("t-halted", "1")
    uow = store.unit_of_work()
    uow.save(dataclasses.replace(t, restarted_at=cloud.now() - timedelta(minutes=2)))
    uow.save(dataclasses.replace(table, halted=True))
    uow.commit()
    # When the watchdog runs as its function
    ok, _ = cloud.invoke("watchdog", cloud.services.recovery.watch)
    # Then it may resume the table (write it, deal, arm the time-out, push) and did
    assert cloud.refused() == []
    assert ok and not store.tables.get("t-halted", "1").halted
