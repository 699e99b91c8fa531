"""The start writes every entrant of a tournament at once: their items spread over 64 partition keys.

docs/data-model.md ('tournaments'): at 250,000 players seated in about a minute, each key takes about 130 write units
a second, well under DynamoDB's 1,000 for one partition key.
"""

from __future__ import annotations

from collections import Counter

from tourney.adapters.dynamo.mapping import mapper_of
from tourney.domain.tournament import Contribution
from tourney.services.records import EntrantRecord


def test_the_entrants_of_one_tournament_spread_evenly_over_64_partition_keys() -> None:
    # Given the entrants of a 250,000-player tournament as the adapter stores them
    players = [f"player-{n:06d}" for n in range(250_000)]
    entrants = [EntrantRecord("big", p, Contribution(p), None) for p in players]
    keys = Counter(mapper_of(e).key(e).pk for e in entrants)
    # Then 64 keys hold them, none more than a tenth above its share
    assert len(keys) == 64
    assert max(keys.values()) <= 1.1 * len(players) / 64
