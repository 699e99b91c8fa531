"""Lasting faults in ``tourney chaos``: a step or a function that fails every time for hours, as a broken deployment
does, and what the rules still require while it does (docs/rules.md, rule 17)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from tourney.simulation.chaos import EPOCH, ChaosSimulation, plan_run, violations
from tourney.simulation.faults import FaultPlan, Lasting


def test_a_lasting_fault_fails_its_step_every_time_in_its_window_and_counts_once() -> None:
    # Given a plan whose seating step is down for two hours from EPOCH
    now = [EPOCH - timedelta(minutes=1)]
    plan = FaultPlan(seed=1, lasting=(Lasting("seat_batch", EPOCH, EPOCH + timedelta(hours=2)),))
    plan.clock = lambda: now[0]
    # Then before the window the step runs, inside it the step fails every time, after it the step runs again
    assert not plan.task_fails("seat_batch")
    now[0] = EPOCH + timedelta(minutes=5)
    assert all(plan.task_fails("seat_batch") for _ in range(50))
    assert not plan.task_fails("deal_first_hands")
    now[0] = EPOCH + timedelta(hours=2)
    assert not plan.task_fails("seat_batch")
    # And the fault is counted once, however often it struck
    assert plan.counts.lasting == 1
    assert plan.counts.task_failures == 0


def test_a_lasting_fault_of_a_function_kills_its_every_invocation_before_it_commits() -> None:
    now = [EPOCH]
    plan = FaultPlan.drawn(7, (Lasting("coordinator", EPOCH, EPOCH + timedelta(hours=1)),))
    plan.clock = lambda: now[0]
    assert plan.crash > 0  # the cloud asks where an invocation dies only when invocations may die
    points = [plan.crash_point("coordinator") for _ in range(20)]
    assert all(p is not None and p.commit == 1 and p.phase == "before" for p in points)
    assert plan.counts.lasting == 1


def test_rule_17_a_start_whose_seating_fails_for_thirty_hours_is_refunded_within_a_day() -> None:
    # Given a scheduled tournament whose start workflow's seating step fails every time for 30 hours from its start
    seed = next(
        s for s in range(1, 500) if plan_run(s, 8).scenario == "finish" and plan_run(s, 8).options.format != "sng"
    )
    broken = (Lasting("seat_batch", EPOCH - timedelta(minutes=10), EPOCH + timedelta(hours=30)),)
    plan = replace(plan_run(seed, 8), acts=(), lasting=broken)
    sim = ChaosSimulation(plan)
    # When it runs, the watchdog asking for the start again and again
    sim.run_plan()
    # Then no hand was dealt, every player was refunded within 24 hours of the start, and nothing else broke
    t = sim.store.tournaments.get(sim.tournament_id)
    assert not sim.dealt
    assert t.ended_at is not None and t.ended_at <= EPOCH + timedelta(hours=24)
    assert sim.faults.counts.lasting == 1
    assert violations(sim) == []
