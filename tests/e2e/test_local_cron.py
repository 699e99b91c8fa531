"""The local scheduler reads AWS cron expressions (EventBridge's fields and day numbering) through croniter."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from infra.local.schedules import Cron, Scheduler, Target, _Tracked


@pytest.mark.parametrize(
    ("expression", "matching", "not_matching"),
    [
        ("cron(0/15 * ? * MON-FRI *)", datetime(2030, 1, 7, 10, 45), datetime(2030, 1, 6, 10, 45)),
        ("cron(0 18 ? * 6 *)", datetime(2030, 1, 4, 18, 0), datetime(2030, 1, 5, 18, 0)),  # AWS's 6 is a Friday
        ("cron(0 18 ? * 2-6 *)", datetime(2030, 1, 7, 18, 0), datetime(2030, 1, 6, 18, 0)),  # Monday to Friday
        ("cron(0 18 ? * 6L *)", datetime(2030, 1, 25, 18, 0), datetime(2030, 1, 18, 18, 0)),  # the last Friday
        ("cron(0 18 ? * 2#1 *)", datetime(2030, 1, 7, 18, 0), datetime(2030, 1, 14, 18, 0)),  # the first Monday
        ("cron(0 9 L * ? *)", datetime(2030, 2, 28, 9, 0), datetime(2030, 2, 27, 9, 0)),  # the month's last day
        ("cron(0 9 15W * ? *)", datetime(2030, 6, 14, 9, 0), datetime(2030, 6, 15, 9, 0)),  # the 15th is a Saturday
        ("cron(30 9 1 JAN ? 2031)", datetime(2031, 1, 1, 9, 30), datetime(2030, 1, 1, 9, 30)),
    ],
)
def test_aws_cron_fields_match_as_eventbridge_reads_them(
    expression: str, matching: datetime, not_matching: datetime
) -> None:
    cron = Cron.parse(expression)
    assert cron.matches(matching)
    assert not cron.matches(not_matching)


@pytest.mark.parametrize("expression", ["cron(* * * *)", "cron(0 18 ? * 9 *)", "cron(61 * * * ? *)", "rate(1 minute)"])
def test_what_is_not_an_aws_cron_expression_is_refused(expression: str) -> None:
    with pytest.raises(ValueError):
        Cron.parse(expression)


def test_a_cron_schedule_is_due_when_a_matching_minute_began_since_the_last_look() -> None:
    tracked = _Tracked(None, "cron(0/15 * * * ? *)", Target("arn"), 0.0, cron=Cron.parse("cron(0/15 * * * ? *)"))
    tracked.last_virtual = datetime(2030, 1, 1, 10, 14, 30, tzinfo=UTC).timestamp()
    assert not Scheduler._cron_due(tracked, datetime(2030, 1, 1, 10, 14, 59, tzinfo=UTC).timestamp())
    assert Scheduler._cron_due(tracked, datetime(2030, 1, 1, 10, 15, 0, tzinfo=UTC).timestamp())
    assert Scheduler._cron_due(tracked, datetime(2030, 1, 1, 13, 0, 0, tzinfo=UTC).timestamp())
    tracked.last_virtual = datetime(2030, 1, 1, 10, 15, 0, tzinfo=UTC).timestamp()
    assert not Scheduler._cron_due(tracked, datetime(2030, 1, 1, 10, 29, 59, tzinfo=UTC).timestamp())
