"""Drive the services like the AWS triggers would: queues drained, time-outs fired, workflows run (in memory)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from tourney.bootstrap import Services
from tourney.domain.errors import Conflict
from tourney.domain.registration import TournamentStatus
from tourney.entrypoints import workflow_tasks
from tourney.services.messages import HandEnded, RebuyClosed, TimeoutDue
from tourney.simulation.bots import Bot, next_action, pick_style
from tourney.simulation.workflow_run import run_at_once

from infra.workflow_states import START


def run_start_workflow(services: Services, tid: str) -> None:
    """The start workflow's description run through the services' steps, at once (a step that raises fails it)."""

    def call(step: str, payload: dict[str, Any]) -> dict[str, Any]:
        return workflow_tasks.answer(services, workflow_tasks.parse("start", payload))

    run_at_once(START, {"tournament_id": tid}, call)


@dataclass
class Driver:
    """Runs the in-memory adapters' queues and workflows through the services, in order."""

    services: Services
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    bots: dict[str, Bot] = field(default_factory=dict)
    timeout_chance: float = 0.02
    actions: int = 0
    timeouts: int = 0
    rebuy_chance: float = 0.0
    rebuys: int = 0
    batch: int = 0
    """0: each hand end is coordinated as soon as it is sent, alone. N: hand ends wait for the coordinator, which
    takes them every ``drain_every`` rounds of decisions in batches of at most N, as an SQS FIFO group gives them
    (``CoordinatorService.on_hand_ends``); a table whose hand end waits deals nothing meanwhile."""
    drain_every: int = 1
    batches: list[int] = field(default_factory=list)
    """With ``batch``: the size of each batch the coordinator was given."""

    @property
    def a(self):  # type: ignore[no-untyped-def]
        return self.services.adapters

    def run_workflows(self) -> None:
        wf = self.a.workflows
        while wf.pending_starts:
            run_start_workflow(self.services, wf.pending_starts.popleft())

    def drain_coordinator(self) -> int:
        n = 0
        while self.batch and self.a.coordination.queue:
            messages: list[HandEnded | RebuyClosed] = []
            while len(messages) < self.batch and (taken := self.a.coordination.take()) is not None:
                messages.append(taken)
            self.services.coordinator.on_hand_ends(messages)
            self.batches.append(len(messages))
            n += len(messages)
        while (message := self.a.coordination.take()) is not None:
            self.services.coordinator.on_hand_ended(message)
            n += 1
        return n

    def fire_due_timers(self) -> int:
        due = self.a.timers.due(self.a.clock.now())
        for message in due:
            self.services.timeouts.on_timeout(message)
        return len(due)

    def bot_for(self, player: str) -> Bot:
        if player not in self.bots:
            self.bots[player] = Bot(pick_style(self.rng), random.Random(self.rng.random()))
        return self.bots[player]

    def step(self, tid: str) -> bool:
        """Every table awaiting a decision gets one (a bot acts, or its time runs out); False when nothing moved."""
        moved = False
        for record in self.a.store.tables.list(tid):
            for player in record.rebuy_pending:
                if self.rng.random() < self.rebuy_chance:
                    try:
                        self.services.play.rebuy(tid, player)
                    except Conflict:
                        continue  # rebought up to the starting stack already, while the window stays open
                    self.rebuys += 1
                    moved = True
            awaiting = record.table.awaiting()
            hand = record.table.hand
            if awaiting is None or hand is None or record.closed:
                continue
            moved = True
            if self.rng.random() < self.timeout_chance:
                self.timeouts += 1
                self.services.timeouts.on_timeout(
                    TimeoutDue(
                        tournament_id=tid,
                        table=record.table_id,
                        hand=awaiting.hand,
                        seq=awaiting.seq,
                        seat=awaiting.seat,
                        armed_for_away=awaiting.away,
                    )
                )
            else:
                self.actions += 1
                kind, amount = self.decide(awaiting.player, hand, awaiting.seat)
                self.services.play.act(tid, record.table_id, awaiting.player, awaiting.hand, awaiting.seq, kind, amount)
            if not self.batch:
                self.drain_coordinator()
        return moved

    def decide(self, player: str, hand, seat: int) -> tuple[str, int | None]:  # type: ignore[no-untyped-def]
        action = next_action(self.bot_for(player), hand, seat)
        assert action is not None
        kind, amount = action
        return str(kind), amount

    def play_to_the_end(self, tid: str, *, max_steps: int = 200_000, seconds_per_step: float = 3.0) -> None:
        for round_ in range(max_steps):
            self.run_workflows()
            if round_ % self.drain_every == 0:
                self.drain_coordinator()
            if self.a.store.tournaments.get(tid).status is not TournamentStatus.RUNNING:
                return
            if not self.step(tid):
                if self.a.coordination.queue:
                    self.drain_coordinator()  # every table waits for the coordinator
                    continue
                # Nothing to act on: let time pass so rebuy windows and time-outs fire.
                due = self.a.timers.next_due()
                if due is None:
                    raise AssertionError("the tournament is stuck: no decision awaited and no timer armed")
                self.a.clock.set(max(due, self.a.clock.now()))
            else:
                self.a.clock.advance(seconds_per_step)
            self.fire_due_timers()
        raise AssertionError("the tournament did not end")
