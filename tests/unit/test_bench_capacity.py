"""``tourney bench capacity``: the simulated cloud with AWS modeled, and the report it gives (docs/performance.md)."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tourney.adapters.aws import POST_WORKERS, QUERY_WORKERS
from tourney.cli import main
from tourney.domain.errors import StaleVersion
from tourney.services.messages import RebuyDue, TimeoutDue
from tourney.services.ports import PlayerPush, Push, TablePush
from tourney.simulation.aws.latency import DEFAULT_LATENCIES
from tourney.simulation.aws.model import AwsModel, Invocation, Throttled
from tourney.simulation.aws.records import StoredItem
from tourney.simulation.aws.requests import Request
from tourney.simulation.cloud import Cloud, InvocationError, Map

from bench.capacity import measure_capacity, template_limits
from infra.sizing import LARGE, STANDARD

START = datetime(2026, 1, 1, 16, 0, tzinfo=UTC)
CONTRACT_FIELDS = {
    "players", "tables", "minutes", "seed", "sizing", "wall_s", "peak_rss_mb", "registration", "start", "hand_gap_ms",
    "hands_per_table_per_hour", "coordination_lag_ms", "hottest_key", "throttled_requests", "item_max_bytes",
    "lambda_peak_concurrency", "compensation_s", "cost_per_1000_hands_usd", "requests_per_1000_hands",
}  # fmt: skip


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    return measure_capacity(60, minutes=5, seed=2)  # a run in which a hand ends with a bust


def test_the_report_has_every_field_of_the_contract_with_sane_values(small: dict[str, Any]) -> None:
    # Given a freezeout of 60 players, 5 minutes of play, then a termination and its compensation (the fixture)
    report = small

    # Then every field of the contract is there
    assert set(report) >= CONTRACT_FIELDS
    assert (report["players"], report["tables"], report["minutes"], report["seed"]) == (60, 7, 5.0, 2)
    assert set(report["registration"]) >= {"per_s", "p99_ms", "throttled"}
    assert report["registration"]["registered"] == 60
    assert 0 < report["registration"]["p99_ms"] < 5_000
    assert 0 < report["registration"]["mean_ms"] <= report["registration"]["p99_ms"]
    assert report["registration"]["transactions_each"] >= 1  # each registration's invocation commits once at least
    assert report["registration"]["after_last_arrival_s"] >= 0
    assert 0 <= report["start"]["first_deal_s"] <= report["start"]["last_deal_s"] < 120
    for spread in (report["hand_gap_ms"], report["coordination_lag_ms"]):
        assert 0 <= spread["p50"] <= spread["p99"] <= spread["max"]
    assert report["hand_gap_ms"]["max"] > 0  # the hand ends with a bust wait for the coordination
    assert 20 < report["hands_per_table_per_hour"] < 200
    assert report["hottest_key"]["key"] and report["hottest_key"]["wcu_per_s"] > 0
    assert report["throttled_requests"] >= 0 and 1_000 < report["item_max_bytes"] < 400 * 1024
    assert report["lambda_peak_concurrency"]["coordinator"] == 1  # one tournament: one FIFO group
    assert all(n > 0 for n in report["failed_invocations"].values())
    assert report["terminated_by"] == "simulator"  # the operator's termination, not the watchdog's
    assert report["compensation_s"] is not None and 0 <= report["compensation_s"] < 3_600
    costs = report["cost_per_1000_hands_usd"]
    assert set(costs) == {"total", "dynamodb", "lambda", "websocket", "http", "sqs", "step_functions"}
    assert costs["total"] == pytest.approx(sum(v for k, v in costs.items() if k != "total"), abs=1e-3)
    assert all(costs[k] > 0 for k in costs)
    assert set(report["requests_per_1000_hands"]) == set(costs) - {"total"}
    assert report["status"] == "terminated"


def test_the_command_prints_the_report_as_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    # When the benchmark runs from the command line with --json
    assert main(["bench", "capacity", "--players", "20", "--minutes", "2", "--json"]) == 0

    # Then it prints one object with the contract's fields (and no progress line: stderr is not a terminal)
    out, err = capsys.readouterr()
    assert set(json.loads(out)) >= CONTRACT_FIELDS
    assert err == ""


def test_rule_11_most_hand_ends_never_reach_the_tournaments_fifo_group_and_the_rest_queue_in_it(
    small: dict[str, Any],
) -> None:
    # Given a field of 450 (50 tables) whose hand ends with a bust or a move share one FIFO group
    large = measure_capacity(450, minutes=3, seed=1)

    # Then the coordinator never ran two batches of the tournament at once
    assert large["lambda_peak_concurrency"]["coordinator"] == 1
    assert large["coordinator"]["batches"] <= large["coordinator"]["hand_ends"]
    # And most hands were settled by their own table, which dealt the next at once: the group carries the rest
    assert large["coordinator"]["hand_ends"] < large["hands"] / 2
    assert large["hand_gap_ms"]["p50"] == 0
    assert large["hand_gap_ms"]["p99"] <= 2_000
    assert large["coordination_lag_ms"]["p99"] <= 5_000


def test_rule_11_a_coordinator_batch_ends_at_its_commit_and_one_message_its_pushes_and_time_outs_follow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given every coordinator batch's calls and every time-outs invocation's, as the modeled cloud runs them
    from tourney.simulation.aws import delivery

    batches: list[Counter[Request]] = []
    deliver = delivery.FifoBatches.deliver

    def watched(self: delivery.FifoBatches, fifo: Any, group_id: str) -> None:
        before = self.batches
        deliver(self, fifo, group_id)
        if self.batches > before and self.cloud.last_run is not None:
            batches.append(Counter(self.cloud.last_run.watch.calls))

    monkeypatch.setattr(delivery.FifoBatches, "deliver", watched)
    # When a field of 60 plays 5 minutes, hands ending with a bust reaching the coordinator
    report = measure_capacity(60, minutes=5, seed=2)
    # Then no batch pushed anything or armed a time-out itself: one message to the time-outs queue each
    assert batches and report["coordinator"]["hand_ends"] > 0
    for calls in batches:
        assert calls[Request.POST_TO_CONNECTION] == 0 and calls[Request.QUERY] == 0, calls
        assert calls[Request.SEND_MESSAGE_BATCH] == 0 and calls[Request.SEND_MESSAGE] == 1, calls
    # And the tables it dealt were still dealt their next hand at once and timed (the play went on to its end)
    assert report["hand_gap_ms"]["p99"] <= 2_000 and report["hands"] > len(batches)


def test_an_invocation_lasts_its_calls_in_sequence_and_its_delays_count_from_each_call() -> None:
    # Given the simulated cloud with AWS modeled
    model = AwsModel(limits=template_limits())
    cloud = Cloud(START, aws=model)
    fired: list[float] = []
    item = StoredItem("tourney-tables", "tables#t1#0", "table#0001", size=2_000)

    def three_calls() -> None:
        run = cloud._run
        assert run is not None
        run.get(item)
        run.write(item)
        cloud.after(1.0, lambda: fired.append(cloud.model_now()))
        run.send(fifo=True)

    # When an invocation makes three calls in sequence and arms a delay between the second and the third
    ok, _ = cloud.invoke("coordinator", three_calls)
    cloud.run(lambda: bool(fired), START.replace(hour=17))

    # Then it lasted its cold start and the three calls' latencies summed, and the delay counted from its call
    latencies = model.latencies
    get, put, send = (latencies.of(r) for r in (Request.GET_ITEM, Request.PUT_ITEM, Request.SEND_MESSAGE))
    assert ok
    assert cloud.last_end == pytest.approx(latencies.cold_start + get + put + send)
    assert fired == [pytest.approx(latencies.cold_start + get + put + 1.0)]


def _pushed(push: Callable[[Cloud], None]) -> Invocation:
    """A coordinator's invocation, its handler's one work ``push``, in a cloud of its own with AWS modeled."""
    cloud = Cloud(START, aws=AwsModel(limits=template_limits()))
    ok, _ = cloud.invoke("coordinator", lambda: push(cloud))
    assert ok and cloud.last_run is not None
    return cloud.last_run


def test_rule_11_a_round_of_pushes_is_charged_as_made_at_once_by_the_adapters_threads() -> None:
    # Given a coordinator batch's pushes: 5 tables (nobody seated: a Query each) and 25 moved or placed players
    pushes: list[Push] = [TablePush("t1", str(i), lambda player: {}) for i in range(5)]
    pushes += [PlayerPush(f"p{i}", {"event": "moved"}) for i in range(25)]

    # When they are pushed one after another, and in one round
    def one_by_one(cloud: Cloud) -> None:
        for push in pushes:
            if isinstance(push, TablePush):
                cloud.pushes.to_table_views(push.tournament_id, push.table_id, push.view)
            else:
                cloud.pushes.to_player(push.player_id, push.message)

    alone, together = _pushed(one_by_one), _pushed(lambda cloud: cloud.pushes.many(pushes))

    # Then the same requests were charged, but the round lasts its 30 Queries 10 at a time (3 rounds), then its 25
    # posts at once (50 at a time: one round): not the sum of them
    latencies = DEFAULT_LATENCIES
    query, post = latencies.of(Request.QUERY), latencies.of(Request.POST_TO_CONNECTION)
    assert together.watch.calls == alone.watch.calls
    assert alone.watch.elapsed == pytest.approx(latencies.cold_start + 30 * query + 25 * post)
    assert (QUERY_WORKERS, POST_WORKERS) == (10, 50)
    assert together.watch.elapsed == pytest.approx(latencies.cold_start + 3 * query + 1 * post)


def test_rule_16_time_outs_armed_together_are_charged_as_one_request_for_ten() -> None:
    # Given the dealt tables' time-outs of a coordinator batch: 12 of them
    armed: list[tuple[TimeoutDue | RebuyDue, int]] = [(TimeoutDue("t1", str(i), 1, 0, 1, False), 30) for i in range(12)]
    # When they are armed one at a time, and together
    alone = _pushed(lambda cloud: [cloud.timers.arm(*one) for one in armed] and None)
    together = _pushed(lambda cloud: cloud.timers.arm_many(armed))
    # Then one at a time made 12 SendMessages; together two SendMessageBatches, of 10 and 2
    assert alone.watch.calls == {Request.SEND_MESSAGE: 12}
    assert together.watch.calls == {Request.SEND_MESSAGE_BATCH: 2}
    batch = DEFAULT_LATENCIES.of(Request.SEND_MESSAGE_BATCH)
    assert together.watch.elapsed == pytest.approx(DEFAULT_LATENCIES.cold_start + 2 * batch)


def test_a_function_never_runs_more_invocations_than_its_reservation() -> None:
    # Given the cloud with AWS modeled, the watchdog reserved 2 (infra/throttling.py)
    model = AwsModel(limits=template_limits())
    cloud = Cloud(START, aws=model)
    item = StoredItem("tourney-tables", "tables#t1#0", "table#0001", size=2_000)

    def slow() -> None:
        run = cloud._run
        assert run is not None
        for _ in range(10):
            run.get(item)

    # When three invocations start at the same moment
    answers = [cloud.invoke("watchdog", slow) for _ in range(3)]

    # Then the third is throttled (no invocation ran) and at most two ran at once
    assert [ok for ok, _ in answers] == [True, True, False]
    assert cloud.last_run is None
    assert model.concurrency["watchdog"].peak == 2


def test_a_workflows_map_state_runs_its_tasks_at_most_its_concurrency_at_once_and_answers_in_order() -> None:
    # Given the cloud with AWS modeled and a workflow whose Map runs 7 tasks, 3 at a time, each ten reads long
    model = AwsModel(limits=template_limits())
    cloud = Cloud(START, aws=model)
    item = StoredItem("tourney-tables", "tables#t1#0", "table#0001", size=2_000)
    spans: list[tuple[float, float]] = []
    answered: list[object] = []

    def task(number: int) -> int:
        run = cloud._run
        assert run is not None
        began = cloud.model_now() - run.watch.elapsed  # the invocation's start, its cold start included
        for _ in range(10):
            run.get(item)
        spans.append((began, began + run.watch.elapsed))
        return number

    def workflow():  # type: ignore[no-untyped-def]
        answered.append((yield Map("deal_first_hands", [functools.partial(task, n) for n in range(7)], 3)))

    # When it runs
    cloud.execute("start-t1", "start", workflow())
    cloud.run(lambda: bool(answered), START.replace(hour=17))

    # Then every task ran once, never more than 3 at once, two waves after the first, and the answers kept their order
    assert answered == [list(range(7))]
    ends = sorted(end for _, end in spans)
    most = max(sum(1 for b, e in spans if b <= moment < e) for moment, _ in spans)
    assert most == 3
    assert sorted(begin for begin, _ in spans)[3] >= ends[0]
    assert model.concurrency["start_tasks"].peak == 3


def test_deliveries_throttled_at_once_wait_in_line_for_a_slot_not_all_retrying_at_each() -> None:
    # Given the time-outs' function reserved 100 (infra/throttling.py), and 1,000 deliveries due at one instant
    model = AwsModel(limits=template_limits())
    cloud = Cloud(START, aws=model)
    item = StoredItem("tourney-tables", "tables#t1#0", "table#0001", size=2_000)
    handled: list[int] = []

    def consume(number: int) -> None:
        run = cloud._run
        assert run is not None
        for _ in range(10):
            run.get(item)
        handled.append(number)

    # When they are delivered
    for number in range(1_000):
        cloud.deliver("timeouts", number, consume)
    cloud.run(lambda: len(handled) == 1_000, START.replace(hour=17))

    # Then every one ran once, in the order they came; each held back was refused about once, not at every free slot
    reserved = model.concurrency["timeouts"].reserved
    assert reserved == 100 and model.concurrency["timeouts"].peak == reserved
    assert handled == list(range(1_000))
    assert model.concurrency["timeouts"].throttled < 2 * (1_000 - reserved)


def test_a_request_throttled_past_the_services_retries_fails_the_invocation_and_a_lost_race_is_a_defect() -> None:
    # Given the cloud with AWS modeled
    cloud = Cloud(START, aws=AwsModel(limits=template_limits()))

    def throttled() -> None:
        try:
            raise Throttled("TransactWriteItems of 10 items: throttled")
        except Throttled as lost:
            raise StaleVersion("the transaction lost a race") from lost

    def lost_a_race() -> None:
        raise StaleVersion("version 3 is stale")

    # When a task's transaction stays throttled through its retries, Then the invocation failed (its trigger retries)
    assert cloud.invoke("start_tasks", throttled) == (False, None)
    # And a race lost with nothing throttled, past every retry, is still a defect the harness reports
    with pytest.raises(InvocationError):
        cloud.invoke("start_tasks", lost_a_race)


def _stack_of_sizing(cdk_out: Path, sizing: str, ws_reserved: int) -> None:
    """A synthesized stack of one function, tagged with its sizing as ``infra/stack.py`` tags it."""
    template = {
        "Metadata": {"tourney:sizing": sizing},
        "Resources": {
            "FunctionWs": {
                "Type": "AWS::Lambda::Function",
                "Properties": {"ReservedConcurrentExecutions": ws_reserved, "MemorySize": 512},
                "Metadata": {"tourney:function": "ws"},
            }
        },
    }
    cdk_out.mkdir()
    (cdk_out / "Tourney.template.json").write_text(json.dumps(template))


def test_the_benchmark_reads_the_synthesized_template_of_the_sizing_it_measures(tmp_path: Path) -> None:
    # Given a template synthesized with the standard sizing (ws reserved 123, to tell it from the figures)
    cdk_out = tmp_path / "cdk.out"
    _stack_of_sizing(cdk_out, "standard", ws_reserved=123)

    # When the benchmark asks for the standard sizing, the template is what it measures
    assert template_limits(STANDARD, cdk_out).functions["ws"].reserved == 123
    # and for the large sizing, which that template is not, the large figures (infra/sizing.py) are
    large = template_limits(LARGE, cdk_out)
    assert large.functions["ws"].reserved == LARGE.reserved["ws"]
    assert large.functions["timeouts"].maximum_concurrency == LARGE.sqs_maximum["timeouts"]
    assert large.stages["WEBSOCKET"].rate_per_second == LARGE.websocket.rate_per_second
    # and without a template, the figures of the sizing asked for
    assert template_limits(STANDARD, tmp_path / "none").functions["ws"].reserved == STANDARD.reserved["ws"]
