"""The bot players as clients of the services: they act, rebuy, buy the add-on, go away and come back.

A bot learns that a decision is awaited the way a client learns it from its
push: the time-out armed for that decision (``Cloud.on_armed``) names the
table, hand, ``seq`` and seat. It then reads what its player may see (its
own hole cards, the board, the bets) and answers through the play service a
few seconds later, or lets its time run out. The rules are the services';
a bot only chooses, and what the services refuse is counted, not decided here.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tourney.domain.ledger import player_account
from tourney.domain.structure import TournamentConfig
from tourney.services.messages import TimeoutDue
from tourney.simulation.bots import Bot, next_action, pick_style
from tourney.simulation.cloud import Cloud

THINK_SECONDS = (1.0, 4.5)
"""How long a bot takes to decide (docs/rules.md, 'Defaults': about 2 seconds a decision)."""
DEAL_SECONDS = 6.0
"""Dealing, and showing the last hand's pots, before the first decision of a hand."""
TIMEOUT_CHANCE = 0.01
COME_BACK_CHANCE = 0.3
REBUY_CHANCE = 0.75
ADD_ON_CHANCE = 0.6


@dataclass
class CrowdCounts:
    actions: int = 0
    refused: int = 0
    rebuys: int = 0
    addons: int = 0
    backs: int = 0
    api_crashes: int = 0


@dataclass
class Crowd:
    """Every bot of one tournament, driven by the cloud's events."""

    cloud: Cloud
    tournament_id: str
    rng: random.Random
    eager_rebuys: float = 0.0
    """Chance that a bot at or below the starting stack rebuys when it acts (chaos: several in one hand)."""
    bots: dict[str, Bot] = field(default_factory=dict)
    counts: CrowdCounts = field(default_factory=CrowdCounts)
    _add_on_decided: set[str] = field(default_factory=set)
    _tournament_config: TournamentConfig | None = None

    def __post_init__(self) -> None:
        self.cloud.on_armed = self.on_armed
        self.cloud.pushes.on_player_message = self.on_player_message

    def bot(self, player: str) -> Bot:
        found = self.bots.get(player)
        if found is None:
            found = self.bots[player] = Bot(pick_style(self.rng), random.Random(self.rng.random()))
        return found

    def api(self, call: Callable[[], Any], function: str = "api") -> Any:
        """One HTTP request (``ws``: a WebSocket message): its answer, or None when refused (a 4xx) or when the
        function died (a 5xx)."""
        ok, answer = self.cloud.invoke_api(call, function)
        if not ok:
            self.counts.api_crashes += 1
        return answer

    # -- what the bots hear ---------------------------------------------------------

    def on_armed(self, due: TimeoutDue, seconds: float) -> None:
        if due.tournament_id != self.tournament_id:
            return
        low, high = THINK_SECONDS
        think = low + (high - low) * self.rng.random()  # random.uniform's own formula, without its call
        if due.seq <= 2:
            think += DEAL_SECONDS
        if due.armed_for_away:
            if self.rng.random() < COME_BACK_CHANCE:
                self.cloud.after(min(think, seconds - 0.5), lambda: self._come_back(due), "bot")
            return
        if self.rng.random() < TIMEOUT_CHANCE:
            return  # lets the time run out
        self.cloud.after(min(think, seconds - 0.5), functools.partial(self._act, due), "bot")

    def on_player_message(self, player: str, message: dict[str, Any]) -> None:
        offered = message.get("event") == "rebuy_offered" and message.get("tournament_id") == self.tournament_id
        if offered and self.rng.random() < REBUY_CHANCE and self._can_pay(player):
            self.cloud.after(self.rng.uniform(1.0, 8.0), lambda: self._rebuy(player), "bot rebuy")

    # -- what the bots do ---------------------------------------------------------------

    def _config(self) -> TournamentConfig:
        """The tournament's configuration, read once: it never changes once announced."""
        if self._tournament_config is None:
            self._tournament_config = self.cloud.store.tournaments.get(self.tournament_id).config
        return self._tournament_config

    def _can_pay(self, player: str) -> bool:
        t = self.cloud.store.tournaments.get(self.tournament_id)
        return self.cloud.store.ledger.balance(player_account(player)) >= t.config.entry_cost

    def _rebuy(self, player: str) -> None:
        if self.api(lambda: self.cloud.services.play.rebuy(self.tournament_id, player)) is not None:
            self.counts.rebuys += 1

    def _come_back(self, due: TimeoutDue) -> None:
        player = self._player_at(due)
        if player is None:
            return
        if self.api(lambda: self.cloud.services.play.back(self.tournament_id, player)) is not None:
            self.counts.backs += 1

    def _player_at(self, due: TimeoutDue) -> str | None:
        return self.cloud.store.stored_table(due.tournament_id, due.table).table.player_at(due.seat)

    def _act(self, due: TimeoutDue) -> None:
        store = self.cloud.store
        record = store.stored_table(due.tournament_id, due.table)
        table = record.table
        player = table.player_at(due.seat)
        if player is None or not table.awaits(due.hand, due.seq, due.seat):
            return  # the decision moved on (a time-out, a restart): nothing to answer
        last = self._config().last_rebuy_level
        if last is not None:  # a freezeout offers nothing to buy
            self._maybe_buy(player, record.level, table.stack(due.seat), last)
        hand = table.hand
        assert hand is not None
        action = next_action(self.bot(player), hand, due.seat)
        if action is None:
            return
        kind, amount = action
        play = self.cloud.services.play
        # Players act over HTTP or over their WebSocket (the ws function): half of them each way.
        function = "ws" if player[-1] in "13579" else "api"
        act = functools.partial(play.act, self.tournament_id, due.table, player, due.hand, due.seq, kind, amount)
        answer = self.api(act, function)
        if answer is None:
            self.counts.refused += 1
        else:
            self.counts.actions += 1

    def _maybe_buy(self, player: str, level: int, stack: int, last: int) -> None:
        """The add-on once it is offered (the structure is public), and the eager rebuys of a chaos run.

        ``last``: the last rebuy level (the add-on is offered in the level after it).
        """
        config = self._config()
        if config.add_on is not None and level == last + 1 and player not in self._add_on_decided:
            self._add_on_decided.add(player)
            buys = self.rng.random() < ADD_ON_CHANCE and self._can_pay(player)
            if buys and self.api(lambda: self.cloud.services.play.add_on(self.tournament_id, player)) is not None:
                self.counts.addons += 1
        if self.eager_rebuys and level <= last and stack <= config.starting_stack and self._can_pay(player):
            for _ in range(2 if self.rng.random() < 0.3 else 1):
                if self.rng.random() < self.eager_rebuys:
                    self._rebuy(player)


__all__ = ["Crowd", "CrowdCounts"]
