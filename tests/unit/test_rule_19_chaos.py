"""Rule 19 under faults: operators' acts during seeded chaos runs break no invariant, and the checks can fail.

Each run is a ``tourney chaos`` run (its scenario, format, field and fault plan
drawn from its seed: crashes at commits, duplicate and late deliveries, task
failures, timeouts, terminations and restarts) with operator acts added: stack
adjustments and disqualifications of players drawn from the act, each sent
again with the same key while its invocation died, and once more as a
duplicate. After every run: the money and chip invariants of ``tourney chaos``
(``chaos.violations``, the simulation's checks after every hand), and every act
audited once. Then defects planted one at a time (a deposit's key reused with
another amount, a bad payout table accepted, a hand end dropped, a
disqualified player paid, a watchdog terminating tables still playing) are each reported by the run that meets them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from tourney.domain.errors import StaleAction
from tourney.domain.ledger import EntryKind, overlay_account, player_account, transfer
from tourney.services import admin, recover
from tourney.services.coordinate import CoordinatorService
from tourney.services.management import ManagementService
from tourney.services.messages import HandEnded, RebuyClosed
from tourney.services.records import AuditAct
from tourney.simulation.chaos import Act, ChaosSimulation, RunPlan, plan_run, run_one, violations
from tourney.simulation.faults import FaultPlan


def test_rule_19_stack_adjustments_and_disqualifications_under_faults_break_no_invariant() -> None:
    acts_done: dict[str, int] = {"stack_adjustment": 0, "disqualify": 0}
    crashes = 0
    for seed in range(40, 56):
        # Given a chaos run with four management acts in its first minutes
        base = plan_run(seed, players_max=12)
        extra = (Act("stack", 0.5), Act("disqualify", 1.5), Act("stack", 3.0), Act("disqualify", 5.0))
        sim = ChaosSimulation(replace(base, acts=(*base.acts, *extra)))
        # When it plays to its end
        sim.run_plan()
        # Then no invariant of tourney chaos broke
        assert violations(sim) == [], (seed, base.scenario, sim.faults.log[-5:])
        crashes += sim.faults.counts.crashes
        records = sim.store.audit.for_tournament(sim.tournament_id)
        ids = [r.audit_id for r in records]
        assert len(ids) == len(set(ids))
        for record in records:
            if record.act in (AuditAct.STACK_ADJUSTMENT, AuditAct.DISQUALIFY):
                acts_done[str(record.act)] += 1
        # And a disqualified player took no place
        for entrant in sim.store.entrants.list(sim.tournament_id):
            if entrant.disqualified_at is not None:
                assert entrant.placing is None
    assert crashes > 0
    assert acts_done["stack_adjustment"] > 0 and acts_done["disqualify"] > 0, acts_done


def _first_seed(predicate: Callable[[RunPlan], bool], players_max: int = 6) -> int:
    return next(s for s in range(1, 2_000) if predicate(plan_run(s, players_max=players_max)))


def test_rule_19_chaos_catches_a_deposit_whose_key_is_reused_with_another_amount(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a planted defect: a deposit's key names the key and the amount, so the key re-sent with another
    # amount credits again
    original = ManagementService.deposit

    def keyed_by_amount(self: ManagementService, player: str, amount: int, operator: str, key: str, *rest: str) -> Any:
        return original(self, player, amount, operator, f"{key}:{amount}", *rest)

    monkeypatch.setattr(ManagementService, "deposit", keyed_by_amount)
    # When a run sends a deposit again with its key and another amount
    seed = _first_seed(
        lambda p: (
            p.scenario == "finish"
            and p.options.format != "sng"
            and any(a.kind == "deposit" and a.target == "other" and a.minute < 0 for a in p.acts)
        )
    )
    _, found = run_one(plan_run(seed, players_max=6))
    # Then the run is reported: the other amount was answered 2xx
    assert any(v["invariant"] == "idempotency" and "answered 2xx" in v["detail"] for v in found), found


def test_rule_19_chaos_catches_a_bad_payout_table_accepted_at_creation(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a planted defect: creation ignores the fixed payout table it is sent
    original = admin.config_from
    monkeypatch.setattr(admin, "config_from", lambda command: original(replace(command, payout_percent=())))
    # When a run first sends a payout table that pays a worse place more
    seed = _first_seed(lambda p: p.bad_kind == "payout_worse_place_more")
    _, found = run_one(plan_run(seed, players_max=6))
    # Then the run is reported: a bad configuration was accepted at creation
    assert [v["invariant"] for v in found] == ["bad_configuration_accepted"], found


def test_rule_17_chaos_catches_a_hand_end_the_coordinator_drops(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a planted defect: the coordinator refuses the end of every table's third hand as stale (a trigger
    # ignores what is stale, so the message is gone)
    original = CoordinatorService._one

    def refusing(self: CoordinatorService, chunk: Any, message: HandEnded | RebuyClosed) -> Any:
        record = self._d.store.tables.get(message.tournament_id, message.table)
        if message.hand == 3 and record.coordinated_hand < 3 and not record.table.hand_in_progress:
            raise StaleAction("planted")
        return original(self, chunk, message)

    monkeypatch.setattr(CoordinatorService, "_one", refusing)
    # When a tournament plays
    seed = _first_seed(lambda p: p.scenario == "finish" and p.options.players >= 4)
    _, found = run_one(plan_run(seed, players_max=6))
    # Then the run is reported: a message dropped that was neither stale nor a duplicate
    assert any(v["invariant"] == "liveness" and "dropped" in v["detail"] for v in found), found


def test_rule_19_chaos_catches_a_disqualified_player_paid() -> None:
    # Given a run in which a player was disqualified
    seed = _first_seed(lambda p: p.scenario == "finish" and p.options.players >= 4)
    sim = ChaosSimulation(replace(plan_run(seed, players_max=6), acts=(Act("disqualify", 0.5),)))
    sim.run_plan()
    gone = next(e for e in sim.store.entrants.list(sim.tournament_id) if e.disqualified_at is not None)
    assert violations(sim) == []
    # When the house pays them a share of the tournament (a planted defect)
    tid = sim.tournament_id
    share = transfer(
        "planted", EntryKind.COMPENSATION, tid, overlay_account(tid), player_account(gone.player_id), 1, sim.cloud.now()
    )
    assert share is not None
    sim.store.money.post(share)
    # Then the run is reported
    assert any(v.startswith("disqualified_paid:") for v in violations(sim)), violations(sim)


def test_rule_17_chaos_catches_a_watchdog_that_terminates_tables_still_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a planted defect: the watchdog reads every table in a hand as stalled, however recent its last decision
    monkeypatch.setattr(recover, "STALL_SLACK", timedelta(hours=-1))
    # When a tournament plays with no fault that stops play (no invocation dies, no task fails, nothing lasting)
    quiet = _first_seed(
        lambda p: (
            p.scenario == "finish"
            and p.options.players >= 4
            and not p.lasting
            and not FaultPlan.drawn(p.seed).crash
            and not FaultPlan.drawn(p.seed).task_failure
        )
    )
    _, found = run_one(plan_run(quiet, players_max=6))
    # Then the run is reported: the watchdog terminated a tournament whose play had not stopped
    assert any(v["invariant"] == "liveness" and "had not stopped" in v["detail"] for v in found), found


def test_rule_17_chaos_catches_a_watchdog_check_that_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a planted defect: the watchdog's check of a running tournament raises (the function logs it and goes on
    # with the other tournaments, so nothing else in the run would show it)
    def broken(self: recover.RecoveryService, *args: Any) -> bool:
        raise RuntimeError("planted: a table that does not read")

    monkeypatch.setattr(recover.RecoveryService, "_start_lost", broken)
    # When a tournament plays
    seed = _first_seed(lambda p: p.scenario == "finish" and p.options.players >= 4)
    _, found = run_one(plan_run(seed, players_max=6))
    # Then the run is reported, naming the check's error
    assert any(v["invariant"] == "watch_failed" and "planted" in v["detail"] for v in found), found
