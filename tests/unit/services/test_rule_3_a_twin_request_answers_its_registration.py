"""Rule 3: a registration sent twice at once with one key answers that registration, whatever the other one saw.

A request reads the player's registration, then the waiting list: two reads, not one snapshot. When its twin (the
same request, the same ``Idempotency-Key``) commits between them, the request finds no registration of its own and a
full waiting list. It must answer the registration its twin made, as a replay of the key does, not "full".
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.bootstrap import Services

from tests.unit.services.conftest import fund


def test_rule_3_a_twin_registration_that_read_a_full_list_answers_the_registration_made(
    services: Services, create: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given two seats taken and nine players waiting: one place left on the waiting list
    tid = create(max_players=2)
    for i in range(11):
        fund(services, f"p{i}")
        services.registration.register(tid, f"p{i}", key=f"k{i}")
    fund(services, "zoe")
    registrations = services.adapters.store.registrations
    read_list = registrations.waiting_list
    twin_done: list[str] = []
    twin_started: list[bool] = []

    def twin_commits_first(tournament_id: str):  # type: ignore[no-untyped-def]
        if not twin_started:
            twin_started.append(True)
            twin_done.append(services.registration.register(tid, "zoe", key="zoe-1").status)
        return read_list(tournament_id)

    # When zoe's request reads no registration of hers, then its twin registers her (the last place) before the
    # request reads the waiting list
    monkeypatch.setattr(registrations, "waiting_list", twin_commits_first)
    answer = services.registration.register(tid, "zoe", key="zoe-1")
    # Then both answer her registration: wait-listed, tenth
    assert twin_done == ["waitlisted"]
    assert answer.status == "waitlisted" and answer.position == 10
    assert services.accounts.account("zoe").balance == 10_000 - 1_100
