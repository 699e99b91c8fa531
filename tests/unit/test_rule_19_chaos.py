"""Rule 19 under faults: stack adjustments and disqualifications during seeded chaos runs break no invariant.

Each run is a ``tourney chaos`` run (its scenario, format, field and fault plan
drawn from its seed: crashes at commits, duplicate and late deliveries, task
failures, timeouts, terminations and restarts) with operator acts added: stack
adjustments and disqualifications of players drawn from the act, each sent
again with the same key while its invocation died, and once more as a
duplicate. After every run: the money and chip invariants of ``tourney chaos``
(``chaos.violations``, the simulation's checks after every hand), and every act
audited once.
"""

from __future__ import annotations

from dataclasses import replace

from tourney.services.records import AuditAct
from tourney.simulation.chaos import Act, ChaosSimulation, plan_run, violations


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
