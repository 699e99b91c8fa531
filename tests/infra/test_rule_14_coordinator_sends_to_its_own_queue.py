"""The coordinator deals every hand after a table's first; one may end as it is dealt (every player but one all in
on the blinds and antes, rule 14), and its end goes to the coordinator's own queue like any other hand's: the
coordinator function has that queue's URL and may send to it."""

from __future__ import annotations

from infra import wiring
from infra.naming import logical_id
from tests.infra.template import Synthesized, render
from tests.infra.test_permissions import function_role, resources_with, role_statements


def test_rule_14_the_coordinator_has_its_own_queues_url_and_may_send_to_it(synthesized: Synthesized) -> None:
    # Given the synthesized stack's coordinator function and its role
    _, function = synthesized.with_metadata("tourney:function", "coordinator")
    statements = role_statements(synthesized, function_role(synthesized, "coordinator"))
    queue = wiring.QUEUES_BY_NAME["coordinator"]
    # When a hand it dealt ends at once and it sends the hand's end
    variables = render(function["Properties"]["Environment"]["Variables"])
    sends = {r for r, actions in resources_with(statements, "sqs:").items() if "sqs:SendMessage" in actions}
    # Then its environment names the queue and its role may send to it
    assert variables.get(queue.env) == render({"Ref": f"Queue{logical_id(queue.name)}"})
    assert f"<Queue{logical_id(queue.name)}.Arn>" in sends
